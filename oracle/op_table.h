// The op table: one row per op, the one home of what an op is besides its formulas (its name,
// version, rule-id prefix, inputs and attribute group). Everything that asks "which op" of a
// name, a prefix or an input list reads it; code whose behaviour differs per op either reads a
// column here or switches on the op (or its attribute group) without `default:`, so that the
// compiler names every place a new op must be handled (-Wswitch, an error under -Werror).
//
// A new op: a row here, its oracle file (oracle/ops/), its rules (rules.cc), its generator
// (harness/gen/) and its diagnosis models (harness/compare/); harness/README.md, "A new op",
// lists the rest. conformance/harness/tables_test.cc fails when an op lacks a row, a rule, a
// schema enum entry or a name in the plugin ABI's list.
//
// Example:
//   OpRowOf(Op::kBatchToSpace).prefix == "b2s"
//   OpRowOf(Op::kBatchToSpace).int_inputs[1] == "crops_begin"
//   OpRowOf(Op::kExtractImagePatches).attributes == AttributeGroup::kPatches
#ifndef DMCONF_ORACLE_OP_TABLE_H_
#define DMCONF_ORACLE_OP_TABLE_H_

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "oracle/op_case.h"

namespace dmconf {

// Which part of the attribute bundle (OpAttributes, op_attributes.h) an op takes.
enum class AttributeGroup : uint8_t {
  kNone,     // no attribute: SpaceToBatch, BatchToSpace (their parameters are inputs)
  kBlock,    // block_size and mode: SpaceToDepth, DepthToSpace
  kPatches,  // sizes, strides, rates and auto_pad: ExtractImagePatches
};

struct OpRow {
  Op op;
  absl::string_view name;    // the specification's name: "SpaceToBatch"
  int version;               // its opset version: 2 ("SpaceToBatch-2")
  absl::string_view prefix;  // the rule-id and case-id prefix: "s2b"
  // The 1-D integer inputs after `data`, in input order, as the specification names them.
  absl::Span<const absl::string_view> int_inputs;
  AttributeGroup attributes;
  // The attribute whose string selects a variant of the formula ("mode", "auto_pad"), or "".
  absl::string_view mode_attribute;
  // What a block (or window) divides or walks, for a reader of the table and of `dmconf rules`.
  absl::string_view divides;
};

// Every op's row, in the order of enum Op (row i is Op i).
absl::Span<const OpRow> OpTable();
const OpRow& OpRowOf(Op op);

}  // namespace dmconf

#endif  // DMCONF_ORACLE_OP_TABLE_H_
