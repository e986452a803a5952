#include "oracle/primitives/patch_gather.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "oracle/primitives/parallel.h"

namespace dmconf {
namespace {

typedef uint16_t __attribute__((may_alias)) u16a;
typedef uint32_t __attribute__((may_alias)) u32a;
typedef uint64_t __attribute__((may_alias)) u64a;

// Smallest ow with ow * s + base >= 0, i.e. ceil(-base / s) clipped at 0. Unsigned: -base + s - 1
// would overflow for strides near 2^63 (found by the property LiteralOracleAgreesWithDirect-
// Formulas: stride 2^63 - 2 with a pad of 2^31 + 1 gave a negative start and a wild read).
int64_t FirstInside(int64_t base, int64_t s) {
  if (base >= 0) return 0;
  const uint64_t m = uint64_t{0} - static_cast<uint64_t>(base);  // -base, also for INT64_MIN
  const uint64_t us = static_cast<uint64_t>(s);
  const uint64_t q = m / us + (m % us != 0 ? 1 : 0);
  return q > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<int64_t>(q);
}
// Number of ow in [0, limit) with ow * s + base <= last (last may be negative). last - base is
// formed unsigned: it may exceed INT64_MAX.
int64_t EndInside(int64_t base, int64_t s, int64_t last, int64_t limit) {
  if (last < base) return 0;
  const uint64_t span = static_cast<uint64_t>(last) - static_cast<uint64_t>(base);
  const uint64_t n = span / static_cast<uint64_t>(s) + 1;
  return n >= static_cast<uint64_t>(limit) ? limit : static_cast<int64_t>(n);
}

// The planes of part `part` of `parts` (EvalOptions::threads).
template <typename T>
void Gather(const uint8_t* src_bytes, absl::Span<const int64_t> nchw, const PatchGeometry& g,
            uint8_t* dst_bytes, int part, int parts) {
  const T* src = reinterpret_cast<const T*>(src_bytes);
  T* dst = reinterpret_cast<T*>(dst_bytes);
  const int64_t N = nchw[0], C = nchw[1], H = nchw[2], W = nchw[3];
  const int64_t KH = g.sizes[0], KW = g.sizes[1], SH = g.strides[0], SW = g.strides[1];
  const int64_t RH = g.rates[0], RW = g.rates[1], PT = g.pad_begin[0], PL = g.pad_begin[1];
  const int64_t OH = g.out[0], OW = g.out[1];
  // An empty output has nothing to write; the loops below could still run for up to 2^63
  // iterations (e.g. OW = 0 with a huge OH, or depth 0 with huge sizes).
  if (N == 0 || C == 0 || KH == 0 || KW == 0 || OH == 0 || OW == 0) return;
  // One output plane per (n, kh, kw, c), in the output's order; planes [p0, p1) here.
  const int64_t planes = N * KH * KW * C;
  const int64_t p0 = planes * part / parts, p1 = planes * (part + 1) / parts;
  for (int64_t p = p0; p < p1; ++p) {
    const int64_t c = p % C, kw = p / C % KW, kh = p / C / KW % KH, n = p / C / KW / KH;
    // Columns: iw = ow * SW + (kw * RW - PL); inside for ow in [lo, hi).
    const int64_t base_w = kw * RW - PL;
    const int64_t lo = std::min(OW, FirstInside(base_w, SW));
    const int64_t hi = std::max(lo, EndInside(base_w, SW, W - 1, OW));
    const T* plane = src + (n * C + c) * H * W;
    T* out = dst + p * OH * OW;
    // ih = oh * SH + (kh * RH - PT). kh * RH - PT lies in (-eff, eff); once it is at
    // least H every row is padding, and below H the sum stays under 2H: oh * SH + kh *
    // RH, formed first, could pass 2^63-1 when in + eff does (ERRATA D4a).
    const int64_t delta_h = kh * RH - PT;
    for (int64_t oh = 0; oh < OH; ++oh, out += OW) {
      const int64_t ih = delta_h >= H ? H : oh * SH + delta_h;
      if (ih < 0 || ih >= H) {
        std::memset(out, 0, static_cast<size_t>(OW) * sizeof(T));
        continue;
      }
      std::memset(out, 0, static_cast<size_t>(lo) * sizeof(T));
      if (hi == lo) {  // no column inside: base_w may be far beyond the plane
        std::memset(out, 0, static_cast<size_t>(OW) * sizeof(T));
        continue;
      }
      // Index arithmetic stays in int64_t: base_w may be negative, only the offsets
      // actually read (ow in [lo, hi)) are inside the plane.
      const int64_t row = ih * W + base_w;
      if (SW == 1) {
        // row + lo, summed as integers first: row alone may point before the plane.
        std::memcpy(out + lo, plane + (row + lo), static_cast<size_t>(hi - lo) * sizeof(T));
      } else {
        for (int64_t ow = lo; ow < hi; ++ow) out[ow] = plane[row + ow * SW];
      }
      std::memset(out + hi, 0, static_cast<size_t>(OW - hi) * sizeof(T));
    }
  }
}

}  // namespace

void PatchGather(const uint8_t* src, absl::Span<const int64_t> nchw, const PatchGeometry& g,
                 int elem_size, uint8_t* dst, int threads) {
  // Threads only for outputs of 1 MiB or more (else starting one costs more than it saves),
  // at most one per output plane. A non-empty output's size fits in int64_t (validated); an
  // empty one may have a product of the other dims that does not.
  if (nchw[0] == 0 || nchw[1] == 0 || g.sizes[0] == 0 || g.sizes[1] == 0 || g.out[0] == 0 ||
      g.out[1] == 0) {
    return;
  }
  const int64_t planes = nchw[0] * g.sizes[0] * g.sizes[1] * nchw[1];
  const int64_t bytes = planes * g.out[0] * g.out[1] * elem_size;
  int parts = 1;
  if (threads > 1 && bytes >= (int64_t{1} << 20)) {
    parts = static_cast<int>(std::min<int64_t>(threads, planes));
  }
  ParallelFor(parts, [&](int part) {
    switch (elem_size) {
      case 1:
        Gather<uint8_t>(src, nchw, g, dst, part, parts);
        break;
      case 2:
        Gather<u16a>(src, nchw, g, dst, part, parts);
        break;
      case 4:
        Gather<u32a>(src, nchw, g, dst, part, parts);
        break;
      case 8:
        Gather<u64a>(src, nchw, g, dst, part, parts);
        break;
      default:
        break;
    }
  });
}

}  // namespace dmconf
