#include "harness/shrink/shrink_shape.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "harness/runner/vector_cases.h"
#include "harness/shrink/replay.h"
#include "harness/shrink/shrink_common.h"
#include "oracle/partial/shape_answer.h"

namespace dmconf {
namespace {

using shrink_internal::Abs;
using shrink_internal::AppendSmallerPatches;
using shrink_internal::AttributesWeight;
using shrink_internal::BlockOp;
using shrink_internal::DepthOp;
using shrink_internal::Ints;
using shrink_internal::Power;
using shrink_internal::Reductions;
using shrink_internal::SatAdd;
using shrink_internal::TypeOrder;

using Out = std::vector<PartialCase>;

// The largest data rank a shape case is given when its unknown rank is made known.
constexpr int kMaxKnownRank = 8;

// Constant integer input k of `c` replaced by `v` in its own element type (none if it cannot
// hold it).
std::optional<PartialCase> WithInts(PartialCase c, size_t k, const std::vector<int64_t>& v) {
  const ElementType t = c.int_inputs[k] ? c.int_inputs[k]->type : c.int_types[k];
  absl::StatusOr<Tensor> x = MakeIntegerTensor(t, v);
  if (!x.ok()) return std::nullopt;
  c.int_inputs[k] = *std::move(x);
  return c;
}

// The constant values of input k, or none when it is not a constant.
std::optional<std::vector<int64_t>> Constant(const PartialCase& c, size_t k) {
  if (!c.int_inputs[k]) return std::nullopt;
  return Ints(*c.int_inputs[k]);
}

// The unit by which exact data dim k can shrink and keep the op's divisibility (as the
// kernel shrinker's Step): block_shape[k], prod(block_shape), block_size or block_size^K.
int64_t Step(const PartialCase& c, size_t k) {
  return shrink_internal::DivisibilityStep(c.op, c.data.dims->size(), k, Constant(c, 0),
                                           c.block_size);
}

// 1. An unknown data rank made known, every dim "?".
void KnownRank(const PartialCase& c, Out& out) {
  if (c.data.dims) return;
  for (int r = 1; r <= kMaxKnownRank; ++r) {
    PartialCase x = c;
    x.data = PartialShape::Of(std::vector<Dim>(static_cast<size_t>(r), Dim::Any()));
    out.push_back(std::move(x));
  }
}

// 2. An axis dropped, with its entries of constant inputs and a known input length.
void DropAxes(const PartialCase& c, Out& out) {
  if (!c.data.dims || c.op == Op::kExtractImagePatches) return;
  const size_t rank = c.data.dims->size();
  for (size_t k = 0; k < rank; ++k) {
    PartialCase x = c;
    x.data.dims->erase(x.data.dims->begin() + static_cast<std::ptrdiff_t>(k));
    bool ok = true;
    for (size_t i = 0; i < 3 && ok && BlockOp(c.op); ++i) {
      if (std::optional<std::vector<int64_t>> v = Constant(c, i); v && v->size() == rank) {
        v->erase(v->begin() + static_cast<std::ptrdiff_t>(k));
        std::optional<PartialCase> y = WithInts(x, i, *v);
        ok = y.has_value();
        if (ok) x = *std::move(y);
      } else if (!c.int_inputs[i] && c.int_shapes[i].dims && c.int_shapes[i].dims->size() == 1 &&
                 (*c.int_shapes[i].dims)[0] == Dim::Exact(static_cast<int64_t>(rank))) {
        x.int_shapes[i] = PartialShape::Of({Dim::Exact(static_cast<int64_t>(rank) - 1)});
      }
    }
    if (ok) out.push_back(std::move(x));
  }
}

// The smaller forms tried for one data dim.
std::vector<Dim> DimReductions(const Dim& d, int64_t step) {
  std::vector<Dim> out;
  if (d.IsStatic()) {
    for (int64_t v : Reductions(d.lo, 0, step)) out.push_back(Dim::Exact(v));
    return out;
  }
  out.push_back(Dim::Exact(d.lo));
  if (d.hi) {
    out.push_back(Dim::Exact(*d.hi));
    out.push_back(Dim::Any());
    out.push_back(Dim::Range(d.lo, d.lo + (*d.hi - d.lo) / 2));
    out.push_back(Dim::Range(d.lo, *d.hi - 1));
    out.push_back(Dim::Range(0, *d.hi));
    out.push_back(Dim::Range(d.lo / 2, *d.hi / 2));
  } else {
    out.push_back(Dim::Exact(0));
    out.push_back(Dim::Exact(1));
    for (int64_t v : Reductions(d.lo, 0)) out.push_back(Dim::AtLeast(v));
  }
  return out;
}

// 3. Smaller data dims.
void ShrinkDims(const PartialCase& c, Out& out) {
  if (!c.data.dims) return;
  for (size_t k = 0; k < c.data.dims->size(); ++k) {
    for (const Dim& d : DimReductions((*c.data.dims)[k], Step(c, k))) {
      if (d.hi && *d.hi < d.lo) continue;
      PartialCase x = c;
      (*x.data.dims)[k] = d;
      out.push_back(std::move(x));
    }
  }
}

// Exact dim k of `x` scaled from blocks of b to blocks of nb ((D + pad) / b * nb - pad), when
// b divides D + pad.
void Rescale(PartialCase& x, size_t k, int64_t b, int64_t nb, int64_t pad = 0) {
  Dim& d = (*x.data.dims)[k];
  const int64_t padded = SatAdd(d.lo, pad);
  int64_t v = 0;
  if (d.IsStatic() && b > 0 && padded % b == 0 &&
      !__builtin_sub_overflow(padded / b * nb, pad, &v) && v >= 0) {
    d = Dim::Exact(v);
  }
}

// 4. Smaller block sizes, exact dims they divide scaled along.
void ShrinkBlocks(const PartialCase& c, Out& out) {
  const size_t rank = c.data.dims ? c.data.dims->size() : 0;
  if (DepthOp(c.op) && c.block_size && *c.block_size > 1) {
    const int64_t b = *c.block_size;
    for (int64_t nb : Reductions(b, 1)) {
      PartialCase x = c;
      x.block_size = nb;
      if (c.op == Op::kDepthToSpace && rank >= 2) {
        const std::optional<int64_t> bk = Power(b, static_cast<int64_t>(rank) - 2);
        const std::optional<int64_t> nbk = Power(nb, static_cast<int64_t>(rank) - 2);
        if (bk && nbk) Rescale(x, 1, *bk, *nbk);
      } else if (c.op == Op::kSpaceToDepth) {
        for (size_t i = 2; i < rank; ++i) Rescale(x, i, b, nb);
      }
      out.push_back(std::move(x));
    }
  }
  if (!BlockOp(c.op)) return;
  const std::optional<std::vector<int64_t>> block = Constant(c, 0);
  if (!block) return;
  const std::optional<std::vector<int64_t>> pads = Constant(c, 1);
  for (size_t i = 0; i < block->size(); ++i) {
    for (int64_t nb : (*block)[i] > 1 ? Reductions((*block)[i], 1) : std::vector<int64_t>{}) {
      std::vector<int64_t> v = *block;
      v[i] = nb;
      std::optional<PartialCase> x = WithInts(c, 0, v);
      if (!x) continue;
      if (c.op == Op::kSpaceToBatch && i < rank && pads && pads->size() > i) {
        Rescale(*x, i, (*block)[i], nb, (*pads)[i]);
      } else if (c.op == Op::kBatchToSpace && rank > 0) {
        Rescale(*x, 0, (*block)[i], nb);  // the batch holds prod(block_shape) blocks
      }
      out.push_back(*std::move(x));
    }
  }
}

// 5. Smaller constant pads / crops: 0, 1, half, one less, one block less.
void ShrinkPadsCrops(const PartialCase& c, Out& out) {
  if (!BlockOp(c.op)) return;
  const std::vector<int64_t> block = Constant(c, 0).value_or(std::vector<int64_t>{});
  for (size_t k = 1; k < 3; ++k) {
    const std::optional<std::vector<int64_t>> v = Constant(c, k);
    if (!v) continue;
    for (size_t i = 0; i < v->size(); ++i) {
      if ((*v)[i] <= 0) continue;
      for (int64_t x : Reductions((*v)[i], 0, i < block.size() ? block[i] : 0)) {
        std::vector<int64_t> w = *v;
        w[i] = x;
        if (std::optional<PartialCase> y = WithInts(c, k, w)) out.push_back(*std::move(y));
      }
    }
  }
}

// 6. A non-constant input given a known shape [rank], or made a simple constant.
void ConstantInputs(const PartialCase& c, Out& out) {
  if (!BlockOp(c.op) || !c.data.dims) return;
  const int64_t rank = static_cast<int64_t>(c.data.dims->size());
  for (size_t k = 0; k < 3; ++k) {
    if (c.int_inputs[k]) continue;
    if (std::optional<PartialCase> y =
            WithInts(c, k, std::vector<int64_t>(static_cast<size_t>(rank), k == 0 ? 1 : 0))) {
      out.push_back(*std::move(y));
    }
    const PartialShape known = PartialShape::Of({Dim::Exact(rank)});
    if (!(c.int_shapes[k].dims && *c.int_shapes[k].dims == *known.dims)) {
      PartialCase x = c;
      x.int_shapes[k] = known;
      out.push_back(std::move(x));
    }
  }
}

// 7. Smaller sizes, strides and rates; auto_pad valid.
void ShrinkPatches(const PartialCase& c, Out& out) { AppendSmallerPatches(c, out); }

// 8. A simpler element type.
void SimplerType(const PartialCase& c, Out& out) {
  for (ElementType t : {ElementType::kU8, ElementType::kI32, ElementType::kF32}) {
    if (TypeOrder(t) >= TypeOrder(c.type)) continue;
    PartialCase y = c;
    y.type = t;
    out.push_back(std::move(y));
  }
}

struct Key {
  int64_t rank, unknowns, dims, attrs, type;
  auto Tuple() const { return std::tie(rank, unknowns, dims, attrs, type); }
};

Key KeyOf(const PartialCase& c) {
  Key k{};
  k.rank = c.data.dims ? static_cast<int64_t>(c.data.dims->size()) : kMaxKnownRank + 1;
  if (!c.data.dims) ++k.unknowns;
  for (const Dim& d : c.data.dims.value_or(std::vector<Dim>{})) {
    if (!d.IsStatic()) ++k.unknowns;
    k.dims = SatAdd(k.dims, SatAdd(Abs(d.lo), d.hi ? Abs(*d.hi) : 0));
  }
  for (size_t i = 0; i < 3 && BlockOp(c.op); ++i) {
    if (c.int_inputs[i]) {
      for (int64_t v : Ints(*c.int_inputs[i])) k.attrs = SatAdd(k.attrs, Abs(v));
      continue;
    }
    ++k.unknowns;
    const PartialShape& s = c.int_shapes[i];
    if (!s.dims) ++k.unknowns;
    for (const Dim& d : s.dims.value_or(std::vector<Dim>{})) k.unknowns += d.IsStatic() ? 0 : 1;
  }
  k.attrs = SatAdd(k.attrs, AttributesWeight(c));
  k.type = TypeOrder(c.type);
  return k;
}

}  // namespace

std::vector<PartialCase> ShapeShrinkCandidates(const PartialCase& c) {
  Out out;
  KnownRank(c, out);
  DropAxes(c, out);
  ShrinkDims(c, out);
  ShrinkBlocks(c, out);
  ShrinkPadsCrops(c, out);
  ConstantInputs(c, out);
  ShrinkPatches(c, out);
  SimplerType(c, out);
  return out;
}

bool ShapeSmaller(const PartialCase& a, const PartialCase& b) {
  return KeyOf(a).Tuple() < KeyOf(b).Tuple();
}

namespace {

// The greedy loop of ShrinkCase (shrink.h) over shape cases: the first smaller candidate the
// oracle can answer that keeps the failure is taken, until none is (a local minimum) or the
// budget runs out.
PartialCase ShrinkPartialCase(const PartialCase& failing,
                              const std::function<bool(const PartialCase&)>& keeps,
                              const ShrinkOptions& o, ShrinkStats* stats) {
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&start] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  ShrinkStats s;
  PartialCase cur = failing;
  for (bool progress = true; progress && !s.budget_exhausted;) {
    progress = false;
    const Key against = KeyOf(cur);
    for (PartialCase& cand : ShapeShrinkCandidates(cur)) {
      if (!(KeyOf(cand).Tuple() < against.Tuple())) continue;
      if (!OracleShapeAnswer(cand).ok()) continue;  // malformed: no shape-inference question
      if (s.attempts >= o.max_attempts || elapsed() >= o.budget_seconds) {
        s.budget_exhausted = true;
        break;
      }
      ++s.attempts;
      if (!keeps(cand)) continue;
      cur = std::move(cand);
      ++s.accepted;
      progress = true;
      break;
    }
  }
  s.seconds = elapsed();
  if (stats != nullptr) *stats = s;
  return cur;
}

}  // namespace

