#include "harness/compare/block_fit.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <unordered_map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/compare/compare.h"
#include "harness/compare/diagnosis.h"
#include "harness/compare/fit_search.h"

namespace dmconf {
namespace {

constexpr int kMaxPermutedAxes = 4;  // 4! = 24 orders of each kind at most

// The case, in the spec's symbols. Spatial axes are 1..K; vectors are indexed by axis (axis 0
// is the batch, never permuted, never padded).
struct Geometry {
  bool s2b = true;
  int K = 0;
  int64_t batch = 0;  // s2b: data batch; b2s: output batch (batch / prod(B))
  int64_t P = 1;      // prod(B_1..B_K)
  std::vector<int64_t> B, D, out;
  std::vector<int64_t> begin, total;  // spec pads_begin (crops_begin); pads (crops) per axis
};

// One member of the family. layout: the spatial axes in the order the data is read as laid out
// (spec: 1..K); order: the block offsets' flattening order, slowest first (spec: 1..K).
struct Candidate {
  std::vector<int> layout, order;
  bool batch_major = false;
  int structural = 0;          // terms other than begin / pad value that differ
  std::vector<int64_t> begin;  // fitted
};

std::vector<int64_t> Ints(const Tensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(t.GetInteger(i).value_or(-1));
  return v;
}

std::optional<Geometry> MakeGeometry(const OpCase& c, const Shape& out) {
  const Shape& d = c.data.shape;
  if (d.size() < 2 || c.int_inputs.size() != 3 || out.size() != d.size()) return std::nullopt;
  const std::vector<int64_t> b = Ints(c.int_inputs[0]), lo = Ints(c.int_inputs[1]),
                             hi = Ints(c.int_inputs[2]);
  if (b.size() != d.size() || lo.size() != d.size() || hi.size() != d.size()) return std::nullopt;
  if (b[0] != 1 || lo[0] != 0 || hi[0] != 0) return std::nullopt;  // unspecified (E5)
  Geometry g;
  g.s2b = c.op == Op::kSpaceToBatch;
  g.K = static_cast<int>(d.size()) - 1;
  g.B = b;
  g.D.assign(d.begin(), d.end());
  g.out.assign(out.begin(), out.end());
  g.begin = lo;
  g.total.resize(d.size());
  for (size_t i = 0; i < d.size(); ++i) {
    g.total[i] = lo[i] + hi[i];  // the case is valid, its output non-empty: all bounded by 2^44
    if (i > 0) g.P *= b[i];
  }
  g.batch = g.s2b ? d[0] : out[0];
  return g;
}

// Permutations of 1..K, one per class of equivalent ones: only the order of the axes whose
// dims[axis] > 1 matters, so those are permuted among their own places and the others stay. The
// identity comes first; more than kMaxPermutedAxes such axes: the identity only.
std::vector<std::vector<int>> Orders(int K, const std::vector<int64_t>& dims) {
  std::vector<int> p(static_cast<size_t>(K));
  std::iota(p.begin(), p.end(), 1);
  std::vector<size_t> places;
  std::vector<int> moving;
  for (size_t k = 0; k < p.size(); ++k) {
    if (dims[static_cast<size_t>(p[k])] > 1) {
      places.push_back(k);
      moving.push_back(p[k]);
    }
  }
  if (moving.size() > static_cast<size_t>(kMaxPermutedAxes)) return {p};
  std::vector<std::vector<int>> out;
  do {
    for (size_t k = 0; k < places.size(); ++k) p[places[k]] = moving[k];
    out.push_back(p);
  } while (std::next_permutation(moving.begin(), moving.end()));
  return out;
}

// Row-major strides of the data read as laid out [batch, D_layout[0], ...], by logical axis.
std::vector<int64_t> Strides(const Geometry& g, const std::vector<int>& layout) {
  std::vector<int64_t> s(static_cast<size_t>(g.K + 1));
  int64_t stride = 1;
  for (int k = g.K; k-- > 0;) {
    s[static_cast<size_t>(layout[static_cast<size_t>(k)])] = stride;
    stride *= g.D[static_cast<size_t>(layout[static_cast<size_t>(k)])];
  }
  s[0] = stride;
  return s;
}

// Block offsets o_1..o_K from their flat index f under `order` (last fastest), and back.
void Unflatten(const Geometry& g, const std::vector<int>& order, int64_t f,
               std::vector<int64_t>& o) {
  for (int k = g.K; k-- > 0;) {
    const auto a = static_cast<size_t>(order[static_cast<size_t>(k)]);
    o[a] = f % g.B[a];
    f /= g.B[a];
  }
}
int64_t Flatten(const Geometry& g, const std::vector<int>& order, const std::vector<int64_t>& o) {
  int64_t f = 0;
  for (int a : order) f = f * g.B[static_cast<size_t>(a)] + o[static_cast<size_t>(a)];
  return f;
}

// Splits a flat batch index into (f, n): block-major f * batch + n, or batch-major n * P + f.
void SplitBatch(const Geometry& g, bool batch_major, int64_t b, int64_t* f, int64_t* n) {
  *f = batch_major ? b % g.P : b / g.batch;
  *n = batch_major ? b / g.P : b % g.batch;
}

// The input flat index output element (b or n, j) holds under `x` with `begin`, or -1 (outside
// the data: padding).
int64_t Source(const Geometry& g, const Candidate& x, const std::vector<int64_t>& strides,
               int64_t b, const std::vector<int64_t>& j, std::vector<int64_t>& o) {
  int64_t src = 0;
  if (g.s2b) {
    int64_t f, n;
    SplitBatch(g, x.batch_major, b, &f, &n);
    Unflatten(g, x.order, f, o);
    src = n * strides[0];
    for (size_t i = 1; i < g.D.size(); ++i) {
      const int64_t d = j[i] * g.B[i] + o[i] - x.begin[i];
      if (d < 0 || d >= g.D[i]) return -1;
      src += d * strides[i];
    }
    return src;
  }
  for (size_t i = 1; i < g.D.size(); ++i) {
    const int64_t p = j[i] + x.begin[i];
    if (p < 0 || p >= g.D[i] * g.B[i]) return -1;
    o[i] = p % g.B[i];
    src += p / g.B[i] * strides[i];
  }
  const int64_t f = Flatten(g, x.order, o);
  return src + (x.batch_major ? b * g.P + f : f * g.batch + b) * strides[0];
}

// The begin that makes output element j0 (holding input s0) agree with `x`, or false.
bool DeriveBegin(const Geometry& g, Candidate& x, const std::vector<int64_t>& strides,
                 const Shape& out_shape, int64_t j0, int64_t s0) {
  const std::vector<int64_t> j = MultiIndex(out_shape, j0);
  std::vector<int64_t> d(g.D.size()), o(g.D.size());
  const int64_t src_b = s0 / strides[0];
  for (size_t i = 1; i < g.D.size(); ++i) d[i] = s0 / strides[i] % g.D[i];
  x.begin.assign(g.D.size(), 0);
  if (g.s2b) {
    int64_t f, n;
    SplitBatch(g, x.batch_major, j[0], &f, &n);
    if (n != src_b) return false;
    Unflatten(g, x.order, f, o);
    for (size_t i = 1; i < g.D.size(); ++i) x.begin[i] = j[i] * g.B[i] + o[i] - d[i];
    return true;
  }
  int64_t f, n;
  SplitBatch(g, x.batch_major, src_b, &f, &n);
  if (n != j[0]) return false;
  Unflatten(g, x.order, f, o);
  for (size_t i = 1; i < g.D.size(); ++i) x.begin[i] = d[i] * g.B[i] + o[i] - j[i];
  return true;
}

// Whether `x` (with its begin) explains every output element, the padding (s2b) holding one
// value (*pad_bits, set from the first padding element; it may equal an input value); false
// also when the budget runs out (then *budget_out is set).
bool Explains(const Geometry& g, const Candidate& x, const Tensor& actual,
              const std::vector<int64_t>& seen, std::optional<uint64_t>* pad_bits, int64_t* budget,
              bool* budget_out) {
  const std::vector<int64_t> strides = Strides(g, x.layout);
  std::vector<int64_t> j(actual.shape.size(), 0), o(g.D.size(), 0);
  pad_bits->reset();
  for (size_t k = 0; k < seen.size(); ++k) {
    if (--*budget < 0) {
      *budget_out = true;
      return false;
    }
    const int64_t src = Source(g, x, strides, j[0], j, o);
    if (src >= 0 && src != seen[k]) return false;
    if (src < 0) {
      const uint64_t bits = actual.GetBits(static_cast<int64_t>(k));
      if (!g.s2b || (pad_bits->has_value() && **pad_bits != bits)) return false;
      *pad_bits = bits;
    }
    for (size_t a = j.size(); a-- > 0;) {  // next row-major output index
      if (++j[a] < actual.shape[a]) break;
      j[a] = 0;
    }
  }
  return true;
}

std::string List(const std::vector<int64_t>& v) {
  return absl::StrCat("[", absl::StrJoin(v, ", "), "]");
}
std::string AxisList(const std::vector<int>& v, bool with_batch) {
  return absl::StrCat("[", with_batch ? "0, " : "", absl::StrJoin(v, ", "), "]");
}

bool SameKey(const std::vector<int>& a, const std::vector<int>& b,
             const std::vector<int64_t>& dims) {
  auto key = [&](const std::vector<int>& p) {
    std::vector<int> k;
    for (int x : p) {
      if (dims[static_cast<size_t>(x)] > 1) k.push_back(x);
    }
    return k;
  };
  return key(a) == key(b);
}

std::vector<int> Identity(int K) {
  std::vector<int> p(static_cast<size_t>(K));
  std::iota(p.begin(), p.end(), 1);
  return p;
}

// The begin / end term: how the fitted pads (crops) differ from the spec's.
std::string EndsText(const Geometry& g, const std::vector<int64_t>& begin) {
  const char* what = g.s2b ? "pads" : "crops";
  std::vector<int64_t> end(g.D.size()), spec_end(g.D.size());
  bool swapped = true, all_end = true, all_begin = true;
  for (size_t i = 0; i < g.D.size(); ++i) {
    end[i] = g.total[i] - begin[i];
    spec_end[i] = g.total[i] - g.begin[i];
    swapped = swapped && begin[i] == spec_end[i];
    all_end = all_end && begin[i] == 0;
    all_begin = all_begin && end[i] == 0;
  }
  std::string how;
  if (swapped) {
    how = absl::StrCat(": ", what, "_begin and ", what, "_end swapped");
  } else if (all_end) {
    how = g.s2b ? ": all padding applied at the end" : ": all cropping taken from the end";
  } else if (all_begin) {
    how = g.s2b ? ": all padding applied at the beginning" : ": all cropping taken from the start";
  }
  return absl::StrCat(what, "_begin ", List(begin), " (", what, "_end ", List(end),
                      ") where the spec says ", what, "_begin ", List(g.begin), " (", what, "_end ",
                      List(spec_end), ")", how);
}

FitTerms Describe(const Geometry& g, const Candidate& x, std::optional<uint64_t> pad_bits,
                  ElementType type) {
  const std::string op = g.s2b ? "s2b" : "b2s";
  FitTerms d;
  auto add = [&](const char* term, std::string text) {
    d.terms.push_back(absl::StrCat(op, ".fit.", term));
    d.texts.push_back(std::move(text));
  };
  if (x.batch_major) {
    add("batch_order", g.s2b ? "the output batch is batch-major (n * prod(B) + f) where the "
                               "spec's is block-major (f * batch + n)"
                             : "the input batch is read batch-major (n * prod(B) + f) where the "
                               "spec reads it block-major (f * batch_out + n)");
  }
  const std::vector<int> id = Identity(g.K);
  if (!SameKey(x.order, id, g.B)) {
    add("block_order",
        absl::StrCat("the block offsets are flattened in axis order ", AxisList(x.order, false),
                     " (last fastest) where the spec flattens them in order ",
                     AxisList(id, false)));
  }
  if (!SameKey(x.layout, id, g.D)) {
    const bool nhwc = g.K == 3 && SameKey(x.layout, {2, 3, 1}, g.D);
    add("input_layout",
        absl::StrCat("the data is read as laid out in axis order ", AxisList(x.layout, true),
                     nhwc ? " (elements read as NHWC)" : "", " where it is laid out ",
                     AxisList(id, true)));
  }
  if (x.begin != g.begin) add(g.s2b ? "pads" : "crops", EndsText(g, x.begin));
  if (pad_bits.has_value() && *pad_bits != 0) {
    add("pad_value", absl::StrCat("the padding holds ", FormatBits(type, *pad_bits),
                                  " where the spec says zero"));
  }
  return d;
}

// SpaceToBatch of empty data: every output element is padding, which the spec fills with zero.
// An output holding one other value everywhere is the pad value and nothing else (no member of
// the family moves an element; every member gives that output with that pad value).
std::optional<LayoutFit> FitEmptyDataPadding(const OpCase& c, const Tensor& actual) {
  if (c.op != Op::kSpaceToBatch || c.data.NumElements() != 0 || actual.NumElements() == 0) {
    return std::nullopt;
  }
  const uint64_t v = actual.GetBits(0);
  for (int64_t j = 1; j < actual.NumElements(); ++j) {
    if (actual.GetBits(j) != v) return std::nullopt;
  }
  if (v == 0) return std::nullopt;
  LayoutFit fit;
  fit.explained = true;
  fit.terms = {"s2b.fit.pad_value"};
  fit.summary = absl::StrCat("the data are empty, so every output element is padding: it holds ",
                             FormatBits(actual.type, v),
                             " where the spec says zero (the padding holds another value)");
  return fit;
}

// Whether the fit applies to this op and this actual output at all.
bool FitApplies(const OpCase& c, const Tensor& expected, const Tensor& actual) {
  return (c.op == Op::kSpaceToBatch || c.op == Op::kBatchToSpace) && actual.type == c.data.type &&
         actual.shape == expected.shape && actual.NumElements() != 0 &&
         actual.NumElements() <= kMaxFitElements && actual.Validate("output").ok();
}

// The output element the begin is derived from: the first holding an input value that occurs
// once (every member of the family copies each input element at most once; a value that occurs
// more often is, at best, padding that happens to equal an input value), or -1.
int64_t FirstUniqueInput(const Tensor& actual, const std::vector<int64_t>& seen) {
  std::unordered_map<uint64_t, int64_t> count;
  for (int64_t j = 0; j < actual.NumElements(); ++j) ++count[actual.GetBits(j)];
  for (int64_t j = 0; j < actual.NumElements(); ++j) {
    if (seen[static_cast<size_t>(j)] >= 0 && count[actual.GetBits(j)] == 1) return j;
  }
  return -1;
}

// Every member of the family, cheapest first: the fewer structural terms differ, the likelier
// the bug.
std::vector<Candidate> Members(const Geometry& g) {
  std::vector<Candidate> all;
  const std::vector<int> id = Identity(g.K);
  for (const std::vector<int>& layout : Orders(g.K, g.D)) {
    for (const std::vector<int>& order : Orders(g.K, g.B)) {
      for (bool batch_major : {false, true}) {
        if (batch_major && (g.batch < 2 || g.P < 2)) continue;  // the same map
        Candidate x;
        x.layout = layout;
        x.order = order;
        x.batch_major = batch_major;
        x.structural = (layout != id) + (order != id) + batch_major;
        all.push_back(std::move(x));
      }
    }
  }
  std::stable_sort(all.begin(), all.end(), [](const Candidate& a, const Candidate& b) {
    return a.structural < b.structural;
  });
  return all;
}

// The members that explain every output element with the fewest terms differing from the
// spec's (each with the begin derived from output element first_input), or std::nullopt when
// the work budget runs out (then no claim is made).
std::optional<FewestTerms<FitTerms>> FewestExplaining(const Geometry& g,
                                                      std::vector<Candidate> members,
                                                      const Tensor& actual,
                                                      const std::vector<int64_t>& seen,
                                                      int64_t first_input) {
  int64_t budget = kFitWorkBudget;
  bool budget_out = false;
  FewestTerms<FitTerms> best;
  for (Candidate& x : members) {
    if (!best.CanStillTie(static_cast<size_t>(x.structural))) break;
    const std::vector<int64_t> strides = Strides(g, x.layout);
    std::optional<uint64_t> pad_bits;
    if (!DeriveBegin(g, x, strides, actual.shape, first_input,
                     seen[static_cast<size_t>(first_input)]) ||
        !Explains(g, x, actual, seen, &pad_bits, &budget, &budget_out)) {
      if (budget_out) return std::nullopt;
      continue;
    }
    best.Offer(Describe(g, x, pad_bits, actual.type));
  }
  return best;
}

// The family, as the answer names it when no member explains the output.
const char* FamilyText(bool s2b) {
  return s2b ? "pad, reshape-transpose-reshape (any pads_begin, batch order, block order, input "
               "layout, pad value)"
             : "reshape-transpose-reshape, crop (any crops_begin, batch order, block order, input "
               "layout)";
}

}  // namespace

std::optional<LayoutFit> FitBlockLayout(const OpCase& c, const Tensor& expected,
                                        const Tensor& actual) {
  if (!FitApplies(c, expected, actual)) return std::nullopt;
  if (std::optional<LayoutFit> empty = FitEmptyDataPadding(c, actual)) return empty;
  if (!IsPositionEncoded(c.data)) return std::nullopt;
  const std::optional<Geometry> g = MakeGeometry(c, actual.shape);
  if (!g.has_value()) return std::nullopt;
  const std::vector<int64_t> seen = InputIndexOfEach(c.data, actual);
  const int64_t first_input = FirstUniqueInput(actual, seen);
  if (first_input < 0) {
    LayoutFit fit;
    fit.summary = "no output element holds an input element once: nothing to fit";
    return fit;
  }
  const std::optional<FewestTerms<FitTerms>> best =
      FewestExplaining(*g, Members(*g), actual, seen, first_input);
  if (!best.has_value()) return std::nullopt;
  if (best->kept().empty()) return NoMemberFits(FamilyText(g->s2b));
  if (best->kept().size() > 1) return SeveralFit(best->Ways());
  return OneFit(best->kept()[0], "map");
}

}  // namespace dmconf
