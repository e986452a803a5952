#include "oracle/primitives/strided_copy.h"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "oracle/primitives/packed_bits.h"
#include "oracle/primitives/parallel.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace dmconf {
namespace {

// Element carriers that may alias any buffer (the tensors are byte vectors).
using u8a = uint8_t;
typedef uint16_t __attribute__((may_alias)) u16a;
typedef uint32_t __attribute__((may_alias)) u32a;
typedef uint64_t __attribute__((may_alias)) u64a;

struct Axis {
  int64_t n, ds, ss;  // extent, dst stride, src stride (elements)
};

// Drops size-1 axes, orders axes by decreasing dst stride (the destination is walked in its
// own order) and merges neighbours that are contiguous on both sides.
std::vector<Axis> Simplify(absl::Span<const int64_t> shape, absl::Span<const int64_t> ds,
                           absl::Span<const int64_t> ss) {
  std::vector<Axis> axes;
  for (size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] != 1) axes.push_back({shape[k], ds[k], ss[k]});
  }
  std::stable_sort(axes.begin(), axes.end(),
                   [](const Axis& a, const Axis& b) { return a.ds > b.ds; });
  std::vector<Axis> merged;
  for (const Axis& a : axes) {
    if (!merged.empty()) {
      Axis& outer = merged.back();
      if (outer.ds == a.ds * a.n && outer.ss == a.ss * a.n) {
        outer = {outer.n * a.n, a.ds, a.ss};
        continue;
      }
    }
    merged.push_back(a);
  }
  return merged;
}

// Calls body(dst_offset, src_offset) for every index of the outer axes [0, count).
template <typename Body>
void ForEachOuter(const std::vector<Axis>& axes, size_t count, Body body) {
  std::vector<int64_t> idx(count, 0);
  int64_t doff = 0, soff = 0;
  while (true) {
    body(doff, soff);
    size_t k = count;
    while (k > 0) {
      --k;
      if (++idx[k] < axes[k].n) {
        doff += axes[k].ds;
        soff += axes[k].ss;
        break;
      }
      doff -= axes[k].ds * (axes[k].n - 1);
      soff -= axes[k].ss * (axes[k].n - 1);
      idx[k] = 0;
      if (k == 0) return;
    }
    if (count == 0) return;
  }
}

// 16-byte vectors of T (SSE2 / NEON width; GCC and clang both lower the shuffles below).
template <typename T>
struct Vec {
  typedef T type __attribute__((vector_size(16)));
  static constexpr int64_t kLanes = 16 / sizeof(T);
  static type Load(const T* p) {
    type v;
    std::memcpy(&v, p, sizeof(v));
    return v;
  }
  static void Store(T* p, type v) { std::memcpy(p, &v, sizeof(v)); }
  // A non-temporal store to a 16-byte aligned p where the target has one (x86), else Store.
  static void Stream(T* p, type v) {
#if defined(__SSE2__)
    __m128i x;
    std::memcpy(&x, &v, sizeof(x));
    _mm_stream_si128(reinterpret_cast<__m128i*>(p), x);
#else
    Store(p, v);
#endif
  }
};

// Outputs at least this large are written with non-temporal stores (x86): they are far larger
// than the caches, so a normal store would first read every destination line (read for
// ownership) only to overwrite it. glibc's memcpy does the same for large copies; without it
// every copy here costs ~1.5x the memcpy it is measured against (docs/performance.md).
constexpr int64_t kStreamBytes = int64_t{8} << 20;

// A single contiguous run (a plain copy) stays a memcpy, which streams large copies itself.
// Strided runs of at least kStreamRunBytes are streamed, walked in the order RunOrder picks;
// shorter runs keep memcpy in the destination's order.
constexpr bool kStreamRuns = false;
constexpr int64_t kStreamRunBytes = 64;

