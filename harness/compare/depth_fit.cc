#include "harness/compare/depth_fit.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/compare/diagnosis.h"
#include "harness/compare/fit_search.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

// One member of the family: x' = reshape(data, split) (row-major, so x' shares data's flat
// order), then transpose(x', perm), read in row-major order as the output.
struct Layout {
  std::string split_name;
  Shape split;
  std::vector<int> perm;
};

// Whether output flat index j holds data flat index seen[j] for every j under `l`; stops at
// the first element that differs (most candidates fail within a few).
bool Explains(const Layout& l, const std::vector<int64_t>& seen) {
  const size_t r = l.split.size();
  std::vector<int64_t> stride(r, 1);
  for (size_t k = r - 1; k-- > 0;) stride[k] = stride[k + 1] * l.split[k + 1];
  Shape t(r);
  std::vector<int64_t> ts(r);
  for (size_t k = 0; k < r; ++k) {
    t[k] = l.split[static_cast<size_t>(l.perm[k])];
    ts[k] = stride[static_cast<size_t>(l.perm[k])];
  }
  std::vector<int64_t> idx(r, 0);
  for (int64_t src_j : seen) {
    int64_t src = 0;
    for (size_t k = 0; k < r; ++k) src += idx[k] * ts[k];
    if (src != src_j) return false;
    for (size_t k = r; k-- > 0;) {  // next row-major multi-index of the transposed shape
      if (++idx[k] < t[k]) break;
      idx[k] = 0;
    }
  }
  return true;
}

// Whether `spec` explains the output of a kernel that reads 4-D NCHW data [N, C, H, W] from a
// buffer laid out [N, H, W, C]: logical element (n, c, h, w) is buffer element
// ((n * H + h) * W + w) * C + c, so each seen buffer index is mapped back to the logical one.
bool ReadAsNhwcExplains(const Shape& d, const Layout& spec, const std::vector<int64_t>& seen) {
  if (d.size() != 4 || d[1] < 2 || d[2] * d[3] < 2) return false;
  const int64_t C = d[1], H = d[2], W = d[3];
  std::vector<int64_t> logical(seen.size());
  for (size_t j = 0; j < seen.size(); ++j) {
    const int64_t s = seen[j];
    const int64_t c = s % C, w = s / C % W, h = s / (C * W) % H, n = s / (C * W * H);
    logical[j] = ((n * C + c) * H + h) * W + w;
  }
  return Explains(spec, logical);
}

std::string PermText(const std::vector<int>& p) {
  return absl::StrCat("[", absl::StrJoin(p, ", "), "]");
}

// The spec's own layouts for both modes (the oracle's, oracle/oracle.h DepthLayout) and the
// splits the search ranges over: DepthToSpace splits the depth two ways (one per mode),
// SpaceToDepth splits the space one way.
std::vector<Layout> Family(Op op, const Shape& d, int64_t b, DepthMode mode, Layout* spec,
                           Layout* other) {
  auto layout = [&](DepthMode m) {
    const DepthLayout l =
        op == Op::kDepthToSpace ? DepthToSpaceLayout(d, b, m) : SpaceToDepthLayout(d, b, m);
    return Layout{op == Op::kDepthToSpace ? std::string(DepthModeName(m)) : "the", l.split, l.perm};
  };
  const DepthMode other_mode =
      mode == DepthMode::kBlocksFirst ? DepthMode::kDepthFirst : DepthMode::kBlocksFirst;
  *spec = layout(mode);
  *other = layout(other_mode);
  if (op == Op::kSpaceToDepth) return {*spec};
  return {*spec, *other};
}

std::string SplitText(const Layout& l, Op op) {
  // Named by role: N, C (or C'), b, D or D/b, as the spec writes them.
  const int K = static_cast<int>(l.split.size() - 2) / 2;
  std::vector<std::string> names;
  if (op == Op::kDepthToSpace) {
    names.push_back("N");
    if (l.split_name == "depth_first") names.push_back("C'");
    for (int k = 0; k < K; ++k) names.push_back("b");
    if (l.split_name == "blocks_first") names.push_back("C'");
    for (int k = 1; k <= K; ++k) names.push_back(absl::StrCat("D", k));
  } else {
    names = {"N", "C"};
    for (int k = 1; k <= K; ++k) {
      names.push_back(absl::StrCat("D", k, "/b"));
      names.push_back("b");
    }
  }
  return absl::StrCat("[", absl::StrJoin(names, ", "), "]");
}

std::string OtherModeName(const std::string& mode) {
  return mode == "depth_first" ? "blocks_first" : "depth_first";
}

// The member closest to the spec's layout that explains the output: every permutation of the
// non-batch axes, for every split, the closest winning (the same split first, then the fewest
// axes moved), as equal dims make several equivalent.
std::optional<Layout> ClosestExplaining(const std::vector<Layout>& splits, const Layout& spec,
                                        const std::vector<int64_t>& seen) {
  std::optional<Layout> best;
  int best_score = 1 << 30;
  for (const Layout& s : splits) {
    std::vector<int> perm(s.split.size());
    std::iota(perm.begin(), perm.end(), 0);
    do {
      Layout l = s;
      l.perm = perm;
      if (!Explains(l, seen)) continue;
      int score = l.split_name == spec.split_name ? 0 : 100;
      for (size_t k = 0; k < perm.size(); ++k) score += perm[k] != spec.perm[k];
      if (score < best_score) {
        best_score = score;
        best = l;
      }
    } while (std::next_permutation(perm.begin() + 1, perm.end()));
  }
  return best;
}

