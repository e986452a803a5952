// Locations and errors for reading JSON files: every error names the file and the JSON
// pointer (RFC 6901) of the offending value, after a rule id.
//
// Example:
//   JsonLoc loc{"vectors/golden/x.json", ""};
//   LocError("case.tensor.dims_nonnegative", loc.Key("inputs").Index(0).Key("shape").Index(1),
//            "dim -3 is negative")
//   // "case.tensor.dims_nonnegative: vectors/golden/x.json: /inputs/0/shape/1: dim -3 is ..."
#ifndef DMCONF_HARNESS_IO_JSON_LOCATION_H_
#define DMCONF_HARNESS_IO_JSON_LOCATION_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"

namespace dmconf::io {

struct JsonLoc {
  std::string file;
  std::string pointer;  // "" is the whole document

  JsonLoc Key(absl::string_view key) const;  // escapes '~' and '/' as RFC 6901 says
  JsonLoc Index(size_t i) const;
  // "file: /inputs/0" (the whole document is shown as "(document)").
  std::string ToString() const;
};

// Parses `text` like nlohmann::json::parse (which throws its parse_error on bad syntax), and
// notes the first key an object repeats: `duplicate` gets its location (for example
// "/known_failures/2/case"), or stays empty. A repeated key makes a file ambiguous (this parser
// keeps the last, other readers the first), so every dmconf reader refuses it with a rule of
// its own.
nlohmann::json ParseJsonNotingDuplicates(absl::string_view text, JsonLoc* duplicate);

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

#endif  // DMCONF_HARNESS_IO_JSON_LOCATION_H_
