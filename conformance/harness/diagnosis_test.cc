// What a diagnosis may claim (harness/compare/diagnosis.h), on hand-built wrong outputs: a
// mistake is named only when the case's data and shape tell it apart from every other
// explanation. An empty output names nothing; data that do not identify positions (1-bit data,
// a period-6 fill) give a list of consistent explanations, not a name; self-identifying data
// name the mistake.
#include "harness/compare/diagnosis.h"

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "harness/compare/mistakes.h"
#include "harness/compare/shape_terms.h"
#include "harness/suites/curated.h"
#include "oracle/case_factory.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

Tensor Expected(const OpCase& c) {
  absl::StatusOr<Expectation> e = Evaluate(c);
  EXPECT_TRUE(e.ok() && e->kind == ExpectationKind::kValid && e->output.has_value()) << c.id;
  return *e->output;
}

Tensor ModelOutput(const char* mistake, const OpCase& c) {
  const Mistake* m = FindMistake(mistake);
  EXPECT_NE(m, nullptr) << mistake;
  EXPECT_TRUE(m->applies(c)) << mistake;
  absl::StatusOr<Tensor> t = m->apply(c);
  EXPECT_TRUE(t.ok()) << t.status();
  return *t;
}

// ExtractImagePatches of data [1, 1, 0, 5] (no rows), sizes [1, 2], strides [1, 1], rates
// [1, 2], valid. Columns: the spec's effective size is 2 * (2 - 1) + 1 = 3, so
// (5 - 3) / 1 + 1 = 3 columns: [1, 2, 0, 3]. A kernel that leaves out the +1 answers
// (5 - 3) / 1 = 2 columns: [1, 2, 0, 2], both outputs empty. The rates-and-strides-swapped model
// gives [1, 2, 0, 2] too ((5 - 2) / 2 + 1 = 2): nothing in an empty output tells the two apart,
// so neither is named alone; the shape terms that fit are both listed.
TEST(Diagnosis, AnEmptyOutputNamesNoMistakeFromItsData) {
  const OpCase c = PatchOpCase(*Tensor::Zeros(ElementType::kU8, {1, 1, 0, 5}), {1, 2}, {1, 1},
                               {1, 2}, std::string("valid"));
  const Tensor want = Expected(c);
  ASSERT_EQ(want.shape, (Shape{1, 2, 0, 3}));
  const Tensor got = *Tensor::Zeros(ElementType::kU8, {1, 2, 0, 2});
  ASSERT_EQ(ModelOutput("eip.rate_stride_swapped", c).shape, got.shape);
  std::optional<Diagnosis> d = Diagnose(c, want, got);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->mistake, "eip.shape.plus_one|eip.shape.rate_stride_swapped") << d->summary;
  EXPECT_TRUE(absl::StrContains(d->summary, "ambiguous")) << d->summary;
  EXPECT_FALSE(absl::StrContains(d->summary, "matches")) << d->summary;
}

