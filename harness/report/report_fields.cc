#include "harness/report/report_fields.h"

#include <optional>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace dmconf::report_internal {
namespace {

using io::JsonLoc;
using nlohmann::json;
using Kind = FieldReader::Kind;

const char* KindName(Kind k) {
  switch (k) {
    case Kind::kString:
      return "a string";
    case Kind::kInt:
      return "an integer";
    case Kind::kBool:
      return "a boolean";
    case Kind::kArray:
      return "an array";
    case Kind::kObject:
      return "an object";
  }
  return "?";
}

bool Is(const json& v, Kind k) {
  switch (k) {
    case Kind::kString:
      return v.is_string();
    case Kind::kInt:
      return v.is_number_integer();
    case Kind::kBool:
      return v.is_boolean();
    case Kind::kArray:
      return v.is_array();
    case Kind::kObject:
      return v.is_object();
  }
  return false;
}

const json& Null() {
  static const json kNull;
  return kNull;
}

}  // namespace

bool FieldReader::Has(const json& o, absl::string_view key) {
  return o.is_object() && o.contains(std::string(key));
}

const json& FieldReader::Get(const json& o, const JsonLoc& at, absl::string_view key, Kind k) {
  if (!ok()) return Null();
  const auto it = o.find(std::string(key));
  if (it == o.end()) {
    Fail("report.field.missing", at.Key(key), "this member is required");
    return Null();
  }
  return As(*it, at.Key(key), k);
}

const json& FieldReader::At(const json& a, const JsonLoc& at, size_t i, Kind k) {
  if (!ok() || !a.is_array() || i >= a.size()) return Null();
  return As(a[i], at.Index(i), k);
}

const json& FieldReader::As(const json& v, const JsonLoc& at, Kind k) {
  if (!ok()) return Null();
  if (!Is(v, k)) {
    Fail("report.field.type", at, absl::StrCat("expected ", KindName(k)));
    return Null();
  }
  return v;
}

std::string FieldReader::Str(const json& o, const JsonLoc& at, absl::string_view key) {
  const json& v = Get(o, at, key, Kind::kString);
  return v.is_string() ? v.get<std::string>() : "";
}

int64_t FieldReader::IntValue(const json& v, const JsonLoc& at) {
  if (!v.is_number_integer()) return 0;
  if (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t{INT64_MAX}) {
    Fail("report.field.type", at, "too large");
    return 0;
  }
  return v.get<int64_t>();
}

int64_t FieldReader::Int(const json& o, const JsonLoc& at, absl::string_view key) {
  return IntValue(Get(o, at, key, Kind::kInt), at.Key(key));
}

int64_t FieldReader::Ranged(const json& o, const JsonLoc& at, absl::string_view key, int64_t min,
                            int64_t max) {
  const int64_t v = Int(o, at, key);
  if (ok() && (v < min || v > max)) {
    Fail("report.field.value", at.Key(key), absl::StrCat("must be in [", min, ", ", max, "]"));
    return 0;
  }
  return v;
}

bool FieldReader::Bool(const json& o, const JsonLoc& at, absl::string_view key) {
  const json& v = Get(o, at, key, Kind::kBool);
  return v.is_boolean() && v.get<bool>();
}

Verdict FieldReader::VerdictOf(const json& o, const JsonLoc& at, absl::string_view key) {
  const std::string name = Str(o, at, key);
  return VerdictNamed(name, at.Key(key));
}

Verdict FieldReader::VerdictNamed(absl::string_view name, const JsonLoc& at) {
  if (!ok()) return Verdict::kHarnessError;
  const std::optional<Verdict> v = ParseVerdict(name);
  if (!v.has_value()) Fail("report.verdict.unknown", at, "not a verdict dmconf knows");
  return v.value_or(Verdict::kHarnessError);
}

std::vector<int64_t> FieldReader::Ints(const json& o, const JsonLoc& at, absl::string_view key) {
  const json& a = Arr(o, at, key);
  std::vector<int64_t> out;
  for (size_t i = 0; i < a.size() && ok(); ++i) {
    out.push_back(IntValue(At(a, at.Key(key), i, Kind::kInt), at.Key(key).Index(i)));
  }
  return out;
}

std::vector<std::string> FieldReader::Strs(const json& o, const JsonLoc& at,
                                           absl::string_view key) {
  const json& a = Arr(o, at, key);
  std::vector<std::string> out;
  for (size_t i = 0; i < a.size() && ok(); ++i) {
    const json& v = At(a, at.Key(key), i, Kind::kString);
    out.push_back(v.is_string() ? v.get<std::string>() : "");
  }
  return out;
}

uint64_t FieldReader::Bits(const std::string& hex, const JsonLoc& at) {
  uint64_t v = 0;
  if (ok() && (hex.size() < 3 || hex.size() > 18 || hex.compare(0, 2, "0x") != 0 ||
               !absl::SimpleHexAtoi(hex.substr(2), &v))) {
    Fail("report.field.value", at, "expected bits as 0x and at most 16 hex digits");
  }
  return v;
}

void FieldReader::Fail(absl::string_view rule, const JsonLoc& at, absl::string_view what) {
  if (status_.ok()) status_ = io::LocError(rule, at, what);
}

}  // namespace dmconf::report_internal
