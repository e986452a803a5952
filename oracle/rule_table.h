// The rule table itself, as a constant the compiler can read: RuleId (oracle/rule_id.h)
// checks rule ids against it at compile time, and AllRules() / FindRule() (oracle/rules.h)
// serve it at run time. docs/rules.md is generated from it (`dmconf rules --markdown`).
#ifndef DMCONF_ORACLE_RULE_TABLE_H_
#define DMCONF_ORACLE_RULE_TABLE_H_

#include <optional>

#include "oracle/rules.h"

namespace dmconf::rule_table {

inline constexpr RuleKind R = RuleKind::kMustReject;
inline constexpr RuleKind U = RuleKind::kUnspecified;
inline constexpr RuleKind M = RuleKind::kMalformed;
inline constexpr std::optional<Op> kS2B = Op::kSpaceToBatch;
inline constexpr std::optional<Op> kB2S = Op::kBatchToSpace;
inline constexpr std::optional<Op> kS2D = Op::kSpaceToDepth;
inline constexpr std::optional<Op> kD2S = Op::kDepthToSpace;
inline constexpr std::optional<Op> kEIP = Op::kExtractImagePatches;
inline constexpr std::optional<Op> kAny = std::nullopt;

// clang-format off
inline constexpr Rule kRuleTable[] = {
    // ---- Case-level rules: the case is not a well-formed invocation at all. ----
    {"case.op.known", kAny, M, "dmconf", "The op is one of SpaceToBatch-2, BatchToSpace-2, SpaceToDepth-1, DepthToSpace-1, ExtractImagePatches-3.", ""},
    {"case.element_type.known", kAny, M, "dmconf", "Element types are OpenVINO's names (boolean, u1, ..., f64).", ""},
    {"case.tensor.dims_nonnegative", kAny, M, "dmconf", "Every dim of a tensor is >= 0.", ""},
    {"case.tensor.size_representable", kAny, M, "dmconf", "A tensor's element count fits in int64 (OpenVINO dims are int64).", "D4"},
    {"case.tensor.byte_size", kAny, M, "dmconf", "A tensor holds exactly the packed bytes its type and shape need.", ""},
    {"case.tensor.integer_values", kAny, M, "dmconf", "Integer input values fit their element type.", ""},
    {"case.tensor.too_large", kAny, M, "dmconf", "dmconf allocates no tensor, input or output, above the limit for one tensor (kMaxTensorBytes, 2 GiB).", ""},
    {"case.inputs.count", kAny, M, "dmconf", "SpaceToBatch/BatchToSpace have exactly 3 integer inputs besides data; the other ops none.", ""},
    {"case.partial.not_static", kAny, M, "dmconf", "Static shape inference is given static cases only: a known rank, exact dims, constant integer inputs.", ""},
    {"case.output.too_large", kAny, M, "dmconf", "The oracle does not evaluate a case whose output or intermediate exceeds the limit for one tensor (kMaxTensorBytes, 2 GiB).", ""},

    // ---- SpaceToBatch-2 ----
    {"s2b.data.rank", kS2B, R, "SpaceToBatch-2, Inputs, data", "data: N-D tensor [batch, D_1, ..., D_{N-1}], rank >= 2.", ""},
    {"s2b.inputs.integer_type", kS2B, R, "SpaceToBatch-2, Types, T2", "block_shape, pads_begin, pads_end: T2, any supported integer type (boolean is not one).", "E11"},
    {"s2b.inputs.shape", kS2B, R, "SpaceToBatch-2, Inputs", "block_shape, pads_begin, pads_end: 1-D tensors with shape [N], N the rank of data.", "E12"},
    {"s2b.block_shape.positive", kS2B, R, "SpaceToBatch-2, Inputs, block_shape", "All values must be >= 1.", ""},
    {"s2b.pads_begin.nonnegative", kS2B, R, "SpaceToBatch-2, Inputs, pads_begin", "All values must be non-negative.", ""},
    {"s2b.pads_end.nonnegative", kS2B, R, "SpaceToBatch-2, Inputs, pads_end", "All values must be non-negative.", ""},
    {"s2b.block_shape.divides", kS2B, R, "SpaceToBatch-2, Inputs, pads_begin / pads_end", "It is required that block_shape[i] divides data_shape[i] + pads_begin[i] + pads_end[i].", ""},
    {"s2b.output.representable", kS2B, R, "SpaceToBatch-2, Outputs", "The padded dims and the output shape are representable (int64).", "D4"},
    {"s2b.block_shape.batch_one", kS2B, U, "SpaceToBatch-2, Inputs, block_shape", "block_shape[0] is expected to be 1 (\"B_0 for batch is ignored\").", "E5"},
    {"s2b.pads_begin.batch_zero", kS2B, U, "SpaceToBatch-2, Inputs, pads_begin", "pads_begin[0] is expected to be 0.", "E5"},
    {"s2b.pads_end.batch_zero", kS2B, U, "SpaceToBatch-2, Inputs, pads_end", "pads_end[0] is expected to be 0.", "E5"},

    // ---- BatchToSpace-2 ----
    {"b2s.data.rank", kB2S, R, "BatchToSpace-2, Inputs, data", "data: [batch, D_1, ..., D_{N-1}], rank >= 2.", ""},
    {"b2s.inputs.integer_type", kB2S, R, "BatchToSpace-2, Inputs", "block_shape, crops_begin, crops_end: integer type T2.", "E11"},
    {"b2s.inputs.same_type", kB2S, R, "BatchToSpace-2, Inputs", "block_shape, crops_begin, crops_end have one common integer type T2.", "E11"},
    {"b2s.inputs.shape", kB2S, R, "BatchToSpace-2, Inputs", "block_shape, crops_begin, crops_end: 1-D tensors with shape [N].", ""},
    {"b2s.block_shape.positive", kB2S, R, "BatchToSpace-2, Inputs, block_shape", "All block_shape values >= 1.", ""},
    {"b2s.crops_begin.nonnegative", kB2S, R, "BatchToSpace-2, Inputs, crops_begin", "crops_begin values are non-negative.", ""},
    {"b2s.crops_end.nonnegative", kB2S, R, "BatchToSpace-2, Inputs, crops_end", "crops_end values are non-negative.", ""},
    {"b2s.batch.divisible", kB2S, R, "BatchToSpace-2, Inputs, data", "batch is divisible by prod(block_shape).", ""},
    {"b2s.crops.fit", kB2S, R, "BatchToSpace-2, Inputs, crops", "crops_begin[i] + crops_end[i] <= block_shape[i] * D_i.", ""},
    {"b2s.output.representable", kB2S, R, "BatchToSpace-2, Outputs", "The product of block_shape and the output dims D_i * B_i are representable (int64).", "D4"},
    {"b2s.block_shape.batch_one", kB2S, U, "BatchToSpace-2, Inputs, block_shape", "block_shape[0] is expected to be 1.", "E5"},
    {"b2s.crops_begin.batch_zero", kB2S, U, "BatchToSpace-2, Inputs, crops_begin", "crops_begin[0] is expected to be 0.", "E5"},
    {"b2s.crops_end.batch_zero", kB2S, U, "BatchToSpace-2, Inputs, crops_end", "crops_end[0] is expected to be 0.", "E5"},

    // ---- SpaceToDepth-1 ----
    {"s2d.data.rank", kS2D, R, "SpaceToDepth-1, Inputs, data", "data: input tensor of type T with rank >= 3.", ""},
    {"s2d.block_size.positive", kS2D, R, "SpaceToDepth-1, Attributes, block_size", "Range of values: a positive integer.", "E10"},
    {"s2d.mode.required", kS2D, R, "SpaceToDepth-1, Attributes, mode", "mode: Required: yes.", ""},
    {"s2d.mode.enum", kS2D, R, "SpaceToDepth-1, Attributes, mode", "Range of values: blocks_first, depth_first.", ""},
    {"s2d.block_size.divides", kS2D, R, "SpaceToDepth-1, Attributes, block_size", "The spatial dimensions must be evenly divided by block_size.", ""},
    {"s2d.output.representable", kS2D, R, "SpaceToDepth-1, Outputs", "C * block_size^K is representable (int64).", "D4"},

    // ---- DepthToSpace-1 ----
    {"d2s.data.rank", kD2S, R, "DepthToSpace-1, Inputs, data", "data: input tensor of type T with rank >= 3.", ""},
    {"d2s.block_size.positive", kD2S, R, "DepthToSpace-1, Attributes, block_size", "Range of values: a positive integer.", "E10"},
    {"d2s.mode.required", kD2S, R, "DepthToSpace-1, Attributes, mode", "mode: Required: yes.", ""},
    {"d2s.mode.enum", kD2S, R, "DepthToSpace-1, Attributes, mode", "Range of values: blocks_first, depth_first.", ""},
    {"d2s.block_size.divides", kD2S, R, "DepthToSpace-1, Attributes, block_size", "The depth dimension size must be evenly divided by block_size ^ (len(input.shape) - 2).", ""},
    {"d2s.output.representable", kD2S, R, "DepthToSpace-1, Outputs", "D_i * block_size is representable (int64).", "D4"},

    // ---- ExtractImagePatches-3 ----
    {"eip.data.rank", kEIP, R, "ExtractImagePatches-3, Inputs, data", "data: 4-D tensor [batch, depth, in_rows, in_cols].", ""},
    {"eip.sizes.length", kEIP, R, "ExtractImagePatches-3, Attributes, sizes", "sizes: [size_rows, size_cols].", ""},
    {"eip.strides.length", kEIP, R, "ExtractImagePatches-3, Attributes, strides", "strides: [stride_rows, stride_cols].", ""},
    {"eip.rates.length", kEIP, R, "ExtractImagePatches-3, Attributes, rates", "rates: [rate_rows, rate_cols].", ""},
    {"eip.sizes.nonnegative", kEIP, R, "ExtractImagePatches-3, Attributes, sizes", "Range of values: non-negative integer number.", "E7"},
    {"eip.strides.positive", kEIP, R, "ExtractImagePatches-3, Attributes, strides", "Range of values: non-negative (read as positive: a stride of 0 defines no patch grid).", "E7"},
    {"eip.rates.positive", kEIP, R, "ExtractImagePatches-3, Attributes, rates", "Range of values: non-negative (read as positive: a rate of 0 collapses the patch).", "E7"},
    {"eip.auto_pad.required", kEIP, R, "ExtractImagePatches-3, Attributes, auto_pad", "auto_pad: Default: none. Required: yes.", ""},
    {"eip.auto_pad.enum", kEIP, R, "ExtractImagePatches-3, Attributes, auto_pad", "Possible values: same_upper, same_lower, valid.", ""},
    {"eip.output.representable", kEIP, R, "ExtractImagePatches-3, Outputs", "size[0] * size[1] * depth and the effective patch size are representable (int64).", "D4"},
    {"eip.sizes.zero", kEIP, U, "ExtractImagePatches-3, Attributes, sizes", "sizes = 0 is allowed by the text (non-negative) but defines an empty patch with no output size.", "E7"},
};
// clang-format on

}  // namespace dmconf::rule_table

#endif  // DMCONF_ORACLE_RULE_TABLE_H_
