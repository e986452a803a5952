// SpaceToBatch-2, formula by formula (spec/SpaceToBatch-2.md).
#include "absl/strings/str_cat.h"
#include "oracle/ops/op_support.h"
#include "oracle/primitives/plain.h"
#include "oracle/primitives/reshape_transpose.h"
#include "oracle/primitives/views.h"

namespace dmconf::internal {
void ValidateSpaceToBatch(const OpCase& c, Validation* v) {
  const Shape& d = c.data.shape;
  const int64_t N = static_cast<int64_t>(d.size());
  // "data: N-D tensor [batch, D_1, D_2 ... D_{N - 1}] ... rank >= 2."
  if (N < 2) {
    AddViolation(v, "s2b.data.rank",
                 absl::StrCat("data has rank ", N, " (shape ", ShapeToString(d),
                              "), at least 2 is required"));
  }
  if (!CheckBlockInputs(c, kSpaceToBatchRules, v)) return;
  const std::array<std::vector<int64_t>, 3>& vals = v->parsed.block_inputs;

  // P_i = pads_begin[i] + pads_end[i]; "block_shape[i] divides data_shape[i] + P_i".
  // Axis 0 is governed by the "expected to be" rules alone (docs/errata.md, E5).
  Shape out(static_cast<size_t>(N));
  bool ok = true;
  for (int64_t i = 1; i < N; ++i) {
    const size_t k = static_cast<size_t>(i);
    const int64_t B = vals[0][k];
    std::optional<int64_t> padded = CheckedAdd(d[k], vals[1][k]);
    if (padded) padded = CheckedAdd(*padded, vals[2][k]);
    if (!padded) {
      AddViolation(v, "s2b.output.representable",
                   absl::StrCat("axis ", i, ": ", d[k], " + ", vals[1][k], " + ", vals[2][k],
                                " is above 2^63-1"));
      ok = false;
      continue;
    }
    if (*padded % B != 0) {
      AddViolation(
          v, "s2b.block_shape.divides",
          absl::StrCat("axis ", i, ": (", d[k], " + ", vals[1][k], " + ", vals[2][k],
                       ") = ", *padded, " is not divisible by block_shape[", i, "] = ", B));
      ok = false;
      continue;
    }
    out[k] = *padded / B;
  }
  if (!ok) return;
  // Output batch: batch * block_shape[0] * block_shape[1] * ... * block_shape[N - 1].
  std::optional<int64_t> batch = d[0];
  for (int64_t i = 0; i < N && batch; ++i)
    batch = CheckedMul(*batch, vals[0][static_cast<size_t>(i)]);
  if (!batch) {
    AddViolation(v, "s2b.output.representable",
                 absl::StrCat("the output batch ", d[0], " * prod(block_shape) is above 2^63-1"));
    return;
  }
  out[0] = *batch;
  v->output_shape = out;
  if (!CheckedProduct(out)) {
    AddViolation(
        v, "s2b.output.representable",
        absl::StrCat("the output shape ", ShapeToString(out), " has more than 2^63-1 elements"));
  }
}

absl::StatusOr<Tensor> EvaluateSpaceToBatch(const OpCase& c, const Validation& v,
                                            const EvalOptions& o) {
  const std::vector<int64_t>& block = v.parsed.block_inputs[0];
  const std::vector<int64_t>& pads_begin = v.parsed.block_inputs[1];
  const std::vector<int64_t>& pads_end = v.parsed.block_inputs[2];
  const Shape& d = c.data.shape;
  const size_t N = d.size();
  std::vector<uint8_t> unpacked;
  PlainView data = PlainView::Of(c.data, &unpacked);
  const Elem es = data.elem_size;

  // x = [batch + P_0, D_1 + P_1, D_2 + P_2, ..., D_{N - 1} + P_{N - 1}]  (zero padding)
  // A view: no data moves here; the transpose below writes the zeros (docs/performance.md).
  const PaddedView x = PadView(data.data, d, pads_begin, pads_end);

  // x' = reshape(x, [batch, (D_1 + P_1) / B_1, B_1, ..., (D_{N-1} + P_{N-1}) / B_{N-1}, B_{N-1}])
  Shape x1_target = {x.shape[0]};
  for (size_t i = 1; i < N; ++i) {
    x1_target.push_back(x.shape[i] / block[i]);
    x1_target.push_back(block[i]);
  }
  absl::StatusOr<Shape> x1 = Reshape(x.shape, x1_target);
  if (!x1.ok()) return x1.status();

  // x'' = transpose(x', [2, 4, ..., 2N - 2, 0, 1, 3, ..., 2N - 3])   (ERRATA E1: the spec's
  // last index "N + (N - 1)" is one past the 2N - 1 axes of x'.)
  std::vector<int> perm;
  for (size_t i = 1; i < N; ++i) perm.push_back(static_cast<int>(2 * i));
  perm.push_back(0);
  for (size_t i = 1; i < N; ++i) perm.push_back(static_cast<int>(2 * i - 1));

  absl::StatusOr<PlainResult> y =
      PlainResult::Make(c.data.type, v.output_shape, o.max_bytes, o.output_storage);
  if (!y.ok()) return y.status();
  absl::Status moved = Transpose(x, *x1, perm, es, y->data(), o.threads);
  if (!moved.ok()) return moved;

  // y = reshape(x'', [batch * B_1 * ... * B_{N - 1}, (D_1 + P_1) / B_1, ...,
  //                   (D_{N - 1} + P_{N - 1}) / B_{N - 1}])
  absl::StatusOr<Shape> y_shape = Reshape(TransposedShape(*x1, perm), v.output_shape);
  if (!y_shape.ok()) return y_shape.status();
  return std::move(*y).Finish();
}

}  // namespace dmconf::internal
