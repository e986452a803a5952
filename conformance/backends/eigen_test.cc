// The Eigen Tensor adapter: the five worked examples of the ExtractImagePatches-3 specification
// (expected values copied from the spec text) and a deterministic set of valid cases against
// the oracle, for every auto_pad value.
#include "conformance/backends/backend_test_util.h"
#include "gtest/gtest.h"
#include "harness/backends/eigen/eigen_backend.h"

namespace dmconf {
namespace {

using ::dmconf::testing::CompareWithOracle;
using ::dmconf::testing::PatchesCase;
using ::dmconf::testing::ValidCases;

// The spec's image: [1,1,10,10] holding 1..100 (or [1,2,5,5] holding 1..50 for example 5).
Tensor Image(Shape s) {
  return *MakeTensor(ElementType::kI32, std::move(s), [](int64_t i) { return i + 1; });
}

void ExpectOutput(const OpCase& c, const Shape& shape, const std::vector<int64_t>& values) {
  EigenBackend b;
  RunOutcome r = b.Run(c);
  ASSERT_EQ(r.kind, RunOutcome::Kind::kOutput) << r.message;
  EXPECT_EQ(r.output->shape, shape);
  std::vector<int64_t> got;
  for (int64_t i = 0; i < r.output->NumElements(); ++i) got.push_back(*r.output->GetInteger(i));
  EXPECT_EQ(got, values);
}

TEST(EigenBackend, SpecExample1Valid) {
  ExpectOutput(PatchesCase(Image({1, 1, 10, 10}), {3, 3}, {5, 5}, {1, 1}, "valid"), {1, 9, 2, 2},
               {1,  6,  51, 56, 2,  7,  52, 57, 3,  8,  53, 58, 11, 16, 61, 66, 12, 17,
                62, 67, 13, 18, 63, 68, 21, 26, 71, 76, 22, 27, 72, 77, 23, 28, 73, 78});
}

TEST(EigenBackend, SpecExample2Valid) {
  ExpectOutput(PatchesCase(Image({1, 1, 10, 10}), {4, 4}, {8, 8}, {1, 1}, "valid"), {1, 16, 1, 1},
               {1, 2, 3, 4, 11, 12, 13, 14, 21, 22, 23, 24, 31, 32, 33, 34});
}

TEST(EigenBackend, SpecExample3SameUpper) {
  ExpectOutput(PatchesCase(Image({1, 1, 10, 10}), {4, 4}, {9, 9}, {1, 1}, "same_upper"),
               {1, 16, 2, 2},
               {0,  0,   0, 89, 0,  0,  81, 90, 0,  0,  82, 0,  0,  0, 83, 0,  0,  9, 0,  99, 1, 10,
                91, 100, 2, 0,  92, 0,  3,  0,  93, 0,  0,  19, 0,  0, 11, 20, 0,  0, 12, 0,  0, 0,
                13, 0,   0, 0,  0,  29, 0,  0,  21, 30, 0,  0,  22, 0, 0,  0,  23, 0, 0,  0});
}

TEST(EigenBackend, SpecExample4Rates) {
  ExpectOutput(PatchesCase(Image({1, 1, 10, 10}), {3, 3}, {5, 5}, {2, 2}, "valid"), {1, 9, 2, 2},
               {1,  6,  51, 56, 3,  8,  53, 58, 5,  10, 55, 60, 21, 26, 71, 76, 23, 28,
                73, 78, 25, 30, 75, 80, 41, 46, 91, 96, 43, 48, 93, 98, 45, 50, 95, 100});
}

TEST(EigenBackend, SpecExample5ChannelFastest) {
  ExpectOutput(PatchesCase(Image({1, 2, 5, 5}), {2, 2}, {3, 3}, {1, 1}, "valid"), {1, 8, 2, 2},
               {1, 4, 16, 19, 26, 29, 41, 44, 2, 5,  17, 20, 27, 30, 42, 45,
                6, 9, 21, 24, 31, 34, 46, 49, 7, 10, 22, 25, 32, 35, 47, 50});
}

// same_lower on a [1,1,1,3] row 1 2 3, kernel 1x2, stride 1: out 3, total pad 1, at the start,
// so patches are (0,1) (1,2) (2,3) (hand-derived from ERRATA E8).
TEST(EigenBackend, SameLowerPadsAtTheStart) {
  ExpectOutput(PatchesCase(Image({1, 1, 1, 3}), {1, 2}, {1, 1}, {1, 1}, "same_lower"), {1, 2, 1, 3},
               {0, 1, 2, 1, 2, 3});
}

TEST(EigenBackend, KernelLargerThanInputInValidIsNotPassedToEigen) {
  EigenBackend b;
  RunOutcome r = b.Run(PatchesCase(Image({1, 1, 2, 2}), {3, 3}, {1, 1}, {1, 1}, "valid"));
  EXPECT_EQ(r.kind, RunOutcome::Kind::kUnsupported);
  r = b.Run(PatchesCase(Image({1, 1, 2, 2}), {1, 1}, {0, 1}, {1, 1}, "valid"));
  EXPECT_EQ(r.kind, RunOutcome::Kind::kUnsupported);
}

class EigenValidCases : public ::testing::TestWithParam<ElementType> {};

TEST_P(EigenValidCases, MatchOracle) {
  EigenBackend b;
  for (const OpCase& c : ValidCases(Op::kExtractImagePatches, GetParam(), 90, 99)) {
    EXPECT_EQ(CompareWithOracle(b, c), "")
        << c.id << " " << ShapeToString(c.data.shape) << " " << AttributesToString(c);
  }
}

INSTANTIATE_TEST_SUITE_P(Types, EigenValidCases,
                         ::testing::Values(ElementType::kU8, ElementType::kF16, ElementType::kF32,
                                           ElementType::kI64, ElementType::kBoolean),
                         [](const auto& info) { return std::string(ElementTypeName(info.param)); });

}  // namespace
}  // namespace dmconf

namespace dmconf {
namespace {

// Every bit pattern, NaN payloads included, moves unchanged (Eigen copies integers here).
TEST(EigenBackend, NanPayloadsMoveUnchanged) {
  EigenBackend b;
  for (ElementType t : {ElementType::kF32, ElementType::kF16, ElementType::kBf16}) {
    Tensor x = dmconf::testing::PositionTensor(t, {1, 2, 5, 5}, true);
    x.SetBits(0, t == ElementType::kF32 ? 0x7F800001u : 0x7C01u);
    for (const char* pad : {"valid", "same_upper", "same_lower"}) {
      EXPECT_EQ(CompareWithOracle(b, PatchesCase(x, {2, 2}, {2, 1}, {1, 2}, pad)), "")
          << ElementTypeName(t) << " " << pad;
    }
  }
}

}  // namespace
}  // namespace dmconf
