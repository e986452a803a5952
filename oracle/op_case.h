// One full invocation of an op: which op, its attributes and its inputs, plus provenance.
//
// Attributes are kept as the user wrote them (mode and auto_pad as strings, block_size as an
// optional integer), so that validation can reject an unknown mode *by name* with a rule id.
//
// Example (the SpaceToDepth example of the specification):
//   OpCase c;
//   c.op = Op::kSpaceToDepth;
//   c.data = *Tensor::Zeros(ElementType::kF32, {5, 7, 4, 6});
//   c.block_size = 2;
//   c.mode = "blocks_first";
#ifndef DMCONF_ORACLE_OP_CASE_H_
#define DMCONF_ORACLE_OP_CASE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "oracle/op_attributes.h"
#include "oracle/tensor.h"

namespace dmconf {

enum class Op : uint8_t {
  kSpaceToBatch,         // SpaceToBatch-2
  kBatchToSpace,         // BatchToSpace-2
  kSpaceToDepth,         // SpaceToDepth-1
  kDepthToSpace,         // DepthToSpace-1
  kExtractImagePatches,  // ExtractImagePatches-3
};

absl::Span<const Op> AllOps();
// "SpaceToBatch", "BatchToSpace", "SpaceToDepth", "DepthToSpace", "ExtractImagePatches".
absl::string_view OpName(Op op);
// Opset version: 2, 2, 1, 1, 3.
int OpVersion(Op op);
// Short rule-id prefix: "s2b", "b2s", "s2d", "d2s", "eip".
absl::string_view OpPrefix(Op op);
// Accepts the op name, "Name-V" and the prefix. Unknown: rule `case.op.known`.
absl::StatusOr<Op> ParseOp(absl::string_view name);

// DepthToSpace / SpaceToDepth mode.
enum class DepthMode : uint8_t { kBlocksFirst, kDepthFirst };
absl::string_view DepthModeName(DepthMode m);  // "blocks_first", "depth_first"
std::optional<DepthMode> ParseDepthMode(absl::string_view s);

// ExtractImagePatches auto_pad.
enum class AutoPad : uint8_t { kValid, kSameUpper, kSameLower };
absl::string_view AutoPadName(AutoPad p);  // "valid", "same_upper", "same_lower"
std::optional<AutoPad> ParseAutoPad(absl::string_view s);

// The attributes (block_size, mode, sizes, strides, rates, auto_pad) are the OpAttributes base,
// shared with the partial case (oracle/op_attributes.h).
struct OpCase : OpAttributes {
  Op op = Op::kSpaceToDepth;

  // Input 0 of every op. Validation (shape inference) only reads data.shape and data.type;
  // evaluation also needs data.bytes.
  Tensor data;

  // SpaceToBatch: block_shape, pads_begin, pads_end. BatchToSpace: block_shape, crops_begin,
  // crops_end. 1-D integer tensors; empty for the other ops.
  std::vector<Tensor> int_inputs;

  // Provenance and id (set by whoever built the case; not used by the oracle).
  std::string id;
  std::string origin;
};

// A compact human-readable summary of the attributes ("block_size=2 mode=blocks_first"); for
// SpaceToBatch / BatchToSpace, of the integer inputs ("block_shape=[1,2] pads_begin=[0,0] ...").
std::string AttributesToString(const OpCase& c);
// The attribute bundle alone, static or partial ("" for SpaceToBatch / BatchToSpace).
std::string AttributesToString(Op op, const OpAttributes& a);

}  // namespace dmconf

#endif  // DMCONF_ORACLE_OP_CASE_H_
