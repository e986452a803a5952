// Shape-case shrinking (harness/shrink/shrink_shape.h) on an in-process backend with a seeded
// shape-inference bug, against hand-derived minimal cases, and the order it descends; the
// threshold search of crashes and hangs (harness/shrink/threshold.h) on hand predicates.
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "harness/runner/runner.h"
#include "harness/runner/shape_lane.h"
#include "harness/shrink/shrink_shape.h"
#include "harness/shrink/threshold.h"
#include "oracle/tensor.h"

namespace dmconf {
namespace {

// Static shape inference that is the oracle's, except that SpaceToDepth with block_size > 2
// answers its depth (dim 1) one too large: a wrong_shape on every valid such case.
class DepthPlusOneAboveTwo : public Backend {
 public:
  std::string Name() const override { return "depth-plus-one"; }
  Capabilities GetCapabilities() const override {
    Capabilities caps = SupportEverything();
    caps.infer_static = true;
    return caps;
  }
  RunOutcome Run(const OpCase&) override {
    return RunOutcome::Of(RunOutcome::Kind::kUnsupported, "shape inference only");
  }
  ShapeOutcome InferStatic(const PartialCase& c) override {
    ShapeOutcome o = OracleShapeOutcome(c);
    if (c.op == Op::kSpaceToDepth && c.block_size.value_or(1) > 2 &&
        o.kind == ShapeOutcome::Kind::kOutput && o.shape.dims && o.shape.dims->size() > 1) {
      Dim& d = (*o.shape.dims)[1];
      d = Dim::Exact(d.lo + 1);
    }
    return o;
  }
};

// u8 data of `shape` holding 1, 2, 3, ... (the values do not matter to a threshold).
Tensor PositionalTensorForTest(const Shape& shape) {
  Tensor t = *Tensor::Zeros(ElementType::kU8, shape);
  for (int64_t i = 0; i < t.NumElements(); ++i) t.SetBits(i, static_cast<uint64_t>(i + 1) % 251);
  return t;
}

std::vector<int64_t> Ints(const Tensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(t.GetInteger(i).value_or(-1));
  return v;
}

PreparedShapeCase Prepared(const PartialCase& c) {
  std::vector<PreparedShapeCase> p = PrepareShapeCases({ShapeCase{"hand/s2d", c, "hand"}});
  EXPECT_EQ(p.size(), 1u);
  return p.empty() ? PreparedShapeCase{} : p[0];
}

TEST(ShrinkShape, WrongShapeShrinksToTheSmallestBlockThatStillFails) {
  // SpaceToDepth f32 [2, 3, 16, 24], block 8: the oracle answers [2, 192, 2, 3], the backend
  // [2, 193, 2, 3]. By hand: the smallest case that keeps wrong_shape in shape_static is rank 3
  // (the op's least), every dim 0 (divisible by any block), block_size 3 (2 and 1 answer
  // right), element type u8 (the simplest), mode kept.
  PartialCase c;
  c.op = Op::kSpaceToDepth;
  c.type = ElementType::kF32;
  c.data = PartialShape::Static({2, 3, 16, 24});
  c.block_size = 8;
  c.mode = "blocks_first";
  DepthPlusOneAboveTwo backend;
  const Capabilities caps = backend.GetCapabilities();
  RunOptions ro;
  ro.isolate = false;
  const PreparedShapeCase p = Prepared(c);
  const CaseResult failure = RunShapeCase(backend, "b", caps, p, ro);
  ASSERT_EQ(failure.verdict, Verdict::kWrongShape) << failure.detail;
  ASSERT_EQ(failure.lane, CaseLane::kShapeStatic);

  const ShrunkShapeCase s = ShrinkShapeFailure(backend, "b", caps, p, failure, ro, {});
  EXPECT_FALSE(s.stats.budget_exhausted);
  EXPECT_EQ(s.result.verdict, Verdict::kWrongShape) << s.result.detail;
  EXPECT_EQ(s.result.lane, CaseLane::kShapeStatic);
  const PartialCase& m = s.minimal.s.c;
  EXPECT_EQ(PartialShapeText(m.data), "0,0,0");
  EXPECT_EQ(m.block_size, 3);
  EXPECT_EQ(m.type, ElementType::kU8);
  EXPECT_EQ(m.mode, "blocks_first");
  EXPECT_EQ(s.minimal.s.id, "hand/s2d.min");
  // The provenance names the verdict and lane kept, in words.
  EXPECT_NE(s.minimal.s.origin.find("keeping wrong_shape in shape_static"), std::string::npos)
      << s.minimal.s.origin;
  EXPECT_EQ(ShrunkShapeInfo(s).case_text, "block_size=3 mode=blocks_first; data u8 0,0,0");
}

TEST(ShrinkShape, NegativeCaseKeepsItsRule) {
  // SpaceToDepth [1, 4, 5, 6] with block 2 must be refused (5 is not divisible by 2); a
  // backend that accepts it (false_accept) must shrink to a case refused by the same rule,
  // never to a valid one (which it would answer right, or wrongly: another verdict).
  PartialCase c;
  c.op = Op::kSpaceToDepth;
  c.data = PartialShape::Static({1, 4, 5, 6});
  c.block_size = 2;
  c.mode = "blocks_first";
  class AcceptsAll : public DepthPlusOneAboveTwo {
    ShapeOutcome InferStatic(const PartialCase& x) override {
      ShapeOutcome o;
      o.shape = x.data;
      o.type = x.type;
      return o;
    }
  } backend;
  const Capabilities caps = backend.GetCapabilities();
  RunOptions ro;
  ro.isolate = false;
  const PreparedShapeCase p = Prepared(c);
  const CaseResult failure = RunShapeCase(backend, "b", caps, p, ro);
  ASSERT_EQ(failure.verdict, Verdict::kFalseAccept) << failure.detail;
  const ShrunkShapeCase s = ShrinkShapeFailure(backend, "b", caps, p, failure, ro, {});
  EXPECT_EQ(s.result.verdict, Verdict::kFalseAccept);
  EXPECT_EQ(s.result.expected, ExpectedClass::kMustReject);
  EXPECT_EQ(s.result.rule, failure.rule);
  EXPECT_TRUE(ShapeSmaller(s.minimal.s.c, c));
  // The minimal case still breaks the rule: some spatial dim is odd.
  bool odd = false;
  for (size_t i = 2; i < s.minimal.s.c.data.dims->size(); ++i) {
    odd = odd || (*s.minimal.s.c.data.dims)[i].lo % 2 != 0;
  }
  EXPECT_TRUE(odd) << PartialShapeText(s.minimal.s.c.data);
}

TEST(ShrinkShape, SmallerOrdersKnownRankThenUnknownsThenBounds) {
  PartialCase unknown;
  unknown.op = Op::kDepthToSpace;
  unknown.data = PartialShape::DynamicRank();
  PartialCase known = unknown;
  known.data = PartialShape::Of({Dim::Any(), Dim::Any(), Dim::Any(), Dim::Any()});
  PartialCase exact = unknown;
  exact.data = PartialShape::Static({9, 9, 9, 9});
  PartialCase interval = unknown;
  interval.data = PartialShape::Of({Dim::Range(1, 2), Dim::Exact(1), Dim::Exact(1), Dim::Exact(1)});
  EXPECT_TRUE(ShapeSmaller(known, unknown));    // a known rank before an unknown one
  EXPECT_TRUE(ShapeSmaller(exact, known));      // fewer unknowns, whatever the sizes
  EXPECT_TRUE(ShapeSmaller(interval, known));   // one unknown against four
  EXPECT_FALSE(ShapeSmaller(interval, exact));  // an unknown more
  EXPECT_FALSE(ShapeSmaller(unknown, unknown));
}

// Thresholds (harness/shrink/threshold.h) against a hand predicate: the "backend" fails when
// the knob is at or above a threshold the test sets, and passes below.
TEST(Threshold, BisectionFindsABlockSizeThresholdInFewAttempts) {
  // DepthToSpace [1, 3658, 1] (K = 1: the depth 3658 divisible by the block), block 3658; it
  // "hangs" for block_size > 4. By hand: fails from 5, passes at 4, in about log2(3658) = 12
  // bisection attempts.
  OpCase c;
  c.op = Op::kDepthToSpace;
  c.data = PositionalTensorForTest({1, 3658, 1});
  c.block_size = 3658;
  c.mode = "blocks_first";
  const auto fails = [](const OpCase& x) { return x.block_size.value_or(1) > 4; };
  ShrinkStats stats;
  const OpCase b = BisectKnobs(
      c, fails, [] { return false; }, &stats);
  EXPECT_EQ(b.block_size, 5);
  EXPECT_EQ(b.data.shape[1] % 5, 0);
  EXPECT_LE(stats.attempts, 16);
  const std::vector<CaseResult::Shrunk::Threshold> t =
      Thresholds(b, [&](const OpCase& x) { return fails(x) ? Verdict::kHang : Verdict::kPass; });
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].what, "block_size");
  EXPECT_EQ(t[0].fails_from, 5);
  EXPECT_EQ(t[0].passes_at, 4);
}

