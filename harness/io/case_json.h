// JSON form of a VectorCase (the `dmconf-vector/1` document; docs/vector-format.md):
//
//   {"schema": "dmconf-vector/1", "id": "...", "op": "SpaceToDepth", "version": 1,
//    "attributes": {"block_size": 2, "mode": "blocks_first"},
//    "inputs": [{"name": "data", "constant": false, "type": "f32", "shape": [...], "data": [...]}],
//    "expectation": {"kind": "valid", "output": {"type": ..., "shape": ..., "data": ...}},
//    "provenance": {"kind": "generated", ...}, "classes": ["op:SpaceToDepth", ...]}
//
// Writing inserts members in that fixed order (with classes sorted), so DumpCanonical gives the
// same bytes for the same case. Reading checks everything and names the file and the JSON
// pointer in every error.
//
// Example:
//   absl::StatusOr<VectorCase> v = VectorCaseFromJson(json::parse(text), "x.json");
#ifndef DMCONF_HARNESS_IO_CASE_JSON_H_
#define DMCONF_HARNESS_IO_CASE_JSON_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/base/json_location.h"
#include "harness/io/canonical_json.h"
#include "harness/io/vector_case.h"
#include "nlohmann/json.hpp"
#include "oracle/partial/partial_infer.h"

namespace dmconf::io {

inline constexpr absl::string_view kVectorSchema = "dmconf-vector/1";

// With `refs`, big tensors get placeholders for DumpCanonical(j, refs) (canonical_json.h).
nlohmann::ordered_json VectorCaseToJson(const VectorCase& v, TensorRefs* refs = nullptr);

// Errors name a rule (vector.* or case.*), the file and the JSON pointer.
// `deferred`: the big "data" arrays the parse left out (json_location.h), or nullptr.
absl::StatusOr<VectorCase> VectorCaseFromJson(const nlohmann::json& j, absl::string_view file,
                                              const DeferredArrays* deferred = nullptr);

// The attributes object of a case of op `op` alone ({} for SpaceToBatch / BatchToSpace): the
// attribute bundle (oracle/op_attributes.h) of a static or a partial case, written by this one
// function for both. E.g. AttributesToJson(c.op, c) == {"block_size": 2, "mode": "blocks_first"}.
nlohmann::ordered_json AttributesToJson(Op op, const OpAttributes& a);
// Reads an attributes object into the bundle `a` of a case of op `op` (static or partial); the
// members allowed depend on the op. Errors: vector.field.* (also for dmconf-shape-case/1 files,
// harness/io/shape_case.h).
absl::Status AttributesFromJson(const nlohmann::json& j, const JsonLoc& loc, Op op,
                                OpAttributes* a);

// The required member "op" of a case object: one of the five op names, exactly as spelled.
// An unknown name is refused under `unknown_rule` (case.op.known, shape_case.op.known).
absl::StatusOr<Op> OpFromJson(const nlohmann::json& j, const JsonLoc& root,
                              absl::string_view unknown_rule);

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_IO_CASE_JSON_H_
