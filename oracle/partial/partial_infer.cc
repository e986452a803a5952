// Partial-shape inference (partial_infer.h). The interval formulas follow the specifications'
// Outputs sections over every instance of the partial case; docs/errata-partial.md records
// where they differ from OpenVINO's PartialShape rules (D-P1 ...).
#include "oracle/partial/partial_infer.h"

#include <algorithm>
#include <limits>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "oracle/input_names.h"
#include "oracle/op_attributes.h"
#include "oracle/oracle.h"
#include "oracle/rule_id.h"

namespace dmconf {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
using OptI = std::optional<int64_t>;

int64_t CeilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

// hi * k for a finite hi, clamped to the largest multiple of k that is representable
// (instances above it are rejected by `*.output.representable`).
int64_t MulClamp(int64_t hi, int64_t k) {
  OptI p = CheckedMul(hi, k);
  return p ? *p : (kMax / k) * k;
}

struct Reject {
  RuleId rule;  // checked at compile time (oracle/rule_id.h)
  std::string detail;
};

PartialResult MustReject(const Reject& r) {
  PartialResult out;
  out.kind = PartialKind::kMustReject;
  out.rule = &r.rule.rule();
  out.message = absl::StrCat(r.rule.id(), ": ", r.detail);
  return out;
}

// Rules whose outcome depends on dim values: decided here on intervals, not by the probe.
bool DimDependent(absl::string_view id) {
  return absl::EndsWith(id, ".divides") || absl::EndsWith(id, ".divisible") ||
         absl::EndsWith(id, ".crops.fit") || absl::EndsWith(id, ".output.representable");
}

// ---- SpaceToBatch / BatchToSpace ---------------------------------------------------------

using Values = std::optional<std::vector<int64_t>>;  // std::nullopt: not a constant

struct BlockInputs {
  Values block, begin, end;
  bool too_large = false;  // a u64 value above 2^63-1
};

BlockInputs ReadInputs(const PartialCase& c) {
  BlockInputs b;
  Values* dst[3] = {&b.block, &b.begin, &b.end};
  for (size_t k = 0; k < 3; ++k) {
    if (!c.int_inputs[k]) continue;
    std::vector<int64_t> v;
    for (int64_t i = 0; i < c.int_inputs[k]->NumElements(); ++i) {
      OptI x = c.int_inputs[k]->GetInteger(i);
      if (!x) b.too_large = true;
      v.push_back(x.value_or(kMax));
    }
    *dst[k] = std::move(v);
  }
  return b;
}

// SpaceToBatch: out[0] = batch * prod(B), out[i] = (D_i + P_i) / B_i.
std::optional<Reject> SpaceToBatchDims(const std::vector<Dim>& d, const BlockInputs& in,
                                       std::vector<Dim>* out) {
  const size_t N = d.size();
  out->assign(N, Dim::Any());
  // Batch.
  if (in.block) {
    OptI prod = 1;
    for (int64_t B : *in.block) prod = prod ? CheckedMul(*prod, B) : prod;
    if (!prod) {
      if (d[0].lo > 0)
        return Reject{"s2b.output.representable",
                      "batch * prod(block_shape) is above 2^63-1 for every batch"};
      (*out)[0] = Dim::Exact(0);
    } else {
      OptI lo = CheckedMul(d[0].lo, *prod);
      if (!lo)
        return Reject{"s2b.output.representable",
                      "the smallest batch times prod(block_shape) is above 2^63-1"};
      (*out)[0] = {*lo, d[0].hi ? OptI(MulClamp(*d[0].hi, *prod)) : std::nullopt};
    }
  } else {
    // B >= 1 unknown: batch * prod(B) is at least batch, unbounded unless batch is 0.
    (*out)[0] = d[0].hi && *d[0].hi == 0 ? Dim::Exact(0) : Dim::AtLeast(d[0].lo);
  }
  for (size_t i = 1; i < N; ++i) {
    const Dim& D = d[i];
    // P_i = pads_begin + pads_end; with an unknown pad only its known part bounds it below.
    const bool pads_known = in.begin && in.end;
    OptI P = CheckedAdd(in.begin ? (*in.begin)[i] : 0, in.end ? (*in.end)[i] : 0);
    if (!P)
      return Reject{"s2b.output.representable",
                    absl::StrCat("axis ", i, ": pads_begin + pads_end is above 2^63-1")};
    // Padded dim interval (a pad unknown: [lo + known pads, inf)).
    OptI plo = CheckedAdd(D.lo, *P);
    if (!plo)
      return Reject{"s2b.output.representable",
                    absl::StrCat("axis ", i, ": D_i + pads is above 2^63-1 for every D_i")};
    OptI phi;
    if (pads_known && D.hi) phi = CheckedAdd(*D.hi, *P).value_or(kMax);
    if (in.block) {
      const int64_t B = (*in.block)[i];
      const int64_t lo = CeilDiv(*plo, B);
      if (phi) {
        const int64_t hi = *phi / B;
        if (lo > hi) {
          return Reject{"s2b.block_shape.divides",
                        absl::StrCat("axis ", i, ": no padded size in [", *plo, ", ", *phi,
                                     "] is divisible by block_shape[", i, "] = ", B)};
        }
        (*out)[i] = Dim::Range(lo, hi);
      } else {
        // Unbounded above, but an instance's padded dim is at most 2^63-1 (representable): a
        // multiple of B must lie in [plo, 2^63-1].
        if (lo > kMax / B) {
          return Reject{"s2b.block_shape.divides",
                        absl::StrCat("axis ", i, ": no padded size in [", *plo,
                                     ", 2^63-1] is divisible by block_shape[", i, "] = ", B)};
        }
        (*out)[i] = Dim::AtLeast(lo);
      }
    } else {
      // B unknown: B = padded gives 1 (0 for an empty padded dim), B = 1 gives padded.
      (*out)[i] = {*plo == 0 ? 0 : 1, phi};
    }
  }
  return std::nullopt;
}

// Smallest D * B - C over D in [dlo, dhi], 1 <= B <= bmax, D * B >= C, with a multiple of B
// in the batch interval [blo, bhi] (blo == 0: any B). std::nullopt: no such (D, B). When the
// search would take more than 2^16 steps the answer is the sound bound 0 (D-P5).
OptI MinCropped(int64_t dlo, OptI dhi, OptI bmax, int64_t blo, OptI bhi, int64_t C) {
  auto b_ok = [&](int64_t B) {
    if (bmax && B > *bmax) return false;
    // Batch 0 or an unbounded batch interval: some batch in it is a multiple of B.
    if (blo == 0 || !bhi) return true;
    return (*bhi / B) * B >= blo;
  };
  OptI best;
  // D >= C: B = 1, D * 1 - C smallest at D = max(dlo, C).
  const int64_t d1 = std::max(dlo, C);
  if (!dhi || d1 <= *dhi) best = d1 - C;
  // 1 <= D < C: the smallest allowed B >= ceil(C / D). With B <= bmax that needs
  // D >= ceil(C / bmax): smaller D leave no B and are skipped, not walked (walking them took
  // up to 2^63 steps that the step limit never saw). From there on every D takes at least one
  // counted step.
  int64_t from = std::max<int64_t>(dlo, 1);
  if (bmax) from = std::max(from, CeilDiv(C, std::max<int64_t>(*bmax, 1)));
  const int64_t to = std::min(dhi.value_or(kMax), C - 1);
  int64_t steps = 0;
  for (int64_t D = from; D <= to; ++D) {
    // Every D costs a step: its B loop may not run at all (its smallest B overflows D * B).
    if (++steps > (int64_t{1} << 16)) return 0;
    // B above (2^63-1) / D makes D * B overflow, and so does every larger B: stop there.
    for (int64_t B = CeilDiv(C, D); B <= kMax / D && (!bmax || B <= *bmax); ++B) {
      if (++steps > (int64_t{1} << 16)) return 0;
      if (b_ok(B)) {
        OptI full = CheckedMul(D, B);
        if (full && (!best || *full - C < *best)) best = *full - C;
        break;
      }
      if (B == kMax) break;  // no ++B past the end of int64
    }
  }
  return best;
}

// SpaceToBatch: every instance's output holds batch * B_0 * prod(D_i + P_i) elements (the
// blocks only regroup the padded data; B_0 >= 1 multiplies the batch), so the smallest padded
// data bounds every instance's count from below. The per-dim lower bounds of the output are not
// reached together where block_shape is not constant (the smallest spatial dims need the
// largest blocks, which multiply the batch): their product is no bound of any instance's count.
std::optional<Reject> SpaceToBatchPaddedCount(const std::vector<Dim>& d, const BlockInputs& in) {
  Shape lows = {d[0].lo};
  for (size_t i = 1; i < d.size(); ++i) {
    const OptI p = CheckedAdd(in.begin ? (*in.begin)[i] : 0, in.end ? (*in.end)[i] : 0);
    const OptI padded = p ? CheckedAdd(d[i].lo, *p) : std::nullopt;
    if (!padded) return std::nullopt;  // SpaceToBatchDims rules on the padded dims
    lows.push_back(*padded);
  }
  if (CheckedProduct(lows)) return std::nullopt;
  return Reject{"s2b.output.representable",
                absl::StrCat("every output has more than 2^63-1 elements (the padded data is at "
                             "least ",
                             ShapeToString(lows), ")")};
}

// BatchToSpace's out[0] = batch / prod(B).
std::optional<Reject> BatchToSpaceBatch(const Dim& b, const BlockInputs& in, Dim* out0) {
  if (in.block) {
    OptI prod = 1;
    for (int64_t B : *in.block) prod = prod ? CheckedMul(*prod, B) : prod;
    if (!prod) return Reject{"b2s.output.representable", "prod(block_shape) is above 2^63-1"};
    const int64_t lo = CeilDiv(b.lo, *prod);
    if (lo > b.hi.value_or(kMax) / *prod) {
      return Reject{"b2s.batch.divisible",
                    absl::StrCat("no batch in ", b.ToString(),
                                 " is divisible by prod(block_shape) = ", *prod)};
    }
    *out0 = {lo, b.hi ? OptI(*b.hi / *prod) : std::nullopt};
  } else {
    // batch / P over divisors P >= 1: batch itself (P = 1) down to 1 (P = batch) or 0.
    *out0 = {b.lo == 0 ? 0 : 1, b.hi};
  }
  return std::nullopt;
}

// BatchToSpace's out[i] = D_i * B_i - CB_i - CE_i for a spatial axis i. `bmax` is the
// largest block value an instance can have.
std::optional<Reject> BatchToSpaceSpatial(size_t i, const Dim& D, const Dim& b, OptI bmax,
                                          const BlockInputs& in, Dim* out_i) {
  // C = crops_begin + crops_end; with an unknown crop only its known part bounds it below,
  // and the unknown one can take up any slack, down to an output of 0.
  const bool crops_known = in.begin && in.end;
  OptI C = CheckedAdd(in.begin ? (*in.begin)[i] : 0, in.end ? (*in.end)[i] : 0);
  if (!C)
    return Reject{"b2s.crops.fit",
                  absl::StrCat("axis ", i, ": crops_begin + crops_end is above 2^63-1")};
  // Largest D_i * B_i (unbounded: std::nullopt).
  OptI full_hi;
  if (in.block) {
    if (D.hi) full_hi = MulClamp(*D.hi, (*in.block)[i]);
  } else if (D.hi && *D.hi == 0) {
    full_hi = 0;
  } else if (D.hi && bmax) {
    // B varies over [1, bmax]: when D_hi * bmax overflows, representable products D * B
    // reach up to 2^63-1 with other (D, B) pairs (B = 1 alone gives D_hi), so the bound is
    // 2^63-1, not the largest multiple of bmax (D-P6: not tight).
    full_hi = CheckedMul(*D.hi, *bmax).value_or(kMax);
  }
  if (full_hi && *full_hi < *C) {
    return Reject{"b2s.crops.fit", absl::StrCat("axis ", i, ": crops ", *C, " exceed D_", i,
                                                " * block_shape[", i, "] for every instance")};
  }
  const OptI hi = full_hi ? OptI(*full_hi - *C) : std::nullopt;
  // Block unknown: some representable D * B (an instance's D_i * B_i is an int64) must hold
  // the crops' known part, also when a crop is unknown.
  if (!in.block && !crops_known && !MinCropped(D.lo, D.hi, bmax, b.lo, b.hi, *C)) {
    return Reject{"b2s.crops.fit",
                  absl::StrCat("axis ", i, ": crops ", *C, " exceed every D_i * block_shape[i]")};
  }
  if (in.block) {
    // "D_i * B_i are representable": the smallest D_i * B_i of an instance (D_i at least
    // D.lo and ceil(C / B_i), C the crops' known part) decides, whether the crops are
    // constant or not (an unknown crop only raises C).
    const int64_t B = (*in.block)[i];
    const int64_t dmin = std::max(D.lo, CeilDiv(*C, B));
    OptI full = CheckedMul(dmin, B);
    if (!full)
      return Reject{"b2s.output.representable",
                    absl::StrCat("axis ", i, ": D_i * block_shape[i] is above 2^63-1")};
    *out_i = {crops_known ? *full - *C : 0, hi};
    return std::nullopt;
  }
  if (!crops_known) {
    *out_i = {0, hi};
    return std::nullopt;
  }
  OptI lo = MinCropped(D.lo, D.hi, bmax, b.lo, b.hi, *C);
  if (!lo) {
    return Reject{"b2s.crops.fit",
                  absl::StrCat("axis ", i, ": crops ", *C, " exceed every D_i * block_shape[i]")};
  }
  *out_i = {*lo, hi};
  return std::nullopt;
}

// BatchToSpace: out[0] = batch / prod(B), out[i] = D_i * B_i - CB_i - CE_i.
std::optional<Reject> BatchToSpaceDims(const std::vector<Dim>& d, const BlockInputs& in,
                                       std::vector<Dim>* out) {
  out->assign(d.size(), Dim::Any());
  const Dim& b = d[0];
  if (std::optional<Reject> r = BatchToSpaceBatch(b, in, &(*out)[0])) return r;
  // Largest block value an instance can have: prod(B) divides the batch, so B_i <= batch
  // unless the batch can be 0 (0 is divisible by every product).
  const OptI bmax = b.lo == 0 ? std::nullopt : b.hi;
  for (size_t i = 1; i < d.size(); ++i) {
    if (std::optional<Reject> r = BatchToSpaceSpatial(i, d[i], b, bmax, in, &(*out)[i])) return r;
  }
  return std::nullopt;
}

// ---- SpaceToDepth / DepthToSpace ---------------------------------------------------------

// The interval of in * factor. An unrepresentable factor (nullopt) leaves only in = 0
// accepted; a product above 2^63-1 for every instance is a rejection with `rule`.
std::optional<Reject> ScaleDim(const Dim& in, OptI factor, RuleId rule, const std::string& why,
                               Dim* out) {
  if (!factor) {
    if (in.lo > 0) return Reject{rule, why};
    *out = Dim::Exact(0);
    return std::nullopt;
  }
  const OptI lo = CheckedMul(in.lo, *factor);
  if (!lo) return Reject{rule, why};
  *out = {*lo, in.hi ? OptI(MulClamp(*in.hi, *factor)) : std::nullopt};
  return std::nullopt;
}

std::optional<Reject> DepthDims(Op op, const std::vector<Dim>& d, int64_t b,
                                std::vector<Dim>* out) {
  const int64_t K = static_cast<int64_t>(d.size()) - 2;
  const OptI bk = CheckedPow(b, K);
  *out = d;
  if (op == Op::kSpaceToDepth) {
    // [N, C * b^K, D_i / b]
    for (size_t i = 2; i < d.size(); ++i) {
      const int64_t lo = CeilDiv(d[i].lo, b);
      // An unbounded dim is still at most 2^63-1 in every instance.
      if (lo > d[i].hi.value_or(kMax) / b) {
        return Reject{"s2d.block_size.divides",
                      absl::StrCat("no spatial dim ", i, " in ", d[i].ToString(),
                                   " is divisible by block_size = ", b)};
      }
      (*out)[i] = {lo, d[i].hi ? OptI(*d[i].hi / b) : std::nullopt};
    }
    return ScaleDim(d[1], bk, "s2d.output.representable",
                    "C * block_size^K is above 2^63-1 for every C", &(*out)[1]);
  }
  // DepthToSpace: [N, C / b^K, D_i * b]
  if (!bk) {
    if (d[1].lo > 0)
      return Reject{"d2s.block_size.divides",
                    "block_size^K is above 2^63-1: only C = 0 is divisible"};
    (*out)[1] = Dim::Exact(0);
  } else {
    const int64_t lo = CeilDiv(d[1].lo, *bk);
    if (lo > d[1].hi.value_or(kMax) / *bk) {
      return Reject{
          "d2s.block_size.divides",
          absl::StrCat("no depth in ", d[1].ToString(), " is divisible by block_size^K = ", *bk)};
    }
    (*out)[1] = {lo, d[1].hi ? OptI(*d[1].hi / *bk) : std::nullopt};
  }
  for (size_t i = 2; i < d.size(); ++i) {
    if (std::optional<Reject> r = ScaleDim(
            d[i], b, "d2s.output.representable",
            absl::StrCat("spatial dim ", i, " * block_size is above 2^63-1"), &(*out)[i])) {
      return r;
    }
  }
  return std::nullopt;
}

// ---- ExtractImagePatches -------------------------------------------------------------------

// The effective patch size of axis i (0: rows, 1: cols), "patch_sizes_eff = patch_sizes +
// (patch_sizes - 1) * (rates - 1)" = rate * (size - 1) + 1; std::nullopt above 2^63-1. It
// depends on the attributes alone, so its rejection holds at every rank, an unknown one too.
OptI EffectiveSize(const PartialCase& c, size_t i) {
  OptI eff = CheckedMul(c.rates[i], c.sizes[i] - 1);
  return eff ? CheckedAdd(*eff, 1) : eff;
}

std::optional<Reject> EipEffective(const PartialCase& c) {
  for (size_t i = 0; i < 2; ++i) {
    if (!EffectiveSize(c, i)) {
      return Reject{"eip.output.representable", absl::StrCat(i == 0 ? "rows" : "cols",
                                                             ": the effective patch size rate * "
                                                             "(size - 1) + 1 = ",
                                                             c.rates[i], " * (", c.sizes[i],
                                                             " - 1) + 1 "
                                                             "is above 2^63-1")};
    }
  }
  return std::nullopt;
}

std::optional<Reject> EipDims(const PartialCase& c, const std::vector<Dim>& d,
                              std::vector<Dim>* out) {
  const AutoPad pad = *ParseAutoPad(*c.auto_pad);
  out->assign(4, Dim::Any());
  (*out)[0] = d[0];
  // depth: size_rows * size_cols * C.
  if (std::optional<Reject> r =
          ScaleDim(d[1], CheckedMul(c.sizes[0], c.sizes[1]), "eip.output.representable",
                   "size_rows * size_cols * depth is above 2^63-1", &(*out)[1])) {
    return r;
  }
  for (size_t i = 0; i < 2; ++i) {
    const Dim& in = d[2 + i];
    const int64_t s = c.strides[i];
    const OptI eff = EffectiveSize(c, i);
    if (!eff) return EipEffective(c);
    // The output size is non-decreasing in the input size (ERRATA E8), so the bounds are
    // the images of the input bounds. (in + eff above 2^63-1 is no rejection: ERRATA D4a.)
    auto f = [&](int64_t x) -> int64_t {
      if (pad != AutoPad::kValid) return CeilDiv(x, s);
      return x >= *eff ? (x - *eff) / s + 1 : 0;
    };
    OptI hi;
    if (in.hi) hi = f(*in.hi);
    (*out)[2 + i] = {f(in.lo), hi};
  }
  return std::nullopt;
}

// ---- Integer input shapes (SpaceToBatch / BatchToSpace) ----------------------------------

// Above this many dims, a data rank implied only by a non-constant input's length is not
// materialised: the answer keeps an unknown rank (sound; docs/errata-partial.md, D-P13).
constexpr int64_t kMaxImpliedRank = int64_t{1} << 16;

// What the inputs' shapes say about the data rank N of an accepted instance.
struct InputRank {
  std::optional<Reject> reject;  // no accepted instance: every one breaks `reject->rule`
  std::optional<size_t> rank;    // every accepted instance has this data rank
  size_t probe_rank = 2;         // a rank every input admits (the probe's)
};

// "block_shape, pads_begin, pads_end: 1-D tensors with shape [N], N the rank of data"
// (SpaceToBatch; BatchToSpace: "block_shape, crops_begin, crops_end: 1-D tensors with shape [N]")
// and "data: rank >= 2". So an accepted instance has every input of shape [N], N = data rank >= 2:
//   - an input of known rank other than 1 rejects every instance (`*.inputs.shape`);
//   - N lies in every input's length interval (a constant's is its exact length) and, when the
//     data rank is known and >= 2, N is that rank: an empty intersection is `*.inputs.shape`;
//   - with the data rank unknown, N lies in [2, inf) too (all lengths below 2: `*.data.rank`);
//     a single N left is the rank of every accepted instance (D-P4), else the rank is unknown.
// A data rank known to be below 2 is left to the probe (the static oracle: `*.data.rank`).
InputRank BlockInputRank(const PartialCase& c) {
  const bool s2b = c.op == Op::kSpaceToBatch;
  const absl::Span<const absl::string_view> names = IntInputNames(c.op);
  const RuleId shape_rule = s2b ? RuleId("s2b.inputs.shape") : RuleId("b2s.inputs.shape");
  InputRank out;
  // -1: unknown.
  const int64_t data_rank = c.data.dims ? static_cast<int64_t>(c.data.dims->size()) : -1;
  if (data_rank >= 0) out.rank = out.probe_rank = static_cast<size_t>(data_rank);
  if (data_rank >= 0 && data_rank < 2) return out;
  std::array<PartialShape, 3> shapes;
  std::string all;       // "block_shape [2], pads_begin [3], pads_end [...]" for messages
  Dim len = Dim::Any();  // the lengths every input admits
  bool constant = false;
  for (size_t k = 0; k < 3; ++k) {
    shapes[k] = c.int_inputs[k] ? PartialShape::Static(c.int_inputs[k]->shape) : c.int_shapes[k];
    absl::StrAppend(&all, k ? ", " : "", names[k], " ", shapes[k].ToString());
    constant = constant || c.int_inputs[k].has_value();
  }
  for (size_t k = 0; k < 3 && !out.reject; ++k) {
    if (!shapes[k].dims) continue;
    if (shapes[k].dims->size() != 1) {
      out.reject = Reject{shape_rule, absl::StrCat(names[k], " has shape ", shapes[k].ToString(),
                                                   ": a 1-D tensor of shape [N] (N the data "
                                                   "rank) is required")};
      continue;
    }
    const Dim& l = (*shapes[k].dims)[0];
    len.lo = std::max(len.lo, l.lo);
    if (l.hi) len.hi = len.hi ? std::min(*len.hi, *l.hi) : *l.hi;
    if (len.hi && len.lo > *len.hi) {
      out.reject = Reject{shape_rule, absl::StrCat("the inputs have shapes ", all,
                                                   ": no length N fits them all (each must "
                                                   "have shape [N], N the data rank)")};
    }
  }
  if (!out.reject && data_rank >= 0 && !len.Contains(data_rank)) {
    out.reject = Reject{shape_rule, absl::StrCat("the inputs have shapes ", all, ": no length ",
                                                 data_rank, " (the data rank) fits them all")};
  }
  if (out.reject || data_rank >= 0) return out;
  if (len.hi && *len.hi < 2) {
    out.reject = Reject{s2b ? RuleId("s2b.data.rank") : RuleId("b2s.data.rank"),
                        absl::StrCat("the inputs have shapes ", all,
                                     ": a length below 2 means a data rank below 2")};
    out.probe_rank = static_cast<size_t>(*len.hi);  // the static oracle's data.rank case
    return out;
  }
  const int64_t lo = std::max<int64_t>(len.lo, 2);
  // A constant's length is materialised already; a non-constant one's is capped.
  if (len.hi && *len.hi == lo && (constant || lo <= kMaxImpliedRank)) {
    out.rank = static_cast<size_t>(lo);
  }
  out.probe_rank = static_cast<size_t>(out.rank || lo <= kMaxImpliedRank ? lo : 2);
  return out;
}

// ---- Probe: attribute and type rules through the static oracle ---------------------------

absl::StatusOr<OpCase> Probe(const PartialCase& c, size_t rank) {
  OpCase p;
  p.op = c.op;
  p.data.type = c.type;
  if (c.data.dims) {
    for (const Dim& d : *c.data.dims) p.data.shape.push_back(d.lo);
  } else {
    p.data.shape.assign(rank, 1);
  }
  const bool block_op = c.op == Op::kSpaceToBatch || c.op == Op::kBatchToSpace;
  for (size_t k = 0; block_op && k < 3; ++k) {
    if (c.int_inputs[k]) {
      p.int_inputs.push_back(*c.int_inputs[k]);
      continue;
    }
    // A stand-in with harmless values (block 1, pads 0) of the input's type.
    absl::StatusOr<Tensor> t = Tensor::Zeros(c.int_types[k], {static_cast<int64_t>(rank)});
    if (!t.ok()) return t.status();
    if (k == 0) {
      for (int64_t i = 0; i < t->NumElements(); ++i) t->SetBits(i, 1);
    }
    p.int_inputs.push_back(*std::move(t));
  }
  CopyAttributes(c, p);
  return p;
}

// A probe violation's message as it concerns the user's case: the probe's stand-in data
// shape ("data has rank 1 (shape [2])") becomes the partial shape given ("(shape [[2,inf)])").
std::string AsWritten(const std::string& message, const OpCase& probe, const PartialCase& c) {
  if (c.IsStatic()) return message;
  const std::string stand_in = absl::StrCat("(shape ", ShapeToString(probe.data.shape), ")");
  const std::string given =
      absl::StrCat("(shape ", c.data.ToString(), c.data.dims ? ")" : ", rank unknown)");
  std::string out = message;
  const size_t at = out.find(stand_in);
  if (at != std::string::npos) out.replace(at, stand_in.size(), given);
  return out;
}

}  // namespace

