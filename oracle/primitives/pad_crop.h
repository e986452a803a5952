// Pad (zero fill around the data) and Crop (cut from both ends), N-D.
//
// Example:
//   Pad(src, {2, 3}, {0, 1}, {0, 2}, 4, dst);    // dst is 2x6, columns 0, 4, 5 are zero
//   Crop(src, {2, 6}, {0, 1}, {0, 2}, 4, dst);   // dst is 2x3, the inverse
#ifndef DMCONF_ORACLE_PRIMITIVES_PAD_CROP_H_
#define DMCONF_ORACLE_PRIMITIVES_PAD_CROP_H_

#include <cstdint>

#include "absl/types/span.h"
#include "oracle/shape.h"

namespace dmconf {

// dst has shape src_shape[i] + begin[i] + end[i]; the padding elements are all-zero bits
// (docs/errata.md D2). begin and end are non-negative.
void Pad(const uint8_t* src, absl::Span<const int64_t> src_shape, absl::Span<const int64_t> begin,
         absl::Span<const int64_t> end, int elem_size, uint8_t* dst);

// dst has shape src_shape[i] - begin[i] - end[i] (each >= 0).
void Crop(const uint8_t* src, absl::Span<const int64_t> src_shape, absl::Span<const int64_t> begin,
          absl::Span<const int64_t> end, int elem_size, uint8_t* dst);

}  // namespace dmconf

#endif  // DMCONF_ORACLE_PRIMITIVES_PAD_CROP_H_
