// Verdicts of the comparator, with expected values derived by hand.
#include "harness/compare/compare.h"

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "harness/backend/case_class.h"
#include "harness/base/float_bits.h"

namespace dmconf {
namespace {

Tensor F32(Shape s, std::vector<uint32_t> bits) {
  Tensor t = *Tensor::Zeros(ElementType::kF32, s);
  for (size_t i = 0; i < bits.size(); ++i) t.SetBits(static_cast<int64_t>(i), bits[i]);
  return t;
}

Expectation Valid(Tensor t) {
  Expectation e;
  e.kind = ExpectationKind::kValid;
  e.output_shape = t.shape;
  e.output = std::move(t);
  return e;
}

RunOutcome Output(Tensor t) {
  RunOutcome o;
  o.output = std::move(t);
  return o;
}

RunOutcome Rejected() {
  RunOutcome o;
  o.kind = RunOutcome::Kind::kRejected;
  o.message = "no";
  return o;
}

TEST(Compare, PassWhenBitsEqual) {
  EXPECT_EQ(Compare(Valid(F32({2}, {1, 2})), Output(F32({2}, {1, 2})), {}).verdict, Verdict::kPass);
}

TEST(Compare, FirstDifferenceByMultiIndex) {
  // Shape [2,3]: flat index 4 is [1,1].
  Comparison c =
      Compare(Valid(F32({2, 3}, {0, 1, 2, 3, 4, 5})), Output(F32({2, 3}, {0, 1, 2, 3, 9, 8})), {});
  EXPECT_EQ(c.verdict, Verdict::kWrongValues);
  ASSERT_TRUE(c.mismatch.has_value());
  EXPECT_EQ(c.mismatch->index, (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(c.mismatch->expected_bits, 4u);
  EXPECT_EQ(c.mismatch->actual_bits, 9u);
  EXPECT_EQ(c.mismatch->differing, 2);
  EXPECT_NE(c.detail.find("[1,1]: expected 0x00000004, got 0x00000009"), std::string::npos)
      << c.detail;
}

TEST(Compare, ShapeAndType) {
  EXPECT_EQ(Compare(Valid(F32({2, 1}, {1, 2})), Output(F32({1, 2}, {1, 2})), {}).verdict,
            Verdict::kWrongShape);
  Tensor i32 = *Tensor::Zeros(ElementType::kI32, {2});
  EXPECT_EQ(Compare(Valid(F32({2}, {0, 0})), Output(i32), {}).verdict, Verdict::kWrongType);
}

TEST(Compare, NanPayloadIsItsOwnVerdict) {
  // 0x7f800001 is a signalling NaN; quieting sets bit 22 -> 0x7fc00001.
  Comparison c = Compare(Valid(F32({2}, {0x7f800001, 5})), Output(F32({2}, {0x7fc00001, 5})), {});
  EXPECT_EQ(c.verdict, Verdict::kNanPayloadChanged);
  EXPECT_TRUE(IsFailure(c.verdict, {}));
  EXPECT_FALSE(IsFailure(c.verdict, StrictnessOptions{false}));
  // A NaN that became a number is a wrong value, not a payload change.
  EXPECT_EQ(Compare(Valid(F32({1}, {0x7f800001})), Output(F32({1}, {0})), {}).verdict,
            Verdict::kWrongValues);
  // -0 (0x80000000) flushed to +0 is a wrong value.
  EXPECT_EQ(Compare(Valid(F32({1}, {0x80000000})), Output(F32({1}, {0})), {}).verdict,
            Verdict::kWrongValues);
}

TEST(Compare, RejectionsAndUnspecified) {
  EXPECT_EQ(Compare(Valid(F32({1}, {1})), Rejected(), {}).verdict, Verdict::kFalseReject);
  Expectation must;
  must.kind = ExpectationKind::kMustReject;
  EXPECT_EQ(Compare(must, Rejected(), {}).verdict, Verdict::kPass);
  EXPECT_EQ(Compare(must, Output(F32({1}, {1})), {}).verdict, Verdict::kFalseAccept);
  Expectation unspecified;
  unspecified.kind = ExpectationKind::kUnspecified;
  EXPECT_EQ(Compare(unspecified, Output(F32({1}, {1})), {}).verdict, Verdict::kUnspecifiedOk);
  EXPECT_EQ(Compare(unspecified, Rejected(), {}).verdict, Verdict::kUnspecifiedOk);
  RunOutcome crash;
  crash.kind = RunOutcome::Kind::kCrash;
  EXPECT_EQ(Compare(unspecified, crash, {}).verdict, Verdict::kCrash);
  RunOutcome hang;
  hang.kind = RunOutcome::Kind::kHang;
  EXPECT_EQ(Compare(must, hang, {}).verdict, Verdict::kHang);
}

TEST(Compare, WrongByteCountIsWrongShape) {
  Tensor bad = F32({2}, {1, 2});
  bad.bytes.pop_back();
  EXPECT_EQ(Compare(Valid(F32({2}, {1, 2})), Output(bad), {}).verdict, Verdict::kWrongShape);
}

TEST(FloatBits, NaNs) {
  EXPECT_TRUE(IsNaNBits(ElementType::kF16, 0x7c01));
  EXPECT_FALSE(IsNaNBits(ElementType::kF16, 0x7c00));  // +inf
  EXPECT_TRUE(IsNaNBits(ElementType::kBf16, 0xff81));
  EXPECT_TRUE(IsNaNBits(ElementType::kF8e4m3, 0xff));
  EXPECT_FALSE(IsNaNBits(ElementType::kI32, 0x7fffffff));
  EXPECT_EQ(QuietBit(ElementType::kF64), uint64_t{1} << 51);
}

TEST(Verdicts, NamesRoundTrip) {
  for (Verdict v : AllVerdicts()) EXPECT_EQ(ParseVerdict(VerdictName(v)), v);
  // The 17 verdicts of docs/report-format.md, invalid_answer (a backend's malformed result)
  // and flaky (a failure whose replays disagree).
  EXPECT_EQ(AllVerdicts().size(), 19u);
  EXPECT_EQ(ParseVerdict("invalid_answer"), Verdict::kInvalidAnswer);
  EXPECT_TRUE(IsFailure(Verdict::kInvalidAnswer, {}));
  EXPECT_EQ(ParseVerdict("flaky"), Verdict::kFlaky);
  EXPECT_TRUE(IsFailure(Verdict::kFlaky, {}));
}

// The report's names of the lanes and expected classes (docs/report-format.md, `lane` and
// `expected`), each read back; any other name is refused by rule.
TEST(CaseVocabulary, NamesAsTheReportSpellsThem) {
  EXPECT_EQ(CaseLaneName(CaseLane::kKernel), "kernel");
  EXPECT_EQ(CaseLaneName(CaseLane::kShapeStatic), "shape_static");
  EXPECT_EQ(CaseLaneName(CaseLane::kShapePartial), "shape_partial");
  for (const char* name : {"kernel", "shape_static", "shape_partial"}) {
    absl::StatusOr<CaseLane> l = ParseCaseLane(name);
    ASSERT_TRUE(l.ok()) << name;
    EXPECT_EQ(CaseLaneName(*l), name);
  }
  EXPECT_FALSE(IsShapeLane(CaseLane::kKernel));
  EXPECT_TRUE(IsShapeLane(CaseLane::kShapePartial));
  for (const char* name : {"valid", "must_reject", "unspecified", "malformed"}) {
    absl::StatusOr<ExpectedClass> e = ParseExpectedClass(name);
    ASSERT_TRUE(e.ok()) << name;
    EXPECT_EQ(ExpectedClassName(*e), name);
  }
  EXPECT_EQ(ExpectedClassOf(ExpectationKind::kMustReject), ExpectedClass::kMustReject);
  EXPECT_EQ(ExpectedClassOf(ExpectationKind::kUnspecified), ExpectedClass::kUnspecified);
  // A shape answer is `valid`, as for kernel cases.
  EXPECT_EQ(ExpectedClassOf(PartialKind::kShape), ExpectedClass::kValid);
  EXPECT_EQ(ExpectedClassOf(PartialKind::kMustReject), ExpectedClass::kMustReject);
  for (const char* bad : {"", "shape", "Kernel", "kernel "}) {
    absl::StatusOr<CaseLane> l = ParseCaseLane(bad);
    ASSERT_FALSE(l.ok()) << bad;
    EXPECT_TRUE(absl::StartsWith(l.status().message(), "case.lane.known: ")) << l.status();
  }
  for (const char* bad : {"", "shape", "must-reject", "Valid"}) {
    absl::StatusOr<ExpectedClass> e = ParseExpectedClass(bad);
    ASSERT_FALSE(e.ok()) << bad;
    EXPECT_TRUE(absl::StartsWith(e.status().message(), "case.expected.known: ")) << e.status();
  }
}

}  // namespace
}  // namespace dmconf
