// Shape-inference verdicts (harness/compare/shape_judge.h) on hand-derived cases, and the
// shape lane end to end: a backend answering with the oracle passes every shape case, through
// the worker too; answers that are wrong in known ways get their verdicts.
#include "harness/compare/shape_judge.h"

#include <limits>

#include "gtest/gtest.h"
#include "harness/backends/oracle/oracle_backend.h"
#include "harness/runner/runner.h"
#include "harness/runner/shape_lane.h"
#include "harness/suites/catalogue.h"

namespace dmconf {
namespace {

ShapeOutcome Answer(PartialShape s, ElementType t = ElementType::kF32) {
  ShapeOutcome o;
  o.shape = std::move(s);
  o.type = t;
  return o;
}

ShapeOutcome Refusal() {
  ShapeOutcome o;
  o.kind = ShapeOutcome::Kind::kRejected;
  o.message = "no";
  return o;
}

Verdict Judge(const PartialCase& c, const ShapeOutcome& a) {
  absl::StatusOr<PartialResult> o = OracleShapeAnswer(c);
  EXPECT_TRUE(o.ok()) << o.status();
  return JudgeShapeAnswer(c, *o, a).verdict;
}

// DepthToSpace, blocks_first, block 2, data [1, 8, 2, 3] f32. The spec: output
// [N, C / b^K, D1 * b, D2 * b] with K = 2: [1, 8 / 4, 4, 6] = [1, 2, 4, 6].
PartialCase StaticD2s(int64_t depth) {
  PartialCase c;
  c.op = Op::kDepthToSpace;
  c.data = PartialShape::Of({Dim::Exact(1), Dim::Exact(depth), Dim::Exact(2), Dim::Exact(3)});
  c.block_size = 2;
  c.mode = "blocks_first";
  return c;
}

TEST(ShapeJudge, StaticVerdicts) {
  const PartialCase c = StaticD2s(8);
  ASSERT_TRUE(c.IsStatic());
  const PartialShape right = PartialShape::Static({1, 2, 4, 6});
  EXPECT_EQ(Judge(c, Answer(right)), Verdict::kPass);
  EXPECT_EQ(Judge(c, Answer(PartialShape::Static({1, 2, 4, 7}))), Verdict::kWrongShape);
  EXPECT_EQ(Judge(c, Answer(PartialShape::Static({1, 2, 4}))), Verdict::kWrongShape);
  EXPECT_EQ(Judge(c, Answer(right, ElementType::kI64)), Verdict::kWrongType);
  EXPECT_EQ(Judge(c, Refusal()), Verdict::kFalseReject);
  // Depth 6 is not divisible by b^K = 4: d2s.block_size.divides, must_reject.
  const PartialCase bad = StaticD2s(6);
  EXPECT_EQ(Judge(bad, Answer(PartialShape::Static({1, 1, 4, 6}))), Verdict::kFalseAccept);
  EXPECT_EQ(Judge(bad, Refusal()), Verdict::kPass);
}

TEST(ShapeJudge, StaticDimsNearTheInt64Limit) {
  // SpaceToDepth, block 2, data [1, 2^62, 0, 0] (no element): output channels 2^62 * 2^2 =
  // 2^64 > 2^63-1, so s2d.output.representable rejects it; an answer whose channel count
  // wrapped (to 0) is a false accept.
  PartialCase c;
  c.op = Op::kSpaceToDepth;
  c.data =
      PartialShape::Of({Dim::Exact(1), Dim::Exact(int64_t{1} << 62), Dim::Exact(0), Dim::Exact(0)});
  c.block_size = 2;
  c.mode = "blocks_first";
  EXPECT_EQ(Judge(c, Answer(PartialShape::Static({1, 0, 0, 0}))), Verdict::kFalseAccept);
  EXPECT_EQ(Judge(c, Refusal()), Verdict::kPass);
}

// DepthToSpace, block 2, data [1, [8, 20], [3, inf)] (K = 1): depth [ceil(8/2), floor(20/2)] =
// [4, 10], spatial [3 * 2, inf) = [6, inf): [1, [4, 10], [6, inf)].
PartialCase PartialD2s() {
  PartialCase c;
  c.op = Op::kDepthToSpace;
  c.data = PartialShape::Of({Dim::Exact(1), Dim::Range(8, 20), Dim::AtLeast(3)});
  c.block_size = 2;
  c.mode = "blocks_first";
  return c;
}

TEST(ShapeJudge, PartialSoundnessAndTightness) {
  const PartialCase c = PartialD2s();
  ASSERT_FALSE(c.IsStatic());
  auto shape = [](Dim a, Dim b, Dim d) { return PartialShape::Of({a, b, d}); };
  EXPECT_EQ(Judge(c, Answer(shape(Dim::Exact(1), Dim::Range(4, 10), Dim::AtLeast(6)))),
            Verdict::kPass);
  // Wider at a finite bound of the oracle's answer: sound, loose.
  EXPECT_EQ(Judge(c, Answer(shape(Dim::Exact(1), Dim::Range(4, 10), Dim::Any()))),
            Verdict::kLooseShape);
  EXPECT_EQ(Judge(c, Answer(shape(Dim::Exact(1), Dim::AtLeast(0), Dim::AtLeast(6)))),
            Verdict::kLooseShape);
  EXPECT_EQ(Judge(c, Answer(PartialShape::DynamicRank())), Verdict::kLooseShape);
  // Narrower: depth 8 (C = 16 -> 16 / 2 = 8 is reached) ... the lower bound 5 leaves out
  // C = 8 (output 4), the upper bound 9 leaves out C = 20 (output 10).
  EXPECT_EQ(Judge(c, Answer(shape(Dim::Exact(1), Dim::Range(5, 10), Dim::AtLeast(6)))),
            Verdict::kUnsoundShape);
  EXPECT_EQ(Judge(c, Answer(shape(Dim::Exact(1), Dim::Range(4, 9), Dim::AtLeast(6)))),
            Verdict::kUnsoundShape);
  // A bounded answer where outputs are unbounded, another rank, a refusal: unsound.
  EXPECT_EQ(Judge(c, Answer(shape(Dim::Exact(1), Dim::Range(4, 10), Dim::Range(6, 1000)))),
            Verdict::kUnsoundShape);
  EXPECT_EQ(Judge(c, Answer(PartialShape::Of({Dim::Any(), Dim::Any(), Dim::Any(), Dim::Any()}))),
            Verdict::kUnsoundShape);
  EXPECT_EQ(Judge(c, Refusal()), Verdict::kUnsoundShape);
  // Unknown input rank: the output rank is unknown too; rank 4 leaves out rank-3 instances.
  PartialCase u = c;
  u.data = PartialShape::DynamicRank();
  EXPECT_EQ(Judge(u, Answer(PartialShape::DynamicRank())), Verdict::kPass);
  EXPECT_EQ(Judge(u, Answer(PartialShape::Of({Dim::Any(), Dim::Any(), Dim::Any(), Dim::Any()}))),
            Verdict::kUnsoundShape);
}

ShapeJudgement JudgeFull(const PartialCase& c, const ShapeOutcome& a) {
  absl::StatusOr<PartialResult> o = OracleShapeAnswer(c);
  EXPECT_TRUE(o.ok()) << o.status();
  return JudgeShapeAnswer(c, *o, a);
}

constexpr int64_t kSMax = 9223372036854775807;  // 2^63-1, OpenVINO's Interval::s_max

// Soundness is over real instances: every input and output dim at most 2^63-1, outputs above
// 2^63-1 elements rejected (ERRATA D4). 2^63-1 in an answer means "unbounded".
TEST(ShapeJudge, UnboundedDimsAreJudgedOverRealInstances) {
  // DepthToSpace, block 2, K = 1, data [1, [8, inf), 3]: output [1, [4, inf), 6].
  PartialCase c;
  c.op = Op::kDepthToSpace;
  c.data = PartialShape::Of({Dim::Exact(1), Dim::AtLeast(8), Dim::Exact(3)});
  c.block_size = 2;
  c.mode = "blocks_first";
  auto depth = [](Dim d) { return PartialShape::Of({Dim::Exact(1), d, Dim::Exact(6)}); };
  // s_max as the upper bound: unbounded, pass.
  EXPECT_EQ(Judge(c, Answer(depth(Dim::Range(4, kSMax)))), Verdict::kPass);
  // OpenVINO's [a, inf) / 2 = [ceil(8 / 2), floor((2^63-1) / 2)] = [4, 4611686018427387903]:
  // C <= 2^63-1 gives C / 2 <= that, so it holds every instance; neither unsound nor loose.
  EXPECT_EQ(Judge(c, Answer(depth(Dim::Range(4, 4611686018427387903)))), Verdict::kPass);
  // The largest accepted depth: C / 2 * 6 elements <= 2^63-1, so C / 2 <= floor((2^63-1) / 6)
  // = 1537228672809129301 (times 6: 9223372036854775806). An answer with that bound is sound.
  EXPECT_EQ(Judge(c, Answer(depth(Dim::Range(4, 1537228672809129301)))), Verdict::kPass);
  // One less leaves out C = 2 * 1537228672809129301 = 3074457345618258602: unsound, and the
  // verdict names that instance, never "inf".
  const ShapeJudgement j = JudgeFull(c, Answer(depth(Dim::Range(4, 1537228672809129300))));
  EXPECT_EQ(j.verdict, Verdict::kUnsoundShape);
  EXPECT_NE(j.detail.find("data [1,3074457345618258602,3]"), std::string::npos) << j.detail;
  EXPECT_NE(j.detail.find("output [1,1537228672809129301,6]"), std::string::npos) << j.detail;
  EXPECT_EQ(j.detail.find("inf"), std::string::npos) << j.detail;
  // A lower bound too high names the smallest instance: C = 8, output [1, 4, 6].
  const ShapeJudgement lo = JudgeFull(c, Answer(depth(Dim::Range(5, kSMax))));
  EXPECT_EQ(lo.verdict, Verdict::kUnsoundShape);
  EXPECT_NE(lo.detail.find("data [1,8,3]: output [1,4,6]"), std::string::npos) << lo.detail;
  // A refusal names an accepted instance too.
  const ShapeJudgement no = JudgeFull(c, Refusal());
  EXPECT_EQ(no.verdict, Verdict::kUnsoundShape);
  EXPECT_NE(no.detail.find("data [1,8,3]"), std::string::npos) << no.detail;
  // A refusal's witness: an accepted instance, [1, 8 / 2, 3 * 2] = [1, 4, 6].
  ASSERT_TRUE(no.witness.has_value());
  EXPECT_EQ(no.witness->c.data.shape, (Shape{1, 8, 3}));
  EXPECT_EQ(no.witness->output, (Shape{1, 4, 6}));
}

// DepthToSpace, block 2, K = 1, data [1, [8, inf), [1, inf)]: output [1, [4, inf), [2, inf)].
// The answer [1, [4, 2^63-2], [2, 20]] is finite in dim 1 where the oracle is unbounded, but
// holds every instance there (C / 2 * 2 * D <= 2^63-1 gives C / 2 <= 2^62); it leaves out
// dim 2 from D = 11 on. The instance found proves dim 2, and the detail says dim 2, not the
// suspicion about dim 1 that led to the search.
TEST(ShapeJudge, UnsoundDetailNamesTheDimTheInstanceBreaks) {
  PartialCase c;
  c.op = Op::kDepthToSpace;
  c.data = PartialShape::Of({Dim::Exact(1), Dim::AtLeast(8), Dim::AtLeast(1)});
  c.block_size = 2;
  c.mode = "blocks_first";
  const ShapeJudgement j = JudgeFull(
      c, Answer(PartialShape::Of({Dim::Exact(1), Dim::Range(4, kSMax - 1), Dim::Range(2, 20)})));
  EXPECT_EQ(j.verdict, Verdict::kUnsoundShape);
  EXPECT_NE(j.detail.find("(dim 2: the instance's output has "), std::string::npos) << j.detail;
  EXPECT_NE(j.detail.find(", outside the answer's [2,20])"), std::string::npos) << j.detail;
  EXPECT_EQ(j.detail.find("dim 1"), std::string::npos) << j.detail;
}

// SpaceToBatch, data [1, 9], block_shape [1, 4], pads_begin [0, 0], pads_end not constant
// (shape [2]): the padded dim 9 + p is divisible by 4 from p = 3 on, so the output is
// [4, [3, inf)]: batch 1 * 4, (9 + p) / 4 >= 3.
TEST(ShapeJudge, WitnessesChooseNonConstantInputs) {
  PartialCase c;
  c.op = Op::kSpaceToBatch;
  c.data = PartialShape::Of({Dim::Exact(1), Dim::Exact(9)});
  c.int_inputs[0] = *MakeIntegerTensor(ElementType::kI64, {1, 4});
  c.int_inputs[1] = *MakeIntegerTensor(ElementType::kI64, {0, 0});
  c.int_shapes[2] = PartialShape::Of({Dim::Exact(2)});
  // A plugin that takes the pads as 0 refuses (9 is not divisible by 4): the instance with
  // pads_end [0, 3] gives [4, 3].
  const ShapeJudgement no = JudgeFull(c, Refusal());
  EXPECT_EQ(no.verdict, Verdict::kUnsoundShape);
  EXPECT_NE(no.detail.find("data [1,9], pads_end [0,3] (not constant): output [4,3]"),
            std::string::npos)
      << no.detail;
  // Its witness: [1 * 4, (9 + 0 + 3) / 4] = [4, 3].
  ASSERT_TRUE(no.witness.has_value());
  EXPECT_EQ(no.witness->output, (Shape{4, 3}));
  // The padded dim is at most 2^63-1, so (9 + p) / 4 <= floor((2^63-1) / 4) =
  // 2305843009213693951, reached at p = 4 * 2305843009213693951 - 9 = 9223372036854775795
  // (4 * 2305843009213693951 = 9223372036854775804 elements: representable). OpenVINO's
  // [3, inf) / ... bound there is sound; one less is not, and names that instance.
  auto spatial = [](Dim d) { return PartialShape::Of({Dim::Exact(4), d}); };
  EXPECT_EQ(Judge(c, Answer(spatial(Dim::Range(3, 2305843009213693951)))), Verdict::kPass);
  const ShapeJudgement j = JudgeFull(c, Answer(spatial(Dim::Range(3, 2305843009213693950))));
  EXPECT_EQ(j.verdict, Verdict::kUnsoundShape);
  EXPECT_NE(j.detail.find("pads_end [0,9223372036854775795] (not constant): output "
                          "[4,2305843009213693951]"),
            std::string::npos)
      << j.detail;
}

// BatchToSpace, u8, block_shape not constant (shape [3]), crops 0: the oracle's per-dim bound
// of dim 1 is 2^63-1 where D_1 * bmax overflows (docs/errata-partial.md D-P6), but no accepted
// instance need reach it. Without an instance outside the answer there is no failure.
PartialCase B2sOpenBlock(int64_t batch, int64_t d1) {
  PartialCase c;
  c.op = Op::kBatchToSpace;
  c.type = ElementType::kU8;
  c.data = PartialShape::Of({Dim::Exact(batch), Dim::Exact(d1), Dim::Exact(0)});
  c.int_shapes[0] = PartialShape::Of({Dim::Exact(3)});
  c.int_inputs[1] = *MakeIntegerTensor(ElementType::kI64, {0, 0, 0});
  c.int_inputs[2] = *MakeIntegerTensor(ElementType::kI64, {0, 0, 0});
  return c;
}

// The oracle's answer with dim 1 replaced by [lo, hi].
ShapeOutcome OracleWithDim1(const PartialCase& c, int64_t lo, int64_t hi) {
  absl::StatusOr<PartialResult> o = OracleShapeAnswer(c);
  std::vector<Dim> dims;
  if (o.ok() && o->output.dims) dims = *o->output.dims;
  EXPECT_EQ(dims.size(), 3u) << (o.ok() ? o->output.ToString() : o.status().ToString());
  dims.resize(3, Dim::Exact(0));
  dims[1] = Dim::Range(lo, hi);
  return Answer(PartialShape::Of(dims), c.type);
}

TEST(ShapeJudge, NoUnsoundShapeWithoutAnInstanceOutsideTheAnswer) {
  // Data [4, 2^61, 0]: block [1,1,1] gives dim 1 = 2^61, [1,2,1] and [1,2,2] give 2^62,
  // [1,4,1] gives 2^63 (must_reject, b2s.output.representable), [1,3,1] does not divide 4.
  // The largest accepted dim 1 is 2^62: [0, 3 * 2^61] is sound.
  const int64_t two61 = int64_t{1} << 61;
  const PartialCase c = B2sOpenBlock(4, two61);
  const ShapeJudgement sound = JudgeFull(c, OracleWithDim1(c, 0, 3 * two61));
  EXPECT_NE(sound.verdict, Verdict::kUnsoundShape) << sound.detail;
  EXPECT_FALSE(IsFailure(sound.verdict, {})) << sound.detail;
  // One below 2^62 is unsound, and the failure names the instance that proves it.
  const ShapeJudgement tight = JudgeFull(c, OracleWithDim1(c, 0, 2 * two61 - 1));
  EXPECT_EQ(tight.verdict, Verdict::kUnsoundShape) << tight.detail;
  EXPECT_NE(
      tight.detail.find("block_shape [1,2,1] (not constant): output [2,4611686018427387904,0]"),
      std::string::npos)
      << tight.detail;
  // The witness itself, as the report carries it: data [4, 2^61, 0], block [1,2,1] (batch 4 / 2
  // = 2, dim 1 2^61 * 2 = 2^62, dim 2 0 * 1), by hand from the spec's formulas.
  ASSERT_TRUE(tight.witness.has_value());
  EXPECT_EQ(tight.witness->c.data.shape, (Shape{4, two61, 0}));
  EXPECT_EQ(tight.witness->output, (Shape{2, 2 * two61, 0}));
  EXPECT_FALSE(sound.witness.has_value());

  // Data [2^62 - 2, 4, 0]: 2^62 - 2 = 2 * (2^62 - 1) = 2 * 3 * 715827883 * 2147483647, so the
  // largest divisor B_1 with 4 * B_1 <= 2^63-1 is (2^62 - 2) / 2 = 2305843009213693951: dim 1
  // reaches 9223372036854775804, the largest multiple of 4 below 2^63, never 2^63-1.
  const PartialCase d = B2sOpenBlock(4611686018427387902, 4);
  const ShapeJudgement largest = JudgeFull(d, OracleWithDim1(d, 0, 9223372036854775804));
  EXPECT_NE(largest.verdict, Verdict::kUnsoundShape) << largest.detail;
  EXPECT_FALSE(IsFailure(largest.verdict, {})) << largest.detail;
  const ShapeJudgement below = JudgeFull(d, OracleWithDim1(d, 0, 9223372036854775803));
  EXPECT_EQ(below.verdict, Verdict::kUnsoundShape) << below.detail;
  EXPECT_NE(below.detail.find("output [2,9223372036854775804,0]"), std::string::npos)
      << below.detail;
}

TEST(ShapeJudge, ClampedBoundsAcceptSMaxAsUnbounded) {
  // SpaceToDepth, block 2, K = 1, data [1, [1, inf), 4]: output [1, [2, inf), 2]. OpenVINO's
  // product of an unbounded dim stays unbounded: s_max, pass.
  PartialCase c;
  c.op = Op::kSpaceToDepth;
  c.data = PartialShape::Of({Dim::Exact(1), Dim::AtLeast(1), Dim::Exact(4)});
  c.block_size = 2;
  c.mode = "blocks_first";
  EXPECT_EQ(
      Judge(c, Answer(PartialShape::Of({Dim::Exact(1), Dim::Range(2, kSMax), Dim::Exact(2)}))),
      Verdict::kPass);
  // Depth [1, 2^63-2]: the oracle clamps C * 2 to the largest representable multiple of 2,
  // 2^63-2 (D-P9); s_max above it is no looser than that: no instance reaches 2^63-1.
  c.data = PartialShape::Of({Dim::Exact(1), Dim::Range(1, kSMax - 1), Dim::Exact(4)});
  EXPECT_EQ(
      Judge(c, Answer(PartialShape::Of({Dim::Exact(1), Dim::Range(2, kSMax), Dim::Exact(2)}))),
      Verdict::kPass);
  // A finite input bound that is reached stays a bound: depth [1, 10] gives [2, 20], and
  // s_max there is loose.
  c.data = PartialShape::Of({Dim::Exact(1), Dim::Range(1, 10), Dim::Exact(4)});
  EXPECT_EQ(
      Judge(c, Answer(PartialShape::Of({Dim::Exact(1), Dim::Range(2, kSMax), Dim::Exact(2)}))),
      Verdict::kLooseShape);
}

TEST(ShapeJudge, PartialMustRejectAndLooseIsNoFailureByDefault) {
  // SpaceToDepth, block 3, spatial dim in [4, 5]: no multiple of 3 -> every instance breaks
  // s2d.block_size.divides.
  PartialCase c;
  c.op = Op::kSpaceToDepth;
  c.data = PartialShape::Of({Dim::Exact(1), Dim::Exact(1), Dim::Range(4, 5)});
  c.block_size = 3;
  c.mode = "blocks_first";
  EXPECT_EQ(Judge(c, Refusal()), Verdict::kPass);
  EXPECT_EQ(Judge(c, Answer(PartialShape::Of({Dim::Exact(1), Dim::Exact(3), Dim::Any()}))),
            Verdict::kFalseAccept);
  EXPECT_FALSE(IsFailure(Verdict::kLooseShape, {}));
  StrictnessOptions strict;
  strict.strict_shapes = true;
  EXPECT_TRUE(IsFailure(Verdict::kLooseShape, strict));
  EXPECT_TRUE(IsFailure(Verdict::kUnsoundShape, {}));
}

// A backend whose partial inference drops every upper bound (sound, loose) and whose static
// inference adds one to the last dim (wrong_shape).
class SloppyBackend : public Backend {
 public:
  std::string Name() const override { return "sloppy"; }
  Capabilities GetCapabilities() const override {
    Capabilities caps = SupportEverything();
    caps.infer_static = caps.infer_partial = true;
    return caps;
  }
  RunOutcome Run(const OpCase&) override {
    RunOutcome o;
    o.kind = RunOutcome::Kind::kUnsupported;
    return o;
  }
  ShapeOutcome InferStatic(const PartialCase& c) override {
    ShapeOutcome o = oracle_->InferStatic(c);
    if (o.kind == ShapeOutcome::Kind::kOutput && o.shape.dims && !o.shape.dims->empty()) {
      Dim& last = o.shape.dims->back();
      // One off (one less at 2^63 - 1, where one more is not a dim).
      last = Dim::Exact(last.lo < std::numeric_limits<int64_t>::max() ? last.lo + 1 : last.lo - 1);
    }
    return o;
  }
  ShapeOutcome InferPartial(const PartialCase& c) override {
    ShapeOutcome o = oracle_->InferPartial(c);
    if (o.kind == ShapeOutcome::Kind::kOutput && o.shape.dims) {
      for (Dim& d : *o.shape.dims) d.hi.reset();
    }
    return o;
  }

