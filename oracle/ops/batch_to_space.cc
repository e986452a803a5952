// BatchToSpace-2, formula by formula (spec/BatchToSpace-2.md).
#include "absl/strings/str_cat.h"
#include "oracle/ops/op_support.h"
#include "oracle/primitives/plain.h"
#include "oracle/primitives/reshape_transpose.h"
#include "oracle/primitives/views.h"

namespace dmconf::internal {

void ValidateBatchToSpace(const OpCase& c, Validation* v) {
  const Shape& d = c.data.shape;
  const int64_t N = static_cast<int64_t>(d.size());
  if (N < 2) {
    AddViolation(v, "b2s.data.rank",
                 absl::StrCat("data has rank ", N, " (shape ", ShapeToString(d),
                              "), at least 2 is required"));
  }
  if (!CheckBlockInputs(c, kBatchToSpaceRules, v)) return;
  const std::array<std::vector<int64_t>, 3>& vals = v->parsed.block_inputs;

  // "batch divisible by prod(block_shape)".
  std::optional<int64_t> prod = 1;
  for (int64_t i = 0; i < N && prod; ++i) prod = CheckedMul(*prod, vals[0][static_cast<size_t>(i)]);
  if (!prod) {
    AddViolation(v, "b2s.output.representable", "prod(block_shape) is above 2^63-1");
    return;
  }
  Shape out(static_cast<size_t>(N));
  bool ok = true;
  if (d[0] % *prod != 0) {
    AddViolation(
        v, "b2s.batch.divisible",
        absl::StrCat("batch = ", d[0], " is not divisible by prod(block_shape) = ", *prod));
    ok = false;
  } else {
    out[0] = d[0] / *prod;
  }
  // "crops_begin[i] + crops_end[i] <= block_shape[i] * D_i"; output D_i * B_i - CB_i - CE_i.
  // Axis 0 is governed by the "expected to be" rules alone (docs/errata.md, E5).
  for (int64_t i = 1; i < N; ++i) {
    const size_t k = static_cast<size_t>(i);
    std::optional<int64_t> full = CheckedMul(d[k], vals[0][k]);
    std::optional<int64_t> crop = CheckedAdd(vals[1][k], vals[2][k]);
    if (!full) {
      AddViolation(v, "b2s.output.representable",
                   absl::StrCat("axis ", i, ": D_", i, " * block_shape[", i, "] = ", d[k], " * ",
                                vals[0][k], " is above 2^63-1"));
      ok = false;
      continue;
    }
    if (!crop || *crop > *full) {
      AddViolation(v, "b2s.crops.fit",
                   absl::StrCat("axis ", i, ": crops_begin + crops_end = ", vals[1][k], " + ",
                                vals[2][k], " exceeds block_shape[", i, "] * D_", i, " = ", *full));
      ok = false;
      continue;
    }
    out[k] = *full - *crop;
  }
  if (ok) v->output_shape = out;
}

absl::StatusOr<Tensor> EvaluateBatchToSpace(const OpCase& c, const Validation& v,
                                            const EvalOptions& o) {
  const Shape& d = c.data.shape;
  const size_t N = d.size();
  const std::vector<int64_t>& B = v.parsed.block_inputs[0];
  const std::vector<int64_t>& CB = v.parsed.block_inputs[1];
  const std::vector<int64_t>& CE = v.parsed.block_inputs[2];
  std::vector<uint8_t> unpacked;
  PlainView data = PlainView::Of(c.data, &unpacked);
  const Elem es = data.elem_size;

  int64_t prod = 1;
  for (size_t i = 1; i < N; ++i) prod *= B[i];
  // x' = reshape(data, [B_1, ..., B_{N-1}, batch / (B_1 * ... * B_{N-1}), D_1, ..., D_{N-1}])
  Shape x1_target;
  for (size_t i = 1; i < N; ++i) x1_target.push_back(B[i]);
  x1_target.push_back(d[0] / prod);
  for (size_t i = 1; i < N; ++i) x1_target.push_back(d[i]);
  absl::StatusOr<Shape> x1 = Reshape(d, x1_target);
  if (!x1.ok()) return x1.status();

  // x'' = transpose(x', [N-1, N, 0, N+1, 1, ..., 2N-2, N-2])   (ERRATA E2)
  std::vector<int> perm = {static_cast<int>(N - 1)};
  for (size_t i = 0; i + 1 < N; ++i) {
    perm.push_back(static_cast<int>(N + i));
    perm.push_back(static_cast<int>(i));
  }
  // A view: no data moves here; the crop below copies only the elements it keeps
  // (docs/performance.md).
  const TransposedView x2 = TransposeView(data.data, *x1, perm);

  // x''' = reshape(x'', [batch / (B_1 * ... * B_{N-1}), D_1 * B_1, ..., D_{N-1} * B_{N-1}])
  Shape x3_target = {d[0] / prod};
  for (size_t i = 1; i < N; ++i) x3_target.push_back(d[i] * B[i]);
  absl::StatusOr<Shape> x3 = Reshape(x2.shape, x3_target);
  if (!x3.ok()) return x3.status();

  absl::StatusOr<PlainResult> y =
      PlainResult::Make(c.data.type, v.output_shape, o.max_bytes, o.output_storage);
  if (!y.ok()) return y.status();
  // y = crop x''' by crops_begin at the start and crops_end at the end of every axis
  absl::Status moved = Crop(x2, *x3, CB, CE, es, y->data(), o.threads);
  if (!moved.ok()) return moved;
  return std::move(*y).Finish();
}

}  // namespace dmconf::internal
