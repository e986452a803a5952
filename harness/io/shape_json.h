// The pieces of a `dmconf-shape-case/1` file below a case (docs/shape-case-format.md): partial
// shapes (exact dims, intervals, unknown rank), element types by name and constant integer
// inputs, written and read under the format's `shape_case.*` rules. Used by shape_case.cc (one
// case) and shape_case_file.cc (the file).
//
// Example:
//   PartialShapeToJson(PartialShape::Of({Dim::Exact(4), Dim::AtLeast(1)}))  // [4, [1, null]]
//   ReadPartialShape(nlohmann::json::parse("[4, [1, 8]]"), loc)  // dims 4 and 1..8
#ifndef DMCONF_HARNESS_IO_SHAPE_JSON_H_
#define DMCONF_HARNESS_IO_SHAPE_JSON_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/base/json_location.h"
#include "nlohmann/json.hpp"
#include "oracle/partial/partial_shape.h"
#include "oracle/tensor.h"

namespace dmconf::io {

// The shared JSON helpers (json_location.h, vector_file.h, case_json.h) name their rules
// vector.json.* and vector.field.*; in a shape-case file the same rules are shape_case.json.*
// and shape_case.field.*.
absl::Status Rebrand(absl::Status s);

template <typename T>
absl::StatusOr<T> Rebrand(absl::StatusOr<T> v) {
  if (v.ok()) return v;
  return Rebrand(v.status());
}

// An exact dim is an integer, an interval [lo, hi] with hi null when unbounded; a shape is an
// array of dims, or null for an unknown rank.
nlohmann::ordered_json PartialShapeToJson(const PartialShape& p);

// An array of dims, or null for an unknown rank (shape_case.dim.*, shape_case.shape.rank).
absl::StatusOr<PartialShape> ReadPartialShape(const nlohmann::json& v, const JsonLoc& loc);

// The string member `key` of `obj` (required).
absl::StatusOr<std::string> ReadStringMember(const nlohmann::json& obj, const JsonLoc& loc,
                                             absl::string_view key);

// The member "type" of `obj`: an element type by its exact name (f32, i64, u1, ...).
absl::StatusOr<ElementType> ReadElementType(const nlohmann::json& obj, const JsonLoc& loc);

// A constant input's "type", "values" and "shape" (the shape left out when it is 1-D [N]),
// added to `in`. A malformed tensor is written without values (the reader then refuses it).
void ConstantToJson(const Tensor& t, nlohmann::ordered_json& in);

// A constant's tensor of element type `type` from `in` (shape_case.input.*).
absl::StatusOr<Tensor> ReadConstant(const nlohmann::json& in, const JsonLoc& loc, ElementType type);

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_IO_SHAPE_JSON_H_
