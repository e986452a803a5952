#include "oracle/primitives/strided_copy.h"

#include <algorithm>
#include <cstring>
#include <vector>

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

// dst[i*dz + j*da] = src[i*sz + j*sa] over an nz x na box, where the z axis is the fastest on
// the destination (dz == 1) and the a axis the fastest on the source (sa == 1).
template <typename T>
void Tile2D(T* dst, const T* src, int64_t nz, int64_t sz, int64_t na, int64_t da) {
  if (nz == 2) {
    // Interleave two source rows into one destination row (DepthToSpace, block 2).
    const T* s0 = src;
    const T* s1 = src + sz;
    if (da == 2) {
      for (int64_t j = 0; j < na; ++j) {
        dst[2 * j] = s0[j];
        dst[2 * j + 1] = s1[j];
      }
    } else {
      for (int64_t j = 0; j < na; ++j) {
        dst[j * da] = s0[j];
        dst[j * da + 1] = s1[j];
      }
    }
    return;
  }
  if (nz <= 4) {
    for (int64_t j = 0; j < na; ++j) {
      for (int64_t i = 0; i < nz; ++i) dst[j * da + i] = src[i * sz + j];
    }
    return;
  }
  if (na <= 4) {
    // De-interleave: contiguous destination rows from a strided source (SpaceToDepth).
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
void CopyTyped(uint8_t* dst_bytes, const uint8_t* src_bytes, std::vector<Axis> axes) {
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
    const size_t run = static_cast<size_t>(last.n) * sizeof(T);
    if (rank == 1) {
      std::memcpy(dst, src, run);
      return;
    }
    const Axis& row = axes[rank - 2];
    ForEachOuter(axes, rank - 2, [&](int64_t doff, int64_t soff) {
      T* d = dst + doff;
      const T* s = src + soff;
      for (int64_t r = 0; r < row.n; ++r) std::memcpy(d + r * row.ds, s + r * row.ss, run);
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
    const Axis za = last, aa = axes[a];
    ForEachOuter(outer, outer.size(), [&](int64_t doff, int64_t soff) {
      Tile2D<T>(dst + doff, src + soff, za.n, za.ss, aa.n, aa.ds);
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

}  // namespace

void StridedCopy(uint8_t* dst, absl::Span<const int64_t> dst_strides, const uint8_t* src,
                 absl::Span<const int64_t> src_strides, absl::Span<const int64_t> shape,
                 int elem_size) {
  for (int64_t n : shape) {
    if (n == 0) return;
  }
  std::vector<Axis> axes = Simplify(shape, dst_strides, src_strides);
  switch (elem_size) {
    case 1:
      CopyTyped<u8a>(dst, src, std::move(axes));
      break;
    case 2:
      CopyTyped<u16a>(dst, src, std::move(axes));
      break;
    case 4:
      CopyTyped<u32a>(dst, src, std::move(axes));
      break;
    case 8:
      CopyTyped<u64a>(dst, src, std::move(axes));
      break;
    default:
      break;  // callers only pass 1, 2, 4, 8
  }
}

void ZeroFill(uint8_t* dst, int64_t n, int elem_size) {
  if (n > 0) std::memset(dst, 0, static_cast<size_t>(n) * static_cast<size_t>(elem_size));
}

}  // namespace dmconf
