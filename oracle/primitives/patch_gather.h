// The patch gather of ExtractImagePatches: every output element is one input element (at a
// dilated offset inside a strided patch) or a zero from the implicit padding.
//
//   out[n, (kh * KW + kw) * C + c, oh, ow] =
//       in[n, c, oh * SH + kh * RH - PT, ow * SW + kw * RW - PL]   (0 outside the input)
//
// The channel is the fastest part of the output depth (ERRATA E9, spec example 5).
//
// Example (spec example 1: sizes 3x3, strides 5x5, rates 1x1, valid, 1x1x10x10 -> 1x9x2x2):
//   PatchGather(src, {1, 1, 10, 10}, {{3, 3}, {5, 5}, {1, 1}, {0, 0}, {2, 2}}, 4, dst);
#ifndef DMCONF_ORACLE_PRIMITIVES_PATCH_GATHER_H_
#define DMCONF_ORACLE_PRIMITIVES_PATCH_GATHER_H_

#include <array>
#include <cstdint>

#include "absl/types/span.h"
#include "oracle/primitives/elem.h"

namespace dmconf {

struct PatchGeometry {
  std::array<int64_t, 2> sizes;      // KH, KW (>= 1)
  std::array<int64_t, 2> strides;    // SH, SW (>= 1)
  std::array<int64_t, 2> rates;      // RH, RW (>= 1)
  std::array<int64_t, 2> pad_begin;  // PT, PL (>= 0)
  std::array<int64_t, 2> out;        // OH, OW
};

// src is [N, C, H, W] row-major; dst is [N, KH*KW*C, OH, OW] row-major. With threads > 1,
// outputs of 1 MiB or more are split between threads into stretches of output elements
// (packed ones starting on whole bytes); the same bits.
void PatchGather(const uint8_t* src, absl::Span<const int64_t> nchw, const PatchGeometry& g,
                 Elem elem_size, uint8_t* dst, int threads = 1);

}  // namespace dmconf

#endif  // DMCONF_ORACLE_PRIMITIVES_PATCH_GATHER_H_
