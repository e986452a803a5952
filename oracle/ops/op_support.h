// Internal to the oracle: what each op file provides, and the helpers they share.
#ifndef DMCONF_ORACLE_OPS_OP_SUPPORT_H_
#define DMCONF_ORACLE_OPS_OP_SUPPORT_H_

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "oracle/oracle.h"
#include "oracle/rule_id.h"

namespace dmconf::internal {

// Appends a violation of `rule` with message "id: detail". RuleId is checked at compile time
// (oracle/rule_id.h): a misspelt rule id does not compile.
void AddViolation(Validation* v, RuleId rule, absl::string_view detail);

// Values of a validated 1-D integer input; std::nullopt entries are values above INT64_MAX.
std::vector<std::optional<int64_t>> IntegerValues(const Tensor& t);

// Per op: every rule check plus the output shape (into *v); and the evaluation of a case
// whose validation is `valid`.
void ValidateSpaceToBatch(const OpCase& c, Validation* v);
void ValidateBatchToSpace(const OpCase& c, Validation* v);
void ValidateSpaceToDepth(const OpCase& c, Validation* v);
void ValidateDepthToSpace(const OpCase& c, Validation* v);
void ValidateExtractImagePatches(const OpCase& c, Validation* v);

absl::StatusOr<Tensor> EvaluateSpaceToBatch(const OpCase& c, const Validation& v,
                                            const EvalOptions& o);
absl::StatusOr<Tensor> EvaluateBatchToSpace(const OpCase& c, const Validation& v,
                                            const EvalOptions& o);
absl::StatusOr<Tensor> EvaluateSpaceToDepth(const OpCase& c, const Validation& v,
                                            const EvalOptions& o);
absl::StatusOr<Tensor> EvaluateDepthToSpace(const OpCase& c, const Validation& v,
                                            const EvalOptions& o);
absl::StatusOr<Tensor> EvaluateExtractImagePatches(const OpCase& c, const Validation& v,
                                                   const EvalOptions& o);

// Shared by SpaceToDepth and DepthToSpace: block_size (default 1, ERRATA E10) and mode checks,
// reported under the op's own rules and stored in v->parsed. Returns false when block_size or
// mode is unusable (a violation was added).
struct DepthRules {
  RuleId block_size_positive, mode_required, mode_enum;
};
inline constexpr DepthRules kSpaceToDepthRules{"s2d.block_size.positive", "s2d.mode.required",
                                               "s2d.mode.enum"};
inline constexpr DepthRules kDepthToSpaceRules{"d2s.block_size.positive", "d2s.mode.required",
                                               "d2s.mode.enum"};
bool CheckDepthAttributes(const OpCase& c, const DepthRules& rules, Validation* v);

// Shared by SpaceToBatch and BatchToSpace: types, shapes and values of the three integer
// inputs (named by IntInputNames), reported under the op's own rules. Returns false when the values
// cannot be used; otherwise v->parsed.block_inputs holds block, begin and end.
struct BlockRules {
  RuleId integer_type, shape, representable, batch_one;
  std::array<RuleId, 3> value;       // block_shape positive, begin / end non-negative
  std::array<RuleId, 2> batch_zero;  // begin[0] / end[0] expected 0
  bool one_type;  // BatchToSpace: the three inputs must share one type (b2s.inputs.same_type)
};
inline constexpr BlockRules kSpaceToBatchRules{
    "s2b.inputs.integer_type",
    "s2b.inputs.shape",
    "s2b.output.representable",
    "s2b.block_shape.batch_one",
    {"s2b.block_shape.positive", "s2b.pads_begin.nonnegative", "s2b.pads_end.nonnegative"},
    {"s2b.pads_begin.batch_zero", "s2b.pads_end.batch_zero"},
    false};
inline constexpr BlockRules kBatchToSpaceRules{
    "b2s.inputs.integer_type",
    "b2s.inputs.shape",
    "b2s.output.representable",
    "b2s.block_shape.batch_one",
    {"b2s.block_shape.positive", "b2s.crops_begin.nonnegative", "b2s.crops_end.nonnegative"},
    {"b2s.crops_begin.batch_zero", "b2s.crops_end.batch_zero"},
    true};
bool CheckBlockInputs(const OpCase& c, const BlockRules& rules, Validation* v);

}  // namespace dmconf::internal

#endif  // DMCONF_ORACLE_OPS_OP_SUPPORT_H_
