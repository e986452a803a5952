// Typed access to the members of a report, for the report reader (report_reader.cc reads a
// case, report_head.cc the document around the cases). Each call checks the member it reads
// and decodes it, so a reader is its field list: the first error is kept (rule report.field.*
// or report.verdict.unknown, with the file and JSON pointer) and every later call answers a
// neutral value, so that a reader reads straight through. Internal to harness/report.
//
// Example:
//   report_internal::FieldReader rd;
//   const json& inv = rd.Obj(c, at, "invocation");
//   std::string attrs = rd.Str(inv, at.Key("invocation"), "attributes");
//   // rd.status(): "report.field.type: x.json: /cases/3/invocation/attributes: expected a
//   // string"
#ifndef DMCONF_HARNESS_REPORT_REPORT_FIELDS_H_
#define DMCONF_HARNESS_REPORT_REPORT_FIELDS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/backend/verdict.h"
#include "harness/base/json_location.h"
#include "nlohmann/json.hpp"

namespace dmconf::report_internal {

class FieldReader {
 public:
  enum class Kind { kString, kInt, kBool, kArray, kObject };

  // `o` is an object holding `key` (absent members of optional fields are skipped with it).
  static bool Has(const nlohmann::json& o, absl::string_view key);

  // Member `key` of `o`, which must be present (report.field.missing) and of kind `k`
  // (report.field.type); null once an error is kept.
  const nlohmann::json& Get(const nlohmann::json& o, const io::JsonLoc& at, absl::string_view key,
                            Kind k);
  // Element `i` of array `a` (at `at`), of kind `k`.
  const nlohmann::json& At(const nlohmann::json& a, const io::JsonLoc& at, size_t i, Kind k);
  // `v` itself (found at `at`), of kind `k`: for the values of an object read by its items.
  const nlohmann::json& As(const nlohmann::json& v, const io::JsonLoc& at, Kind k);

  std::string Str(const nlohmann::json& o, const io::JsonLoc& at, absl::string_view key);
  int64_t Int(const nlohmann::json& o, const io::JsonLoc& at, absl::string_view key);
  // A count or a rank: an integer in [min, max] (report.field.value outside).
  int64_t Ranged(const nlohmann::json& o, const io::JsonLoc& at, absl::string_view key, int64_t min,
                 int64_t max);
  int64_t NonNegative(const nlohmann::json& o, const io::JsonLoc& at, absl::string_view key,
                      int64_t max = INT64_MAX) {
    return Ranged(o, at, key, 0, max);
  }
  bool Bool(const nlohmann::json& o, const io::JsonLoc& at, absl::string_view key);
  const nlohmann::json& Arr(const nlohmann::json& o, const io::JsonLoc& at, absl::string_view key) {
    return Get(o, at, key, Kind::kArray);
  }
  const nlohmann::json& Obj(const nlohmann::json& o, const io::JsonLoc& at, absl::string_view key) {
    return Get(o, at, key, Kind::kObject);
  }
  // A verdict's name, the member `key` or a name at `at` (report.verdict.unknown for one dmconf
  // does not know).
  Verdict VerdictOf(const nlohmann::json& o, const io::JsonLoc& at, absl::string_view key);
  Verdict VerdictNamed(absl::string_view name, const io::JsonLoc& at);
  // Arrays of integers and of strings.
  std::vector<int64_t> Ints(const nlohmann::json& o, const io::JsonLoc& at, absl::string_view key);
  std::vector<std::string> Strs(const nlohmann::json& o, const io::JsonLoc& at,
                                absl::string_view key);
  // Bits written as 0x and at most 16 hex digits (report.field.value otherwise).
  uint64_t Bits(const std::string& hex, const io::JsonLoc& at);

  // A parsed name (an op, element type, lane ...): its value, or `fallback` and the parser's
  // message under report.field.value.
  template <typename T>
  T Parsed(const absl::StatusOr<T>& v, const io::JsonLoc& at, T fallback) {
    if (v.ok()) return *v;
    Fail("report.field.value", at, v.status().message());
    return fallback;
  }

  void Fail(absl::string_view rule, const io::JsonLoc& at, absl::string_view what);
  bool ok() const { return status_.ok(); }
  const absl::Status& status() const { return status_; }

 private:
  // An integer `v` (of kind kInt, at `at`) as an int64 (report.field.type when it is larger).
  int64_t IntValue(const nlohmann::json& v, const io::JsonLoc& at);

  absl::Status status_;
};

}  // namespace dmconf::report_internal

#endif  // DMCONF_HARNESS_REPORT_REPORT_FIELDS_H_
