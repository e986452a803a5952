#include "harness/compare/patch_fit.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/compare/compare.h"
#include "harness/compare/diagnosis.h"
#include "harness/compare/fit_search.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

using Pair = std::array<int64_t, 2>;  // (rows, cols)

struct Geometry {
  int64_t N = 0, C = 0, H = 0, W = 0, KH = 0, KW = 0, OH = 0, OW = 0;
  Pair stride{}, rate{}, pad{}, other_pad{};  // other_pad: the other same_* mode's padding
  bool same = false;                          // auto_pad is same_upper or same_lower
};

// One member of the family: the structural choices, and the solved strides, rates and pads.
struct Candidate {
  bool patch_major = false, col_major = false, nhwc = false;
  Pair stride{}, rate{}, pad{};
  std::array<bool, 2> confounded{};  // the axis' pad rests on an undetermined stride or rate
};

void Channel(const Geometry& g, const Candidate& x, int64_t ch, int64_t* c, int64_t* kh,
             int64_t* kw) {
  const int64_t K = g.KH * g.KW;
  const int64_t k = x.patch_major ? ch % K : ch / g.C;
  *c = x.patch_major ? ch / K : ch % g.C;
  *kh = x.col_major ? k % g.KH : k / g.KW;
  *kw = x.col_major ? k / g.KH : k % g.KW;
}

void Input(const Geometry& g, bool nhwc, int64_t s, int64_t* n, int64_t* c, int64_t* r,
           int64_t* q) {
  if (nhwc) {
    *c = s % g.C;
    *q = s / g.C % g.W;
    *r = s / (g.C * g.W) % g.H;
    *n = s / (g.C * g.W * g.H);
  } else {
    *q = s % g.W;
    *r = s / g.W % g.H;
    *c = s / (g.W * g.H) % g.C;
    *n = s / (g.W * g.H * g.C);
  }
}

int64_t Flat(const Geometry& g, bool nhwc, int64_t n, int64_t c, int64_t r, int64_t q) {
  return nhwc ? ((n * g.H + r) * g.W + q) * g.C + c : ((n * g.C + c) * g.H + r) * g.W + q;
}

// o * stride + k * rate - pad; false when that overflows (far outside the image).
bool Position(int64_t o, int64_t k, int64_t stride, int64_t rate, int64_t pad, int64_t* p) {
  int64_t a, b;
  return !__builtin_mul_overflow(o, stride, &a) && !__builtin_mul_overflow(k, rate, &b) &&
         !__builtin_add_overflow(a, b, p) && !__builtin_sub_overflow(*p, pad, p);
}

// Solves position = o * stride + k * rate - pad along one axis from observed (o, k, position):
// a pivot, then a pair that differs in o only (the stride), in k only (the rate), or in both.
class AxisSolver {
 public:
  void Add(int64_t o, int64_t k, int64_t p) {
    if (!pivot_) {
      pivot_ = true;
      o0_ = o, k0_ = k, p0_ = p;
      return;
    }
    if (o != o0_ && k == k0_ && !stride_) stride_ = Ratio(p - p0_, o - o0_);
    if (k != k0_ && o == o0_ && !rate_) rate_ = Ratio(p - p0_, k - k0_);
    if (o != o0_ && !any_o_) any_o_ = std::array<int64_t, 3>{o, k, p};
    if (k != k0_ && !any_k_) any_k_ = std::array<int64_t, 3>{o, k, p};
  }
  // The solved (stride, rate, pad); the spec's stride (rate) where no element depends on it.
  // *confounded: the pad depends on a stride or rate the output does not determine.
  bool Solve(int64_t spec_stride, int64_t spec_rate, int64_t* stride, int64_t* rate, int64_t* pad,
             bool* confounded) {
    if (!pivot_ || (stride_ && !*stride_) || (rate_ && !*rate_)) return false;
    if (!stride_ && rate_ && any_o_) {
      const auto& [o, k, p] = *any_o_;
      stride_ = Ratio(p - p0_ - (k - k0_) * **rate_, o - o0_);
    }
    if (!rate_ && stride_ && *stride_ && any_k_) {
      const auto& [o, k, p] = *any_k_;
      rate_ = Ratio(p - p0_ - (o - o0_) * **stride_, k - k0_);
    }
    if ((stride_ && !*stride_) || (rate_ && !*rate_)) return false;
    *stride = stride_ ? **stride_ : spec_stride;
    *rate = rate_ ? **rate_ : spec_rate;
    // Members of the family have positive strides and rates (the spec's attributes): a
    // "rate" of 0 or below (every patch position reading one place) is not one of them.
    if (*stride < 1 || *rate < 1) return false;
    *confounded = (o0_ != 0 && !stride_) || (k0_ != 0 && !rate_);
    int64_t at_zero;  // o0 * stride + k0 * rate - p0 = pad
    return Position(o0_, k0_, *stride, *rate, p0_, &at_zero) && (*pad = at_zero, true);
  }