// Elements to copy one by one before p is 16-byte aligned; -1 when it never will be (p is
// not aligned to sizeof(T) * step).
template <typename T>
int64_t PeelTo16(const T* p, int64_t step) {
  const uintptr_t mis = reinterpret_cast<uintptr_t>(p) % 16;
  if (mis == 0) return 0;
  const uintptr_t unit = sizeof(T) * static_cast<uintptr_t>(step);
  if ((16 - mis) % unit != 0) return -1;
  return static_cast<int64_t>((16 - mis) / unit);
}

// Whether, walking `order` (outermost first), the side picked by `stride` sees its runs of
// `run` elements as dense streams: one of the two innermost axes steps by exactly one run
// there, so consecutive runs of that side lie end to end (in one stream, or in as many
// streams as the other inner axis has indices).
template <typename Stride>
bool DenseInner(const std::vector<Axis>& order, int64_t run, Stride stride) {
  const size_t n = order.size();
  for (size_t k = n > 2 ? n - 2 : 0; k < n; ++k) {
    if (stride(order[k]) == run) return true;
  }
  return false;
}

// The order in which the strided-runs kernel walks the outer axes of `axes` (the last axis is
// the contiguous run). The source's order (by decreasing source stride) reads the source once,
// front to back; it is kept when the destination's runs are then dense too (SpaceToBatch: two
// destination streams, 0.9x a memcpy) or dense in neither order. When only the destination's
// order (axes as they come, by decreasing destination stride) keeps both sides dense, it is
// taken: BatchToSpace in the source's order writes every other 256-byte run of every other
// destination row in each of four passes (1.35x a memcpy); in the destination's order it
// writes one stream and reads two (0.66x; docs/performance.md).
std::vector<Axis> RunOrder(const std::vector<Axis>& axes) {
  const int64_t run = axes.back().n;
  std::vector<Axis> by_dst(axes.begin(), axes.end() - 1);
  std::vector<Axis> by_src = by_dst;
  std::stable_sort(by_src.begin(), by_src.end(),
                   [](const Axis& x, const Axis& y) { return x.ss > y.ss; });
  const auto ds = [](const Axis& a) { return a.ds; };
  const auto ss = [](const Axis& a) { return a.ss; };
  if (!DenseInner(by_src, run, ds) && DenseInner(by_dst, run, ss)) return by_dst;
  return by_src;
}

// memcpy of n elements, or with stream, the same through 16-byte non-temporal stores.
template <typename T>
void CopyRun(T* d, const T* s, int64_t n, bool stream) {
  using W = Vec<T>;
  constexpr int64_t L = W::kLanes;
  int64_t i = stream && n >= 4 * L ? PeelTo16(d, 1) : -1;
  if (i < 0) {
    std::memcpy(d, s, static_cast<size_t>(n) * sizeof(T));
    return;
  }
  std::memcpy(d, s, static_cast<size_t>(i) * sizeof(T));
  for (; i + 4 * L <= n; i += 4 * L) {
    const typename W::type a = W::Load(s + i), b = W::Load(s + i + L), c = W::Load(s + i + 2 * L),
                           e = W::Load(s + i + 3 * L);
    W::Stream(d + i, a);
    W::Stream(d + i + L, b);
    W::Stream(d + i + 2 * L, c);
    W::Stream(d + i + 3 * L, e);
  }
  std::memcpy(d + i, s + i, static_cast<size_t>(n - i) * sizeof(T));
}

// Lane i of the result: lane 2i + Odd of the concatenation a:b (the even or odd elements).
template <typename V, int64_t Odd, size_t... I>
V PickHalf(V a, V b, std::index_sequence<I...>) {
  return __builtin_shufflevector(a, b, (2 * I + Odd)...);
}
// Lane i of the result: lane Base + i / 2 of a (i even) or of b (i odd): a zip of a and b.
template <typename V, int64_t Base, int64_t Lanes, size_t... I>
V Zip(V a, V b, std::index_sequence<I...>) {
  return __builtin_shufflevector(a, b, (Base + I / 2 + (I % 2) * Lanes)...);
}

