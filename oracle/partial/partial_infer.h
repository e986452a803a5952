// Shape inference on partial shapes: interval dims, unknown rank, and SpaceToBatch /
// BatchToSpace block_shape, pads and crops that are not constants.
//
// The answer is three-valued like Validate():
//   kShape        some instance may be valid; every instance the static oracle accepts
//                 (valid or unspecified, i.e. with an output shape) has its output shape in
//                 `output` (soundness), and every finite bound of `output` is reached by such
//                 an instance (tightness, docs/errata-partial.md lists the two exceptions);
//   kMustReject   every instance breaks a must_reject rule (`rule` is the one found);
//   kUnspecified  an attribute alone makes every instance unspecified (sizes = 0), or breaks
//                 an unspecified rule; `output` is set when the static oracle would set it.
// Attribute and type rules are checked by the static oracle itself (on a probe case), so the
// two never disagree about them; the interval rules are docs/errata-partial.md's D-P entries.
// The shapes of SpaceToBatch / BatchToSpace inputs ("1-D tensors with shape [N]", N the data
// rank) are checked here: a non-constant input of known rank other than 1, or lengths that
// cannot all equal the data rank, are `*.inputs.shape`; with an unknown data rank, a single
// length N >= 2 left by the inputs is the output rank.
//
// Example:
//   PartialCase c;
//   c.op = Op::kDepthToSpace;
//   c.data = PartialShape::Of({Dim::Exact(1), Dim::Range(8, 20), Dim::AtLeast(3)});
//   c.block_size = 2;  c.mode = "blocks_first";
//   InferPartialShape(c)->output.ToString() == "[1,[4,10],[6,inf)]"   // K = 1: C / 2
//
//   PartialCase s;  s.op = Op::kSpaceToBatch;  s.data = PartialShape::DynamicRank();
//   s.int_shapes[0] = PartialShape::Of({Dim::Exact(3)});  // block_shape: not constant, [3]
//   InferPartialShape(s)->output.ToString() == "[?,?,?]"
#ifndef DMCONF_ORACLE_PARTIAL_PARTIAL_INFER_H_
#define DMCONF_ORACLE_PARTIAL_PARTIAL_INFER_H_

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "oracle/op_case.h"
#include "oracle/partial/partial_shape.h"
#include "oracle/rules.h"

namespace dmconf {

// The attributes are the OpAttributes base, shared with OpCase (oracle/op_attributes.h).
struct PartialCase : OpAttributes {
  Op op = Op::kSpaceToDepth;
  ElementType type = ElementType::kF32;
  PartialShape data;
  // SpaceToBatch: block_shape, pads_begin, pads_end; BatchToSpace: block_shape, crops_begin,
  // crops_end. A constant is a 1-D integer tensor; std::nullopt is a non-constant input of
  // element type int_types[k] whose values are unknown and whose shape is int_shapes[k]
  // (known, partial, or of unknown rank: the default).
  std::array<std::optional<Tensor>, 3> int_inputs;
  std::array<ElementType, 3> int_types = {ElementType::kI64, ElementType::kI64, ElementType::kI64};
  std::array<PartialShape, 3> int_shapes;

  // The partial case of a static case: every dim exact, every input constant.
  static PartialCase FromStatic(const OpCase& c);
  // True when the data rank is known, every data dim exact and every integer input of a
  // SpaceToBatch / BatchToSpace case a constant.
  bool IsStatic() const;
  // A static case as an OpCase whose data has its shape and no bytes (what Validate needs;
  // dims may be up to 2^63-1). Error `case.partial.not_static` when !IsStatic().
  absl::StatusOr<OpCase> ToShapeOnlyCase() const;
};

enum class PartialKind : uint8_t { kShape, kMustReject, kUnspecified };
// "shape", "must_reject", "unspecified" (as shape-case files and reports spell them).
absl::string_view PartialKindName(PartialKind k);

struct PartialResult {
  PartialKind kind = PartialKind::kShape;
  PartialShape output;  // kShape; kUnspecified when defined
  bool has_output = false;
  const Rule* rule = nullptr;  // kMustReject / kUnspecified
  std::string message;
};

// Errors: malformed cases only (`case.*`: empty or negative intervals, malformed constants,
// wrong input count).
absl::StatusOr<PartialResult> InferPartialShape(const PartialCase& c);

}  // namespace dmconf

#endif  // DMCONF_ORACLE_PARTIAL_PARTIAL_INFER_H_