ShrunkShapeCase ShrinkShapeFailure(Backend& backend, const std::string& name,
                                   const Capabilities& caps, const PreparedShapeCase& original,
                                   const CaseResult& failure, const RunOptions& run_options,
                                   const ShrinkOptions& o) {
  ShrunkShapeCase out;
  out.result = failure;
  RunOptions ro = run_options;
  ro.progress = nullptr;
  const auto keeps = [&](const PartialCase& c) {
    std::vector<PreparedShapeCase> p = PrepareShapeCases({ShapeCase{original.s.id, c, ""}});
    if (p.empty()) return false;
    CaseResult r = RunShapeCase(backend, name, caps, p[0], ro);
    if (r.lane != failure.lane || !SameFailureClass(failure, r) ||
        !SameDiagnosisClass(failure, r)) {
      return false;
    }
    out.result = std::move(r);
    return true;
  };
  ShapeCase min;
  min.c = ShrinkPartialCase(original.s.c, keeps, o, &out.stats);
  min.id = absl::StrCat(original.s.id, ".min");
  min.origin = absl::StrCat("shrunk from ", original.s.id, " (",
                            InvocationText(DescribeShapeInvocation(original.s.c)), " -> ",
                            InvocationText(DescribeShapeInvocation(min.c)), "), keeping ",
                            VerdictName(failure.verdict), " in ", CaseLaneName(failure.lane),
                            failure.rule.empty() ? "" : absl::StrCat(" (", failure.rule, ")"));
  out.result.id = min.id;
  out.result.invocation = DescribeShapeInvocation(min.c);
  std::vector<PreparedShapeCase> p = PrepareShapeCases({std::move(min)});
  if (!p.empty()) out.minimal = std::move(p[0]);  // the original's answer is known: never empty
  out.minimal.source_file = original.source_file;
  return out;
}

