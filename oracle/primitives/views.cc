#include "oracle/primitives/views.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "oracle/primitives/parallel.h"
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

// A box of one axis's (b, q) plane: b in [b0, b1), q in [q0, q1).
struct Piece {
  int64_t b0, b1, q0, q1;
};

// The (b, q) plane of one axis cut into boxes whose p = q * B + b is inside the window
// (`inside`) and boxes where it is outside (`outside`).
//
// p is inside for q in [lo(b), hi(b)), lo(b) = floor(begin / B) + (b < begin mod B), hi the
// same at begin + len; both step once, so [0, B) falls into at most three intervals of b with
// constant [lo, hi). The inside is one core box (every b, the q that are inside for every b),
// which holds nearly every element and keeps the copy's source and destination contiguous,
// plus thin edges (q = lo(b) .. core start, core end .. hi(b)).
void Cut(const SplitAxis& a, std::vector<Piece>* inside, std::vector<Piece>* outside) {
  const int64_t w0 = a.begin, w1 = a.begin + a.len;
  std::vector<int64_t> cuts = {0, w0 % a.B, w1 % a.B, a.B};
  std::sort(cuts.begin(), cuts.end());
  std::vector<Piece> iv;  // {b0, b1, lo, hi}
  int64_t core0 = 0, core1 = a.Q;
  for (size_t k = 0; k + 1 < cuts.size(); ++k) {
    const int64_t b0 = cuts[k], b1 = cuts[k + 1];
    if (b0 == b1) continue;
    const int64_t lo = std::min(w0 / a.B + (b0 < w0 % a.B ? 1 : 0), a.Q);
    const int64_t hi = std::max(lo, std::min(w1 / a.B + (b0 < w1 % a.B ? 1 : 0), a.Q));
    iv.push_back({b0, b1, lo, hi});
    core0 = std::max(core0, lo);
    core1 = std::min(core1, hi);
  }
  inside->clear();
  outside->clear();
  const bool core = core0 < core1;
  if (core) inside->push_back({0, a.B, core0, core1});
  for (const Piece& v : iv) {
    if (core) {
      if (v.q0 < core0) inside->push_back({v.b0, v.b1, v.q0, core0});
      if (core1 < v.q1) inside->push_back({v.b0, v.b1, core1, v.q1});
    } else if (v.q0 < v.q1) {
      inside->push_back(v);
    }
    if (v.q0 > 0) outside->push_back({v.b0, v.b1, 0, v.q0});
    if (v.q1 < a.Q) outside->push_back({v.b0, v.b1, v.q1, a.Q});
  }
}

// Calls body(pieces) for every choice of one piece per axis from lists[0..n).
template <typename Body>
void ForEachChoice(const std::vector<const std::vector<Piece>*>& lists, Body body) {
  const size_t n = lists.size();
  for (const std::vector<Piece>* l : lists) {
    if (l->empty()) return;
  }
  std::vector<size_t> pick(n, 0);
  std::vector<Piece> chosen(n);
  while (true) {
    for (size_t i = 0; i < n; ++i) chosen[i] = (*lists[i])[pick[i]];
    body(chosen);
    size_t k = n;
    while (k > 0 && ++pick[k - 1] == lists[k - 1]->size()) pick[--k] = 0;
    if (k == 0) return;
  }
}

// The boxes of every axis: inside, outside and the whole (b, q) plane.
struct Boxes {
  std::vector<std::vector<Piece>> inside, outside, all;
};

// The same boxes with axis `cut` limited to q in [lo, hi) (empty pieces dropped).
Boxes Clip(const Boxes& b, size_t cut, int64_t lo, int64_t hi) {
  Boxes c = b;
  for (std::vector<std::vector<Piece>>* lists : {&c.inside, &c.outside, &c.all}) {
    std::vector<Piece>& l = (*lists)[cut];
    std::vector<Piece> kept;
    for (Piece v : l) {
      v.q0 = std::max(v.q0, lo);
      v.q1 = std::min(v.q1, hi);
      if (v.q0 < v.q1) kept.push_back(v);
    }
    l = std::move(kept);
  }
  return c;
}

// The axis along which a threaded copy is cut into parts, each part doing every box (copies
// and zeros alike) for its own range of q: an axis that is not split (B == 1) with at least
// `threads` indices that share out evenly, the longest; axes.size() for none. Parts then write
// disjoint elements; packed elements also need disjoint bytes: every stride but the last axis's a
// whole number of bytes, and the last axis unsplit and contiguous on both sides (each row of it
// then lies in bytes of its own). Cutting inside the boxes instead left the thin edges and zero
// frames to one thread (SpaceToBatch with pads: 1.64-1.75x with 2 threads, docs/performance.md).
size_t PartAxis(const std::vector<SplitAxis>& axes, Elem es, int threads) {
  const size_t n = axes.size();
  if (n < 2) return n;
  if (es.packed()) {
    const int64_t g = es.per_byte();
    const SplitAxis& last = axes.back();
    if (last.B != 1 || last.sq != 1 || last.ws != 1) return n;
    for (size_t i = 0; i + 1 < n; ++i) {
      const SplitAxis& a = axes[i];
      if (a.sq % g != 0 || a.sb % g != 0 || a.ws % g != 0) return n;
    }
  }
  // Parts of equal size, or of sizes within 1/8 of each other.
  const auto even = [threads](int64_t Q) {
    return Q >= threads && (Q % threads == 0 || Q >= 8 * int64_t{threads});
  };
  size_t cut = n;
  for (size_t i = 0; i + 1 < n; ++i) {
    if (axes[i].B == 1 && even(axes[i].Q) && (cut == n || axes[i].Q > axes[cut].Q)) cut = i;
  }
  return cut;
}

