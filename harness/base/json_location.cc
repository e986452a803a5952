#include "harness/base/json_location.h"

#include <algorithm>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"

namespace dmconf::io {

JsonLoc JsonLoc::Key(absl::string_view key) const {
  std::string escaped;
  for (char c : key) {
    if (c == '~') {
      escaped += "~0";
    } else if (c == '/') {
      escaped += "~1";
    } else {
      escaped += c;
    }
  }
  return {file, absl::StrCat(pointer, "/", escaped), deferred};
}

JsonLoc JsonLoc::Index(size_t i) const { return {file, absl::StrCat(pointer, "/", i), deferred}; }

std::string JsonLoc::ToString() const {
  return absl::StrCat(file, ": ", pointer.empty() ? "(document)" : pointer);
}

namespace {

// Where the parser is: one frame per open object or array.
struct Frame {
  bool object = false;
  std::set<std::string> keys;
  std::string key;     // objects: the current member
  size_t index = 0;    // arrays: the current element
  bool watch = false;  // arrays: the one being deferred (first pass) or visited (second)
};

// An array that is the value of a "data" member.
bool IsDataArray(const std::vector<Frame>& frames) {
  return frames.size() >= 2 && frames[frames.size() - 2].object &&
         frames[frames.size() - 2].key == "data";
}

JsonLoc Here(const std::vector<Frame>& frames, const std::string& file) {
  JsonLoc loc{file, ""};
  for (const Frame& f : frames) loc = f.object ? loc.Key(f.key) : loc.Index(f.index);
  return loc;
}

// Both parses below go through nlohmann's SAX interface, not its callback parser: that one
// (3.11) scans the whole enclosing array at the end of every object to erase a discarded
// value, so reading an array of N objects took N^2/2 steps (an expectations file of 80,000
// entries: minutes).
//
// The SAX events with every scalar made a json value for Handler::Scalar, and the frames of
// the open containers kept (Open, Close). Handler gives start_/end_object and _array.
template <class Handler>
class FramedSax {
 public:
  using json = nlohmann::json;
  bool null() { return Self().Scalar(json(nullptr)); }
  bool boolean(bool b) { return Self().Scalar(json(b)); }
  bool number_integer(json::number_integer_t v) { return Self().Scalar(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return Self().Scalar(json(v)); }
  bool number_float(json::number_float_t v, const std::string&) { return Self().Scalar(json(v)); }
  bool string(std::string& v) { return Self().Scalar(json(std::move(v))); }
  bool binary(json::binary_t& v) { return Self().Scalar(json::binary(std::move(v))); }
  bool key(std::string& k) {
    frames_.back().key = k;
    return true;
  }
  template <class Exception>
  bool parse_error(size_t, const std::string&, const Exception& e) {
    throw e;  // as nlohmann::json::parse does
  }

 protected:
  void Open(bool object) {
    frames_.emplace_back();
    frames_.back().object = object;
  }
  // A container ended: an array that holds it moves on to its next element.
  void Close() {
    frames_.pop_back();
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
  }
  std::vector<Frame> frames_;

 private:
  Handler& Self() { return static_cast<Handler&>(*this); }
};

// Builds the document as nlohmann's DOM parser does (a repeated key keeps its last value),
// noting the first repeated key and leaving big "data" arrays out.
class NotingDomBuilder : public FramedSax<NotingDomBuilder> {
 public:
  NotingDomBuilder(const std::string& file, JsonLoc* duplicate, DeferredArrays* deferred)
      : file_(file), duplicate_(duplicate), deferred_(deferred) {}

  bool key(std::string& k) {
    FramedSax::key(k);
    if (!frames_.back().keys.insert(k).second && !found_) {
      found_ = true;
      *duplicate_ = Here(frames_, file_);
    }
    return true;
  }
  bool start_object(size_t) { return OpenContainer(json::object(), true); }
  bool start_array(size_t) {
    OpenContainer(json::array(), false);
    frames_.back().watch = deferred_ != nullptr && IsDataArray(frames_);
    return true;
  }
  bool end_object() { return CloseContainer(); }
  bool end_array() {
    const size_t length = frames_.back().index;
    const bool dropped = frames_.back().watch && length > deferred_->threshold;
    json* array = open_.back();
    CloseContainer();
    if (dropped) {
      // Its elements past the threshold were dropped: drop the first ones too, and note where
      // the array is and how long.
      deferred_->counts[Here(frames_, file_).pointer] = length;
      *array = json::array();
    }
    return true;
  }
  bool Scalar(json value) {
    if (frames_.empty() || frames_.back().object) {
      Place(std::move(value));
      return true;
    }
    Frame& top = frames_.back();
    if (!top.watch || top.index < deferred_->threshold) Place(std::move(value));
    ++top.index;
    return true;
  }
  json Take() {
    if (!found_) duplicate_->pointer.clear();
    return std::move(root_);
  }

 private:
  // Where a new value goes: the root, the end of the open array, or the open object's member.
  json* Place(json value) {
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    json& container = *open_.back();
    if (frames_.back().object) return &(container[frames_.back().key] = std::move(value));
    container.push_back(std::move(value));
    return &container.back();
  }
  bool OpenContainer(json container, bool object) {
    open_.push_back(Place(std::move(container)));
    Open(object);
    return true;
  }
  bool CloseContainer() {
    open_.pop_back();
    Close();
    return true;
  }

  const std::string& file_;
  JsonLoc* duplicate_;
  DeferredArrays* deferred_;
  bool found_ = false;
  json root_;
  std::vector<json*> open_;  // the open containers, innermost last
};

// Calls visit(i, element) for each scalar element of the array at JSON pointer `array`; keeps
// no value.
class ArrayVisitor : public FramedSax<ArrayVisitor> {
 public:
  ArrayVisitor(const std::string& array, const std::function<bool(size_t, const json&)>& visit)
      : array_(array), visit_(visit) {}

