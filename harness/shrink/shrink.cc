#include "harness/shrink/shrink.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "harness/gen/fills.h"
#include "harness/shrink/shrink_common.h"
#include "harness/shrink/threshold.h"

namespace dmconf {
namespace {

using shrink_internal::Abs;
using shrink_internal::AppendSmallerPatches;
using shrink_internal::AttributesWeight;
using shrink_internal::BlockOp;
using shrink_internal::Count;
using shrink_internal::DepthOp;
using shrink_internal::Ints;
using shrink_internal::kMax;
using shrink_internal::Power;
using shrink_internal::Reductions;
using shrink_internal::SatAdd;
using shrink_internal::Step;
using shrink_internal::TypeOrder;
using shrink_internal::WithInts;
using shrink_internal::WithShape;

// Where candidates go, one at a time: each is made, judged and dropped before the next is made,
// so shrinking a large case holds at most one candidate copy of its data. A consumer that has
// taken a candidate stops the enumeration (`done`).
class Sink {
 public:
  explicit Sink(std::function<bool(OpCase&&)> take) : take_(std::move(take)) {}
  void push_back(OpCase c) {
    if (!done) done = take_(std::move(c));
  }
  bool done = false;

 private:
  std::function<bool(OpCase&&)> take_;
};

bool IsPositional(const Tensor& t) {
  const Tensor p = PositionalTensor(t.type, t.shape);
  return p.bytes == t.bytes;
}

void Add(Sink& out, std::optional<OpCase> c) {
  if (c) out.push_back(*std::move(c));
}
void Add(Sink& out, std::vector<OpCase> cs) {
  for (OpCase& c : cs) out.push_back(std::move(c));
}

// Fewer dims: an axis dropped, with its entries of the integer inputs.
void DropAxes(const OpCase& c, Sink& out) {
  if (out.done) return;
  const size_t rank = c.data.shape.size();
  if (c.op == Op::kExtractImagePatches) return;
  for (size_t k = DepthOp(c.op) ? 2 : 0; k < rank; ++k) {
    if (DepthOp(c.op) && rank <= 3) break;
    Shape s = c.data.shape;
    s.erase(s.begin() + static_cast<std::ptrdiff_t>(k));
    for (OpCase& x : WithShape(c, s)) {
      bool ok = true;
      for (size_t i = 0; i < c.int_inputs.size() && ok; ++i) {
        std::vector<int64_t> v = Ints(c.int_inputs[i]);
        if (v.size() != rank) continue;
        v.erase(v.begin() + static_cast<std::ptrdiff_t>(k));
        std::optional<OpCase> y = WithInts(x, i, v);
        ok = y.has_value();
        if (ok) x = *std::move(y);
      }
      if (ok) out.push_back(std::move(x));
    }
  }
}

// Smaller dims: 0, 1, half, one less, one step less.
void ShrinkDims(const OpCase& c, Sink& out) {
  if (out.done) return;
  for (size_t k = 0; k < c.data.shape.size(); ++k) {
    for (int64_t t : Reductions(c.data.shape[k], 0, Step(c, k))) {
      Shape s = c.data.shape;
      s[k] = t;
      Add(out, WithShape(c, s));
    }
  }
}

// Smaller block sizes, the dims they divide scaled along.
void ShrinkBlocks(const OpCase& c, Sink& out) {
  if (out.done) return;
  const size_t rank = c.data.shape.size();
  if (DepthOp(c.op) && c.block_size && *c.block_size > 1 && rank >= 2) {
    const int64_t b = *c.block_size;
    const int64_t k = static_cast<int64_t>(rank) - 2;
    for (int64_t nb : Reductions(b, 1)) {
      Shape s = c.data.shape;
      if (c.op == Op::kDepthToSpace) {
        const std::optional<int64_t> bk = Power(b, k), nbk = Power(nb, k);
        if (bk && nbk && *bk > 0 && s[1] % *bk == 0) s[1] = s[1] / *bk * *nbk;
      } else {
        for (size_t i = 2; i < rank; ++i) {
          if (s[i] % b == 0) s[i] = s[i] / b * nb;
        }
      }
      OpCase x = c;
      x.block_size = nb;
      if (s == c.data.shape) {
        out.push_back(std::move(x));
      } else {
        Add(out, WithShape(x, s));
      }
    }
  }
  if (!BlockOp(c.op) || c.int_inputs.size() != 3) return;
  const std::vector<int64_t> block = Ints(c.int_inputs[0]);
  const std::vector<int64_t> pads = Ints(c.int_inputs[1]);
  if (block.size() != rank || pads.size() != rank) return;
  for (size_t i = 0; i < rank; ++i) {
    if (block[i] <= 1) continue;
    for (int64_t nb : Reductions(block[i], 1)) {
      std::vector<int64_t> v = block;
      v[i] = nb;
      std::optional<OpCase> x = WithInts(c, 0, v);
      if (!x) continue;
      Shape s = c.data.shape;
      if (c.op == Op::kSpaceToBatch) {
        // (D + P) / B blocks of the new size: D' = (D + P) / B * B' - P.
        const int64_t padded = SatAdd(s[i], pads[i]);
        int64_t d = 0;
        if (padded % block[i] == 0 &&
            !__builtin_sub_overflow(padded / block[i] * nb, pads[i], &d) && d >= 0) {
          s[i] = d;
        }
      } else if (s[0] % block[i] == 0) {
        s[0] = s[0] / block[i] * nb;  // the batch holds prod(block_shape) blocks
      }
      if (s == c.data.shape) {
        out.push_back(*std::move(x));
      } else {
        Add(out, WithShape(*x, s));
      }
    }
  }
}

// Smaller pads / crops: 0, half, one less, one block less (which keeps D + P divisible).
void ShrinkPadsCrops(const OpCase& c, Sink& out) {
  if (out.done) return;
  if (!BlockOp(c.op) || c.int_inputs.size() != 3) return;
  const std::vector<int64_t> block = Ints(c.int_inputs[0]);
  for (size_t k = 1; k < 3; ++k) {
    const std::vector<int64_t> v = Ints(c.int_inputs[k]);
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] <= 0) continue;
      const int64_t step = i < block.size() ? block[i] : 0;
      for (int64_t x : Reductions(v[i], 0, step)) {
        std::vector<int64_t> w = v;
        w[i] = x;
        Add(out, WithInts(c, k, w));
      }
    }
  }
}