// d0[i] = s[2i], d1[i] = s[2i + 1] for i < n: a de-interleave (SpaceToDepth, block 2), 16
// bytes of output per row per step.
template <typename T>
void Deinterleave2(T* d0, T* d1, const T* s, int64_t n, bool stream) {
  using W = Vec<T>;
  constexpr int64_t L = W::kLanes;
  using Seq = std::make_index_sequence<L>;
  int64_t i = 0;
  int64_t peel = stream ? PeelTo16(d0, 1) : -1;
  if (peel >= 0 && peel < n && PeelTo16(d1 + peel, 1) == 0) {
    for (; i < peel; ++i) {
      d0[i] = s[2 * i];
      d1[i] = s[2 * i + 1];
    }
    for (; i + L <= n; i += L) {
      const typename W::type a = W::Load(s + 2 * i), b = W::Load(s + 2 * i + L);
      W::Stream(d0 + i, PickHalf<typename W::type, 0>(a, b, Seq{}));
      W::Stream(d1 + i, PickHalf<typename W::type, 1>(a, b, Seq{}));
    }
  }
  for (; i + L <= n; i += L) {
    const typename W::type a = W::Load(s + 2 * i), b = W::Load(s + 2 * i + L);
    W::Store(d0 + i, PickHalf<typename W::type, 0>(a, b, Seq{}));
    W::Store(d1 + i, PickHalf<typename W::type, 1>(a, b, Seq{}));
  }
  for (; i < n; ++i) {
    d0[i] = s[2 * i];
    d1[i] = s[2 * i + 1];
  }
}

// d[2j] = s0[j], d[2j + 1] = s1[j] for j < n: an interleave (DepthToSpace, block 2).
template <typename T>
void Interleave2(T* d, const T* s0, const T* s1, int64_t n, bool stream) {
  using W = Vec<T>;
  constexpr int64_t L = W::kLanes;
  using Seq = std::make_index_sequence<L>;
  int64_t j = 0;
  const int64_t peel = stream ? PeelTo16(d, 2) : -1;
  if (peel >= 0 && peel < n) {
    for (; j < peel; ++j) {
      d[2 * j] = s0[j];
      d[2 * j + 1] = s1[j];
    }
    for (; j + L <= n; j += L) {
      const typename W::type a = W::Load(s0 + j), b = W::Load(s1 + j);
      W::Stream(d + 2 * j, Zip<typename W::type, 0, L>(a, b, Seq{}));
      W::Stream(d + 2 * j + L, Zip<typename W::type, L / 2, L>(a, b, Seq{}));
    }
  }
  for (; j + L <= n; j += L) {
    const typename W::type a = W::Load(s0 + j), b = W::Load(s1 + j);
    W::Store(d + 2 * j, Zip<typename W::type, 0, L>(a, b, Seq{}));
    W::Store(d + 2 * j + L, Zip<typename W::type, L / 2, L>(a, b, Seq{}));
  }
  for (; j < n; ++j) {
    d[2 * j] = s0[j];
    d[2 * j + 1] = s1[j];
  }
}

// dst[j*K + i] = src[i*sz + j] (i < K, j < na) with K a constant: the compiler unrolls the i
// loop and vectorises the j loop.
template <typename T, int K>
void InterleaveK(T* dst, const T* src, int64_t sz, int64_t na) {
  for (int64_t j = 0; j < na; ++j) {
    for (int i = 0; i < K; ++i) dst[j * K + i] = src[i * sz + j];
  }
}
// dst[j*da + i] = src[i*K + j] (j < K, i < nz).
template <typename T, int K>
void DeinterleaveK(T* dst, int64_t da, const T* src, int64_t nz) {
  for (int64_t i = 0; i < nz; ++i) {
    for (int j = 0; j < K; ++j) dst[j * da + i] = src[i * K + j];
  }
}

