// Partial-shape inference: hand-derived examples, agreement with static inference on exact
// shapes, and the soundness / tightness properties over enumerated instances.
#include <functional>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "conformance/properties/rc_chooser.h"
#include "gtest/gtest.h"
#include "harness/gen/builders.h"
#include "harness/gen/generate.h"
#include "oracle/oracle.h"
#include "oracle/partial/partial_infer.h"
#include "rapidcheck/gtest.h"

namespace dmconf {
namespace {

Tensor I64(std::vector<int64_t> v) { return *MakeIntegerTensor(ElementType::kI64, v); }

std::string Infer(const PartialCase& c) {
  absl::StatusOr<PartialResult> r = InferPartialShape(c);
  if (!r.ok()) return std::string(r.status().message());
  if (r->kind == PartialKind::kMustReject) return r->message.substr(0, r->message.find(':'));
  return r->has_output ? r->output.ToString() : "no output";
}

// ---- Hand-derived examples --------------------------------------------------------------

TEST(PartialShape, Printing) {
  EXPECT_EQ(
      PartialShape::Of({Dim::Exact(1), Dim::Range(2, 8), Dim::AtLeast(3), Dim::Any()}).ToString(),
      "[1,[2,8],[3,inf),?]");
  EXPECT_EQ(PartialShape::DynamicRank().ToString(), "[...]");
  EXPECT_TRUE(PartialShape::Of({Dim::Range(2, 8)}).Contains({8}));
  EXPECT_FALSE(PartialShape::Of({Dim::Range(2, 8)}).Contains({9}));
}

TEST(PartialInfer, DepthToSpaceIntervals) {
  PartialCase c;
  c.op = Op::kDepthToSpace;
  c.data = PartialShape::Of({Dim::Exact(1), Dim::Range(8, 20), Dim::AtLeast(3)});
  c.block_size = 2;
  c.mode = "blocks_first";
  // C / 2 over [8, 20] -> [4, 10]; D * 2 over [3, inf) -> [6, inf).
  EXPECT_EQ(Infer(c), "[1,[4,10],[6,inf)]");
  c.data = PartialShape::Of({Dim::Exact(1), Dim::Range(5, 5), Dim::Exact(3)});
  EXPECT_EQ(Infer(c), "d2s.block_size.divides");  // no C in [5, 5] divisible by 2
  c.data = PartialShape::DynamicRank();
  EXPECT_EQ(Infer(c), "[...]");
}

TEST(PartialInfer, SpaceToDepthIntervals) {
  PartialCase c;
  c.op = Op::kSpaceToDepth;
  c.data = PartialShape::Of({Dim::Any(), Dim::Range(1, 2), Dim::Range(5, 13), Dim::AtLeast(1)});
  c.block_size = 3;
  c.mode = "depth_first";
  // C * 9 -> [9, 18]; [5, 13] / 3 -> multiples 6, 9, 12 -> [2, 4]; [1, inf) / 3 -> [1, inf).
  EXPECT_EQ(Infer(c), "[?,[9,18],[2,4],[1,inf)]");
  c.mode = "DEPTH_FIRST";
  EXPECT_EQ(Infer(c), "s2d.mode.enum");
}

TEST(PartialInfer, SpaceToBatchKnownAndUnknownInputs) {
  PartialCase c;
  c.op = Op::kSpaceToBatch;
  c.data = PartialShape::Of({Dim::Range(1, 2), Dim::Range(3, 10), Dim::AtLeast(4)});
  c.int_inputs = {I64({1, 4, 2}), I64({0, 1, 0}), I64({0, 0, 1})};
  // batch [1,2] * 8 = [8,16]; (D + 1) / 4 over [4, 11] -> [1, 2]; (D + 1) / 2, D >= 4 -> [3, inf)
  EXPECT_EQ(Infer(c), "[[8,16],[1,2],[3,inf)]");
  // Pads unknown: (D + P) / B with P >= 0 -> [ceil(lo / B), inf).
  c.int_inputs[1].reset();
  EXPECT_EQ(Infer(c), "[[8,16],[1,inf),[3,inf)]");
  // Block unknown, pads known: batch >= 1 unbounded; (D + P) / B in [1, D_hi + P].
  c.int_inputs = {std::nullopt, I64({0, 1, 0}), I64({0, 0, 1})};
  EXPECT_EQ(Infer(c), "[[1,inf),[1,11],[1,inf)]");
  // No padded size in [3, 5] + 0 is divisible by 7.
  c.data = PartialShape::Of({Dim::Exact(1), Dim::Range(3, 5)});
  c.int_inputs = {I64({1, 7}), I64({0, 0}), I64({0, 0})};
  EXPECT_EQ(Infer(c), "s2b.block_shape.divides");
  // Unknown rank with a constant input: the rank is its length.
  c.data = PartialShape::DynamicRank();
  EXPECT_EQ(Infer(c), "[?,?]");
}

TEST(PartialInfer, BatchToSpaceKnownAndUnknownInputs) {
  PartialCase c;
  c.op = Op::kBatchToSpace;
  c.data = PartialShape::Of({Dim::Range(4, 13), Dim::Range(2, 3)});
  c.int_inputs = {I64({1, 4}), I64({0, 1}), I64({0, 2})};
  // batch / 4 over [4, 13] -> [1, 3]; D * 4 - 3 over [2, 3] -> [5, 9].
  EXPECT_EQ(Infer(c), "[[1,3],[5,9]]");
  // crops_end unknown: the output can shrink to 0; at most D_hi * B - crops_begin.
  c.int_inputs[2].reset();
  EXPECT_EQ(Infer(c), "[[1,3],[0,11]]");
  // Block unknown, crops 3: B <= batch <= 13; min D * B - 3 with D in [2, 3]: D = 3, B = 1 -> 0;
  // max 3 * 13 - 3 = 36 (batch 13, B = 13).
  c.int_inputs = {std::nullopt, I64({0, 1}), I64({0, 2})};
  EXPECT_EQ(Infer(c), "[[1,13],[0,36]]");
  // crops 7 with D in [1, 1] and batch [5, 5]: D * B = B must be >= 7 but B | 5 -> B <= 5.
  c.data = PartialShape::Of({Dim::Exact(5), Dim::Exact(1)});
  c.int_inputs = {std::nullopt, I64({0, 3}), I64({0, 4})};
  EXPECT_EQ(Infer(c), "b2s.crops.fit");
}

// Block unknown with huge crops: B <= batch <= 27, so D * B >= C = 2^62 needs D >= 2^62 / 27.
// The search used to walk every smaller D (no B fits them) without counting steps: a hang
// (fuzz_partial_shape finding, fuzz/regressions/partial_shape/timeout-d72a...).
TEST(PartialInfer, BatchToSpaceHugeCropsUnknownBlockFinishes) {
  PartialCase c;
  c.op = Op::kBatchToSpace;
  const int64_t C = int64_t{1} << 62;
  c.data = PartialShape::Of({Dim::Range(1, 27), Dim::AtLeast(1)});
  c.int_inputs = {std::nullopt, I64({0, C}), I64({0, 0})};
  // D = C, B = 1 gives D * B - C = 0; D unbounded, so no upper bound: [0, inf), printed "?".
  EXPECT_EQ(Infer(c), "[[1,27],?]");
  // D <= 2^40: D * B <= 27 * 2^40 < 2^62 for every instance.
  c.data = PartialShape::Of({Dim::Range(1, 27), Dim::Range(1, int64_t{1} << 40)});
  EXPECT_EQ(Infer(c), "b2s.crops.fit");
}

TEST(PartialInfer, ExtractImagePatchesIntervals) {
  PartialCase c;
  c.op = Op::kExtractImagePatches;
  c.data = PartialShape::Of({Dim::Exact(2), Dim::Range(1, 3), Dim::Range(2, 9), Dim::AtLeast(0)});
  c.sizes = {3, 2};
  c.strides = {2, 3};
  c.rates = {2, 1};
  c.auto_pad = "valid";
  // depth 6 * [1,3]; rows: eff 5, in [2, 9] -> 0 .. (9 - 5) / 2 + 1 = 3; cols eff 2 -> [0, inf).
  EXPECT_EQ(Infer(c), "[2,[6,18],[0,3],?]");
  c.auto_pad = "same_lower";
  // ceil(in / stride): rows [1, 5], cols [0, inf).
  EXPECT_EQ(Infer(c), "[2,[6,18],[1,5],?]");
  c.data = PartialShape::DynamicRank();
  EXPECT_EQ(Infer(c), "[?,?,?,?]");
  c.strides = {0, 1};
  EXPECT_EQ(Infer(c), "eip.strides.positive");
}

TEST(PartialInfer, MalformedIntervalsAreErrors) {
  PartialCase c;
  c.op = Op::kSpaceToDepth;
  c.mode = "blocks_first";
  c.data = PartialShape::Of({Dim::Exact(1), Dim::Range(4, 2), Dim::Exact(2)});
  absl::StatusOr<PartialResult> r = InferPartialShape(c);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StartsWith(r.status().message(), "case.tensor.dims_nonnegative"));
}

// ---- Exact shapes: partial inference is static inference ----------------------------------

TEST(PartialInfer, ExactShapesAgreeWithStaticInference) {
  for (uint64_t i = 0; i < 3000; ++i) {
    const GeneratedCase g = SeededCase(31, i);
    absl::StatusOr<Validation> v = Validate(g.c);
    absl::StatusOr<PartialResult> p = InferPartialShape(PartialCase::FromStatic(g.c));
    // A partial case has no way to carry a wrong number of integer inputs.
    if (g.rule && g.rule->id == "case.inputs.count") continue;
    ASSERT_EQ(v.ok(), p.ok()) << g.c.id;
    if (!v.ok()) continue;
    const bool rejects = v->kind() == ExpectationKind::kMustReject;
    ASSERT_EQ(rejects, p->kind == PartialKind::kMustReject)
        << g.c.id << " static: " << (rejects ? v->deciding()->message : "accepts")
        << " partial: " << p->message;
    if (!rejects && p->has_output) {
      EXPECT_EQ(p->output.ToString(), PartialShape::Static(v->output_shape).ToString()) << g.c.id;
    }
  }
}

// ---- Soundness and tightness over enumerated instances ------------------------------------

struct Instance {
  Shape shape;
  std::array<std::vector<int64_t>, 3> ints;
};

// Calls f for every instance: dims in [lo, hi] (lo + 3 for unbounded hi), unknown block
// values 1..12 on spatial axes (block_shape[0] in {1, 2}), unknown pads / crops 0..24 (end 0..1
// when begin is unknown too: shapes only see the sum), index 0 zero.
void Enumerate(const PartialCase& p, const std::function<void(const OpCase&)>& f) {
  const std::vector<Dim>& dims = *p.data.dims;
  const size_t N = dims.size();
  OpCase base;
  base.op = p.op;
  base.block_size = p.block_size;
  base.mode = p.mode;
  base.sizes = p.sizes;
  base.strides = p.strides;
  base.rates = p.rates;
  base.auto_pad = p.auto_pad;
  base.data.type = p.type;
  // Per position, the list of values to try: dims first, then 3 * N integer-input values.
  std::vector<std::vector<int64_t>> choices;
  for (const Dim& d : dims) {
    std::vector<int64_t> v;
    for (int64_t x = d.lo; x <= d.hi.value_or(d.lo + 3); ++x) v.push_back(x);
    choices.push_back(v);
  }
  const bool block_op = p.op == Op::kSpaceToBatch || p.op == Op::kBatchToSpace;
  for (size_t k = 0; block_op && k < 3; ++k) {
    for (size_t i = 0; i < N; ++i) {
      if (p.int_inputs[k]) {
        choices.push_back({p.int_inputs[k]->GetInteger(static_cast<int64_t>(i)).value_or(0)});
        continue;
      }
      std::vector<int64_t> v;
      const int64_t lo = k == 0 ? 1 : 0;
      // Shapes only see begin + end: with both unknown, end 0..1 with begin 0..12 covers it.
      const bool sum_covered = k == 2 && !p.int_inputs[1];
      const int64_t hi = i == 0 ? (k == 0 ? 2 : 0) : (sum_covered ? 1 : (k == 0 ? 12 : 24));
      for (int64_t x = lo; x <= hi; ++x) v.push_back(x);
      choices.push_back(v);
    }
  }
  std::vector<size_t> idx(choices.size(), 0);
  while (true) {
    OpCase c = base;
    for (size_t i = 0; i < N; ++i) c.data.shape.push_back(choices[i][idx[i]]);
    for (size_t k = 0; block_op && k < 3; ++k) {
      std::vector<int64_t> v;
      for (size_t i = 0; i < N; ++i) v.push_back(choices[N + k * N + i][idx[N + k * N + i]]);
      c.int_inputs.push_back(I64(v));
    }
    f(c);
    size_t j = 0;
    while (j < idx.size() && ++idx[j] == choices[j].size()) idx[j++] = 0;
    if (j == idx.size()) break;
  }
}

// A partial case around a small static one: each dim widened to an interval (sometimes
// unbounded); for SpaceToBatch / BatchToSpace of rank 2, inputs sometimes non-constant.
PartialCase Widen(Chooser& ch, const OpCase& c) {
  PartialCase p = PartialCase::FromStatic(c);
  for (Dim& d : *p.data.dims) {
    d.lo = std::max<int64_t>(0, d.lo - ch.Int(0, 2));
    if (ch.Weighted({5, 1}) == 1) {
      d.hi.reset();
    } else {
      d.hi = *d.hi + ch.Int(0, 2);
    }
  }
  if ((c.op == Op::kSpaceToBatch || c.op == Op::kBatchToSpace) && c.data.shape.size() == 2) {
    for (auto& t : p.int_inputs) {
      if (ch.Weighted({2, 1}) == 1) t.reset();
    }
  }
  return p;
}

RC_GTEST_PROP(PartialProperties, SoundAndTight, ()) {
  RcChooser ch;
  const Op op = ch.Pick<Op>(AllOps());
  BuildOptions o;
  o.max_elements = 48;
  o.max_rank = op == Op::kSpaceToBatch || op == Op::kBatchToSpace ? 3 : 4;
  OpCase c = BuildValidCase(ch, op, o);
  if (op == Op::kSpaceToBatch || op == Op::kBatchToSpace) {
    // Keep blocks and pads small so that the enumeration reaches every bound's witness.
    for (Tensor& t : c.int_inputs) {
      std::vector<int64_t> v;
      for (int64_t i = 0; i < t.NumElements(); ++i)
        v.push_back(std::min<int64_t>(*t.GetInteger(i), 3));
      t = I64(v);
    }
    for (int64_t& d : c.data.shape) d = std::min<int64_t>(d, 6);
  }
  const PartialCase p = Widen(ch, c);
  absl::StatusOr<PartialResult> r = InferPartialShape(p);
  RC_ASSERT(r.ok());
  RC_LOG() << "partial case " << OpName(p.op) << " " << p.data.ToString() << " "
           << AttributesToString(c) << " constant inputs " << p.int_inputs[0].has_value()
           << p.int_inputs[1].has_value() << p.int_inputs[2].has_value() << " -> "
           << (r->has_output ? r->output.ToString() : r->message) << "\n";
  bool finite = true;
  for (const Dim& d : *p.data.dims) finite = finite && d.hi.has_value();
  const size_t out_rank = r->has_output && r->output.dims ? r->output.dims->size() : 0;
  std::vector<bool> lo_hit(out_rank, false), hi_hit(out_rank, false);
  Enumerate(p, [&](const OpCase& inst) {
    absl::StatusOr<Validation> v = Validate(inst);
    RC_ASSERT(v.ok());
    if (v->kind() == ExpectationKind::kMustReject || v->output_shape.empty()) return;
    // Soundness: an accepted instance is inside the partial answer.
    RC_LOG() << "instance " << ShapeToString(inst.data.shape) << " " << AttributesToString(inst)
             << " -> " << ShapeToString(v->output_shape) << "\n";
    RC_ASSERT(r->kind != PartialKind::kMustReject);
    if (!r->has_output) return;
    RC_ASSERT(r->output.Contains(v->output_shape));
    for (size_t i = 0; i < out_rank; ++i) {
      const Dim& d = (*r->output.dims)[i];
      lo_hit[i] = lo_hit[i] || v->output_shape[i] == d.lo;
      hi_hit[i] = hi_hit[i] || (d.hi && v->output_shape[i] == *d.hi);
    }
  });
  // Tightness: with finite input intervals (enumerated completely), every bound is reached.
  // Not claimed for BatchToSpace with a non-constant block_shape, whose per-dim bounds ignore
  // the coupling of batch divisibility and crops (docs/errata-partial.md, D-P6).
  const bool coupled = p.op == Op::kBatchToSpace && !p.int_inputs[0];
  if (finite && !coupled && r->kind == PartialKind::kShape) {
    for (size_t i = 0; i < out_rank; ++i) {
      const Dim& d = (*r->output.dims)[i];
      RC_ASSERT(lo_hit[i]);
      if (d.hi) RC_ASSERT(hi_hit[i]);
    }
  }
}

}  // namespace
}  // namespace dmconf