 private:
  // a / b when exact; std::nullopt inside the optional when not (no member fits).
  static std::optional<std::optional<int64_t>> Ratio(int64_t a, int64_t b) {
    if (a % b != 0) return std::optional<int64_t>();
    return std::optional<int64_t>(a / b);
  }
  bool pivot_ = false;
  int64_t o0_ = 0, k0_ = 0, p0_ = 0;
  std::optional<std::optional<int64_t>> stride_, rate_;
  std::optional<std::array<int64_t, 3>> any_o_, any_k_;
};

// Output (n, ch, oh, ow) by flat index, row-major over [N, channels, OH, OW].
struct OutIndex {
  int64_t n = 0, ch = 0, oh = 0, ow = 0;
  void Next(const Geometry& g, int64_t channels) {
    if (++ow < g.OW) return;
    ow = 0;
    if (++oh < g.OH) return;
    oh = 0;
    if (++ch < channels) return;
    ch = 0;
    ++n;
  }
};

// Solves the candidate's strides, rates and pads from every element holding an input value.
bool SolveAxes(const Geometry& g, Candidate& x, const std::vector<int64_t>& seen, int64_t* budget) {
  AxisSolver rows, cols;
  OutIndex i;
  const int64_t channels = g.KH * g.KW * g.C;
  for (int64_t s : seen) {
    if (--*budget < 0) return false;
    if (s >= 0) {
      int64_t n, c, r, q, kc, kh, kw;
      Input(g, x.nhwc, s, &n, &c, &r, &q);
      Channel(g, x, i.ch, &kc, &kh, &kw);
      if (n != i.n || c != kc) return false;
      rows.Add(i.oh, kh, r);
      cols.Add(i.ow, kw, q);
    }
    i.Next(g, channels);
  }
  return rows.Solve(g.stride[0], g.rate[0], &x.stride[0], &x.rate[0], &x.pad[0],
                    &x.confounded[0]) &&
         cols.Solve(g.stride[1], g.rate[1], &x.stride[1], &x.rate[1], &x.pad[1], &x.confounded[1]);
}

// Whether the candidate explains every output element, the padding holding one value.
bool Explains(const Geometry& g, const Candidate& x, const Tensor& actual,
              const std::vector<int64_t>& seen, std::optional<uint64_t>* pad_bits,
              int64_t* budget) {
  OutIndex i;
  const int64_t channels = g.KH * g.KW * g.C;
  pad_bits->reset();
  for (size_t j = 0; j < seen.size(); ++j) {
    if (--*budget < 0) return false;
    int64_t c, kh, kw, r, q;
    Channel(g, x, i.ch, &c, &kh, &kw);
    const bool inside = Position(i.oh, kh, x.stride[0], x.rate[0], x.pad[0], &r) &&
                        Position(i.ow, kw, x.stride[1], x.rate[1], x.pad[1], &q) && r >= 0 &&
                        r < g.H && q >= 0 && q < g.W;
    if (inside) {
      if (Flat(g, x.nhwc, i.n, c, r, q) != seen[j]) return false;
    } else {
      const uint64_t bits = actual.GetBits(static_cast<int64_t>(j));
      if (pad_bits->has_value() && **pad_bits != bits) return false;
      *pad_bits = bits;
    }
    i.Next(g, channels);
  }
  return true;
}

