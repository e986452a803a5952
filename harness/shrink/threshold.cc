#include "harness/shrink/threshold.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/shrink/shrink_common.h"

namespace dmconf {
namespace {

using shrink_internal::BlockOp;
using shrink_internal::DepthOp;
using shrink_internal::Ints;
using shrink_internal::Power;
using shrink_internal::Step;
using shrink_internal::WithInts;
using shrink_internal::WithShape;

// `c` with data of `shape` (its first elements, cycled); `c` itself when the shape is its own.
std::optional<OpCase> Reshaped(const OpCase& c, const Shape& shape) {
  if (shape == c.data.shape) return c;
  std::vector<OpCase> x = WithShape(c, shape);
  if (x.empty()) return std::nullopt;
  return std::move(x.front());
}

// `c` with its last axis dropped (and its entries of the integer inputs; BatchToSpace's batch
// divided by the block entry dropped).
std::optional<OpCase> DropLastAxis(const OpCase& c) {
  const size_t rank = c.data.shape.size();
  if (rank == 0) return std::nullopt;
  Shape s(c.data.shape.begin(), c.data.shape.end() - 1);
  OpCase x = c;
  for (size_t i = 0; i < c.int_inputs.size(); ++i) {
    std::vector<int64_t> v = Ints(c.int_inputs[i]);
    if (v.size() != rank) continue;
    if (c.op == Op::kBatchToSpace && i == 0 && !s.empty()) {
      if (v.back() <= 0 || s[0] % v.back() != 0) return std::nullopt;
      s[0] /= v.back();
    }
    v.pop_back();
    std::optional<OpCase> y = WithInts(std::move(x), i, v);
    if (!y) return std::nullopt;
    x = *std::move(y);
  }
  return Reshaped(x, s);
}

// `c` with block_size nb, the dims it divides scaled along.
std::optional<OpCase> WithBlockSize(const OpCase& c, int64_t nb) {
  const int64_t b = c.block_size.value_or(1);
  const size_t rank = c.data.shape.size();
  Shape s = c.data.shape;
  if (c.op == Op::kDepthToSpace && rank >= 2) {
    const std::optional<int64_t> bk = Power(b, static_cast<int64_t>(rank) - 2);
    const std::optional<int64_t> nbk = Power(nb, static_cast<int64_t>(rank) - 2);
    if (bk && nbk && *bk > 0 && s[1] % *bk == 0) s[1] = s[1] / *bk * *nbk;
  } else if (c.op == Op::kSpaceToDepth) {
    for (size_t i = 2; i < rank; ++i) {
      if (b > 0 && s[i] % b == 0) s[i] = s[i] / b * nb;
    }
  }
  OpCase x = c;
  x.block_size = nb;
  return Reshaped(x, s);
}

// `c` with block_shape[i] at nb, the dim it divides scaled along.
std::optional<OpCase> WithBlockEntry(const OpCase& c, size_t i, int64_t nb) {
  std::vector<int64_t> block = Ints(c.int_inputs[0]);
  const std::vector<int64_t> pads = Ints(c.int_inputs[1]);
  if (i >= block.size() || block[i] <= 0 || i >= c.data.shape.size()) return std::nullopt;
  Shape s = c.data.shape;
  if (c.op == Op::kSpaceToBatch && i < pads.size()) {
    // (D + P) / B blocks of the new size: D' = (D + P) / B * B' - P.
    int64_t padded = 0;
    if (__builtin_add_overflow(s[i], pads[i], &padded) || padded % block[i] != 0 ||
        padded / block[i] * nb - pads[i] < 0) {
      return std::nullopt;
    }
    s[i] = padded / block[i] * nb - pads[i];
  } else if (c.op == Op::kBatchToSpace) {
    if (s[0] % block[i] != 0) return std::nullopt;
    s[0] = s[0] / block[i] * nb;  // the batch holds prod(block_shape) blocks
  }
  block[i] = nb;
  std::optional<OpCase> x = WithInts(c, 0, block);
  if (!x) return std::nullopt;
  return Reshaped(*x, s);
}

size_t ArgMax(const std::vector<int64_t>& v) {
  return static_cast<size_t>(std::max_element(v.begin(), v.end()) - v.begin());
}

// The first word of a knob's name: "rank", "block_size", "block_shape", "dim".
std::string KindOf(const std::string& what) {
  return what.substr(0, std::min(what.find_first_of(" ["), what.size()));
}

}  // namespace

std::vector<Knob> KnobsOf(const OpCase& c) {
  std::vector<Knob> out;
  const int64_t rank = static_cast<int64_t>(c.data.shape.size());
  const int64_t lowest = DepthOp(c.op) ? 3 : 1;
  if (c.op != Op::kExtractImagePatches && rank > lowest) out.push_back({"rank", rank, lowest, 1});
  if (DepthOp(c.op) && c.block_size && *c.block_size > 1) {
    out.push_back({"block_size", *c.block_size, 1, 1});
  }
  if (BlockOp(c.op) && c.int_inputs.size() == 3) {
    const std::vector<int64_t> block = Ints(c.int_inputs[0]);
    if (!block.empty() && block[ArgMax(block)] > 1) {
      out.push_back({absl::StrCat("block_shape[", ArgMax(block), "]"), block[ArgMax(block)], 1, 1});
    }
  }
  if (rank > 0) {
    const size_t k = ArgMax(c.data.shape);
    const int64_t d = c.data.shape[k];
    const int64_t unit = std::max<int64_t>(Step(c, k), 1);
    if (d > d % unit) out.push_back({absl::StrCat("dim ", k), d, d % unit, unit});
  }
  return out;
}

std::optional<OpCase> WithKnob(const OpCase& c, const Knob& k, int64_t v) {
  const std::string kind = KindOf(k.what);
  if (kind == "rank") {
    std::optional<OpCase> x = c;
    while (x && static_cast<int64_t>(x->data.shape.size()) > v) x = DropLastAxis(*x);
    return x;
  }
  if (kind == "block_size") return WithBlockSize(c, v);
  if (kind == "block_shape") {
    const size_t i = static_cast<size_t>(std::stoi(k.what.substr(k.what.find('[') + 1)));
    return WithBlockEntry(c, i, v);
  }
  const size_t axis = static_cast<size_t>(std::stoi(k.what.substr(4)));
  if (axis >= c.data.shape.size()) return std::nullopt;
  Shape s = c.data.shape;
  s[axis] = v;
  return Reshaped(c, s);
}

bool ThresholdVerdict(Verdict v) { return v == Verdict::kCrash || v == Verdict::kHang; }

double HangAttemptSeconds(Verdict v, double timeout_seconds) {
  return v == Verdict::kHang ? timeout_seconds : 0;
}

OpCase BisectKnobs(const OpCase& failing, const KeepsFailure& keeps,
                   const std::function<bool()>& out_of_budget, ShrinkStats* stats) {
  OpCase cur = failing;
  for (const Knob& first : KnobsOf(failing)) {
    // The knob of that kind in the current case (an earlier bisection may have moved it).
    const std::vector<Knob> now = KnobsOf(cur);
    const auto k = std::find_if(now.begin(), now.end(), [&](const Knob& n) {
      return KindOf(n.what) == KindOf(first.what);
    });
    if (k == now.end()) continue;
    // Value index j: floor + j * unit. hi fails (the current case); lo is below every index
    // tried that failed.
    int64_t lo = -1, hi = (k->value - k->floor) / k->unit;
    while (hi - lo > 1) {
      if (out_of_budget()) {
        stats->budget_exhausted = true;
        return cur;
      }
      const int64_t mid = lo + (hi - lo) / 2;
      std::optional<OpCase> x = WithKnob(cur, *k, k->floor + mid * k->unit);
      ++stats->attempts;
      if (x && keeps(*x)) {
        hi = mid;
        cur = *std::move(x);
        ++stats->accepted;
      } else {
        lo = mid;
      }
    }
  }
  return cur;
}

std::vector<CaseResult::Shrunk::Threshold> Thresholds(
    const OpCase& minimal, const std::function<Verdict(const OpCase&)>& verdict_of,
    const std::function<bool()>& out_of_budget) {
  std::vector<CaseResult::Shrunk::Threshold> out;
  for (const Knob& k : KnobsOf(minimal)) {
    if (out_of_budget()) break;
    const int64_t below = k.value - k.unit;
    std::optional<OpCase> x = WithKnob(minimal, k, below);
    if (x && verdict_of(*x) == Verdict::kPass) out.push_back({k.what, k.value, below});
  }
  return out;
}

}  // namespace dmconf
