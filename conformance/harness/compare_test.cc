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

Tensor F64(std::vector<uint64_t> bits) {
  Tensor t = *Tensor::Zeros(ElementType::kF64, {static_cast<int64_t>(bits.size())});
  for (size_t i = 0; i < bits.size(); ++i) t.SetBits(static_cast<int64_t>(i), bits[i]);
  return t;
}

// docs/errata.md D9: lenient forgives a NaN's payload, never its position.
TEST(Compare, LenientForgivesAPayloadNeverAPosition) {
  // The input: a negative signalling NaN (payload 1) and the positive canonical NaN.
  const uint64_t s_neg = 0xfff0000000000001, q_pos = 0x7ff8000000000000;
  const Expectation want = Valid(F64({s_neg, q_pos}));
  const StrictnessOptions lenient{false};
  // Elements swapped: neither quieting (s_neg quieted is 0xfff8000000000001) nor one
  // canonical pattern explains it. wrong_values, a failure in lenient mode too.
  Comparison swapped = Compare(want, Output(F64({q_pos, s_neg})), lenient);
  EXPECT_EQ(swapped.verdict, Verdict::kWrongValues) << swapped.detail;
  EXPECT_TRUE(IsFailure(swapped.verdict, lenient));
  // Quieting in place: the quiet bit (bit 51) set, sign and payload kept.
  EXPECT_EQ(Compare(want, Output(F64({0xfff8000000000001, q_pos})), lenient).verdict,
            Verdict::kNanPayloadChanged);
  // Canonicalisation: every NaN becomes 0x7ff8000000000000 (what ONNX Runtime does to f16
  // NaNs on some shapes, docs/findings.md F8), or one canonical NaN per sign.
  EXPECT_EQ(Compare(want, Output(F64({q_pos, q_pos})), lenient).verdict,
            Verdict::kNanPayloadChanged);
  EXPECT_EQ(Compare(want, Output(F64({0xfff8000000000000, q_pos})), lenient).verdict,
            Verdict::kNanPayloadChanged);
  // Two signalling NaNs swapped and quieted: quiet(a) at b's place. wrong_values.
  const uint64_t a = 0x7ff0000000000001, b = 0x7ff0000000000002;
  EXPECT_EQ(Compare(Valid(F64({a, b})),
                    Output(F64({b | (uint64_t{1} << 51), a | (uint64_t{1} << 51)})), lenient)
                .verdict,
            Verdict::kWrongValues);
  // One pattern that is not canonical (a payload bit set besides the quiet bit) at both
  // places: another element's NaN copied, not a canonical NaN. wrong_values.
  const uint64_t q_payload = 0x7ff8000000000005;
  EXPECT_EQ(
      Compare(Valid(F64({a, q_payload})), Output(F64({q_payload, q_payload})), lenient).verdict,
      Verdict::kWrongValues);
  // Half quieted, half canonical: no one change explains both. wrong_values.
  EXPECT_EQ(
      Compare(Valid(F64({a, b})), Output(F64({a | (uint64_t{1} << 51), q_pos})), lenient).verdict,
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
  // One row of the verdict table per verdict (tables_test.cc checks the rows themselves).
  EXPECT_EQ(AllVerdicts().size(), VerdictTable().size());
  EXPECT_EQ(ParseVerdict("undecided_shape"), Verdict::kUndecidedShape);
  EXPECT_FALSE(IsFailure(Verdict::kUndecidedShape, {}));
  EXPECT_FALSE(IsFailure(Verdict::kUndecidedShape, StrictnessOptions{true, true, true}));
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