absl::string_view PartialKindName(PartialKind k) {
  switch (k) {
    case PartialKind::kShape:
      return "shape";
    case PartialKind::kMustReject:
      return "must_reject";
    case PartialKind::kUnspecified:
      return "unspecified";
  }
  return "shape";
}

PartialCase PartialCase::FromStatic(const OpCase& c) {
  PartialCase p;
  p.op = c.op;
  p.type = c.data.type;
  p.data = PartialShape::Static(c.data.shape);
  for (size_t k = 0; k < c.int_inputs.size() && k < 3; ++k) {
    p.int_inputs[k] = c.int_inputs[k];
    p.int_types[k] = c.int_inputs[k].type;
  }
  CopyAttributes(c, p);
  return p;
}

bool PartialCase::IsStatic() const {
  if (!data.dims) return false;
  for (const Dim& d : *data.dims) {
    if (!d.IsStatic()) return false;
  }
  if (op == Op::kSpaceToBatch || op == Op::kBatchToSpace) {
    for (const auto& t : int_inputs) {
      if (!t) return false;
    }
  }
  return true;
}

absl::StatusOr<OpCase> PartialCase::ToShapeOnlyCase() const {
  if (!IsStatic()) {
    return absl::InvalidArgumentError(
        "case.partial.not_static: a dim is an interval, the rank is unknown or an integer input "
        "is not a constant");
  }
  OpCase c;
  c.op = op;
  c.data.type = type;
  for (const Dim& d : *data.dims) c.data.shape.push_back(d.lo);
  for (const auto& t : int_inputs) {
    if (t) c.int_inputs.push_back(*t);
  }
  CopyAttributes(*this, c);
  return c;
}

