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

namespace dmconf::internal {

// Appends a violation of rule `id` (which must be in the table) with message "id: detail".
void AddViolation(Validation* v, absl::string_view id, absl::string_view detail);

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

// Shared by SpaceToDepth and DepthToSpace: block_size (default 1, ERRATA E10) and mode checks.
// Returns false when block_size or mode is unusable (a violation was added).
struct DepthAttributes {
  int64_t block_size = 1;
  DepthMode mode = DepthMode::kBlocksFirst;
};
bool CheckDepthAttributes(const OpCase& c, absl::string_view prefix, Validation* v,
                          DepthAttributes* out);

// Shared by SpaceToBatch and BatchToSpace: types, shapes and values of the three integer
// inputs. names = {"block_shape", "pads_begin", "pads_end"} (or crops). Returns false when the
// values cannot be used; *values gets block, begin, end (int64, nullopt above INT64_MAX).
bool CheckBlockInputs(const OpCase& c, absl::string_view prefix,
                      const std::array<absl::string_view, 3>& names, Validation* v,
                      std::array<std::vector<std::optional<int64_t>>, 3>* values);

// ExtractImagePatches geometry, shared by validation and evaluation (ERRATA E8).
struct EipGeometry {
  std::array<int64_t, 2> in, size, stride, rate, eff, out, pad_begin;
  AutoPad auto_pad;
};

}  // namespace dmconf::internal

#endif  // DMCONF_ORACLE_OPS_OP_SUPPORT_H_
