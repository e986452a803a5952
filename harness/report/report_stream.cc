#include "harness/report/report_stream.h"

#include <cstddef>
#include <deque>
#include <iterator>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/base/files.h"
#include "harness/base/json_location.h"
#include "harness/report/report_head.h"
#include "harness/report/report_reader.h"

namespace dmconf {
namespace {

using io::JsonLoc;
using nlohmann::json;

// The scan before the parse: nesting, and the longest string or number (nlohmann's lexer
// holds a whole token, twice, before it hands it over).
absl::Status ScanReport(const std::string& path) {
  absl::StatusOr<io::FileChunks> file = io::FileChunks::Open(path, kMaxReportFileBytes);
  if (!file.ok()) return file.status();
  io::JsonTextScan scan;
  int64_t token = 0, offset = 0;
  for (;;) {
    absl::StatusOr<absl::string_view> piece = file->Next();
    if (!piece.ok()) return piece.status();
    if (piece->empty()) return absl::OkStatus();
    for (char ch : *piece) {
      ++offset;
      const bool was_in_string = scan.in_string();
      if (!scan.Step(ch)) {
        token = was_in_string ? token + 1 : 0;  // an opening quote starts a token
      } else if (ch == '[' || ch == '{') {
        if (scan.depth() > kMaxReportDepth) {
          return absl::InvalidArgumentError(
              absl::StrCat("report.json.nesting: ", path, ": JSON nested deeper than ",
                           kMaxReportDepth, " levels (a report needs about 8)"));
        }
      } else if (ch == ']' || ch == '}') {
        // Closes a value; the scan counts the depth.
      } else if (ch == ',' || ch == ':' || ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r') {
        token = 0;
      } else {
        ++token;
      }
      if (token > kMaxReportToken) {
        return absl::ResourceExhaustedError(absl::StrCat(
            "report.too_large: ", path, ": a string or number longer than ", kMaxReportToken,
            " bytes ends past byte ", offset, " (no report holds one); not read"));
      }
    }
  }
}

// The file's characters for nlohmann's parser, a piece at a time.
class Chars {
 public:
  explicit Chars(io::FileChunks file) : file_(std::move(file)) {}
  bool AtEnd() {
    if (pos_ < piece_.size()) return false;
    if (!status_.ok() || done_) return true;
    absl::StatusOr<absl::string_view> next = file_.Next();
    if (!next.ok()) status_ = next.status();
    piece_ = next.ok() ? *next : absl::string_view();
    pos_ = 0;
    done_ = piece_.empty();
    return done_;
  }
  const char& Here() const { return piece_[pos_]; }
  void Advance() { ++pos_; }
  const absl::Status& status() const { return status_; }

 private:
  io::FileChunks file_;
  absl::string_view piece_;
  size_t pos_ = 0;
  bool done_ = false;
  absl::Status status_;
};

class CharIter {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CharIter() = default;  // the end
  explicit CharIter(Chars* chars) : chars_(chars) {}
  reference operator*() const { return chars_->Here(); }
  CharIter& operator++() {
    chars_->Advance();
    return *this;
  }
  bool operator==(const CharIter& o) const { return End() == o.End(); }
  bool operator!=(const CharIter& o) const { return !(*this == o); }

 private:
  bool End() const { return chars_ == nullptr || chars_->AtEnd(); }
  Chars* chars_ = nullptr;
};

// Thrown from the parser's callback to stop it (a limit passed).
struct Stop {};

// The parser's callback: where the parser is (one frame per open object or array) and what it
// keeps, the document without its cases. Each element of backends[b].cases is decoded when it
// ends, handed to the visitor and dropped.
class Splitter {
 public:
  Splitter(const std::string& file, const CaseVisitor& visit, std::optional<size_t> only)
      : file_(file), visit_(visit), only_(only) {}

  bool operator()(json::parse_event_t event, json& parsed) {
    using E = json::parse_event_t;
    switch (event) {
      case E::object_start:
      case E::array_start:
        if (AtCaseSlot()) {
          case_open_ = true;
          case_values_ = 0;
        }
        Count();
        frames_.emplace_back();
        frames_.back().object = event == E::object_start;
        return true;
      case E::key: {
        Frame& top = frames_.back();
        top.key = parsed.get<std::string>();
        if (!top.keys.insert(top.key).second && !duplicate_.has_value()) duplicate_ = Here();
        return true;
      }
      case E::object_end:
      case E::array_end:
        frames_.pop_back();
        if (AtCaseSlot()) {
          case_open_ = false;
          return Element(parsed);
        }
        Next();
        return true;
      case E::value:
        if (AtCaseSlot()) return Element(parsed);
        Count();
        Next();
        return true;
    }
    return true;
  }