// The shape terms, hand-derived. ExtractImagePatches of data [1, 1, 9, 9], sizes [2, 2],
// strides [2, 2], rates [1, 1], valid: (9 - 2) / 2 + 1 = 4 rows and columns; without the +1,
// 3; with ceil, ceil(7 / 2) + 1 = 5; as same, ceil(9 / 2) = 5 (so [1, 4, 5, 5] is ambiguous);
// with strides and rates swapped, (9 - 3) / 1 + 1 = 7.
TEST(Diagnosis, AWrongShapeNamesTheTermOfTheFormula) {
  const OpCase c = PatchOpCase(*Tensor::Zeros(ElementType::kU8, {1, 1, 9, 9}), {2, 2}, {2, 2},
                               {1, 1}, std::string("valid"));
  const Shape want = {1, 4, 4, 4};
  ASSERT_EQ(Expected(c).shape, want);
  EXPECT_EQ(ShapeDiagnosis(c, want, {1, 4, 3, 3})->mistake, "eip.shape.plus_one");
  EXPECT_EQ(ShapeDiagnosis(c, want, {1, 4, 7, 7})->mistake, "eip.shape.rate_stride_swapped");
  EXPECT_EQ(ShapeDiagnosis(c, want, {1, 4, 5, 5})->mistake, "eip.shape.ceil|eip.shape.padding");
  EXPECT_EQ(ShapeDiagnosis(c, want, {1, 1, 4, 4})->mistake, "eip.shape.depth");
  std::optional<Diagnosis> none = ShapeDiagnosis(c, want, {1, 4, 6, 2});
  ASSERT_TRUE(none.has_value());
  EXPECT_EQ(none->mistake, "");
  EXPECT_TRUE(absl::StrContains(none->summary, "no single term")) << none->summary;
  // BatchToSpace of data [2, 3], block [1, 2], crops [0, 1] / [0, 2]: 3 * 2 - 1 - 2 = 3
  // columns; crops_end left out: 5; crops_begin left out: 4; the batch not divided: [2, 3].
  const OpCase b = BlockOpCase(Op::kBatchToSpace, *Tensor::Zeros(ElementType::kU8, {2, 3}), {1, 2},
                               {0, 1}, {0, 2});
  ASSERT_EQ(Expected(b).shape, (Shape{1, 3}));
  EXPECT_EQ(ShapeDiagnosis(b, {1, 3}, {1, 5})->mistake, "b2s.shape.crops_end");
  EXPECT_EQ(ShapeDiagnosis(b, {1, 3}, {1, 4})->mistake, "b2s.shape.crops_begin");
  EXPECT_EQ(ShapeDiagnosis(b, {1, 3}, {2, 3})->mistake, "b2s.shape.batch");
  // SpaceToDepth of 5-D data [1, 2, 2, 2, 2], block 2: channels 2 * 2^3 = 16; once: 4; squared: 8.
  const OpCase s = DepthOpCase(Op::kSpaceToDepth, *Tensor::Zeros(ElementType::kU8, {1, 2, 2, 2, 2}),
                               2, std::string("blocks_first"));
  ASSERT_EQ(Expected(s).shape, (Shape{1, 16, 1, 1, 1}));
  EXPECT_EQ(ShapeDiagnosis(s, {1, 16, 1, 1, 1}, {1, 8, 1, 1, 1})->mistake, "s2d.shape.block_power");
}

// BatchToSpace of u1 data [2, 8] (two distinct values), block [1, 2], crops_begin [0, 3],
// crops_end [0, 0]: an output [1, 13]. A kernel that crops at the wrong ends gives the output
// of the crops-swapped model, but with two values in the data other bugs (a bit order, another
// crop) give the same bits: the model is listed as consistent, not named.
TEST(Diagnosis, OneBitDataNameNoLayoutMistake) {
  const Tensor data =
      *MakeTensor(ElementType::kU1, {2, 8}, [](int64_t i) { return (uint64_t{0xB4E2} >> i) & 1; });
  const OpCase c = BlockOpCase(Op::kBatchToSpace, data, {1, 2}, {0, 3}, {0, 0});
  const Tensor want = Expected(c);
  const Tensor got = ModelOutput("b2s.crops_swapped", c);
  ASSERT_NE(got, want);
  std::optional<Diagnosis> d = Diagnose(c, want, got);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->mistake, "") << d->summary;
  EXPECT_TRUE(absl::StartsWith(d->summary, "not named: the data of this case hold 2 distinct"))
      << d->summary;
  EXPECT_TRUE(absl::StrContains(d->summary, "crops_begin and crops_end applied at the wrong ends"))
      << d->summary;
}

// DepthToSpace depth_first of i32 data [1, 8, 2, 2] holding a period-6 fill (values 1 to 6):
// the other mode's output is consistent, but so would be other permutations of equal values.
TEST(Diagnosis, PeriodSixDataNameNoLayoutMistake) {
  const Tensor data = *MakeTensor(ElementType::kI32, {1, 8, 2, 2},
                                  [](int64_t i) { return static_cast<uint64_t>(i % 6 + 1); });
  const OpCase c = DepthOpCase(Op::kDepthToSpace, data, 2, std::string("depth_first"));
  const Tensor want = Expected(c);
  const Tensor got = ModelOutput("depth.mode_swapped", c);
  ASSERT_NE(got, want);
  std::optional<Diagnosis> d = Diagnose(c, want, got);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->mistake, "") << d->summary;
  EXPECT_TRUE(absl::StartsWith(d->summary, "not named: the data of this case hold 6 distinct"))
      << d->summary;
  EXPECT_TRUE(absl::StrContains(d->summary, "the other mode")) << d->summary;
}

