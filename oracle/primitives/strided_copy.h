// The one copy engine behind Transpose, Pad, Crop and the patch gather.
//
// Copies an N-D box of `shape` elements from src to dst, each side with its own strides (in
// elements). All index arithmetic of the oracle's data movement lives here and in the
// primitives built on it; they are tested against brute-force loops
// (conformance/primitives_test.cc).
//
// What makes it fast (docs/performance.md): size-1 axes are dropped and axes that stay
// adjacent on both sides are merged; contiguous runs are copied with memcpy; when the source
// and destination fastest axes differ, a 2-D tile kernel moves them (an interleave when one
// side is 2-4 elements wide, 16-byte vector shuffles for 2); loops are specialised per element
// size (1, 2, 4, 8 bytes); copies of 8 MiB or more write the interleaves, and strided runs of
// 64 bytes or more (walked in the source's order, or in the destination's where only that keeps
// both sides' runs dense), with non-temporal stores on x86 (fenced before returning). Packed
// sub-byte elements (elem.h) move as bytes where offsets, strides and runs are whole bytes, through
// word kernels for the 2-way interleave (packed_bits.h), else element by element. Copies of 1 MiB
// or more may be split between threads.
//
// Example (a 2x3 -> 3x2 transpose of 4-byte elements): for every (r, c) of the 2x3 box,
// dst[c * 2 + r] = src[r * 3 + c], so src walks with strides {3, 1} and dst with {1, 2}:
//   StridedCopy(dst, {1, 2}, src, {3, 1}, {2, 3}, 4);
#ifndef DMCONF_ORACLE_PRIMITIVES_STRIDED_COPY_H_
#define DMCONF_ORACLE_PRIMITIVES_STRIDED_COPY_H_

#include <cstdint>

#include "absl/types/span.h"
#include "oracle/primitives/elem.h"

namespace dmconf {

// For every multi-index i inside `shape`:
//   dst[sum(i[k] * dst_strides[k])] = src[sum(i[k] * src_strides[k])]
// elem is 1, 2, 4 or 8 bytes, or packed sub-byte elements (elem.h). Strides may be any
// non-negative values; the caller guarantees every touched offset is inside its buffer, that
// dst offsets are distinct and that the src and dst buffers do not overlap. With threads > 1,
// copies of 1 MiB or more are split between that many threads (one axis cut into ranges;
// packed elements only where the parts share no byte); the result is the same bits.
void StridedCopy(uint8_t* dst, absl::Span<const int64_t> dst_strides, const uint8_t* src,
                 absl::Span<const int64_t> src_strides, absl::Span<const int64_t> shape, Elem elem,
                 int threads = 1);

// The same from element dst_offset of dst and src_offset of src (the only way to address a
// packed element that does not start a byte).
void StridedCopyAt(uint8_t* dst, int64_t dst_offset, absl::Span<const int64_t> dst_strides,
                   const uint8_t* src, int64_t src_offset, absl::Span<const int64_t> src_strides,
                   absl::Span<const int64_t> shape, Elem elem, int threads = 1);

// For every multi-index i inside `shape`: dst[offset + sum(i[k] * strides[k])] = all-zero bits.
void ZeroStrided(uint8_t* dst, int64_t offset, absl::Span<const int64_t> strides,
                 absl::Span<const int64_t> shape, Elem elem);

// Sets n elements of elem_size bytes to the all-zero bit pattern.
void ZeroFill(uint8_t* dst, int64_t n, int elem_size);

}  // namespace dmconf

#endif  // DMCONF_ORACLE_PRIMITIVES_STRIDED_COPY_H_