// dst[i*dz + j*da] = src[i*sz + j*sa] over an nz x na box, where the z axis is the fastest on
// the destination (dz == 1) and the a axis the fastest on the source (sa == 1).
template <typename T>
void Tile2D(T* dst, const T* src, int64_t nz, int64_t sz, int64_t na, int64_t da, bool stream) {
  if (nz <= 4 && da == nz) {
    // The destination is na groups of nz elements, one from each of nz source rows: an
    // interleave of rows (DepthToSpace), never per element.
    switch (nz) {
      case 2:
        return Interleave2(dst, src, src + sz, na, stream);
      case 3:
        return InterleaveK<T, 3>(dst, src, sz, na);
      case 4:
        return InterleaveK<T, 4>(dst, src, sz, na);
      default:
        break;
    }
  }
  if (na <= 4 && sz == na) {
    // The source is nz groups of na elements, one for each of na destination rows: a
    // de-interleave (SpaceToDepth), the source read once, in order.
    switch (na) {
      case 2:
        return Deinterleave2(dst, dst + da, src, nz, stream);
      case 3:
        return DeinterleaveK<T, 3>(dst, da, src, nz);
      case 4:
        return DeinterleaveK<T, 4>(dst, da, src, nz);
      default:
        break;
    }
  }
  if (nz <= 4) {
    for (int64_t j = 0; j < na; ++j) {
      for (int64_t i = 0; i < nz; ++i) dst[j * da + i] = src[i * sz + j];
    }
    return;
  }
  if (na <= 4) {
    // De-interleave: contiguous destination rows from a strided source.
    for (int64_t j = 0; j < na; ++j) {
      T* d = dst + j * da;
      const T* s = src + j;
      for (int64_t i = 0; i < nz; ++i) d[i] = s[i * sz];
    }
    return;
  }
  constexpr int64_t kB = 16;
  for (int64_t i0 = 0; i0 < nz; i0 += kB) {
    const int64_t i1 = std::min(nz, i0 + kB);
    for (int64_t j0 = 0; j0 < na; j0 += kB) {
      const int64_t j1 = std::min(na, j0 + kB);
      for (int64_t j = j0; j < j1; ++j) {
        for (int64_t i = i0; i < i1; ++i) dst[j * da + i] = src[i * sz + j];
      }
    }
  }
}

template <typename T>
void CopyTyped(uint8_t* dst_bytes, const uint8_t* src_bytes, std::vector<Axis> axes, bool stream) {
  T* dst = reinterpret_cast<T*>(dst_bytes);
  const T* src = reinterpret_cast<const T*>(src_bytes);
  const size_t rank = axes.size();
  if (rank == 0) {
    dst[0] = src[0];
    return;
  }
  const Axis& last = axes[rank - 1];
  if (last.ds == 1 && last.ss == 1) {
    // Contiguous runs; the second-innermost axis is looped here, not in the odometer.
    if (rank == 1) {
      CopyRun(dst, src, last.n, kStreamRuns && stream);
      return;
    }
    if (stream && last.n * static_cast<int64_t>(sizeof(T)) >= kStreamRunBytes) {
      // Large output, runs of whole cache lines, written with non-temporal stores, walked in
      // the order RunOrder picks (docs/performance.md).
      const std::vector<Axis> outer = RunOrder(axes);
      ForEachOuter(outer, outer.size(), [&](int64_t doff, int64_t soff) {
        CopyRun(dst + doff, src + soff, last.n, true);
      });
      return;
    }
    const Axis& row = axes[rank - 2];
    ForEachOuter(axes, rank - 2, [&](int64_t doff, int64_t soff) {
      T* d = dst + doff;
      const T* s = src + soff;
      for (int64_t r = 0; r < row.n; ++r)
        CopyRun(d + r * row.ds, s + r * row.ss, last.n, kStreamRuns && stream);
    });
    return;
  }
  // Find the axis that is contiguous in the source.
  size_t a = rank;
  for (size_t k = 0; k < rank; ++k) {
    if (axes[k].ss == 1) a = k;
  }
  if (last.ds == 1 && a != rank) {
    // Move the source-contiguous axis next to the last one; the rest is the odometer.
    std::vector<Axis> outer;
    for (size_t k = 0; k + 1 < rank; ++k) {
      if (k != a) outer.push_back(axes[k]);
    }
    // Walk the outer axes in the source's order: each Tile2D then reads the next source rows,
    // so the source streams through memory once (the hardware prefetcher follows one forward
    // stream; hopping between every other row measured 2.6-2.9x a memcpy for SpaceToDepth,
    // docs/performance.md). Destination rows are whole lines either way.
    std::stable_sort(outer.begin(), outer.end(),
                     [](const Axis& x, const Axis& y) { return x.ss > y.ss; });
    const Axis za = last, aa = axes[a];
    ForEachOuter(outer, outer.size(), [&](int64_t doff, int64_t soff) {
      Tile2D<T>(dst + doff, src + soff, za.n, za.ss, aa.n, aa.ds, stream);
    });
    return;
  }
  // General case: strided innermost loop.
  ForEachOuter(axes, rank - 1, [&](int64_t doff, int64_t soff) {
    T* d = dst + doff;
    const T* s = src + soff;
    for (int64_t i = 0; i < last.n; ++i) d[i * last.ds] = s[i * last.ss];
  });
}