namespace {

// The rank every instance has (if one), a rank for the probe, and a rejection of the block
// ops' integer inputs that holds whatever the dims are.
struct RankFacts {
  std::optional<size_t> known_rank;
  size_t probe_rank = 0;
  std::optional<Reject> input_reject;
};

RankFacts RankOf(const PartialCase& c, bool block_op) {
  RankFacts f;
  if (block_op) {
    InputRank ir = BlockInputRank(c);
    f.known_rank = ir.rank;
    f.probe_rank = ir.probe_rank;
    f.input_reject = std::move(ir.reject);
    return f;
  }
  if (c.data.dims) f.known_rank = c.data.dims->size();
  f.probe_rank =
      f.known_rank.value_or(c.op == Op::kExtractImagePatches ? 4 : 3);  // the op's minimum
  return f;
}

// The rules a static probe of the case breaks whatever its dims: a must_reject answer ends
// inference (returned), the first unspecified rule is kept in *result.
absl::StatusOr<std::optional<PartialResult>> ProbeRules(const PartialCase& c, const RankFacts& f,
                                                        PartialResult* result) {
  absl::StatusOr<OpCase> probe = Probe(c, f.probe_rank);
  if (!probe.ok()) return probe.status();
  absl::StatusOr<Validation> v = Validate(*probe);
  if (!v.ok()) return v.status();
  for (const Violation& x : v->violations) {
    if (DimDependent(x.rule->id)) continue;
    // With input_reject the rank rules are its to explain (the probe's rank may be made up);
    // type and value rules still come first, as in the static oracle.
    if (f.input_reject &&
        (absl::EndsWith(x.rule->id, ".data.rank") || absl::EndsWith(x.rule->id, ".inputs.shape"))) {
      continue;
    }
    if (x.rule->kind == RuleKind::kMustReject) {
      PartialResult r;
      r.kind = PartialKind::kMustReject;
      r.rule = x.rule;
      r.message = AsWritten(x.message, *probe, c);
      return std::optional<PartialResult>(std::move(r));
    }
    if (!result->rule) {
      result->kind = PartialKind::kUnspecified;
      result->rule = x.rule;
      result->message = AsWritten(x.message, *probe, c);
    }
  }
  return std::optional<PartialResult>();
}

// The output dims of a case of known rank, or the rule every instance breaks.
std::optional<Reject> OutputDims(const PartialCase& c, const std::vector<Dim>& d,
                                 std::vector<Dim>* out) {
  switch (c.op) {
    case Op::kSpaceToBatch:
    case Op::kBatchToSpace: {
      const BlockInputs in = ReadInputs(c);
      if (in.too_large) {
        return Reject{c.op == Op::kSpaceToBatch ? RuleId("s2b.output.representable")
                                                : RuleId("b2s.output.representable"),
                      "an integer input value is above 2^63-1"};
      }
      std::optional<Reject> rej =
          c.op == Op::kSpaceToBatch ? SpaceToBatchDims(d, in, out) : BatchToSpaceDims(d, in, out);
      if (!rej && c.op == Op::kSpaceToBatch) rej = SpaceToBatchPaddedCount(d, in);
      return rej;
    }
    case Op::kSpaceToDepth:
    case Op::kDepthToSpace:
      return DepthDims(c.op, d, c.block_size.value_or(1), out);
    case Op::kExtractImagePatches:
      return EipDims(c, d, out);
  }
  return std::nullopt;
}

// The static oracle rejects outputs with more than 2^63-1 elements (ERRATA D4): when even
// the product of the lower bounds is that large, every instance is rejected. That holds for
// every op: SpaceToDepth and BatchToSpace do not grow their data, but a partial case's
// instances are bounded per dim, not in element count, so their data can be that large too
// (and then has no output either).
std::optional<Reject> EveryOutputTooLarge(Op op, const std::vector<Dim>& out) {
  Shape lows;
  for (const Dim& x : out) lows.push_back(x.lo);
  if (CheckedProduct(lows)) return std::nullopt;
  const RuleId rule = op == Op::kSpaceToBatch   ? RuleId("s2b.output.representable")
                      : op == Op::kBatchToSpace ? RuleId("b2s.output.representable")
                      : op == Op::kSpaceToDepth ? RuleId("s2d.output.representable")
                      : op == Op::kDepthToSpace ? RuleId("d2s.output.representable")
                                                : RuleId("eip.output.representable");
  return Reject{rule, absl::StrCat("every output has more than 2^63-1 elements (at least ",
                                   ShapeToString(lows), ")")};
}

}  // namespace

