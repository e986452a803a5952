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

namespace dmconf {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

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

int64_t SatAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return b > 0 ? kMax : std::numeric_limits<int64_t>::min();
  return r;
}
int64_t Abs(int64_t v) { return v == std::numeric_limits<int64_t>::min() ? kMax : std::abs(v); }

// Element count of a shape; nullopt when not representable.
std::optional<int64_t> Count(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) {
    if (d < 0 || (d != 0 && n > kMax / d)) return std::nullopt;
    n *= d;
  }
  return n;
}

int TypeOrder(ElementType t) {
  switch (t) {
    case ElementType::kU8:
      return 0;
    case ElementType::kI32:
      return 1;
    case ElementType::kF32:
      return 2;
    default:
      return 3;
  }
}

bool IsPositional(const Tensor& t) {
  const Tensor p = PositionalTensor(t.type, t.shape);
  return p.bytes == t.bytes;
}

std::vector<int64_t> Ints(const Tensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(t.GetInteger(i).value_or(0));
  return v;
}

// `c` with data of `shape`: two candidates, its elements the current data's first ones and its
// last ones (cycled), so that an element that matters survives wherever it sits (a signalling
// NaN at the end of positional f8 data). None when the new shape is not representable or holds
// more elements than the current data (never allocate more than the failing case already had).
std::vector<OpCase> WithShape(const OpCase& c, const Shape& shape) {
  const std::optional<int64_t> n = Count(shape);
  const int64_t have = c.data.NumElements();
  if (!n || *n > have || shape == c.data.shape) return {};
  std::vector<OpCase> out;
  std::vector<int64_t> offsets = {0};
  if (*n > 0 && have > *n) offsets.push_back(have - *n);
  for (const int64_t offset : offsets) {
    absl::StatusOr<Tensor> t = Tensor::Zeros(c.data.type, shape);
    if (!t.ok()) return {};
    for (int64_t i = 0; i < *n; ++i) t->SetBits(i, c.data.GetBits((offset + i) % have));
    OpCase x = c;
    x.data = *std::move(t);
    out.push_back(std::move(x));
  }
  return out;
}

// `c` with integer input k replaced by `v` in its own element type (nullopt if it cannot hold it).
std::optional<OpCase> WithInts(OpCase c, size_t k, const std::vector<int64_t>& v) {
  absl::StatusOr<Tensor> t = MakeIntegerTensor(c.int_inputs[k].type, v);
  if (!t.ok()) return std::nullopt;
  c.int_inputs[k] = *std::move(t);
  return c;
}

// The smaller values tried for a positive quantity v: 1, v / 2, v - 1 (and v - step), distinct,
// each in [floor, v).
std::vector<int64_t> Reductions(int64_t v, int64_t floor, int64_t step = 0) {
  std::vector<int64_t> out;
  for (int64_t x : {floor, int64_t{1}, v / 2, v - 1, step > 0 ? v - step : int64_t{-1}}) {
    if (x >= floor && x < v && std::find(out.begin(), out.end(), x) == out.end()) {
      out.push_back(x);
    }
  }
  return out;
}

bool BlockOp(Op op) { return op == Op::kSpaceToBatch || op == Op::kBatchToSpace; }
bool DepthOp(Op op) { return op == Op::kSpaceToDepth || op == Op::kDepthToSpace; }

// block_size ^ K, nullopt on overflow.
std::optional<int64_t> Power(int64_t b, int64_t k) {
  int64_t p = 1;
  for (int64_t i = 0; i < k; ++i) {
    if (b != 0 && p > kMax / b) return std::nullopt;
    p *= b;
  }
  return p;
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

// The unit by which axis k of the data can shrink and keep the op's divisibility.
int64_t Step(const OpCase& c, size_t k) {
  const size_t rank = c.data.shape.size();
  if (BlockOp(c.op) && !c.int_inputs.empty()) {
    const std::vector<int64_t> b = Ints(c.int_inputs[0]);
    if (b.size() != rank) return 0;
    if (c.op == Op::kSpaceToBatch) return b[k];
    if (k != 0) return 0;
    int64_t p = 1;
    for (int64_t x : b) {
      if (x <= 0 || p > kMax / x) return 0;
      p *= x;
    }
    return p;
  }
  if (DepthOp(c.op)) {
    const int64_t b = c.block_size.value_or(1);
    if (c.op == Op::kSpaceToDepth) return k >= 2 ? b : 0;
    if (k == 1 && rank >= 2) return Power(b, static_cast<int64_t>(rank) - 2).value_or(0);
  }
  return 0;
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
  if (out.done) return;
  if (c.op != Op::kExtractImagePatches) return;
  for (auto field : {&OpCase::sizes, &OpCase::strides, &OpCase::rates}) {
    const std::vector<int64_t>& v = c.*field;
    for (size_t i = 0; i < v.size(); ++i) {
      for (int64_t x : Reductions(v[i], 1)) {
        OpCase y = c;
        (y.*field)[i] = x;
        out.push_back(std::move(y));
      }
    }
  }
  if (c.auto_pad && *c.auto_pad != "valid") {
    OpCase y = c;
    y.auto_pad = "valid";
    out.push_back(std::move(y));
  }
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
  k.attrs = SatAdd(k.attrs, Abs(c.block_size.value_or(0)));
  for (const std::vector<int64_t>* v : {&c.sizes, &c.strides, &c.rates}) {
    for (int64_t x : *v) k.attrs = SatAdd(k.attrs, Abs(x));
  }
  if (c.auto_pad && *c.auto_pad != "valid") k.attrs = SatAdd(k.attrs, 1);
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
      if (s.attempts >= o.max_attempts || elapsed() >= o.budget_seconds) {
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
  OpCase min = ShrinkCase(original.c, keeps, o, &out.stats);
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

}  // namespace dmconf