void CopyBox(uint8_t* dst, const uint8_t* src, std::vector<Axis> axes, int elem_size, bool stream) {
  switch (elem_size) {
    case 1:
      CopyTyped<u8a>(dst, src, std::move(axes), stream);
      break;
    case 2:
      CopyTyped<u16a>(dst, src, std::move(axes), stream);
      break;
    case 4:
      CopyTyped<u32a>(dst, src, std::move(axes), stream);
      break;
    case 8:
      CopyTyped<u64a>(dst, src, std::move(axes), stream);
      break;
    default:
      break;  // callers only pass 1, 2, 4, 8
  }
#if defined(__SSE2__)
  // Non-temporal stores are weakly ordered: fence them (in the thread that made them) before
  // anything later reads the output.
  if (stream) _mm_sfence();
#endif
}

// The axis of axes[0, limit) that threads cut into ranges: of those with a destination stride of
// at least min_ds elements (256 bytes: the parts rarely write into one cache line, and the
// kernels keep whole rows) and at least `threads` indices, the one with the largest source
// stride (each part reads its own stretch of the source); `fallback` when there is none.
// Measured (docs/performance.md): cutting DepthToSpace's rows, two cores filled halves of the
// same lines with non-temporal stores, 2.4x slower than one core; the longest axis instead, a
// BatchToSpace column axis, 1.9x slower than one thread; DepthToSpace u4's row axis 1.33x
// faster than one thread, its channel axis 1.86x.
size_t CutAxis(const std::vector<Axis>& axes, size_t limit, int64_t min_ds, int threads,
               size_t fallback) {
  size_t cut = limit;
  for (size_t k = 0; k < limit; ++k) {
    if (axes[k].ds >= min_ds && axes[k].n >= threads && (cut == limit || axes[k].ss > axes[cut].ss))
      cut = k;
  }
  return cut == limit ? fallback : cut;
}