// NCHW data read as NHWC explain the output (the spec's own layout, each element taken where an
// NHWC buffer puts it). Where another member explains it too (`closest`, else the other mode's
// layout when other_explains), both are named.
LayoutFit NhwcFit(const std::string& mode, const std::optional<Layout>& closest,
                  bool other_explains) {
  const char* nhwc = "the elements are read as NHWC where the data is NCHW";
  if (closest.has_value() || other_explains) {
    return SeveralFit({nhwc, closest.has_value()
                                 ? absl::StrCat("transpose(x', ", PermText(closest->perm), ")")
                                 : absl::StrCat("the spec's ", OtherModeName(mode), " layout")});
  }
  LayoutFit fit;
  fit.explained = true;
  fit.terms = {"depth.fit.input_layout"};
  fit.summary = absl::StrCat("your output is the spec's ", mode, " layout, but ", nhwc);
  return fit;
}

// The other mode's own layout explains the output: the likeliest mix-up, and the plainest
// statement.
LayoutFit OtherModeFit(Op op, const std::string& mode, const Layout& spec, const Layout& other) {
  LayoutFit fit;
  fit.explained = true;
  fit.terms = {"depth.fit.mode"};
  fit.summary = absl::StrCat(
      "your output is the spec's ", OtherModeName(mode), " layout: transpose(x', ",
      PermText(other.perm), ")",
      op == Op::kDepthToSpace ? absl::StrCat(" of the split ", SplitText(other, op)) : "",
      ", where ", mode, " says transpose(x', ", PermText(spec.perm), ")",
      op == Op::kDepthToSpace ? absl::StrCat(" of the split ", SplitText(spec, op)) : "",
      ": the mode is read the other way round");
  return fit;
}

// Another split or permutation explains the output: `best` against the spec's, naming what
// differs.
LayoutFit PermutationFit(Op op, const std::string& mode, const Layout& spec, const Layout& best) {
  LayoutFit fit;
  fit.explained = true;
  std::vector<std::string> differs;
  if (best.split_name != spec.split_name) {
    differs.push_back("the split");
    fit.terms.push_back("depth.fit.split");
  }
  std::vector<std::string> axes;
  for (size_t k = 0; k < best.perm.size(); ++k) {
    if (best.perm[k] != spec.perm[k]) axes.push_back(absl::StrCat(k));
  }
  if (!axes.empty()) {
    differs.push_back(absl::StrCat("the permutation at position(s) ", absl::StrJoin(axes, ", ")));
    fit.terms.push_back("depth.fit.permutation");
  }
  const bool split_named = op == Op::kDepthToSpace;
  fit.summary = absl::StrCat(
      "your output is transpose(x', ", PermText(best.perm), ")",
      split_named ? absl::StrCat(" of the ", best.split_name, " split ", SplitText(best, op))
                  : absl::StrCat(" of x' = ", SplitText(best, op)),
      "; the spec (", mode, ") says transpose(x', ", PermText(spec.perm), ")",
      split_named ? absl::StrCat(" of the ", spec.split_name, " split ", SplitText(spec, op)) : "",
      differs.empty() ? "" : absl::StrCat(": ", absl::StrJoin(differs, " and "), " differ"));
  return fit;
}

LayoutFit SummaryOnly(std::string summary) {
  LayoutFit fit;
  fit.summary = std::move(summary);
  return fit;
}

}  // namespace

std::optional<LayoutFit> FitDepthLayout(const OpCase& c, const Tensor& expected,
                                        const Tensor& actual) {
  if (c.op != Op::kDepthToSpace && c.op != Op::kSpaceToDepth) return std::nullopt;
  const Shape& d = c.data.shape;
  const int K = static_cast<int>(d.size()) - 2;
  if (K < 1 || K > 3 || !c.mode.has_value() || actual.type != c.data.type ||
      actual.shape != expected.shape || !IsPositionEncoded(c.data)) {
    return std::nullopt;
  }
  const int64_t b = c.block_size.value_or(1);
  if (b < 2) return std::nullopt;  // block 1: every member of the family is the identity
  const std::optional<DepthMode> mode = ParseDepthMode(*c.mode);
  if (!mode.has_value()) return std::nullopt;
  const std::vector<int64_t> seen = InputIndexOfEach(c.data, actual);
  Layout spec, other;
  const std::vector<Layout> splits = Family(c.op, d, b, *mode, &spec, &other);
  if (std::any_of(seen.begin(), seen.end(), [](int64_t s) { return s < 0; })) {
    return SummaryOnly(
        "some output elements hold values that are not input elements: no "
        "reshape-transpose-reshape of the data explains the output");
  }
  if (ReadAsNhwcExplains(d, spec, seen)) {
    const std::optional<Layout> closest = ClosestExplaining(splits, spec, seen);
    return NhwcFit(*c.mode, closest, !closest.has_value() && Explains(other, seen));
  }
  if (Explains(other, seen)) return OtherModeFit(c.op, *c.mode, spec, other);
  const std::optional<Layout> best = ClosestExplaining(splits, spec, seen);
  if (!best.has_value()) {
    return SummaryOnly(
        "no reshape-transpose-reshape of the data (any split the spec uses, any permutation) "
        "explains every output element: the backend computes something outside the formula's "
        "family (another layout of the data, or a per-element mistake)");
  }
  return PermutationFit(c.op, *c.mode, spec, *best);
}

}  // namespace dmconf