// Smaller sizes, strides and rates; auto_pad valid.
void ShrinkPatches(const OpCase& c, Sink& out) {
  if (!out.done) AppendSmallerPatches(c, out);
}

// A simpler element type (positional data), and positional data.
void SimplifyData(const OpCase& c, Sink& out) {
  if (out.done) return;
  for (ElementType t : {ElementType::kU8, ElementType::kI32, ElementType::kF32}) {
    if (TypeOrder(t) >= TypeOrder(c.data.type)) continue;
    OpCase y = c;
    y.data = PositionalTensor(t, c.data.shape);
    if (y.data.NumElements() == c.data.NumElements()) out.push_back(std::move(y));
  }
  if (!IsPositional(c.data)) {
    OpCase y = c;
    y.data = PositionalTensor(c.data.type, c.data.shape);
    if (y.data.bytes.size() == c.data.bytes.size()) out.push_back(std::move(y));
  }
}

// The sizes Smaller compares first, all cheap; whether the data are positional (a pass over
// the data) decides only between cases equal in all of them.
struct Key {
  int64_t elements, rank, dims, attrs, type;
  auto Tuple() const { return std::tie(elements, rank, dims, attrs, type); }
};

Key KeyOf(const OpCase& c) {
  Key k{};
  k.elements = Count(c.data.shape).value_or(kMax);
  k.rank = static_cast<int64_t>(c.data.shape.size());
  for (int64_t d : c.data.shape) k.dims = SatAdd(k.dims, Abs(d));
  for (const Tensor& t : c.int_inputs) {
    for (int64_t v : Ints(t)) k.attrs = SatAdd(k.attrs, Abs(v));
  }
  k.attrs = SatAdd(k.attrs, AttributesWeight(c));
  k.type = TypeOrder(c.data.type);
  return k;
}

// What Smaller needs of the case compared against, each part computed once: the shrink loop
// keeps one for its current case across all candidates of a step.
struct Against {
  const OpCase& c;
  Key key;
  std::optional<bool> positional;  // asked only to break a tie
  explicit Against(const OpCase& b) : c(b), key(KeyOf(b)) {}
};

