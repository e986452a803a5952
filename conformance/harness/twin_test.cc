// Diagnostic twins (harness/compare/twin.h, harness/runner/twin_run.h): a wrong output whose data
// cannot identify positions is run again with data that do, through the same backend. The
// backends here are hand-written lambdas (the oracle's output rearranged by formulas written in
// this file), not the suite's mistake models.
#include "harness/compare/twin.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "harness/runner/runner.h"
#include "harness/runner/twin_run.h"
#include "oracle/case_factory.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

RunOutcome Output(absl::StatusOr<Tensor> t) {
  RunOutcome o;
  o.output = *std::move(t);
  return o;
}

Tensor Spec(const OpCase& c) {
  absl::StatusOr<Expectation> e = Evaluate(c);
  EXPECT_TRUE(e.ok() && e->output.has_value()) << c.id;
  return *e->output;
}

// Element i moved to (or read from) bit i % 8 counted from the least significant bit: the
// element the spec packs at 8 * (i / 8) + 7 - i % 8 (none past the end: 0).
Tensor BitReversedOrder(const Tensor& t) {
  Tensor out = *Tensor::Zeros(t.type, t.shape);
  const int64_t n = t.NumElements();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t j = 8 * (i / 8) + 7 - i % 8;
    if (j < n) out.SetBits(i, t.GetBits(j));
  }
  return out;
}

// A u1 kernel that reads and writes its packed bits least significant bit first.
RunOutcome LsbFirstKernel(const OpCase& c) {
  OpCase m = c;
  m.data = BitReversedOrder(c.data);
  return Output(BitReversedOrder(Spec(m)));
}

// A 4-bit kernel that packs the high nibble first.
RunOutcome HighNibbleFirstKernel(const OpCase& c) {
  Tensor t = Spec(c);
  for (uint8_t& b : t.bytes) b = static_cast<uint8_t>((b >> 4) | (b << 4));
  return Output(t);
}

bool IsNaN(uint64_t b) { return (b & 0x7F800000) == 0x7F800000 && (b & 0x7FFFFF) != 0; }

bool HasNaN(const Tensor& t) {
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    if (IsNaN(t.GetBits(i))) return true;
  }
  return false;
}

// An f32 kernel right on ordinary numbers that writes +0 where the output holds a NaN.
RunOutcome NaNToZeroKernel(const OpCase& c) {
  Tensor t = Spec(c);
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    if (IsNaN(t.GetBits(i))) t.SetBits(i, 0);
  }
  return Output(t);
}

// A DepthToSpace kernel that, on data holding a NaN, writes the spec's output in reverse flat
// order, and otherwise uses the other mode.
RunOutcome NaNSensitiveKernel(const OpCase& c) {
  if (HasNaN(c.data)) {
    const Tensor t = Spec(c);
    Tensor out = t;
    const int64_t n = t.NumElements();
    for (int64_t i = 0; i < n; ++i) out.SetBits(i, t.GetBits(n - 1 - i));
    return Output(out);
  }
  OpCase m = c;
  m.mode = c.mode == "blocks_first" ? "depth_first" : "blocks_first";
  return Output(Spec(m));
}

Tensor Filled(ElementType type, const Shape& shape, const std::vector<uint64_t>& cycle) {
  Tensor t = *Tensor::Zeros(type, shape);
  for (int64_t i = 0; i < t.NumElements(); ++i) t.SetBits(i, cycle[i % cycle.size()]);
  return t;
}

// Runs c through `kernel`, judged and diagnosed, twins on or off.
CaseResult RunWith(const OpCase& c, RunOutcome (*kernel)(const OpCase&), bool twins) {
  const std::vector<PreparedCase> p = PrepareCases({c});
  RunOptions o;
  o.isolate = false;
  o.diagnostic_twins = twins;
  const RunOutcome out = kernel(c);
  CaseResult r = Judge("test", p[0], out, o);
  DiagnoseByTwins(p[0], out, kernel, o, r);
  return r;
}

// Twin k holds digit k of the code i + 1 in base 2^width: together they give every element's
// code back. u1, 20 elements: codes up to 20, never all ones: 2^5 = 32 > 21, five twins.
TEST(Twin, TheTwinsOfNarrowDataTogetherIdentifyEveryPosition) {
  const OpCase c = DepthOpCase(Op::kSpaceToDepth, Filled(ElementType::kU1, {1, 5, 2, 2}, {1}), 2,
                               std::string("blocks_first"));
  const TwinPlan plan = PlanTwins(c);
  ASSERT_EQ(plan.twins.size(), 5u) << plan.skipped;
  for (int64_t i = 0; i < 20; ++i) {
    uint64_t code = 0;
    for (int k = 0; k < 5; ++k) code |= plan.twins[k].data.GetBits(i) << k;
    EXPECT_EQ(code, static_cast<uint64_t>(i + 1));
  }
  // 70000 u1 elements would need 17 twins: not run, and said.
  const OpCase big = DepthOpCase(Op::kSpaceToDepth, Filled(ElementType::kU1, {1, 4, 125, 140}, {1}),
                                 2, std::string("blocks_first"));
  const TwinPlan none = PlanTwins(big);
  EXPECT_TRUE(none.twins.empty());
  EXPECT_TRUE(absl::StrContains(none.skipped, "17 twins")) << none.skipped;
}

