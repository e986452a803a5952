// Locations and errors for reading JSON files: every error names the file and the JSON
// pointer (RFC 6901) of the offending value, after a rule id.
//
// Example:
//   JsonLoc loc{"vectors/golden/x.json", ""};
//   LocError("case.tensor.dims_nonnegative", loc.Key("inputs").Index(0).Key("shape").Index(1),
//            "dim -3 is negative")
//   // "case.tensor.dims_nonnegative: vectors/golden/x.json: /inputs/0/shape/1: dim -3 is ..."
#ifndef DMCONF_HARNESS_BASE_JSON_LOCATION_H_
#define DMCONF_HARNESS_BASE_JSON_LOCATION_H_

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"

namespace dmconf::io {

struct DeferredArrays;

struct JsonLoc {
  std::string file;
  std::string pointer;  // "" is the whole document
  // The big "data" arrays the parse left out of the document (nullptr: none were).
  const DeferredArrays* deferred = nullptr;

  JsonLoc Key(absl::string_view key) const;  // escapes '~' and '/' as RFC 6901 says
  JsonLoc Index(size_t i) const;
  // "file: /inputs/0" (the whole document is shown as "(document)").
  std::string ToString() const;
};

// Memory of big tensors. A parsed JSON value takes 16 bytes or more per array element, eight
// times a file's "0," and more than the tensor it decodes to. So elements of a "data" array
// longer than `threshold` are left out of the parsed document (it holds an empty array there),
// and the reader that knows the element type decodes them straight from the text into the
// tensor (VisitArrayElements): reading a file then needs its text plus its tensors.
// Arrays longer than this are streamed rather than parsed (reading) or built (writing,
// canonical_json.h TensorRefs).
inline constexpr size_t kStreamedArrayElements = 4096;

struct DeferredArrays {
  absl::string_view text;  // the whole document; must outlive the reading
  size_t threshold = kStreamedArrayElements;
  std::map<std::string, uint64_t> counts;  // JSON pointer of each deferred array -> its length
};

// Parses `text` like nlohmann::json::parse (which throws its parse_error on bad syntax), and
// notes the first key an object repeats: `duplicate` gets its location (for example
// "/known_failures/2/case"), or stays empty. A repeated key makes a file ambiguous (this parser
// keeps the last, other readers the first), so every dmconf reader refuses it with a rule of
// its own. With `deferred`, big "data" arrays are left out (DeferredArrays above).
nlohmann::json ParseJsonNotingDuplicates(absl::string_view text, JsonLoc* duplicate,
                                         DeferredArrays* deferred = nullptr);

// Parses `text` again and calls visit(i, element) for each element of the array at JSON
// pointer `array`, in order, until visit returns false. Keeps nothing else: the memory used is
// that of one element at a time. Throws nlohmann's parse_error like the first parse.
void VisitArrayElements(absl::string_view text, const std::string& array,
                        const std::function<bool(size_t, const nlohmann::json&)>& visit);

// Nesting depth of JSON text (objects and arrays), counted outside strings; stops early once
// past `limit`. Every reader checks it before parsing: nlohmann's parser is iterative, but
// copying, comparing, dumping and destroying a parsed value recurse on its nesting (a report
// nested 400,000 deep overflowed the stack of `dmconf report html`).
int JsonNestingDepth(absl::string_view text, int limit);

// JSON text read one character at a time, in as many pieces as it comes in: whether each
// character is inside a string literal, and the nesting depth outside them. The one string
// scan of JsonNestingDepth and of the streamed report reader's scan (report_stream.h).
class JsonTextScan {
 public:
  // Takes the next character; true when it is outside every string literal (a string's
  // quotes are inside it). An opening bracket counts in depth() from itself on.
  bool Step(char ch) {
    if (in_string_) {
      if (escaped_) {
        escaped_ = false;
      } else if (ch == '\\') {
        escaped_ = true;
      } else if (ch == '"') {
        in_string_ = false;
      }
      return false;
    }
    if (ch == '"') {
      in_string_ = true;
      return false;
    }
    if (ch == '[' || ch == '{') ++depth_;
    if (ch == ']' || ch == '}') --depth_;
    return true;
  }
  bool in_string() const { return in_string_; }
  int depth() const { return depth_; }

 private:
  bool in_string_ = false, escaped_ = false;
  int depth_ = 0;
};

// InvalidArgument "<rule>: <file>: <pointer>: <what>".
absl::Status LocError(absl::string_view rule, const JsonLoc& loc, absl::string_view what);

// Checks that obj is an object whose keys are all in `allowed` (rule vector.field.unknown /
// vector.field.type).
absl::Status CheckObject(const nlohmann::json& obj, const JsonLoc& loc,
                         std::initializer_list<absl::string_view> allowed);

// Member `key` of object obj; nullptr when absent and not required (error when required).
absl::StatusOr<const nlohmann::json*> Member(const nlohmann::json& obj, const JsonLoc& loc,
                                             absl::string_view key, bool required);

// Typed reads of a value at loc (rule vector.field.type on a mismatch).
absl::StatusOr<std::string> ReadString(const nlohmann::json& v, const JsonLoc& loc);
absl::StatusOr<int64_t> ReadInt64(const nlohmann::json& v, const JsonLoc& loc);
absl::StatusOr<uint64_t> ReadUint64(const nlohmann::json& v, const JsonLoc& loc);
absl::StatusOr<bool> ReadBool(const nlohmann::json& v, const JsonLoc& loc);
// An array of at most max_size int64 values.
absl::StatusOr<std::vector<int64_t>> ReadInt64List(const nlohmann::json& v, const JsonLoc& loc,
                                                   size_t max_size);
absl::StatusOr<std::vector<std::string>> ReadStringList(const nlohmann::json& v,
                                                        const JsonLoc& loc);

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_BASE_JSON_LOCATION_H_