bool SmallerThan(const OpCase& a, Against& b) {
  const Key ka = KeyOf(a);
  if (ka.Tuple() != b.key.Tuple()) return ka.Tuple() < b.key.Tuple();
  if (!IsPositional(a.data)) return false;
  if (!b.positional.has_value()) b.positional = IsPositional(b.c.data);
  return !*b.positional;
}

}  // namespace

bool Smaller(const OpCase& a, const OpCase& b) {
  Against against(b);
  return SmallerThan(a, against);
}

namespace {

// Offers the candidates of one step in order to `take` until it returns true.
void ForEachCandidate(const OpCase& c, std::function<bool(OpCase&&)> take) {
  Sink out(std::move(take));
  DropAxes(c, out);
  ShrinkDims(c, out);
  ShrinkBlocks(c, out);
  ShrinkPadsCrops(c, out);
  ShrinkPatches(c, out);
  SimplifyData(c, out);
}

}  // namespace

std::vector<OpCase> ShrinkCandidates(const OpCase& c) {
  std::vector<OpCase> all;
  ForEachCandidate(c, [&all](OpCase&& x) {
    all.push_back(std::move(x));
    return false;
  });
  return all;
}

OpCase ShrinkCase(const OpCase& failing, const KeepsFailure& keeps, const ShrinkOptions& o,
                  ShrinkStats* stats) {
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  ShrinkStats s;
  s.from_elements = failing.data.NumElements();
  OpCase cur = failing;
  for (bool progress = true; progress && !s.budget_exhausted;) {
    progress = false;
    std::optional<OpCase> next;
    Against against(cur);
    ForEachCandidate(cur, [&](OpCase&& cand) {
      if (!SmallerThan(cand, against)) return false;
      if (s.attempts >= o.max_attempts || elapsed() + o.attempt_seconds >= o.budget_seconds) {
        s.budget_exhausted = true;
        return true;
      }
      ++s.attempts;
      if (!keeps(cand)) return false;
      next = std::move(cand);
      return true;
    });
    if (next) {
      cur = *std::move(next);
      ++s.accepted;
      progress = true;
    }
  }
  s.to_elements = cur.data.NumElements();
  s.seconds = elapsed();
  if (stats != nullptr) *stats = s;
  return cur;
}

bool SameFailureClass(const CaseResult& original, const CaseResult& candidate) {
  return candidate.verdict == original.verdict && candidate.expected == original.expected &&
         (original.rule.empty() || candidate.rule == original.rule);
}

namespace {

// The mistake ids a diagnosis names ("a|b" names a and b equally); none for no diagnosis.
std::set<std::string> NamedIds(const CaseResult& r) {
  if (!r.diagnosis.has_value() || r.diagnosis->mistake.empty()) return {};
  return absl::StrSplit(r.diagnosis->mistake, '|');
}

}  // namespace

bool SameDiagnosisClass(const CaseResult& original, const CaseResult& candidate) {
  const std::set<std::string> want = NamedIds(original);
  if (want.empty()) return true;
  const std::set<std::string> got = NamedIds(candidate);
  if (want.size() == 1) return got == want;
  return !got.empty() && std::includes(want.begin(), want.end(), got.begin(), got.end());
}

