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

// Output elements [c0, c1) of one output row of OW elements starting at element `out`: zeros
// in [0, lo) and [hi, OW), input elements from `row` (stride SW) in [lo, hi).
template <typename Mover>
void Row(const Mover& m, int64_t out, int64_t c0, int64_t c1, int64_t lo, int64_t hi, int64_t row,
         int64_t SW) {
  if (c0 < lo) m.Zero(out + c0, std::min(lo, c1) - c0);
  const int64_t a = std::max(lo, c0), b = std::min(hi, c1);
  if (a < b) {
    if (SW == 1) {
      // row + a, summed as integers first: row alone may point before the plane.
      m.Run(out + a, row + a, b - a);
    } else {
      for (int64_t ow = a; ow < b; ++ow) m.One(out + ow, row + ow * SW);
    }
  }
  const int64_t z = std::max(hi, c0);
  if (z < c1) m.Zero(out + z, c1 - z);
}

// Output elements [e0, e1), counted in the output's row-major order (one part of
// EvalOptions::threads; the whole output on one thread).
template <typename Mover>
void Gather(const Mover& m, absl::Span<const int64_t> nchw, const PatchGeometry& g, int64_t e0,
            int64_t e1) {
  const int64_t C = nchw[1], H = nchw[2], W = nchw[3];
  const int64_t KH = g.sizes[0], KW = g.sizes[1], SH = g.strides[0], SW = g.strides[1];
  const int64_t RH = g.rates[0], RW = g.rates[1], PT = g.pad_begin[0], PL = g.pad_begin[1];
  const int64_t OH = g.out[0], OW = g.out[1];
  const int64_t plane_elems = OH * OW;
  // One output plane per (n, kh, kw, c), in the output's order; the planes that meet [e0, e1).
  for (int64_t p = e0 / plane_elems; p <= (e1 - 1) / plane_elems; ++p) {
    const int64_t c = p % C, kw = p / C % KW, kh = p / C / KW % KH, n = p / C / KW / KH;
    // Columns: iw = ow * SW + (kw * RW - PL); inside for ow in [lo, hi).
    const int64_t base_w = kw * RW - PL;
    const int64_t lo = std::min(OW, FirstInside(base_w, SW));
    const int64_t hi = std::max(lo, EndInside(base_w, SW, W - 1, OW));
    const int64_t plane = (n * C + c) * H * W;
    const int64_t first = p * plane_elems;
    // The rows of this plane that meet [e0, e1).
    const int64_t oh0 = std::max<int64_t>(0, (e0 - first) / OW);
    const int64_t to_end = e1 - first;
    const int64_t oh1 = std::min(OH, to_end / OW + (to_end % OW != 0 ? 1 : 0));
    // ih = oh * SH + (kh * RH - PT). kh * RH - PT lies in (-eff, eff); once it is at
    // least H every row is padding, and below H the sum stays under 2H: oh * SH + kh *
    // RH, formed first, could pass 2^63-1 when in + eff does (ERRATA D4a).
    const int64_t delta_h = kh * RH - PT;
    for (int64_t oh = oh0; oh < oh1; ++oh) {
      const int64_t out = first + oh * OW;
      const int64_t c0 = std::max(out, e0) - out, c1 = std::min(out + OW, e1) - out;
      const int64_t ih = delta_h >= H ? H : oh * SH + delta_h;
      // No row inside, or no column inside (base_w may then be far beyond the plane).
      if (ih < 0 || ih >= H || hi == lo) {
        m.Zero(out + c0, c1 - c0);
        continue;
      }
      // Index arithmetic stays in int64_t: base_w may be negative, only the offsets
      // actually read (ow in [lo, hi)) are inside the plane.
      Row(m, out, c0, c1, lo, hi, plane + ih * W + base_w, SW);
    }
  }
}

// The first output element of part k of `parts`: total * k / parts (without forming
// total * k), rounded down to a multiple of g so that packed parts share no byte.
int64_t PartStart(int64_t total, int k, int parts, int64_t g) {
  if (k == parts) return total;
  const int64_t at = total / parts * k + total % parts * k / parts;
  return at - at % g;
}

}  // namespace

void PatchGather(const uint8_t* src, absl::Span<const int64_t> nchw, const PatchGeometry& g,
                 Elem elem_size, uint8_t* dst, int threads) {
  // Threads only for outputs of kParallelBytes or more, each a stretch of the output's elements. A
  // non-empty output's size fits in int64_t (validated); an empty one may have a product of the
  // other dims that does not, and has nothing to write.
  if (nchw[0] == 0 || nchw[1] == 0 || g.sizes[0] == 0 || g.sizes[1] == 0 || g.out[0] == 0 ||
      g.out[1] == 0) {
    return;
  }
  const int64_t total = nchw[0] * g.sizes[0] * g.sizes[1] * nchw[1] * g.out[0] * g.out[1];
  // Packed elements: the parts start on whole bytes, so that they share none (a plane of
  // ExtractImagePatches' u1 case, 510 x 16382 bits, does not end on one).
  const int64_t g_elems = elem_size.packed() ? elem_size.per_byte() : 1;
  const int64_t bytes =
      elem_size.packed() ? total / g_elems : total * static_cast<int64_t>(elem_size.bytes);
  const int parts = threads > 1 && bytes >= kParallelBytes ? threads : 1;
  ParallelFor(parts, [&](int part) {
    const int64_t e0 = PartStart(total, part, parts, g_elems);
    const int64_t e1 = PartStart(total, part + 1, parts, g_elems);
    if (e0 >= e1) return;
    if (elem_size.packed()) return Gather(Packed{dst, src, elem_size}, nchw, g, e0, e1);
    switch (elem_size.bytes) {
      case 1:
        return Gather(Whole<uint8_t>{dst, src}, nchw, g, e0, e1);
      case 2:
        return Gather(Whole<uint16_t>{dst, src}, nchw, g, e0, e1);
      case 4:
        return Gather(Whole<uint32_t>{dst, src}, nchw, g, e0, e1);
      case 8:
        return Gather(Whole<uint64_t>{dst, src}, nchw, g, e0, e1);
      default:
        return;
    }
  });
}

}  // namespace dmconf