std::string List(const Pair& p) { return absl::StrCat("[", p[0], ", ", p[1], "]"); }

// "strides [2, 1] where the spec says [1, 1]", with the likely source of the wrong values.
std::string PairText(const char* what, const Pair& got, const Pair& spec, const Pair& swapped_with,
                     const char* swapped_name) {
  std::vector<std::string> why;
  if (got == swapped_with && got != spec) why.push_back(absl::StrCat("the ", swapped_name));
  if (got[0] != spec[0] && got[0] == spec[1]) {
    why.push_back(absl::StrCat("the column ", what, " is used for rows"));
  }
  if (got[1] != spec[1] && got[1] == spec[0]) {
    why.push_back(absl::StrCat("the row ", what, " is used for columns"));
  }
  return absl::StrCat(what, "s ", List(got), " where the spec says ", List(spec),
                      why.empty() ? "" : absl::StrCat(" (", absl::StrJoin(why, "; "), ")"));
}

struct Described : FitTerms {
  bool pads_confounded = false;  // the pads term rests on a stride or rate the output hides
};

Described Describe(const Geometry& g, const Candidate& x, std::optional<uint64_t> pad_bits,
                   ElementType type) {
  Described d;
  auto add = [&](const char* term, std::string text) {
    d.terms.push_back(absl::StrCat("eip.fit.", term));
    d.texts.push_back(std::move(text));
  };
  if (x.patch_major) {
    add("depth_order",
        "the depth is patch-major (c * KH * KW + k) where the spec's is channel-fastest "
        "(k * depth + c)");
  }
  if (x.col_major) {
    add("kernel_order",
        "the patch offsets are column-major (kw * KH + kh) where the spec's are row-major "
        "(kh * KW + kw)");
  }
  if (x.nhwc) add("input_layout", "the elements are read as NHWC where the data is NCHW");
  if (x.stride != g.stride) {
    add("strides", PairText("stride", x.stride, g.stride, g.rate, "rates used as strides"));
  }
  if (x.rate != g.rate) {
    add("rates", PairText("rate", x.rate, g.rate, g.stride, "strides used as rates"));
  }
  if (x.pad != g.pad) {
    d.pads_confounded =
        (x.pad[0] != g.pad[0] && x.confounded[0]) || (x.pad[1] != g.pad[1] && x.confounded[1]);
    add("pads", absl::StrCat("padding before ", List(x.pad), " where the spec says ", List(g.pad),
                             g.same && x.pad == g.other_pad
                                 ? " (the padding split the other way: same_lower vs same_upper)"
                                 : ""));
  }
  if (pad_bits.has_value() && *pad_bits != 0) {
    add("pad_value", absl::StrCat("the padding holds ", FormatBits(type, *pad_bits),
                                  " where the spec says zero"));
  }
  return d;
}

// Whether the fit applies to this case and this actual output at all (before the case is
// validated).
bool FitApplies(const OpCase& c, const Tensor& expected, const Tensor& actual) {
  return c.op == Op::kExtractImagePatches && c.data.shape.size() == 4 &&
         actual.type == c.data.type && actual.shape == expected.shape && actual.shape.size() == 4 &&
         actual.NumElements() != 0 && actual.NumElements() <= kMaxFitElements &&
         actual.Validate("output").ok() && IsPositionEncoded(c.data);
}

// The case in the spec's symbols, or std::nullopt when it is not valid. `out`: the output shape.
std::optional<Geometry> MakeGeometry(const OpCase& c, const Shape& out) {
  absl::StatusOr<Validation> v = Validate(c);
  if (!v.ok() || v->kind() != ExpectationKind::kValid) return std::nullopt;
  const ParsedCase& p = v->parsed;
  Geometry g;
  g.N = c.data.shape[0], g.C = c.data.shape[1], g.H = c.data.shape[2], g.W = c.data.shape[3];
  g.KH = p.size[0], g.KW = p.size[1], g.OH = out[2], g.OW = out[3];
  g.same = p.auto_pad != AutoPad::kValid;
  for (int a = 0; a < 2; ++a) {
    g.stride[a] = p.stride[a], g.rate[a] = p.rate[a], g.pad[a] = p.pad_begin[a];
    // The total padding (ERRATA E8), formed as the oracle forms it; the other mode puts the
    // odd unit at the other end.
    const int64_t total =
        p.out[a] == 0 ? 0
                      : std::max<int64_t>(0, p.eff[a] - (p.in[a] - (p.out[a] - 1) * p.stride[a]));
    g.other_pad[a] = total - p.pad_begin[a];
  }
  return g;
}