namespace {

// ShrinkCase, for a crash or a hang after bisecting its knobs and with its thresholds named
// (threshold.h), every attempt within the budget (HangAttemptSeconds).
OpCase ShrinkWithThresholds(const OpCase& original, const CaseResult& failure,
                            const KeepsFailure& keeps,
                            const std::function<Verdict(const OpCase&)>& verdict_of,
                            const ShrinkOptions& o, double timeout_seconds, ShrunkCase* out) {
  if (!ThresholdVerdict(failure.verdict)) return ShrinkCase(original, keeps, o, &out->stats);
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  ShrinkOptions budget = o;
  // Each attempt of a hang waits the whole timeout: none is started that could end past the
  // budget (--shrink-seconds bounds the shrink of a hang too).
  budget.attempt_seconds =
      std::max(o.attempt_seconds, HangAttemptSeconds(failure.verdict, timeout_seconds));
  // The whole shrink (bisection, greedy steps, thresholds) within o.budget_seconds.
  const auto out_of_budget = [&](int attempts) {
    return attempts >= o.max_attempts || elapsed() + budget.attempt_seconds >= o.budget_seconds;
  };
  ShrinkStats bisect;
  const OpCase from = BisectKnobs(
      original, keeps, [&] { return out_of_budget(bisect.attempts); }, &bisect);
  budget.budget_seconds = std::max(0.0, o.budget_seconds - elapsed());
  budget.max_attempts = std::max(0, o.max_attempts - bisect.attempts);
  OpCase min = ShrinkCase(from, keeps, budget, &out->stats);
  out->stats.attempts += bisect.attempts;
  out->stats.accepted += bisect.accepted;
  out->stats.budget_exhausted = out->stats.budget_exhausted || bisect.budget_exhausted;
  out->stats.from_elements = original.data.NumElements();
  out->thresholds = Thresholds(
      min,
      [&](const OpCase& c) {
        ++out->stats.attempts;
        return verdict_of(c);
      },
      [&] { return out_of_budget(out->stats.attempts); });
  out->stats.seconds = elapsed();
  return min;
}

}  // namespace

ShrunkCase ShrinkFailure(Backend& backend, const std::string& name, const Capabilities& caps,
                         const PreparedCase& original, const CaseResult& failure,
                         const RunOptions& run_options, const ShrinkOptions& o) {
  ShrunkCase out;
  out.result = failure;
  bool keep_diagnosis = true;
  const KeepsFailure keeps = [&](const OpCase& c) {
    std::vector<PreparedCase> p = PrepareCases({c});
    CaseResult r = RunCase(backend, name, caps, p[0], run_options);
    if (!SameFailureClass(failure, r)) return false;
    if (keep_diagnosis && !SameDiagnosisClass(failure, r)) return false;
    out.result = std::move(r);
    return true;
  };
  const auto verdict_of = [&](const OpCase& c) {
    std::vector<PreparedCase> p = PrepareCases({c});
    return RunCase(backend, name, caps, p[0], run_options).verdict;
  };
  OpCase min = ShrinkWithThresholds(original.c, failure, keeps, verdict_of, o,
                                    run_options.timeout_seconds, &out);
  if (out.stats.accepted == 0 && !NamedIds(failure).empty() && !out.stats.budget_exhausted) {
    // No smaller case keeps the diagnosis: keep the verdict class alone, in what is left of
    // the budget.
    keep_diagnosis = false;
    ShrinkOptions rest = o;
    rest.budget_seconds = std::max(0.0, o.budget_seconds - out.stats.seconds);
    rest.max_attempts = std::max(0, o.max_attempts - out.stats.attempts);
    ShrinkStats first = out.stats;
    min = ShrinkCase(original.c, keeps, rest, &out.stats);
    out.stats.attempts += first.attempts;
    out.stats.seconds += first.seconds;
    out.stats.diagnosis_kept = out.stats.accepted == 0;
  }
  min.id = absl::StrCat(original.c.id, ".min");
  min.origin = absl::StrCat(
      "shrunk from ", original.c.id, " (", out.stats.from_elements, " -> ", out.stats.to_elements,
      " data elements), keeping ", VerdictName(failure.verdict),
      failure.rule.empty() ? "" : absl::StrCat(" (", failure.rule, ")"),
      NamedIds(failure).empty()  ? ""
      : out.stats.diagnosis_kept ? absl::StrCat(" and the diagnosis ", failure.diagnosis->mistake)
                                 : absl::StrCat(" (no smaller case keeps the diagnosis ",
                                                failure.diagnosis->mistake, ")"));
  out.result.id = min.id;
  std::vector<PreparedCase> p = PrepareCases({std::move(min)});
  out.minimal = std::move(p[0]);
  out.minimal.source_file = original.source_file;
  return out;
}

CaseResult::Shrunk ShrunkPart(const std::string& minimal_id, const ShrinkStats& stats,
                              const CaseResult& minimal_result) {
  CaseResult::Shrunk info;
  info.id = minimal_id;
  info.from_elements = stats.from_elements;
  info.to_elements = stats.to_elements;
  info.attempts = stats.attempts;
  info.seconds = stats.seconds;
  info.budget_exhausted = stats.budget_exhausted;
  info.diagnosis = minimal_result.diagnosis;
  return info;
}

}  // namespace dmconf