// Packed sub-byte elements (Elem::Packed) on one thread, offsets in elements: a run copy per
// contiguous row, the 2-way interleave and de-interleave of the block-2 ops as word kernels,
// anything else element by element.
void CopyPacked(uint8_t* dst, int64_t doff, const uint8_t* src, int64_t soff,
                const std::vector<Axis>& axes, Elem e) {
  const size_t rank = axes.size();
  if (rank == 0) {
    packed::Set(dst, doff, packed::Get(src, soff, e), e);
    return;
  }
  const Axis& last = axes[rank - 1];
  if (last.ds == 1 && last.ss == 1) {
    ForEachOuter(axes, rank - 1, [&](int64_t d, int64_t s) {
      packed::RunCopy(dst, doff + d, src, soff + s, last.n, e);
    });
    return;
  }
  size_t a = rank;
  for (size_t k = 0; k < rank; ++k) {
    if (axes[k].ss == 1) a = k;
  }
  if (last.ds == 1 && a != rank && a + 1 != rank &&
      ((last.n == 2 && axes[a].ds == 2) || (axes[a].n == 2 && last.ss == 2))) {
    std::vector<Axis> outer;
    for (size_t k = 0; k + 1 < rank; ++k) {
      if (k != a) outer.push_back(axes[k]);
    }
    std::stable_sort(outer.begin(), outer.end(),
                     [](const Axis& x, const Axis& y) { return x.ss > y.ss; });
    const Axis z = last, w = axes[a];
    ForEachOuter(outer, outer.size(), [&](int64_t d, int64_t s) {
      if (z.n == 2 && w.ds == 2) {  // dst [w.n][2] from 2 source rows of w.n
        packed::Interleave2(dst, doff + d, src, soff + s, soff + s + z.ss, w.n, e);
      } else {  // 2 dst rows of z.n from a source [z.n][2]
        packed::Deinterleave2(dst, doff + d, doff + d + w.ds, src, soff + s, z.n, e);
      }
    });
    return;
  }
  ForEachOuter(axes, rank - 1, [&](int64_t d, int64_t s) {
    for (int64_t i = 0; i < last.n; ++i) {
      packed::Set(dst, doff + d + i * last.ds, packed::Get(src, soff + s + i * last.ss, e), e);
    }
  });
}

// Packed elements that move in whole bytes (offsets, strides and contiguous runs all multiples
// of the elements per byte, e.g. SpaceToBatch's channel runs): the same axes in bytes.
bool InBytes(int64_t doff, int64_t soff, std::vector<Axis>* axes, int64_t g) {
  if (axes->empty() || doff % g != 0 || soff % g != 0) return false;
  const Axis& last = axes->back();
  if (last.ds != 1 || last.ss != 1 || last.n % g != 0) return false;
  for (size_t k = 0; k + 1 < axes->size(); ++k) {
    if ((*axes)[k].ds % g != 0 || (*axes)[k].ss % g != 0) return false;
  }
  for (size_t k = 0; k + 1 < axes->size(); ++k) (*axes)[k].ds /= g, (*axes)[k].ss /= g;
  axes->back().n /= g;
  return true;
}

}  // namespace

void StridedCopy(uint8_t* dst, absl::Span<const int64_t> dst_strides, const uint8_t* src,
                 absl::Span<const int64_t> src_strides, absl::Span<const int64_t> shape, Elem elem,
                 int threads) {
  StridedCopyAt(dst, 0, dst_strides, src, 0, src_strides, shape, elem, threads);
}

