// Reshape (a view: no data moves) and Transpose (a generic N-D permutation).
//
// Example:
//   absl::StatusOr<Shape> s = Reshape({2, 6}, {2, 2, 3});       // {2, 2, 3}
//   Transpose(src, {2, 3}, {1, 0}, 4, dst);                     // dst is 3x2
#ifndef DMCONF_ORACLE_PRIMITIVES_RESHAPE_TRANSPOSE_H_
#define DMCONF_ORACLE_PRIMITIVES_RESHAPE_TRANSPOSE_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "oracle/primitives/elem.h"
#include "oracle/shape.h"

namespace dmconf {

// Returns `to` when it has as many elements as `from`; the data is reinterpreted in place.
// The error is an oracle bug (the ops compute both sides), so it names no spec rule.
absl::StatusOr<Shape> Reshape(absl::Span<const int64_t> from, Shape to);

// Shape after transpose: out[i] = in[perm[i]].
Shape TransposedShape(absl::Span<const int64_t> in, absl::Span<const int> perm);

// out[j_0, ..., j_{n-1}] = in[i] where i[perm[k]] = j_k (numpy.transpose semantics).
// src is row-major of `shape`; dst is row-major of TransposedShape(shape, perm). threads: as
// StridedCopy (the same bits for any count).
void Transpose(const uint8_t* src, absl::Span<const int64_t> shape, absl::Span<const int> perm,
               Elem elem_size, uint8_t* dst, int threads = 1);

}  // namespace dmconf

#endif  // DMCONF_ORACLE_PRIMITIVES_RESHAPE_TRANSPOSE_H_
