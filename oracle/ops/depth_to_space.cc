// DepthToSpace-1, formula by formula (spec/DepthToSpace-1.md).
#include "absl/strings/str_cat.h"
#include "oracle/ops/op_support.h"
#include "oracle/primitives/plain.h"
#include "oracle/primitives/reshape_transpose.h"

namespace dmconf::internal {

void ValidateDepthToSpace(const OpCase& c, Validation* v) {
  const Shape& d = c.data.shape;
  const int64_t rank = static_cast<int64_t>(d.size());
  const bool rank_ok = rank >= 3;
  if (!rank_ok) {
    AddViolation(v, "d2s.data.rank",
                 absl::StrCat("data has rank ", rank, " (shape ", ShapeToString(d),
                              "), at least 3 is required"));
  }
  if (!CheckDepthAttributes(c, kDepthToSpaceRules, v) || !rank_ok) return;
  const int64_t b = v->parsed.block_size;
  const int64_t K = rank - 2;
  // "The depth dimension size must be evenly divided by block_size ^ (len(input.shape) - 2)."
  // block_size ^ K above 2^63-1 exceeds every C, so it divides only C = 0.
  std::optional<int64_t> bk = CheckedPow(b, K);
  const bool divides = bk ? d[1] % *bk == 0 : d[1] == 0;
  if (!divides) {
    AddViolation(v, "d2s.block_size.divides",
                 absl::StrCat("depth C = ", d[1], " is not divisible by block_size^K = ", b, "^", K,
                              bk ? absl::StrCat(" = ", *bk) : std::string(" (above 2^63-1)")));
    return;
  }
  // Output [N, C / block_size ^ K, D1 * block_size, ..., DK * block_size].
  Shape out = {d[0], bk ? d[1] / *bk : 0};
  for (int64_t i = 2; i < rank; ++i) {
    std::optional<int64_t> D = CheckedMul(d[static_cast<size_t>(i)], b);
    if (!D) {
      AddViolation(v, "d2s.output.representable",
                   absl::StrCat("spatial dim ", i, " * block_size = ", d[static_cast<size_t>(i)],
                                " * ", b, " is above 2^63-1"));
      return;
    }
    out.push_back(*D);
  }
  if (!CheckedProduct(out)) {
    AddViolation(
        v, "d2s.output.representable",
        absl::StrCat("the output shape ", ShapeToString(out), " has more than 2^63-1 elements"));
    return;
  }
  v->output_shape = out;
}

absl::StatusOr<Tensor> EvaluateDepthToSpace(const OpCase& c, const Validation& v,
                                            const EvalOptions& o) {
  const Shape& d = c.data.shape;
  const int64_t bs = v.parsed.block_size;  // ERRATA E10 default applied by validation
  const DepthMode mode = v.parsed.mode;
  std::vector<uint8_t> unpacked;
  PlainView data = PlainView::Of(c.data, &unpacked);

  const DepthLayout l = DepthToSpaceLayout(d, bs, mode);
  absl::StatusOr<Shape> x1 = Reshape(d, l.split);
  if (!x1.ok()) return x1.status();

  absl::StatusOr<PlainResult> y =
      PlainResult::Make(c.data.type, v.output_shape, o.max_bytes, o.output_storage);
  if (!y.ok()) return y.status();
  Transpose(data.data, *x1, l.perm, data.elem_size, y->data(), o.threads);

  // y = reshape(x'', [N, C / (block_size ^ K), D1 * block_size, D2 * block_size, ...,
  //                   DK * block_size])
  absl::StatusOr<Shape> y_shape = Reshape(TransposedShape(*x1, l.perm), v.output_shape);
  if (!y_shape.ok()) return y_shape.status();
  return std::move(*y).Finish();
}

}  // namespace dmconf::internal

namespace dmconf {

DepthLayout DepthToSpaceLayout(const Shape& d, int64_t bs, DepthMode mode) {
  const int K = static_cast<int>(d.size()) - 2;
  int64_t bk = 1;
  for (int k = 0; k < K; ++k) bk *= bs;
  const int64_t C_out = d[1] / bk;  // C / (block_size ^ K)
  Shape x1_target = {d[0]};
  std::vector<int> perm = {0};
  if (mode == DepthMode::kBlocksFirst) {
    // x' = reshape(data, [N, block_size, block_size, ..., block_size, C / (block_size ^ K),
    //                     D1, D2, ..., DK])
    for (int k = 0; k < K; ++k) x1_target.push_back(bs);
    x1_target.push_back(C_out);
    // x'' = transpose(x', [0, K + 1, K + 2, 1, K + 3, 2, K + 4, 3, ..., K + (K + 1), K])
    perm.push_back(K + 1);
    for (int k = 1; k <= K; ++k) {
      perm.push_back(K + 1 + k);
      perm.push_back(k);
    }
  } else {
    // x' = reshape(data, [N, C / (block_size ^ K), block_size, block_size, ..., block_size,
    //                     D1, D2, ..., DK])
    x1_target.push_back(C_out);
    for (int k = 0; k < K; ++k) x1_target.push_back(bs);
    // x'' = transpose(x', [0, 1, K + 2, 2, K + 3, 3, K + 4, 4, ..., K + (K + 1), K + 1])
    perm.push_back(1);
    for (int k = 1; k <= K; ++k) {
      perm.push_back(K + 1 + k);
      perm.push_back(k + 1);
    }
  }
  for (int k = 0; k < K; ++k) x1_target.push_back(d[static_cast<size_t>(k + 2)]);
  return {x1_target, perm};
}

}  // namespace dmconf