void StridedCopyAt(uint8_t* dst, int64_t dst_offset, absl::Span<const int64_t> dst_strides,
                   const uint8_t* src, int64_t src_offset, absl::Span<const int64_t> src_strides,
                   absl::Span<const int64_t> shape, Elem elem, int threads) {
  for (int64_t n : shape) {
    if (n == 0) return;
  }
  std::vector<Axis> axes = Simplify(shape, dst_strides, src_strides);
  int elem_size = elem.bytes;
  if (elem.packed()) {
    const int64_t g = elem.per_byte();
    if (!InBytes(dst_offset, src_offset, &axes, g)) {
      // Threads only where the parts share no byte: axis k (in the destination's order) may
      // be cut into ranges when it and every axis before it have a whole-byte stride that
      // exceeds the span of the axes after it (the parts are then disjoint runs of whole
      // bytes). Of those, CutAxis's choice, else the longest.
      int64_t elems = 1;
      for (int64_t n : shape) elems = elems > kParallelBytes * g ? elems : elems * n;
      size_t cut = axes.size();
      if (threads > 1 && elems >= kParallelBytes * g && dst_offset % g == 0) {
        size_t limit = 0, longest = axes.size();
        for (; limit + 1 < axes.size(); ++limit) {
          int64_t span = 1;
          for (size_t j = limit + 1; j < axes.size(); ++j) span += (axes[j].n - 1) * axes[j].ds;
          if (axes[limit].ds % g != 0 || span > axes[limit].ds) break;
          if (longest == axes.size() || axes[limit].n > axes[longest].n) longest = limit;
        }
        cut = CutAxis(axes, limit, 256 * g, threads, longest);
      }
      const int64_t n = cut == axes.size() ? 1 : axes[cut].n;
      const int parts = static_cast<int>(std::min<int64_t>(threads, n));
      ParallelFor(parts, [&](int part) {
        if (parts == 1) return CopyPacked(dst, dst_offset, src, src_offset, axes, elem);
        const int64_t lo = n * part / parts, hi = n * (part + 1) / parts;
        std::vector<Axis> sub = axes;
        sub[cut].n = hi - lo;
        CopyPacked(dst, dst_offset + lo * axes[cut].ds, src, src_offset + lo * axes[cut].ss, sub,
                   elem);
      });
      return;
    }
    dst += dst_offset / g;
    src += src_offset / g;
    elem_size = 1;
  } else {
    dst += dst_offset * elem_size;
    src += src_offset * elem_size;
  }
  int64_t bytes = elem_size;
  for (const Axis& a : axes) bytes = bytes > kStreamBytes ? bytes : bytes * a.n;
  const bool stream = bytes >= kStreamBytes;
  if (threads <= 1 || bytes < kParallelBytes || axes.empty()) {
    CopyBox(dst, src, std::move(axes), elem_size, stream);
    return;
  }
  // Split one axis (CutAxis, else the outermost) into `threads` ranges. Every part writes
  // its own elements, so the result does not depend on the number of threads.
  const size_t cut = CutAxis(axes, axes.size() - 1, 256 / elem_size, threads, 0);
  const int64_t n = axes[cut].n;
  const int parts = static_cast<int>(std::min<int64_t>(threads, n));
  ParallelFor(parts, [&](int part) {
    const int64_t lo = n * part / parts, hi = n * (part + 1) / parts;
    std::vector<Axis> sub = axes;
    sub[cut].n = hi - lo;
    CopyBox(dst + lo * axes[cut].ds * elem_size, src + lo * axes[cut].ss * elem_size,
            std::move(sub), elem_size, stream);
  });
}

void ZeroStrided(uint8_t* dst, int64_t offset, absl::Span<const int64_t> strides,
                 absl::Span<const int64_t> shape, Elem elem) {
  for (int64_t n : shape) {
    if (n == 0) return;
  }
  const std::vector<int64_t> none(shape.size(), 0);
  std::vector<Axis> axes = Simplify(shape, strides, none);
  if (elem.packed()) {
    const int64_t rank = static_cast<int64_t>(axes.size());
    if (rank == 0) return packed::Set(dst, offset, 0, elem);
    const Axis last = axes.back();
    ForEachOuter(axes, axes.size() - 1, [&](int64_t doff, int64_t) {
      if (last.ds == 1) return packed::Zero(dst, offset + doff, last.n, elem);
      for (int64_t i = 0; i < last.n; ++i) packed::Set(dst, offset + doff + i * last.ds, 0, elem);
    });
    return;
  }
  const int elem_size = elem.bytes;
  dst += offset * elem_size;
  const size_t es = static_cast<size_t>(elem_size);
  if (axes.empty()) {
    std::memset(dst, 0, es);
    return;
  }
  const Axis last = axes.back();
  if (last.ds == 1) {
    ForEachOuter(axes, axes.size() - 1, [&](int64_t doff, int64_t) {
      std::memset(dst + doff * elem_size, 0, static_cast<size_t>(last.n) * es);
    });
    return;
  }
  ForEachOuter(axes, axes.size() - 1, [&](int64_t doff, int64_t) {
    for (int64_t i = 0; i < last.n; ++i) std::memset(dst + (doff + i * last.ds) * elem_size, 0, es);
  });
}

void ZeroFill(uint8_t* dst, int64_t n, int elem_size) {
  if (n > 0) std::memset(dst, 0, static_cast<size_t>(n) * static_cast<size_t>(elem_size));
}

}  // namespace dmconf