// The structural choices, fewest changes first; a choice that cannot change the map here
// (one channel, a 1-wide patch, a 1x1 image) is not tried.
std::vector<Candidate> Members(const Geometry& g) {
  std::vector<Candidate> all;
  for (int changes = 0; changes <= 3; ++changes) {
    for (int bits = 0; bits < 8; ++bits) {
      if (__builtin_popcount(static_cast<unsigned>(bits)) != changes) continue;
      Candidate x;
      x.patch_major = bits & 1;
      x.col_major = bits & 2;
      x.nhwc = bits & 4;
      if ((x.patch_major && (g.C < 2 || g.KH * g.KW < 2)) ||
          (x.col_major && (g.KH < 2 || g.KW < 2)) || (x.nhwc && (g.C < 2 || g.H * g.W < 2))) {
        continue;
      }
      all.push_back(x);
    }
  }
  return all;
}

// The members that explain every output element with the fewest terms differing from the
// spec's (each with its strides, rates and pads solved from the output), or std::nullopt when
// the work budget runs out (then no claim is made).
std::optional<FewestTerms<Described>> FewestExplaining(const Geometry& g,
                                                       std::vector<Candidate> members,
                                                       const Tensor& actual,
                                                       const std::vector<int64_t>& seen) {
  int64_t budget = kFitWorkBudget;
  FewestTerms<Described> best;
  for (Candidate& x : members) {
    const size_t structural = size_t{x.patch_major} + x.col_major + x.nhwc;
    if (!best.CanStillTie(structural)) break;
    std::optional<uint64_t> pad_bits;
    const bool ok =
        SolveAxes(g, x, seen, &budget) && Explains(g, x, actual, seen, &pad_bits, &budget);
    if (budget < 0) return std::nullopt;  // too much work: no claim
    if (!ok) continue;
    best.Offer(Describe(g, x, pad_bits, actual.type));
  }
  return best;
}

// One member explains every output element, but its padding rests on a stride or rate the
// output does not determine: other members could explain it too.
LayoutFit ConfoundedFit(const Described& d) {
  LayoutFit fit;
  fit.explained = true;
  fit.several = true;
  fit.summary = absl::StrCat(
      "the fitted patch gather explains every output element with ", absl::StrJoin(d.texts, "; "),
      "; but this output cannot tell that padding from another stride or rate (it holds input "
      "elements from one patch offset or one output position only along that axis)");
  return fit;
}

constexpr char kFamily[] =
    "patch gather with any strides, rates and padding, either depth order and patch-offset "
    "order, NCHW or NHWC reading, any pad value";

}  // namespace

std::optional<LayoutFit> FitPatchGather(const OpCase& c, const Tensor& expected,
                                        const Tensor& actual) {
  if (!FitApplies(c, expected, actual)) return std::nullopt;
  const std::optional<Geometry> g = MakeGeometry(c, actual.shape);
  if (!g.has_value()) return std::nullopt;
  const std::vector<int64_t> seen = InputIndexOfEach(c.data, actual);
  if (std::none_of(seen.begin(), seen.end(), [](int64_t s) { return s >= 0; })) {
    LayoutFit fit;
    fit.summary = "no output element holds an input element: nothing to fit";
    return fit;
  }
  const std::optional<FewestTerms<Described>> best =
      FewestExplaining(*g, Members(*g), actual, seen);
  if (!best.has_value()) return std::nullopt;
  if (best->kept().empty()) return NoMemberFits(kFamily);
  if (best->kept().size() > 1) return SeveralFit(best->Ways());
  if (best->kept()[0].pads_confounded) return ConfoundedFit(best->kept()[0]);
  return OneFit(best->kept()[0], "patch gather");
}

}  // namespace dmconf
