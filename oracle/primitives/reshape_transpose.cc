#include "oracle/primitives/reshape_transpose.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "oracle/primitives/strided_copy.h"

namespace dmconf {

absl::StatusOr<Shape> Reshape(absl::Span<const int64_t> from, Shape to) {
  std::optional<int64_t> a = CheckedProduct(from);
  std::optional<int64_t> b = CheckedProduct(to);
  if (!a || !b || *a != *b) {
    return absl::InternalError(absl::StrCat("oracle.reshape: cannot reshape ", ShapeToString(from),
                                            " to ", ShapeToString(to)));
  }
  return to;
}

Shape TransposedShape(absl::Span<const int64_t> in, absl::Span<const int> perm) {
  Shape out(perm.size());
  for (size_t k = 0; k < perm.size(); ++k) out[k] = in[static_cast<size_t>(perm[k])];
  return out;
}

void Transpose(const uint8_t* src, absl::Span<const int64_t> shape, absl::Span<const int> perm,
               Elem elem_size, uint8_t* dst, int threads) {
  const std::vector<int64_t> src_strides = RowMajorStrides(shape);
  const Shape out_shape = TransposedShape(shape, perm);
  const std::vector<int64_t> dst_strides = RowMajorStrides(out_shape);
  // Walk the output box: output axis k moves along input axis perm[k].
  std::vector<int64_t> ss(perm.size());
  for (size_t k = 0; k < perm.size(); ++k) ss[k] = src_strides[static_cast<size_t>(perm[k])];
  StridedCopy(dst, dst_strides, src, ss, out_shape, elem_size, threads);
}

}  // namespace dmconf