// Copies between the plain and the window side for every (q, b) of `boxes` whose p is inside
// the window (window -> plain when `to_plain`, else plain -> window); with `to_plain`, also
// writes zeros at every plain position whose p is outside it.
void CopyBoxes(const std::vector<SplitAxis>& axes, const Boxes& boxes, uint8_t* plain,
               uint8_t* window_dst, const uint8_t* window_src, const uint8_t* plain_src,
               bool to_plain, Elem es, int threads) {
  const size_t n = axes.size();
  // Per box, axes (b, q) for every window axis; plain-side and window-side strides.
  std::vector<int64_t> ps, ws;
  for (const SplitAxis& a : axes) {
    ps.insert(ps.end(), {a.sb, a.sq});
    ws.insert(ws.end(), {a.ws, a.B * a.ws});
  }
  auto box = [&](const std::vector<Piece>& pieces, Shape* shape, int64_t* poff, int64_t* woff) {
    shape->clear();
    *poff = *woff = 0;
    for (size_t i = 0; i < n; ++i) {
      const Piece& v = pieces[i];
      shape->insert(shape->end(), {v.b1 - v.b0, v.q1 - v.q0});
      *poff += v.b0 * axes[i].sb + v.q0 * axes[i].sq;
      *woff += (v.q0 * axes[i].B + v.b0 - axes[i].begin) * axes[i].ws;
    }
  };
  std::vector<const std::vector<Piece>*> lists(n);
  for (size_t i = 0; i < n; ++i) lists[i] = &boxes.inside[i];
  Shape shape;
  int64_t poff = 0, woff = 0;
  ForEachChoice(lists, [&](const std::vector<Piece>& pieces) {
    box(pieces, &shape, &poff, &woff);
    if (to_plain) {
      StridedCopyAt(plain, poff, ps, window_src, woff, ws, shape, es, threads);
    } else {
      StridedCopyAt(window_dst, woff, ws, plain_src, poff, ps, shape, es, threads);
    }
  });
  if (!to_plain) return;
  // The zeros: outside on axis k, inside on the axes before k, anything on the axes after k.
  for (size_t k = 0; k < n; ++k) {
    for (size_t i = 0; i < n; ++i) {
      lists[i] = i < k ? &boxes.inside[i] : i == k ? &boxes.outside[i] : &boxes.all[i];
    }
    ForEachChoice(lists, [&](const std::vector<Piece>& pieces) {
      box(pieces, &shape, &poff, &woff);
      ZeroStrided(plain, poff, ps, shape, es);
    });
  }
}

// Threads take part ranges of one unsplit axis (PartAxis) when the output is kParallelBytes or
// more;
// where there is no such axis, the large boxes are split inside StridedCopy.
void WindowCopy(const std::vector<SplitAxis>& axes, uint8_t* plain, uint8_t* window_dst,
                const uint8_t* window_src, const uint8_t* plain_src, bool to_plain, Elem es,
                int threads) {
  const size_t n = axes.size();
  Boxes boxes;
  boxes.inside.resize(n), boxes.outside.resize(n), boxes.all.resize(n);
  int64_t out_elems = 1;  // the output's size fits in int64_t (validated)
  for (size_t i = 0; i < n; ++i) {
    Cut(axes[i], &boxes.inside[i], &boxes.outside[i]);
    boxes.all[i] = {{0, axes[i].B, 0, axes[i].Q}};
    out_elems *= to_plain ? axes[i].Q * axes[i].B : axes[i].len;
  }
  const int64_t out_bytes = es.packed() ? out_elems / es.per_byte() : out_elems * es.bytes;
  const size_t cut = threads > 1 && out_bytes >= kParallelBytes ? PartAxis(axes, es, threads) : n;
  if (cut == n) {
    CopyBoxes(axes, boxes, plain, window_dst, window_src, plain_src, to_plain, es, threads);
    return;
  }
  const int64_t Q = axes[cut].Q;
  const int parts = static_cast<int>(std::min<int64_t>(threads, Q));
  ParallelFor(parts, [&](int part) {
    const Boxes mine = Clip(boxes, cut, Q * part / parts, Q * (part + 1) / parts);
    CopyBoxes(axes, mine, plain, window_dst, window_src, plain_src, to_plain, es, 1);
  });
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
                       absl::Span<const int> perm, Elem elem_size, uint8_t* dst, int threads) {
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
                  absl::Span<const int64_t> begin, absl::Span<const int64_t> end, Elem elem_size,
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
