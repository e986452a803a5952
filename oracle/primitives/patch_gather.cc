#include "oracle/primitives/patch_gather.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "oracle/primitives/packed_bits.h"
#include "oracle/primitives/parallel.h"

namespace dmconf {
namespace {

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

// How Gather moves elements, by element offset: whole T's, or packed sub-byte elements.
template <typename T>
struct Whole {
  uint8_t* dst;
  const uint8_t* src;
  void Zero(int64_t off, int64_t n) const {
    std::memset(dst + off * int64_t{sizeof(T)}, 0, static_cast<size_t>(n) * sizeof(T));
  }
  void Run(int64_t doff, int64_t soff, int64_t n) const {
    std::memcpy(dst + doff * int64_t{sizeof(T)}, src + soff * int64_t{sizeof(T)},
                static_cast<size_t>(n) * sizeof(T));
  }
  void One(int64_t doff, int64_t soff) const {  // one element (memcpy: no aliasing question)
    std::memcpy(dst + doff * int64_t{sizeof(T)}, src + soff * int64_t{sizeof(T)}, sizeof(T));
  }
};
struct Packed {
  uint8_t* dst;
  const uint8_t* src;
  Elem e;
  void Zero(int64_t off, int64_t n) const { packed::Zero(dst, off, n, e); }
  void Run(int64_t doff, int64_t soff, int64_t n) const {
    packed::RunCopy(dst, doff, src, soff, n, e);
  }
  void One(int64_t doff, int64_t soff) const {
    packed::Set(dst, doff, packed::Get(src, soff, e), e);
  }
};

// The planes of part `part` of `parts` (EvalOptions::threads).
template <typename Mover>
void Gather(const Mover& m, absl::Span<const int64_t> nchw, const PatchGeometry& g, int part,
            int parts) {
  const int64_t N = nchw[0], C = nchw[1], H = nchw[2], W = nchw[3];
  const int64_t KH = g.sizes[0], KW = g.sizes[1], SH = g.strides[0], SW = g.strides[1];
  const int64_t RH = g.rates[0], RW = g.rates[1], PT = g.pad_begin[0], PL = g.pad_begin[1];
  const int64_t OH = g.out[0], OW = g.out[1];
  // One output plane per (n, kh, kw, c), in the output's order; planes [p0, p1) here.
  const int64_t planes = N * KH * KW * C;
  const int64_t p0 = planes * part / parts, p1 = planes * (part + 1) / parts;
  for (int64_t p = p0; p < p1; ++p) {
    const int64_t c = p % C, kw = p / C % KW, kh = p / C / KW % KH, n = p / C / KW / KH;
    // Columns: iw = ow * SW + (kw * RW - PL); inside for ow in [lo, hi).
    const int64_t base_w = kw * RW - PL;
    const int64_t lo = std::min(OW, FirstInside(base_w, SW));
    const int64_t hi = std::max(lo, EndInside(base_w, SW, W - 1, OW));
    const int64_t plane = (n * C + c) * H * W;
    int64_t out = p * OH * OW;
    // ih = oh * SH + (kh * RH - PT). kh * RH - PT lies in (-eff, eff); once it is at
    // least H every row is padding, and below H the sum stays under 2H: oh * SH + kh *
    // RH, formed first, could pass 2^63-1 when in + eff does (ERRATA D4a).
    const int64_t delta_h = kh * RH - PT;
    for (int64_t oh = 0; oh < OH; ++oh, out += OW) {
      const int64_t ih = delta_h >= H ? H : oh * SH + delta_h;
      // No row inside, or no column inside (base_w may then be far beyond the plane).
      if (ih < 0 || ih >= H || hi == lo) {
        m.Zero(out, OW);
        continue;
      }
      m.Zero(out, lo);
      // Index arithmetic stays in int64_t: base_w may be negative, only the offsets
      // actually read (ow in [lo, hi)) are inside the plane.
      const int64_t row = plane + ih * W + base_w;
      if (SW == 1) {
        // row + lo, summed as integers first: row alone may point before the plane.
        m.Run(out + lo, row + lo, hi - lo);
      } else {
        for (int64_t ow = lo; ow < hi; ++ow) m.One(out + ow, row + ow * SW);
      }
      m.Zero(out + hi, OW - hi);
    }
  }
}

}  // namespace

void PatchGather(const uint8_t* src, absl::Span<const int64_t> nchw, const PatchGeometry& g,
                 Elem elem_size, uint8_t* dst, int threads) {
  // Threads only for outputs of 1 MiB or more (else starting one costs more than it saves),
  // at most one per output plane. A non-empty output's size fits in int64_t (validated); an
  // empty one may have a product of the other dims that does not, and has nothing to write.
  if (nchw[0] == 0 || nchw[1] == 0 || g.sizes[0] == 0 || g.sizes[1] == 0 || g.out[0] == 0 ||
      g.out[1] == 0) {
    return;
  }
  const int64_t planes = nchw[0] * g.sizes[0] * g.sizes[1] * nchw[1];
  const int64_t plane_elems = g.out[0] * g.out[1];
  const int64_t bytes = elem_size.packed() ? planes * plane_elems / elem_size.per_byte()
                                           : planes * plane_elems * elem_size.bytes;
  int parts = 1;
  // Packed elements: the parts must not share a byte, so each plane must end on one.
  if (threads > 1 && bytes >= (int64_t{1} << 20) && plane_elems % elem_size.per_byte() == 0) {
    parts = static_cast<int>(std::min<int64_t>(threads, planes));
  }
  ParallelFor(parts, [&](int part) {
    if (elem_size.packed()) return Gather(Packed{dst, src, elem_size}, nchw, g, part, parts);
    switch (elem_size.bytes) {
      case 1:
        return Gather(Whole<uint8_t>{dst, src}, nchw, g, part, parts);
      case 2:
        return Gather(Whole<uint16_t>{dst, src}, nchw, g, part, parts);
      case 4:
        return Gather(Whole<uint32_t>{dst, src}, nchw, g, part, parts);
      case 8:
        return Gather(Whole<uint64_t>{dst, src}, nchw, g, part, parts);
      default:
        return;
    }
  });
}

}  // namespace dmconf