// The same case with self-identifying data (element i holds i + 1) names the other mode.
TEST(Diagnosis, SelfIdentifyingDataNameTheMistake) {
  const Tensor data = *MakeTensor(ElementType::kI32, {1, 8, 2, 3},
                                  [](int64_t i) { return static_cast<uint64_t>(i + 1); });
  const OpCase c = DepthOpCase(Op::kDepthToSpace, data, 2, std::string("depth_first"));
  const Tensor want = Expected(c);
  std::optional<Diagnosis> d = Diagnose(c, want, ModelOutput("depth.mode_swapped", c));
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->mistake, "depth.mode_swapped") << d->summary;
  EXPECT_TRUE(absl::StartsWith(d->summary,
                               "matches: the other mode (blocks_first and depth_first swapped)"))
      << d->summary;
}

// A value mistake needs no positions: -0 flushed to +0 on f32 data [1, 4, 1, 1] holding
// 1, -0, 2, -0 (DepthToSpace block 2 moves them, no layout model gives +0 where -0 was).
TEST(Diagnosis, AValueMistakeIsNamedOnAnyData) {
  const uint64_t bits[] = {0x3f800000u, 0x80000000u, 0x40000000u, 0x80000000u};
  const Tensor data =
      *MakeTensor(ElementType::kF32, {1, 4, 1, 1}, [&](int64_t i) { return bits[i]; });
  const OpCase c = DepthOpCase(Op::kDepthToSpace, data, 2, std::string("blocks_first"));
  const Tensor want = Expected(c);
  std::optional<Diagnosis> d = Diagnose(c, want, FlushNegativeZero(want));
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->mistake, "zero.sign_flushed") << d->summary;
}

// SpaceToBatch of empty data [1, 0, 2], block [1, 1, 1], pads_begin [0, 1, 0], pads_end
// [0, 1, 0]: the output [1, 2, 2] is all padding, zeros in the spec. A kernel that pads with
// 0xAB answers 0xAB everywhere: the pad value, named on empty data (it moves no element). An
// output of two values is no pad value.
TEST(Diagnosis, EmptyDataNameThePadValue) {
  const OpCase c = BlockOpCase(Op::kSpaceToBatch, *Tensor::Zeros(ElementType::kU8, {1, 0, 2}),
                               {1, 1, 1}, {0, 1, 0}, {0, 1, 0});
  const Tensor want = Expected(c);
  ASSERT_EQ(want.shape, (Shape{1, 2, 2}));
  Tensor got = want;
  for (int64_t i = 0; i < 4; ++i) got.SetBits(i, 0xAB);
  std::optional<Diagnosis> d = Diagnose(c, want, got);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->mistake, "s2b.fit.pad_value") << d->summary;
  got.SetBits(3, 0xAC);
  d = Diagnose(c, want, got);
  EXPECT_TRUE(!d.has_value() || d->mistake.empty()) << d->mistake;
}

// A mistake model describes a wrong output of a valid case: it applies to no case the spec
// refuses, and deciding so does no arithmetic that overflows on their dims near 2^63 (the
// rank-4 output.representable negatives: [0, 4, 2^62, 2] and the like; UBSan stops a build of
// this test that overflows).
TEST(Mistakes, NoneAppliesToARefusedCaseNearTwoToTheSixtyThree) {
  for (int rank : {0, 4}) {
    for (const RulePair& p : RulePairs(rank)) {
      absl::StatusOr<Expectation> e = Evaluate(p.negative);
      ASSERT_TRUE(e.ok()) << p.rule;
      if (e->kind != ExpectationKind::kMustReject) continue;
      for (const Mistake& m : AllMistakes()) {
        EXPECT_FALSE(m.applies(p.negative)) << m.id << " on " << p.rule << " at rank " << rank;
      }
    }
  }
}

}  // namespace
}  // namespace dmconf
