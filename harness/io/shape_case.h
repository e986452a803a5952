// One shape-inference case of a `dmconf-shape-case/1` file in memory and as JSON
// (docs/shape-case-format.md): the case, the oracle's answer and, for a saved failure, where it
// failed. The sibling of vector_case.h / case_json.h for cases without data. The file itself
// (text, size limits, reading and writing) is shape_case_file.h; checking a stored answer
// against the oracle, shape_case_verify.h.
//
// Example:
//   absl::StatusOr<ShapeCaseFile> f = ShapeCaseFromJson(nlohmann::json::parse(text), "x.json");
//   nlohmann::ordered_json back = ShapeCaseToJson(*f);
#ifndef DMCONF_HARNESS_IO_SHAPE_CASE_H_
#define DMCONF_HARNESS_IO_SHAPE_CASE_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"
#include "oracle/partial/partial_infer.h"

namespace dmconf::io {

struct ShapeCaseFile {
  std::string id;      // 1-200 characters of [A-Za-z0-9._+-]; the file is <id>.json
  std::string origin;  // how it was made ("seeded seed=1 index=7 partial", "catalogue", ...)
  PartialCase c;
  // The oracle's answer when the file was written (checked on read against the oracle:
  // ReadShapeCaseFile does NOT re-derive; VerifyShapeCaseExpectation does). On reading,
  // expected.message is the rule's text (the file stores the rule id only).
  PartialResult expected;
  // Provenance of a saved failure (all empty for golden files).
  std::string backend, verdict, detail;
};

inline constexpr absl::string_view kShapeCaseSchema = "dmconf-shape-case/1";

// The case as JSON, members in the format's order (SerializeShapeCase makes it canonical text).
nlohmann::ordered_json ShapeCaseToJson(const ShapeCaseFile& f);

// The case from parsed JSON; `file` is used in messages only. Errors name their rule and the
// JSON location ("shape_case.dim.interval: x.json: /data/shape/1: lo 8 is above hi 2").
absl::StatusOr<ShapeCaseFile> ShapeCaseFromJson(const nlohmann::json& j, absl::string_view file);

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_IO_SHAPE_CASE_H_