 private:
  std::unique_ptr<Backend> oracle_ = MakeOracleBackend();
};

std::vector<PreparedShapeCase> LaneCases() {
  CatalogueOptions co;
  co.sweep_count = 20;
  ShapeLaneOptions so;
  so.seed = 3;
  so.count = 60;
  return PrepareShapeCases(BuildShapeCases(BuildCatalogue(co), so));
}

// The widened cases made in threads (`dmconf run --jobs`) are those made in one: the same ids,
// in the same order, asking the same question (attributes and partial inputs as written).
TEST(ShapeLane, CasesMadeInThreadsAreTheSameCases) {
  CatalogueOptions co;
  co.sweep_count = 300;
  const std::vector<OpCase> catalogue = BuildCatalogue(co);
  ShapeLaneOptions one;
  one.seed = 4;
  ShapeLaneOptions three = one;
  three.threads = 3;
  const std::vector<ShapeCase> a = BuildShapeCases(catalogue, one);
  const std::vector<ShapeCase> b = BuildShapeCases(catalogue, three);
  ASSERT_EQ(a.size(), b.size());
  ASSERT_GT(a.size(), catalogue.size() / 2);
  for (size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(a[i].id, b[i].id) << i;
    EXPECT_EQ(InvocationText(DescribeShapeInvocation(a[i].c)),
              InvocationText(DescribeShapeInvocation(b[i].c)))
        << a[i].id;
  }
}

TEST(ShapeLane, TheOracleAsABackendPassesEveryShapeCaseThroughTheWorker) {
  const std::vector<PreparedShapeCase> shapes = LaneCases();
  RunOptions o;
  o.timeout_seconds = 20;
  const ShapeCaseList shape_list(shapes);
  o.shape_cases = &shape_list;
  BackendRun r = RunBackend(
      "oracle", [] { return absl::StatusOr<std::unique_ptr<Backend>>(MakeOracleBackend()); },
      CaseList{}, o);
  ASSERT_EQ(r.results.size(), shapes.size());
  int statics = 0, partials = 0;
  for (const CaseResult& c : r.results) {
    EXPECT_FALSE(IsFailure(c.verdict, {})) << c.id << ": " << c.detail;
    EXPECT_NE(c.verdict, Verdict::kLooseShape) << c.id;
    statics += c.lane == CaseLane::kShapeStatic;
    partials += c.lane == CaseLane::kShapePartial;
  }
  EXPECT_GT(statics, 20);
  EXPECT_GT(partials, 60);
}

TEST(ShapeLane, WrongAnswersGetTheirVerdicts) {
  const std::vector<PreparedShapeCase> shapes = LaneCases();
  RunOptions o;
  o.isolate = false;
  const ShapeCaseList shape_list(shapes);
  o.shape_cases = &shape_list;
  BackendRun r = RunBackend(
      "sloppy",
      [] { return absl::StatusOr<std::unique_ptr<Backend>>(std::make_unique<SloppyBackend>()); },
      CaseList{}, o);
  std::map<Verdict, int> n;
  for (const CaseResult& c : r.results) {
    ++n[c.verdict];
    // Loose answers are counted, never failures; static answers one too large are.
    if (c.verdict == Verdict::kLooseShape) {
      EXPECT_FALSE(c.failure);
    }
    if (c.verdict == Verdict::kWrongShape) {
      EXPECT_EQ(c.lane, CaseLane::kShapeStatic);
      EXPECT_TRUE(c.failure);
    }
    EXPECT_NE(c.verdict, Verdict::kUnsoundShape) << c.id << ": " << c.detail;
  }
  EXPECT_GT(n[Verdict::kWrongShape], 5);
  EXPECT_GT(n[Verdict::kLooseShape], 5);
}

}  // namespace
}  // namespace dmconf