  const std::optional<JsonLoc>& duplicate() const { return duplicate_; }
  const absl::Status& too_large() const { return too_large_; }
  const absl::Status& case_error() const { return case_error_; }

 private:
  struct Frame {
    bool object = false;
    std::set<std::string> keys;
    std::string key;   // objects: the current member
    size_t index = 0;  // arrays: the current element
  };

  JsonLoc Here() const {
    JsonLoc loc{file_, ""};
    for (const Frame& f : frames_) loc = f.object ? loc.Key(f.key) : loc.Index(f.index);
    return loc;
  }

  // The next value is an element of backends[b].cases.
  bool AtCaseSlot() const {
    return frames_.size() == 4 && frames_[0].object && frames_[0].key == "backends" &&
           !frames_[1].object && frames_[2].object && frames_[2].key == "cases" &&
           !frames_[3].object;
  }

  void Next() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
  }

  // A value kept: within the limits of one case, or of the document outside its cases.
  void Count() {
    if (case_open_ ? ++case_values_ <= kMaxCaseValues : ++head_values_ <= kMaxHeadValues) return;
    too_large_ = io::LocError(
        "report.too_large", Here(),
        case_open_ ? absl::StrCat("a case of more than ", kMaxCaseValues,
                                  " JSON values (a case holds a few hundred); not read")
                   : absl::StrCat("more than ", kMaxHeadValues,
                                  " JSON values outside the cases (a report holds a few "
                                  "thousand); not read"));
    throw Stop{};
  }

  bool Element(const json& c) {
    const size_t b = frames_[1].index, k = frames_[3].index;
    Next();
    if ((only_.has_value() && *only_ != b) || !case_error_.ok()) return false;
    const JsonLoc at = JsonLoc{file_, ""}.Key("backends").Index(b).Key("cases").Index(k);
    known_.clear();
    absl::StatusOr<CaseResult> r = DecodeCase(c, at, known_);
    if (r.ok()) {
      visit_(b, k, *r);
    } else {
      case_error_ = r.status();
    }
    return false;
  }

  const std::string& file_;
  const CaseVisitor& visit_;
  const std::optional<size_t> only_;
  std::vector<Frame> frames_;
  bool case_open_ = false;
  int64_t case_values_ = 0, head_values_ = 0;
  std::optional<JsonLoc> duplicate_;
  absl::Status too_large_, case_error_;
  std::deque<KnownFailure> known_;  // the current case's `known`
};

}  // namespace

absl::StatusOr<RunReport> StreamReport(const std::string& path, const CaseVisitor& visit,
                                       std::optional<size_t> only) {
  if (absl::Status s = ScanReport(path); !s.ok()) return s;
  absl::StatusOr<io::FileChunks> file = io::FileChunks::Open(path, kMaxReportFileBytes);
  if (!file.ok()) return file.status();
  Chars chars(*std::move(file));
  Splitter split(path, visit, only);
  json head;
  try {
    head = json::parse(CharIter(&chars), CharIter(),
                       [&split](int, json::parse_event_t e, json& v) { return split(e, v); });
  } catch (const Stop&) {
    return split.too_large();
  } catch (const json::exception& e) {
    if (!chars.status().ok()) return chars.status();
    return absl::InvalidArgumentError(
        absl::StrCat("report.json.syntax: ", path, ": not valid JSON (", e.what(), ")"));
  }
  if (!chars.status().ok()) return chars.status();
  if (split.duplicate().has_value()) {
    return io::LocError("report.duplicate_key", *split.duplicate(),
                        "this key appears twice in one object (JSON readers disagree on which "
                        "one counts)");
  }
  const JsonLoc root{path, ""};
  RunReport out;
  if (absl::Status s = report_internal::ReadReportHead(head, root, out); !s.ok()) return s;
  if (!split.case_error().ok()) return split.case_error();
  return out;
}

absl::StatusOr<RunReport> LoadReport(const std::string& path) {
  std::vector<std::vector<CaseResult>> cases;
  std::deque<KnownFailure> known;  // until the report's own `known` exists
  absl::StatusOr<RunReport> r = StreamReport(path, [&](size_t b, size_t, const CaseResult& c) {
    if (cases.size() <= b) cases.resize(b + 1);
    CaseResult& kept = cases[b].emplace_back(c);
    if (c.known != nullptr) kept.known = &known.emplace_back(*c.known);
  });
  if (!r.ok()) return r;
  for (size_t b = 0; b < cases.size() && b < r->backends.size(); ++b) {
    for (CaseResult& c : cases[b]) {
      if (c.known != nullptr) c.known = &r->known.emplace_back(*c.known);
    }
    r->backends[b].results = std::move(cases[b]);
  }
  return r;
}

}  // namespace dmconf
