// SpaceToDepth-1, formula by formula (spec/SpaceToDepth-1.md).
#include "absl/strings/str_cat.h"
#include "oracle/ops/op_support.h"
#include "oracle/primitives/plain.h"
#include "oracle/primitives/reshape_transpose.h"

namespace dmconf::internal {

void ValidateSpaceToDepth(const OpCase& c, Validation* v) {
  const Shape& d = c.data.shape;
  const int64_t rank = static_cast<int64_t>(d.size());
  // "data: input tensor of type T with rank >= 3."
  const bool rank_ok = rank >= 3;
  if (!rank_ok) {
    AddViolation(v, "s2d.data.rank",
                 absl::StrCat("data has rank ", rank, " (shape ", ShapeToString(d),
                              "), at least 3 is required"));
  }
  if (!CheckDepthAttributes(c, kSpaceToDepthRules, v) || !rank_ok) return;
  const int64_t b = v->parsed.block_size;
  const int64_t K = rank - 2;
  // "The spatial dimensions must be evenly divided by block_size."
  Shape out = {d[0], 0};
  bool ok = true;
  for (int64_t i = 2; i < rank; ++i) {
    const int64_t D = d[static_cast<size_t>(i)];
    if (D % b != 0) {
      AddViolation(
          v, "s2d.block_size.divides",
          absl::StrCat("spatial dim ", i, " = ", D, " is not divisible by block_size = ", b));
      ok = false;
    }
    out.push_back(D / b);
  }
  if (!ok) return;
  // Output depth C * (block_size ^ K); a zero C gives 0 whatever block_size ^ K is.
  std::optional<int64_t> depth = 0;
  if (d[1] != 0) {
    std::optional<int64_t> bk = CheckedPow(b, K);
    depth = bk ? CheckedMul(d[1], *bk) : std::nullopt;
  }
  if (!depth) {
    AddViolation(v, "s2d.output.representable",
                 absl::StrCat("C * block_size^K = ", d[1], " * ", b, "^", K, " is above 2^63-1"));
    return;
  }
  out[1] = *depth;
  v->output_shape = out;
}

absl::StatusOr<Tensor> EvaluateSpaceToDepth(const OpCase& c, const Validation& v,
                                            const EvalOptions& o) {
  const Shape& d = c.data.shape;
  const int64_t bs = v.parsed.block_size;  // ERRATA E10 default applied by validation
  const DepthMode mode = v.parsed.mode;
  std::vector<uint8_t> unpacked;
  PlainView data = PlainView::Of(c.data, &unpacked);

  const DepthLayout l = SpaceToDepthLayout(d, bs, mode);
  absl::StatusOr<Shape> x1 = Reshape(d, l.split);
  if (!x1.ok()) return x1.status();
  absl::StatusOr<PlainResult> y =
      PlainResult::Make(c.data.type, v.output_shape, o.max_bytes, o.output_storage);
  if (!y.ok()) return y.status();
  Transpose(data.data, *x1, l.perm, data.elem_size, y->data(), o.threads);

  // y = reshape(x'', [N, C * (block_size ^ K), D1 / block_size, D2 / block_size, ...,
  //                   DK / block_size])
  absl::StatusOr<Shape> y_shape = Reshape(TransposedShape(*x1, l.perm), v.output_shape);
  if (!y_shape.ok()) return y_shape.status();
  return std::move(*y).Finish();
}

}  // namespace dmconf::internal

namespace dmconf {

DepthLayout SpaceToDepthLayout(const Shape& d, int64_t bs, DepthMode mode) {
  const int K = static_cast<int>(d.size()) - 2;
  // x' = reshape(data, [N, C, D1 / block_size, block_size, D2 / block_size, block_size, ...,
  //                     DK / block_size, block_size])
  Shape x1_target = {d[0], d[1]};
  for (int k = 0; k < K; ++k) {
    x1_target.push_back(d[static_cast<size_t>(k + 2)] / bs);
    x1_target.push_back(bs);
  }

  std::vector<int> perm = {0};
  if (mode == DepthMode::kBlocksFirst) {
    // x'' = transpose(x', [0, 3, 5, ..., K + (K + 1), 1, 2, 4, ..., K + K])
    for (int k = 1; k <= K; ++k) perm.push_back(2 * k + 1);
    perm.push_back(1);
    for (int k = 1; k <= K; ++k) perm.push_back(2 * k);
  } else {
    // x'' = transpose(x', [0, 1, 3, 5, ..., K + (K + 1), 2, 4, ..., K + K])
    perm.push_back(1);
    for (int k = 1; k <= K; ++k) perm.push_back(2 * k + 1);
    for (int k = 1; k <= K; ++k) perm.push_back(2 * k);
  }
  return {x1_target, perm};
}

}  // namespace dmconf
