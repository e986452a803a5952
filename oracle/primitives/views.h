// Pad and transpose as views: the formula's intermediate is described, not written out, and
// the copy that consumes it applies it on the fly.
//
// SpaceToBatch pads, then reshapes and transposes; BatchToSpace reshapes and transposes, then
// crops. Written out, the padded x (or the transposed x''') is one more full copy of the
// tensor; as a view, the transpose writes the zero frame itself (or copies only the elements
// the crop keeps), so each op moves every element once (docs/performance.md).
//
// Example (SpaceToBatch of a [1, 3] tensor, block [1, 2], pads_begin [0, 1], pads_end [0, 0]):
//   PaddedView x = PadView(data, {1, 3}, {0, 1}, {0, 0});   // x.shape = {1, 4}; no data moves
//   // x' = reshape(x, [1, 2, 2]); x'' = transpose(x', [2, 0, 1])
//   absl::Status s = Transpose(x, {1, 2, 2}, {2, 0, 1}, 4, dst);   // dst = [[0, d1], [d0, d2]]
//
// Example (BatchToSpace of a [2, 2] tensor, block [1, 2], crops_begin [0, 1], crops_end 0):
//   TransposedView x2 = TransposeView(data, {2, 1, 2}, {1, 2, 0});   // x2.shape = {1, 2, 2}
//   // x''' = reshape(x2, [1, 4]); y = crop(x''') to [1, 3]
//   absl::Status s = Crop(x2, {1, 4}, {0, 1}, {0, 0}, 4, dst);
#ifndef DMCONF_ORACLE_PRIMITIVES_VIEWS_H_
#define DMCONF_ORACLE_PRIMITIVES_VIEWS_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "oracle/primitives/elem.h"
#include "oracle/shape.h"

namespace dmconf {

// pad(data, begin, end) with all-zero bits in the padding (docs/errata.md D2), as a view.
struct PaddedView {
  const uint8_t* data = nullptr;  // row-major, data_shape
  Shape data_shape;
  std::vector<int64_t> begin;  // zeros before the data on each axis (>= 0)
  Shape shape;                 // data_shape[i] + begin[i] + end[i]
};
PaddedView PadView(const uint8_t* data, absl::Span<const int64_t> data_shape,
                   absl::Span<const int64_t> begin, absl::Span<const int64_t> end);

// transpose(reshape(data, split), perm) (numpy semantics, as Transpose()), as a view.
struct TransposedView {
  const uint8_t* data = nullptr;  // row-major, split
  Shape split;
  std::vector<int> perm;
  Shape shape;  // TransposedShape(split, perm)
};
TransposedView TransposeView(const uint8_t* data, absl::Span<const int64_t> split,
                             absl::Span<const int> perm);

// dst = transpose(reshape(x, split), perm), row-major, the zero padding written by this copy.
// `split` is a reshape of x.shape that splits each axis into at most two axes (size-1 axes
// aside); otherwise nothing is written and an InternalError (an oracle bug) is returned.
absl::Status Transpose(const PaddedView& x, absl::Span<const int64_t> split,
                       absl::Span<const int> perm, Elem elem_size, uint8_t* dst, int threads = 1);

// dst = crop(reshape(x, merged), begin, end), row-major: only the elements the crop keeps are
// copied. `merged` is a reshape of x.shape that merges at most two neighbouring axes into one
// (size-1 axes aside), and begin[i] + end[i] <= merged[i]; otherwise nothing is written and an
// InternalError (an oracle bug) is returned.
absl::Status Crop(const TransposedView& x, absl::Span<const int64_t> merged,
                  absl::Span<const int64_t> begin, absl::Span<const int64_t> end, Elem elem_size,
                  uint8_t* dst, int threads = 1);

}  // namespace dmconf

#endif  // DMCONF_ORACLE_PRIMITIVES_VIEWS_H_
