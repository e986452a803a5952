#include "harness/report/report_reader.h"

#include "absl/strings/str_cat.h"
#include "harness/backend/verdict.h"
#include "harness/base/json_location.h"
#include "harness/report/report.h"
#include "harness/report/report_decode.h"

namespace dmconf {
namespace {

using io::JsonLoc;
using io::LocError;
using nlohmann::json;

enum class Kind { kString, kInt, kNumber, kBool, kArray, kObject };

const char* KindName(Kind k) {
  switch (k) {
    case Kind::kString:
      return "a string";
    case Kind::kInt:
      return "an integer";
    case Kind::kNumber:
      return "a number";
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
    case Kind::kNumber:
      return v.is_number();
    case Kind::kBool:
      return v.is_boolean();
    case Kind::kArray:
      return v.is_array();
    case Kind::kObject:
      return v.is_object();
  }
  return false;
}

// Checks that `obj` (an object) has member `key` of kind `k`; optional members may be absent.
absl::Status Need(const json& obj, const JsonLoc& at, absl::string_view key, Kind k,
                  bool required = true) {
  const auto it = obj.find(std::string(key));
  if (it == obj.end()) {
    if (!required) return absl::OkStatus();
    return LocError("report.field.missing", at.Key(key), "this member is required");
  }
  if (!Is(*it, k))
    return LocError("report.field.type", at.Key(key), absl::StrCat("expected ", KindName(k)));
  return absl::OkStatus();
}

absl::Status Each(const json& arr, const JsonLoc& at, Kind k) {
  for (size_t i = 0; i < arr.size(); ++i) {
    if (!Is(arr[i], k)) {
      return LocError("report.field.type", at.Index(i), absl::StrCat("expected ", KindName(k)));
    }
  }
  return absl::OkStatus();
}

#define DMCONF_RETURN_IF_ERROR(expr)        \
  if (absl::Status s_ = (expr); !s_.ok()) { \
    return s_;                              \
  }

absl::Status CheckVerdict(const json& v, const JsonLoc& at) {
  if (!ParseVerdict(v.get<std::string>()).has_value()) {
    return LocError("report.verdict.unknown", at, "not a verdict dmconf knows");
  }
  return absl::OkStatus();
}

// shrunk.source_map, which the page draws: four integer arrays, one entry per output element
// (at most 64) in holds and expected.
absl::Status CheckSourceMap(const json& s, const JsonLoc& sat) {
  DMCONF_RETURN_IF_ERROR(Need(s, sat, "source_map", Kind::kObject));
  const json& m = s["source_map"];
  const JsonLoc at = sat.Key("source_map");
  for (const char* key : {"shape", "input_shape", "holds", "expected"}) {
    DMCONF_RETURN_IF_ERROR(Need(m, at, key, Kind::kArray));
    DMCONF_RETURN_IF_ERROR(Each(m[key], at.Key(key), Kind::kInt));
  }
  if (m["holds"].size() != m["expected"].size() || m["holds"].size() > 64) {
    return LocError("report.field.value", at.Key("holds"),
                    "holds and expected: one entry per output element, at most 64");
  }
  return absl::OkStatus();
}

// backends[].status_matrix, which the page draws (absent from reports written before it).
absl::Status CheckStatusMatrix(const json& b, const JsonLoc& at) {
  DMCONF_RETURN_IF_ERROR(Need(b, at, "status_matrix", Kind::kArray, false));
  if (!b.contains("status_matrix")) return absl::OkStatus();
  for (size_t i = 0; i < b["status_matrix"].size(); ++i) {
    const json& m = b["status_matrix"][i];
    const JsonLoc mat = at.Key("status_matrix").Index(i);
    if (!m.is_object()) return LocError("report.field.type", mat, "expected an object");
    for (const char* key : {"op", "element_type", "lane", "status"}) {
      DMCONF_RETURN_IF_ERROR(Need(m, mat, key, Kind::kString));
    }
    for (const char* key : {"rank", "cases"}) DMCONF_RETURN_IF_ERROR(Need(m, mat, key, Kind::kInt));
  }
  return absl::OkStatus();
}

// A case's "shrunk" (present).
absl::Status CheckShrunk(const json& c, const JsonLoc& at) {
  DMCONF_RETURN_IF_ERROR(Need(c, at, "shrunk", Kind::kObject));
  const json& s = c["shrunk"];
  const JsonLoc sat = at.Key("shrunk");
  DMCONF_RETURN_IF_ERROR(Need(s, sat, "id", Kind::kString));
  DMCONF_RETURN_IF_ERROR(Need(s, sat, "from_elements", Kind::kInt));
  DMCONF_RETURN_IF_ERROR(Need(s, sat, "to_elements", Kind::kInt));
  DMCONF_RETURN_IF_ERROR(Need(s, sat, "vector_file", Kind::kString, false));
  DMCONF_RETURN_IF_ERROR(Need(s, sat, "repro", Kind::kString, false));
  DMCONF_RETURN_IF_ERROR(Need(s, sat, "case", Kind::kString, false));
  if (s.contains("thresholds")) {
    DMCONF_RETURN_IF_ERROR(Need(s, sat, "thresholds", Kind::kArray));
    for (size_t i = 0; i < s["thresholds"].size(); ++i) {
      const json& t = s["thresholds"][i];
      const JsonLoc tat = sat.Key("thresholds").Index(i);
      if (!t.is_object()) return LocError("report.field.type", tat, "expected an object");
      DMCONF_RETURN_IF_ERROR(Need(t, tat, "what", Kind::kString));
      DMCONF_RETURN_IF_ERROR(Need(t, tat, "fails_from", Kind::kInt));
      DMCONF_RETURN_IF_ERROR(Need(t, tat, "passes_at", Kind::kInt));
    }
  }
  if (s.contains("diagnosis")) {
    DMCONF_RETURN_IF_ERROR(Need(s, sat, "diagnosis", Kind::kObject));
    DMCONF_RETURN_IF_ERROR(Need(s["diagnosis"], sat.Key("diagnosis"), "mistake", Kind::kString));
    DMCONF_RETURN_IF_ERROR(Need(s["diagnosis"], sat.Key("diagnosis"), "summary", Kind::kString));
  }
  if (s.contains("source_map")) DMCONF_RETURN_IF_ERROR(CheckSourceMap(s, sat));
  return absl::OkStatus();
}

// A case's "invocation" (present).
absl::Status CheckInvocation(const json& c, const JsonLoc& at) {
  DMCONF_RETURN_IF_ERROR(Need(c, at, "invocation", Kind::kObject));
  const json& inv = c["invocation"];
  const JsonLoc iat = at.Key("invocation");
  DMCONF_RETURN_IF_ERROR(Need(inv, iat, "attributes", Kind::kString));
  DMCONF_RETURN_IF_ERROR(Need(inv, iat, "inputs", Kind::kArray));
  for (size_t i = 0; i < inv["inputs"].size(); ++i) {
    const json& in = inv["inputs"][i];
    const JsonLoc nat = iat.Key("inputs").Index(i);
    if (!in.is_object()) return LocError("report.field.type", nat, "expected an object");
    DMCONF_RETURN_IF_ERROR(Need(in, nat, "name", Kind::kString));
    DMCONF_RETURN_IF_ERROR(Need(in, nat, "element_type", Kind::kString));
    DMCONF_RETURN_IF_ERROR(Need(in, nat, "shape", Kind::kArray));
    DMCONF_RETURN_IF_ERROR(Each(in["shape"], nat.Key("shape"), Kind::kInt));
    DMCONF_RETURN_IF_ERROR(Need(in, nat, "partial_shape", Kind::kString, false));
  }
  return absl::OkStatus();
}

// A case's "mismatch" (present).
absl::Status CheckMismatch(const json& c, const JsonLoc& at) {
  DMCONF_RETURN_IF_ERROR(Need(c, at, "mismatch", Kind::kObject));
  const json& m = c["mismatch"];
  const JsonLoc mat = at.Key("mismatch");
  for (const char* key : {"index", "shape", "listed"}) {
    DMCONF_RETURN_IF_ERROR(Need(m, mat, key, Kind::kArray));
  }
  DMCONF_RETURN_IF_ERROR(Each(m["index"], mat.Key("index"), Kind::kInt));
  DMCONF_RETURN_IF_ERROR(Each(m["shape"], mat.Key("shape"), Kind::kInt));
  for (const char* key : {"expected_bits", "actual_bits"}) {
    DMCONF_RETURN_IF_ERROR(Need(m, mat, key, Kind::kString));
  }
  for (const char* key : {"differing", "total"}) {
    DMCONF_RETURN_IF_ERROR(Need(m, mat, key, Kind::kInt));
  }
  const json& listed = m["listed"];
  for (size_t i = 0; i < listed.size(); ++i) {
    const json& w = listed[i];
    const JsonLoc wat = mat.Key("listed").Index(i);
    if (!w.is_array() || w.size() != 3 || !w[0].is_number_integer() || !w[1].is_string() ||
        !w[2].is_string()) {
      return LocError("report.field.type", wat,
                      "expected [flat index, expected bits, actual bits]");
    }
  }
  return absl::OkStatus();
}

absl::Status CheckCase(const json& c, const JsonLoc& at) {
  if (!c.is_object()) return LocError("report.field.type", at, "expected an object");
  for (const char* key : {"id", "op", "element_type", "expected", "rule", "verdict", "detail"}) {
    DMCONF_RETURN_IF_ERROR(Need(c, at, key, Kind::kString));
  }
  DMCONF_RETURN_IF_ERROR(CheckVerdict(c["verdict"], at.Key("verdict")));
  DMCONF_RETURN_IF_ERROR(Need(c, at, "failure", Kind::kBool));
  for (const char* key : {"vector_file", "repro", "lane", "backend_output"}) {
    DMCONF_RETURN_IF_ERROR(Need(c, at, key, Kind::kString, false));
  }
  if (c.contains("known")) {
    DMCONF_RETURN_IF_ERROR(Need(c, at, "known", Kind::kObject));
    DMCONF_RETURN_IF_ERROR(Need(c["known"], at.Key("known"), "reason", Kind::kString));
    DMCONF_RETURN_IF_ERROR(Need(c["known"], at.Key("known"), "link", Kind::kString));
  }
  if (c.contains("diagnosis")) {
    DMCONF_RETURN_IF_ERROR(Need(c, at, "diagnosis", Kind::kObject));
    DMCONF_RETURN_IF_ERROR(Need(c["diagnosis"], at.Key("diagnosis"), "mistake", Kind::kString));
    DMCONF_RETURN_IF_ERROR(Need(c["diagnosis"], at.Key("diagnosis"), "summary", Kind::kString));
  }
  if (c.contains("replays")) {
    DMCONF_RETURN_IF_ERROR(Need(c, at, "replays", Kind::kObject));
    const JsonLoc rat = at.Key("replays");
    DMCONF_RETURN_IF_ERROR(Need(c["replays"], rat, "count", Kind::kInt));
    DMCONF_RETURN_IF_ERROR(Need(c["replays"], rat, "failed", Kind::kInt));
    DMCONF_RETURN_IF_ERROR(Need(c["replays"], rat, "first_verdict", Kind::kString));
    DMCONF_RETURN_IF_ERROR(CheckVerdict(c["replays"]["first_verdict"], rat.Key("first_verdict")));
  }
  if (c.contains("witness")) {
    DMCONF_RETURN_IF_ERROR(Need(c, at, "witness", Kind::kObject));
    const JsonLoc wat = at.Key("witness");
    DMCONF_RETURN_IF_ERROR(Need(c["witness"], wat, "instance", Kind::kString));
    DMCONF_RETURN_IF_ERROR(Need(c["witness"], wat, "output", Kind::kArray));
    for (const char* key : {"case_file", "repro"}) {
      DMCONF_RETURN_IF_ERROR(Need(c["witness"], wat, key, Kind::kString, false));
    }
  }
  if (c.contains("shrunk")) DMCONF_RETURN_IF_ERROR(CheckShrunk(c, at));
  if (c.contains("invocation")) DMCONF_RETURN_IF_ERROR(CheckInvocation(c, at));
  if (c.contains("mismatch")) DMCONF_RETURN_IF_ERROR(CheckMismatch(c, at));
  return absl::OkStatus();
}

absl::Status CheckBackend(const json& b, const JsonLoc& at) {
  if (!b.is_object()) return LocError("report.field.type", at, "expected an object");
  DMCONF_RETURN_IF_ERROR(Need(b, at, "name", Kind::kString));
  DMCONF_RETURN_IF_ERROR(Need(b, at, "startup_error", Kind::kString));
  if (b.contains("worker_errors")) {
    DMCONF_RETURN_IF_ERROR(Need(b, at, "worker_errors", Kind::kArray));
    for (size_t i = 0; i < b["worker_errors"].size(); ++i) {
      if (!b["worker_errors"][i].is_string()) {
        return LocError("report.field.type", at.Key("worker_errors").Index(i), "expected a string");
      }
    }
  }
  DMCONF_RETURN_IF_ERROR(Need(b, at, "totals", Kind::kObject));
  for (const char* key : {"cases", "run", "unsupported", "new_failures", "known_failures"}) {
    DMCONF_RETURN_IF_ERROR(Need(b["totals"], at.Key("totals"), key, Kind::kInt));
  }
  DMCONF_RETURN_IF_ERROR(Need(b, at, "slices", Kind::kArray));
  for (size_t i = 0; i < b["slices"].size(); ++i) {
    const json& s = b["slices"][i];
    const JsonLoc sat = at.Key("slices").Index(i);
    if (!s.is_object()) return LocError("report.field.type", sat, "expected an object");
    for (const char* key : {"slice", "op"})
      DMCONF_RETURN_IF_ERROR(Need(s, sat, key, Kind::kString));
    for (const char* key : {"cases_in_run", "ran", "unsupported"}) {
      DMCONF_RETURN_IF_ERROR(Need(s, sat, key, Kind::kInt));
    }
    DMCONF_RETURN_IF_ERROR(Need(s, sat, "unexercised", Kind::kBool));
  }
  // counts: op -> element type -> verdict -> number.
  DMCONF_RETURN_IF_ERROR(Need(b, at, "counts", Kind::kObject));
  const JsonLoc cat = at.Key("counts");
  for (const auto& [op, types] : b["counts"].items()) {
    if (!types.is_object()) return LocError("report.field.type", cat.Key(op), "expected an object");
    for (const auto& [type, verdicts] : types.items()) {
      const JsonLoc tat = cat.Key(op).Key(type);
      if (!verdicts.is_object()) return LocError("report.field.type", tat, "expected an object");
      for (const auto& [verdict, n] : verdicts.items()) {
        if (!ParseVerdict(verdict).has_value()) {
          return LocError("report.verdict.unknown", tat.Key(verdict), "not a verdict dmconf knows");
        }
        if (!n.is_number_integer() || n.get<int64_t>() < 0) {
          return LocError("report.field.type", tat.Key(verdict), "expected a count (integer >= 0)");
        }
      }
    }
  }
  DMCONF_RETURN_IF_ERROR(CheckStatusMatrix(b, at));
  DMCONF_RETURN_IF_ERROR(Need(b, at, "cases", Kind::kArray));
  for (size_t i = 0; i < b["cases"].size(); ++i) {
    DMCONF_RETURN_IF_ERROR(CheckCase(b["cases"][i], at.Key("cases").Index(i)));
  }
  return absl::OkStatus();
}

}  // namespace

namespace report_internal {

absl::Status CheckReportDocument(const json& j, const JsonLoc& root) {
  if (!j.is_object()) return LocError("report.field.type", root, "expected an object");
  const auto format = j.find("format");
  if (format == j.end() || !format->is_string() || format->get<std::string>() != kReportFormat) {
    return LocError("report.format", root.Key("format"),
                    absl::StrCat("\"format\" must be \"", kReportFormat, "\""));
  }
  for (const char* key : {"run", "options", "summary"}) {
    DMCONF_RETURN_IF_ERROR(Need(j, root, key, Kind::kObject));
  }
  for (const char* key : {"backends", "cases", "new_failures", "known_failures"}) {
    DMCONF_RETURN_IF_ERROR(Need(j["summary"], root.Key("summary"), key, Kind::kInt));
  }
  DMCONF_RETURN_IF_ERROR(Need(j, root, "backends", Kind::kArray));
  for (size_t i = 0; i < j["backends"].size(); ++i) {
    DMCONF_RETURN_IF_ERROR(CheckBackend(j["backends"][i], root.Key("backends").Index(i)));
  }
  for (const char* key : {"file_errors", "stale_expectations"}) {
    DMCONF_RETURN_IF_ERROR(Need(j, root, key, Kind::kArray, false));
    if (!j.contains(key)) continue;
    const json& list = j[key];
    for (size_t i = 0; i < list.size(); ++i) {
      const JsonLoc eat = root.Key(key).Index(i);
      if (!list[i].is_object()) return LocError("report.field.type", eat, "expected an object");
      for (const auto& [k, v] : list[i].items()) {
        if (!v.is_string()) return LocError("report.field.type", eat.Key(k), "expected a string");
      }
    }
  }
  return Need(j, root, "mutation", Kind::kObject, false);
}

}  // namespace report_internal

absl::StatusOr<CaseResult> DecodeCase(const json& c, const JsonLoc& at,
                                      std::deque<KnownFailure>& known) {
  DMCONF_RETURN_IF_ERROR(CheckCase(c, at));
  return report_internal::DecodeCheckedCase(c, at, known);
}

}  // namespace dmconf