  bool start_object(size_t) {
    Open(true);
    return true;
  }
  bool start_array(size_t) {
    const bool watch = Here(frames_, "").pointer == array_;
    Open(false);
    frames_.back().watch = watch;
    return true;
  }
  bool end_object() {
    Close();
    return true;
  }
  bool end_array() {
    Close();
    return true;
  }
  bool Scalar(json value) {
    if (frames_.empty()) return true;
    Frame& top = frames_.back();
    if (top.watch && visiting_) visiting_ = visit_(top.index, value);
    if (!top.object) ++top.index;
    return true;
  }

 private:
  const std::string& array_;
  const std::function<bool(size_t, const json&)>& visit_;
  bool visiting_ = true;
};

}  // namespace

nlohmann::json ParseJsonNotingDuplicates(absl::string_view text, JsonLoc* duplicate,
                                         DeferredArrays* deferred) {
  const std::string file = duplicate->file;
  NotingDomBuilder builder(file, duplicate, deferred);
  nlohmann::json::sax_parse(text.begin(), text.end(), &builder);
  return builder.Take();
}

void VisitArrayElements(absl::string_view text, const std::string& array,
                        const std::function<bool(size_t, const nlohmann::json&)>& visit) {
  ArrayVisitor visitor(array, visit);
  nlohmann::json::sax_parse(text.begin(), text.end(), &visitor);
}

int JsonNestingDepth(absl::string_view text, int limit) {
  JsonTextScan scan;
  int max_depth = 0;
  for (char ch : text) {
    if (scan.Step(ch)) max_depth = std::max(max_depth, scan.depth());
    if (max_depth > limit) break;
  }
  return max_depth;
}

absl::Status LocError(absl::string_view rule, const JsonLoc& loc, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(rule, ": ", loc.ToString(), ": ", what));
}

absl::Status CheckObject(const nlohmann::json& obj, const JsonLoc& loc,
                         std::initializer_list<absl::string_view> allowed) {
  if (!obj.is_object()) {
    return LocError("vector.field.type", loc,
                    absl::StrCat("expected an object, found ", obj.type_name()));
  }
  for (const auto& [key, value] : obj.items()) {
    bool known = false;
    for (absl::string_view a : allowed) known = known || a == key;
    if (!known) {
      std::string list;
      for (absl::string_view a : allowed) absl::StrAppend(&list, list.empty() ? "" : ", ", a);
      return LocError("vector.field.unknown", loc.Key(key),
                      absl::StrCat("unknown member '", key, "' (expected: ", list, ")"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<const nlohmann::json*> Member(const nlohmann::json& obj, const JsonLoc& loc,
                                             absl::string_view key, bool required) {
  auto it = obj.find(std::string(key));
  if (it == obj.end()) {
    if (required) {
      return LocError("vector.field.missing", loc,
                      absl::StrCat("required member '", key, "' is missing"));
    }
    return nullptr;
  }
  return &*it;
}

absl::StatusOr<std::string> ReadString(const nlohmann::json& v, const JsonLoc& loc) {
  if (!v.is_string()) {
    return LocError("vector.field.type", loc,
                    absl::StrCat("expected a string, found ", v.type_name()));
  }
  return v.get<std::string>();
}

absl::StatusOr<int64_t> ReadInt64(const nlohmann::json& v, const JsonLoc& loc) {
  if (!v.is_number_integer()) {
    return LocError("vector.field.type", loc,
                    absl::StrCat("expected an integer, found ", v.type_name(),
                                 v.is_number_float() ? absl::StrCat(" ", v.dump()) : ""));
  }
  if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
    return LocError("vector.field.type", loc,
                    absl::StrCat(v.dump(), " is outside the int64 range"));
  }
  return v.get<int64_t>();
}

absl::StatusOr<uint64_t> ReadUint64(const nlohmann::json& v, const JsonLoc& loc) {
  if (!v.is_number_unsigned()) {
    return LocError(
        "vector.field.type", loc,
        absl::StrCat("expected a non-negative integer, found ", v.dump().substr(0, 40)));
  }
  return v.get<uint64_t>();
}

absl::StatusOr<bool> ReadBool(const nlohmann::json& v, const JsonLoc& loc) {
  if (!v.is_boolean()) {
    return LocError("vector.field.type", loc,
                    absl::StrCat("expected true or false, found ", v.type_name()));
  }
  return v.get<bool>();
}

absl::StatusOr<std::vector<int64_t>> ReadInt64List(const nlohmann::json& v, const JsonLoc& loc,
                                                   size_t max_size) {
  if (!v.is_array()) {
    return LocError("vector.field.type", loc,
                    absl::StrCat("expected an array of integers, found ", v.type_name()));
  }
  if (v.size() > max_size) {
    return LocError("vector.field.size", loc,
                    absl::StrCat(v.size(), " values; at most ", max_size, " are accepted"));
  }
  std::vector<int64_t> out;
  out.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    absl::StatusOr<int64_t> x = ReadInt64(v[i], loc.Index(i));
    if (!x.ok()) return x.status();
    out.push_back(*x);
  }
  return out;
}

absl::StatusOr<std::vector<std::string>> ReadStringList(const nlohmann::json& v,
                                                        const JsonLoc& loc) {
  if (!v.is_array()) {
    return LocError("vector.field.type", loc,
                    absl::StrCat("expected an array of strings, found ", v.type_name()));
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < v.size(); ++i) {
    absl::StatusOr<std::string> s = ReadString(v[i], loc.Index(i));
    if (!s.ok()) return s.status();
    out.push_back(*std::move(s));
  }
  return out;
}

}  // namespace dmconf::io