// SpaceToDepth of u1 data [1, 1, 4, 4], block 2, by a kernel that packs bits LSB first: on
// data of two values the case alone names nothing; its twins name the packing exactly.
TEST(Twin, ATwinNamesTheU1BitOrderOfReadsAndWrites) {
  const OpCase c =
      DepthOpCase(Op::kSpaceToDepth, Filled(ElementType::kU1, {1, 1, 4, 4}, {1, 0, 0, 1, 1, 1, 0}),
                  2, std::string("blocks_first"));
  const CaseResult alone = RunWith(c, LsbFirstKernel, false);
  ASSERT_EQ(alone.verdict, Verdict::kWrongValues);
  EXPECT_TRUE(!alone.diagnosis.has_value() || alone.diagnosis->mistake.empty());
  const CaseResult r = RunWith(c, LsbFirstKernel, true);
  ASSERT_TRUE(r.diagnosis.has_value());
  EXPECT_EQ(r.diagnosis->mistake, "subbyte.lsb_first_throughout") << r.diagnosis->summary;
  EXPECT_TRUE(r.diagnosis->from_twin);
  EXPECT_TRUE(absl::StartsWith(r.diagnosis->summary, "from 5 diagnostic twins"))
      << r.diagnosis->summary;
}

// DepthToSpace of u4 data [1, 4, 1, 3], block 2, by a kernel that packs the high nibble first.
TEST(Twin, ATwinNamesTheNibbleOrder) {
  const OpCase c =
      DepthOpCase(Op::kDepthToSpace, Filled(ElementType::kU4, {1, 4, 1, 3}, {3, 3, 9, 1, 1}), 2,
                  std::string("depth_first"));
  const CaseResult alone = RunWith(c, HighNibbleFirstKernel, false);
  ASSERT_EQ(alone.verdict, Verdict::kWrongValues);
  EXPECT_TRUE(!alone.diagnosis.has_value() || alone.diagnosis->mistake.empty());
  const CaseResult r = RunWith(c, HighNibbleFirstKernel, true);
  ASSERT_TRUE(r.diagnosis.has_value());
  EXPECT_EQ(r.diagnosis->mistake, "subbyte.nibbles_swapped") << r.diagnosis->summary;
  EXPECT_TRUE(r.diagnosis->from_twin);
}

// SpaceToDepth of f32 data holding NaNs by a kernel that writes +0 for NaN: its twin (element i
// holding the bits i + 1, no NaN) passes, which says the bug depends on the values.
TEST(Twin, APassingTwinSaysTheBugDependsOnTheValues) {
  const OpCase c = DepthOpCase(
      Op::kSpaceToDepth,
      Filled(ElementType::kF32, {1, 1, 4, 4}, {0x7FC00000, 0x3F800000, 0x3F800000, 0x80000000}), 2,
      std::string("blocks_first"));
  const CaseResult r = RunWith(c, NaNToZeroKernel, true);
  ASSERT_EQ(r.verdict, Verdict::kWrongValues);
  ASSERT_TRUE(r.diagnosis.has_value());
  EXPECT_EQ(r.diagnosis->mistake, "");
  EXPECT_TRUE(r.diagnosis->from_twin);
  EXPECT_TRUE(absl::StrContains(r.diagnosis->summary,
                                "the twins pass, so the bug depends on the "
                                "values"))
      << r.diagnosis->summary;
}

// DepthToSpace blocks_first of f32 data [1, 8, 2, 2] holding NaNs, by a kernel that uses the
// other mode on data without NaN (so on its twin) but reverses the output on data with NaN.
// The twin's explanation (the other mode) does not give this case's output: nothing is named.
TEST(Twin, ATwinExplanationThatDoesNotReproduceTheCaseNamesNothing) {
  const OpCase c = DepthOpCase(Op::kDepthToSpace,
                               Filled(ElementType::kF32, {1, 8, 2, 2},
                                      {0x7FC00000, 0x3F800000, 0x40000000, 0x40400000, 0x3F800000}),
                               2, std::string("blocks_first"));
  const CaseResult r = RunWith(c, NaNSensitiveKernel, true);
  ASSERT_EQ(r.verdict, Verdict::kWrongValues);
  OpCase other = c;
  other.mode = "depth_first";
  ASSERT_NE(Spec(other), *NaNSensitiveKernel(c).output);  // the other mode is not this output
  ASSERT_TRUE(r.diagnosis.has_value());
  EXPECT_EQ(r.diagnosis->mistake, "") << r.diagnosis->summary;
  EXPECT_TRUE(absl::StrContains(r.diagnosis->summary,
                                "depth.mode_swapped explains the twins but "
                                "not this case's output"))
      << r.diagnosis->summary;
}

}  // namespace
}  // namespace dmconf
