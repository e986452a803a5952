#include "oracle/primitives/views.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "oracle/primitives/reshape_transpose.h"
#include "oracle/primitives/strided_copy.h"

namespace dmconf {
namespace {

// One axis of the windowed tensor (the padded x of SpaceToBatch, the uncropped x''' of
// BatchToSpace), split as p = q * B + b (q < Q, b < B). The "plain" side (SpaceToBatch's y,
// BatchToSpace's data) holds every (q, b) at its own strides; the "window" side (data, y)
// holds only p in [begin, begin + len), at stride ws.
struct SplitAxis {
  int64_t Q = 1, B = 1;
  int64_t sq = 0, sb = 0;  // plain-side strides of q and b (elements)
  int64_t begin = 0, len = 1, ws = 0;
};

// The b values in [b0, b1) that share one q range [lo, hi) inside the window.
struct Interval {
  int64_t b0, b1, lo, hi;
};

// p = q * B + b lies in [begin, begin + len) for q in [lo(b), hi(b)), with
// lo(b) = floor(begin / B) + (b < begin mod B) and the same for hi at begin + len; both step
// once, so [0, B) falls into at most three intervals of constant [lo, hi).
std::vector<Interval> Intervals(const SplitAxis& a) {
  const int64_t w0 = a.begin, w1 = a.begin + a.len;
  std::vector<int64_t> cuts = {0, w0 % a.B, w1 % a.B, a.B};
  std::sort(cuts.begin(), cuts.end());
  std::vector<Interval> out;
  for (size_t k = 0; k + 1 < cuts.size(); ++k) {
    const int64_t b0 = cuts[k], b1 = cuts[k + 1];
    if (b0 == b1) continue;
    int64_t lo = w0 / a.B + (b0 < w0 % a.B ? 1 : 0);
    int64_t hi = w1 / a.B + (b0 < w1 % a.B ? 1 : 0);
    lo = std::min(lo, a.Q);
    hi = std::max(lo, std::min(hi, a.Q));
    out.push_back({b0, b1, lo, hi});
  }
  return out;
}

// Copies between the plain and the window side for every (q, b) whose p is inside the window
// (window -> plain when `to_plain`, else plain -> window); with `to_plain`, also writes zeros
// at every plain position whose p is outside it.
void WindowCopy(const std::vector<SplitAxis>& axes, uint8_t* plain, uint8_t* window_dst,
                const uint8_t* window_src, const uint8_t* plain_src, bool to_plain, int es,
                int threads) {
  const size_t n = axes.size();
  std::vector<std::vector<Interval>> iv(n);
  for (size_t i = 0; i < n; ++i) iv[i] = Intervals(axes[i]);
  std::vector<size_t> pick(n, 0);
  while (true) {
    // One box per choice of interval on every axis: axes (b, q) per window axis.
    Shape shape;
    std::vector<int64_t> ps, ws;
    int64_t poff = 0, woff = 0;
    bool empty = false;
    for (size_t i = 0; i < n; ++i) {
      const SplitAxis& a = axes[i];
      const Interval& v = iv[i][pick[i]];
      shape.push_back(v.b1 - v.b0);
      ps.push_back(a.sb);
      ws.push_back(a.ws);
      shape.push_back(v.hi - v.lo);
      ps.push_back(a.sq);
      ws.push_back(a.B * a.ws);
      empty = empty || v.hi == v.lo;
      poff += v.b0 * a.sb + v.lo * a.sq;
      woff += (v.lo * a.B + v.b0 - a.begin) * a.ws;
    }
    if (!empty) {
      if (to_plain) {
        StridedCopy(plain + poff * es, ps, window_src + woff * es, ws, shape, es, threads);
      } else {
        StridedCopy(window_dst + woff * es, ws, plain_src + poff * es, ps, shape, es, threads);
      }
    }
    if (to_plain) {
      // The zeros: every q outside [lo, hi) on axis k, inside it on the axes before k, any q
      // on the axes after k (the b ranges of this box on every axis).
      Shape zshape;
      int64_t zoff = 0;
      for (size_t i = 0; i < n; ++i) {
        const Interval& v = iv[i][pick[i]];
        zshape.push_back(v.b1 - v.b0);
        zshape.push_back(axes[i].Q);
        zoff += v.b0 * axes[i].sb;
      }
      for (size_t k = 0; k < n; ++k) {
        const Interval& v = iv[k][pick[k]];
        if (v.lo > 0) {
          zshape[2 * k + 1] = v.lo;
          ZeroStrided(plain + zoff * es, ps, zshape, es);
        }
        if (v.hi < axes[k].Q) {
          zshape[2 * k + 1] = axes[k].Q - v.hi;
          ZeroStrided(plain + (zoff + v.hi * axes[k].sq) * es, ps, zshape, es);
        }
        zshape[2 * k + 1] = v.hi - v.lo;
        zoff += v.lo * axes[k].sq;
      }
    }
    size_t k = n;
    while (k > 0 && ++pick[k - 1] == iv[k - 1].size()) pick[--k] = 0;
    if (k == 0) return;
  }
}

// Groups the axes of `fine` (size-1 axes dropped) into the axes of `coarse`, one or two fine
// axes each; returns false when `fine` is not such a refinement of `coarse`.
bool Group(absl::Span<const int64_t> coarse, absl::Span<const int64_t> fine,
           std::vector<std::vector<size_t>>* groups) {
  groups->assign(coarse.size(), {});
  size_t f = 0;
  for (size_t i = 0; i < coarse.size(); ++i) {
    int64_t prod = 1;
    while (prod < coarse[i] || (f < fine.size() && fine[f] == 1)) {
      if (f == fine.size()) return false;
      if (fine[f] != 1) {
        prod *= fine[f];
        (*groups)[i].push_back(f);
      }
      ++f;
    }
    if (prod != coarse[i] || (*groups)[i].size() > 2) return false;
  }
  for (; f < fine.size(); ++f) {
    if (fine[f] != 1) return false;
  }
  return true;
}

absl::Status NotASplit(absl::Span<const int64_t> a, absl::Span<const int64_t> b) {
  return absl::InternalError(absl::StrCat("oracle.view: ", ShapeToString(b),
                                          " does not split each axis of ", ShapeToString(a),
                                          " into at most two"));
}

bool AnyZero(absl::Span<const int64_t> shape) {
  return std::find(shape.begin(), shape.end(), 0) != shape.end();
}

}  // namespace

PaddedView PadView(const uint8_t* data, absl::Span<const int64_t> data_shape,
                   absl::Span<const int64_t> begin, absl::Span<const int64_t> end) {
  PaddedView x;
  x.data = data;
  x.data_shape.assign(data_shape.begin(), data_shape.end());
  x.begin.assign(begin.begin(), begin.end());
  for (size_t i = 0; i < data_shape.size(); ++i)
    x.shape.push_back(data_shape[i] + begin[i] + end[i]);
  return x;
}

TransposedView TransposeView(const uint8_t* data, absl::Span<const int64_t> split,
                             absl::Span<const int> perm) {
  TransposedView x;
  x.data = data;
  x.split.assign(split.begin(), split.end());
  x.perm.assign(perm.begin(), perm.end());
  x.shape = TransposedShape(split, perm);
  return x;
}

absl::Status Transpose(const PaddedView& x, absl::Span<const int64_t> split,
                       absl::Span<const int> perm, int elem_size, uint8_t* dst, int threads) {
  if (AnyZero(x.shape)) return absl::OkStatus();  // an empty output
  std::vector<std::vector<size_t>> groups;
  if (!Group(x.shape, split, &groups)) return NotASplit(x.shape, split);
  // Plain side: dst, row-major in the transposed order; split axis perm[k] is dst axis k.
  const std::vector<int64_t> ys = RowMajorStrides(TransposedShape(split, perm));
  std::vector<int64_t> stride_of(split.size(), 0);
  for (size_t k = 0; k < perm.size(); ++k) stride_of[static_cast<size_t>(perm[k])] = ys[k];
  const std::vector<int64_t> ds = RowMajorStrides(x.data_shape);
  std::vector<SplitAxis> axes(x.shape.size());
  for (size_t i = 0; i < axes.size(); ++i) {
    SplitAxis& a = axes[i];
    const std::vector<size_t>& g = groups[i];
    if (!g.empty()) a.Q = split[g[0]], a.sq = stride_of[g[0]];
    if (g.size() == 2) a.B = split[g[1]], a.sb = stride_of[g[1]];
    a.begin = x.begin[i];
    a.len = x.data_shape[i];
    a.ws = ds[i];
  }
  WindowCopy(axes, dst, nullptr, x.data, nullptr, /*to_plain=*/true, elem_size, threads);
  return absl::OkStatus();
}

absl::Status Crop(const TransposedView& x, absl::Span<const int64_t> merged,
                  absl::Span<const int64_t> begin, absl::Span<const int64_t> end, int elem_size,
                  uint8_t* dst, int threads) {
  if (AnyZero(merged)) return absl::OkStatus();  // an empty output
  std::vector<std::vector<size_t>> groups;
  if (!Group(merged, x.shape, &groups)) return NotASplit(merged, x.shape);
  Shape out(merged.size());
  for (size_t i = 0; i < merged.size(); ++i) {
    if (begin[i] < 0 || end[i] < 0 || begin[i] + end[i] > merged[i]) {
      return absl::InternalError(
          absl::StrCat("oracle.view: crops do not fit ", ShapeToString(merged)));
    }
    out[i] = merged[i] - begin[i] - end[i];
  }
  if (AnyZero(out)) return absl::OkStatus();  // an empty output
  // Plain side: the source, row-major in `split`; view axis k is source axis perm[k].
  const std::vector<int64_t> ss = RowMajorStrides(x.split);
  const std::vector<int64_t> ys = RowMajorStrides(out);
  std::vector<SplitAxis> axes(merged.size());
  for (size_t i = 0; i < axes.size(); ++i) {
    SplitAxis& a = axes[i];
    const std::vector<size_t>& g = groups[i];
    if (!g.empty()) a.Q = x.shape[g[0]], a.sq = ss[static_cast<size_t>(x.perm[g[0]])];
    if (g.size() == 2) a.B = x.shape[g[1]], a.sb = ss[static_cast<size_t>(x.perm[g[1]])];
    a.begin = begin[i];
    a.len = out[i];
    a.ws = ys[i];
  }
  WindowCopy(axes, nullptr, dst, nullptr, x.data, /*to_plain=*/false, elem_size, threads);
  return absl::OkStatus();
}

}  // namespace dmconf
