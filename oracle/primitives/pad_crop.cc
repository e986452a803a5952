#include "oracle/primitives/pad_crop.h"

#include "oracle/primitives/strided_copy.h"

namespace dmconf {

void Pad(const uint8_t* src, absl::Span<const int64_t> src_shape, absl::Span<const int64_t> begin,
         absl::Span<const int64_t> end, int elem_size, uint8_t* dst) {
  Shape dst_shape(src_shape.size());
  for (size_t i = 0; i < src_shape.size(); ++i) dst_shape[i] = src_shape[i] + begin[i] + end[i];
  const std::vector<int64_t> ds = RowMajorStrides(dst_shape);
  ZeroFill(dst, CheckedProduct(dst_shape).value_or(0), elem_size);
  // Nothing to copy: return before offsetting into a buffer that may be empty (null).
  if (CheckedProduct(src_shape).value_or(0) == 0) return;
  // The data lands at offset sum(begin[i] * ds[i]) with the destination's strides.
  int64_t offset = 0;
  for (size_t i = 0; i < src_shape.size(); ++i) offset += begin[i] * ds[i];
  StridedCopy(dst + offset * elem_size, ds, src, RowMajorStrides(src_shape), src_shape, elem_size);
}

void Crop(const uint8_t* src, absl::Span<const int64_t> src_shape, absl::Span<const int64_t> begin,
          absl::Span<const int64_t> end, int elem_size, uint8_t* dst) {
  Shape dst_shape(src_shape.size());
  for (size_t i = 0; i < src_shape.size(); ++i) dst_shape[i] = src_shape[i] - begin[i] - end[i];
  // Nothing to copy: return before offsetting into a buffer that may be empty (null).
  if (CheckedProduct(dst_shape).value_or(0) == 0) return;
  const std::vector<int64_t> ss = RowMajorStrides(src_shape);
  int64_t offset = 0;
  for (size_t i = 0; i < src_shape.size(); ++i) offset += begin[i] * ss[i];
  StridedCopy(dst, RowMajorStrides(dst_shape), src + offset * elem_size, ss, dst_shape, elem_size);
}

}  // namespace dmconf