CaseResult::Shrunk ShrunkShapeInfo(const ShrunkShapeCase& s) {
  CaseResult::Shrunk info = ShrunkPart(s.minimal.s.id, s.stats, s.result);
  info.case_text = InvocationText(DescribeShapeInvocation(s.minimal.s.c));
  return info;
}

ShapeShrinkInRun ShrinkShapeInRun(Backend& backend, const std::string& name,
                                  const Capabilities& caps, const PreparedShapeCase& p,
                                  const RunOptions& run_options, double budget_seconds,
                                  const std::string& failures_dir,
                                  const std::function<std::string(const std::string&)>& repro_of,
                                  CaseResult* res) {
  ShapeShrinkInRun out;
  double replay_seconds = 0;
  const bool same = ConfirmShapeFailure(backend, name, caps, p, run_options, res, &replay_seconds);
  out.seconds = replay_seconds;
  if (!same) {
    if (!res->vector_file.empty()) {
      (void)SaveFailingShapeCase(failures_dir, name, p, VerdictName(res->verdict), res->detail);
    }
    return out;
  }
  ShrinkOptions so;
  so.budget_seconds = std::max(0.0, budget_seconds - replay_seconds);
  const ShrunkShapeCase s = ShrinkShapeFailure(backend, name, caps, p, *res, run_options, so);
  out.seconds += s.stats.seconds;
  if (s.stats.accepted == 0) return out;  // already minimal
  res->shrunk = ShrunkShapeInfo(s);
  absl::StatusOr<std::string> path = SaveFailingShapeCase(
      failures_dir, name, s.minimal, VerdictName(s.result.verdict), s.result.detail);
  out.saved = path.ok();
  if (path.ok()) {
    res->shrunk->vector_file = *path;
    res->shrunk->repro = repro_of(*path);
  }
  return out;
}

}  // namespace dmconf