TEST(Threshold, RankThresholdAndNoneWhereTheLowerValueFailsOtherwise) {
  // SpaceToBatch of rank 8, block_shape ones: "crashes" at rank >= 6. Fails from rank 6,
  // passes at 5; when rank 5 gives another failure instead of a pass, nothing is named.
  OpCase c;
  c.op = Op::kSpaceToBatch;
  c.data = PositionalTensorForTest({1, 2, 1, 2, 1, 2, 1, 2});
  for (int k = 0; k < 3; ++k) {
    c.int_inputs.push_back(
        *MakeIntegerTensor(ElementType::kI64, std::vector<int64_t>(8, k == 0 ? 1 : 0)));
  }
  const auto fails = [](const OpCase& x) { return x.data.shape.size() >= 6; };
  ShrinkStats stats;
  const OpCase b = BisectKnobs(
      c, fails, [] { return false; }, &stats);
  EXPECT_EQ(b.data.shape.size(), 6u);
  EXPECT_EQ(Ints(b.int_inputs[0]).size(), 6u);
  const auto crash_or_pass = [&](const OpCase& x) {
    return fails(x) ? Verdict::kCrash : Verdict::kPass;
  };
  const std::vector<CaseResult::Shrunk::Threshold> t = Thresholds(b, crash_or_pass);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].what, "rank");
  EXPECT_EQ(t[0].fails_from, 6);
  EXPECT_EQ(t[0].passes_at, 5);
  EXPECT_TRUE(Thresholds(b, [&](const OpCase& x) {
                return fails(x) ? Verdict::kCrash : Verdict::kWrongValues;
              }).empty());
}

TEST(Threshold, AHangsAttemptTakesTheTimeout) {
  EXPECT_EQ(HangAttemptSeconds(Verdict::kHang, 3), 3.0);
  EXPECT_EQ(HangAttemptSeconds(Verdict::kCrash, 3), 0.0);
}

// Thresholds stop asking once the budget says no more: none is tried.
TEST(Threshold, ThresholdsStopAtTheBudget) {
  OpCase c;
  c.op = Op::kDepthToSpace;
  c.data = PositionalTensorForTest({1, 36, 2, 2});
  c.block_size = 3;
  c.mode = "blocks_first";
  int asked = 0;
  const auto verdict_of = [&](const OpCase&) {
    ++asked;
    return Verdict::kPass;
  };
  EXPECT_FALSE(Thresholds(c, verdict_of).empty());
  const int unbounded = asked;
  asked = 0;
  EXPECT_TRUE(Thresholds(c, verdict_of, [] { return true; }).empty());
  EXPECT_EQ(asked, 0);
  EXPECT_GT(unbounded, 0);
}

}  // namespace
}  // namespace dmconf