absl::StatusOr<PartialResult> InferPartialShape(const PartialCase& c) {
  if (absl::Status s = c.data.Validate("data"); !s.ok()) return s;
  const bool block_op = c.op == Op::kSpaceToBatch || c.op == Op::kBatchToSpace;
  for (size_t k = 0; block_op && k < 3; ++k) {
    if (c.int_inputs[k]) continue;
    absl::Status s =
        c.int_shapes[k].Validate(absl::StrCat("the shape of ", IntInputNames(c.op)[k]));
    if (!s.ok()) return s;
  }
  const RankFacts f = RankOf(c, block_op);
  PartialResult result;
  absl::StatusOr<std::optional<PartialResult>> rejected = ProbeRules(c, f, &result);
  if (!rejected.ok()) return rejected.status();
  if (*rejected) return std::move(**rejected);
  if (f.input_reject) return MustReject(*f.input_reject);
  // sizes = 0: unspecified, with no output shape (as the static oracle).
  if (result.rule && result.rule->id == "eip.sizes.zero") return result;

  if (!f.known_rank) {
    // Attribute-only rules the probe leaves to the dims (DimDependent) hold at every rank.
    if (c.op == Op::kExtractImagePatches) {
      if (std::optional<Reject> r = EipEffective(c)) return MustReject(*r);
    }
    // Unknown rank: ExtractImagePatches is still 4-D; the others keep an unknown rank.
    result.has_output = true;
    result.output = c.op == Op::kExtractImagePatches
                        ? PartialShape::Of({Dim::Any(), Dim::Any(), Dim::Any(), Dim::Any()})
                        : PartialShape::DynamicRank();
    return result;
  }
  const std::vector<Dim> d =
      c.data.dims ? *c.data.dims : std::vector<Dim>(*f.known_rank, Dim::Any());
  std::vector<Dim> out;
  if (std::optional<Reject> rej = OutputDims(c, d, &out)) return MustReject(*rej);
  if (std::optional<Reject> rej = EveryOutputTooLarge(c.op, out)) return MustReject(*rej);
  result.has_output = true;
  result.output = PartialShape::Of(std::move(out));
  return result;
}

}  // namespace dmconf
