// The fitted diagnosis of ExtractImagePatches (harness/compare/patch_fit.h) on hand-computed
// wrong outputs: it recovers the rates and padding a backend used, names the term that differs
// from the spec's, and says so when no member of the family explains the output.
#include "harness/compare/patch_fit.h"

#include <cstdint>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "oracle/case_factory.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

Tensor I32(Shape shape, const std::vector<int64_t>& values) {
  return *MakeTensor(ElementType::kI32, std::move(shape), [&](int64_t i) {
    return static_cast<uint64_t>(values[static_cast<size_t>(i)]);
  });
}

Tensor Positional(Shape shape) {
  return *MakeTensor(ElementType::kI32, std::move(shape), [](int64_t i) { return i + 1; });
}

// [1, 1, 5, 3] holding 1..15 (row r, column q holds 3 * r + q + 1); sizes [2, 2], strides
// [2, 1], rates [2, 1], valid: 2 x 2 patches; channel k = kh * 2 + kw holds row 2 * oh + 2 * kh,
// column ow + kw.
TEST(PatchFit, NamesTheColumnRateUsedForRows) {
  const OpCase c = PatchOpCase(Positional({1, 1, 5, 3}), {2, 2}, {2, 1}, {2, 1}, "valid");
  const Tensor expected = *Evaluate(c)->output;
  ASSERT_EQ(expected, I32({1, 4, 2, 2}, {1, 2, 7, 8, 2, 3, 8, 9, 7, 8, 13, 14, 8, 9, 14, 15}))
      << "hand-derived spec output";
  // Row rate 1: channel k holds row 2 * oh + kh.
  const Tensor actual = I32({1, 4, 2, 2}, {1, 2, 7, 8, 2, 3, 8, 9, 4, 5, 10, 11, 5, 6, 11, 12});
  std::optional<LayoutFit> fit = FitPatchGather(c, expected, actual);
  ASSERT_TRUE(fit.has_value());
  EXPECT_TRUE(fit->explained);
  EXPECT_EQ(fit->terms, std::vector<std::string>{"eip.fit.rates"});
  EXPECT_EQ(fit->summary,
            "the fitted patch gather explains every output element and differs from the spec's "
            "in: rates [1, 1] where the spec says [2, 1] (the column rate is used for rows)");
}

// [1, 1, 3, 3], sizes [2, 2], strides [1, 1], rates [1, 1], same_upper: 3 x 3 patches, total
// padding 1 per axis, none before (same_upper) where same_lower puts it before.
TEST(PatchFit, NamesPaddingSplitTheOtherWay) {
  const OpCase c = PatchOpCase(Positional({1, 1, 3, 3}), {2, 2}, {1, 1}, {1, 1}, "same_upper");
  const Tensor expected = *Evaluate(c)->output;
  const Tensor actual =
      *Evaluate(PatchOpCase(Positional({1, 1, 3, 3}), {2, 2}, {1, 1}, {1, 1}, "same_lower"))
           ->output;
  // Channel 0 (kh = kw = 0) of same_lower starts one row and one column before the image.
  ASSERT_EQ(actual.GetBits(0), 0u);
  ASSERT_EQ(actual.GetBits(4), 1u);
  std::optional<LayoutFit> fit = FitPatchGather(c, expected, actual);
  ASSERT_TRUE(fit.has_value());
  EXPECT_TRUE(fit->explained);
  EXPECT_EQ(fit->terms, std::vector<std::string>{"eip.fit.pads"});
  EXPECT_TRUE(absl::StrContains(fit->summary,
                                "padding before [1, 1] where the spec says [0, 0] (the padding "
                                "split the other way: same_lower vs same_upper)"))
      << fit->summary;
}

TEST(PatchFit, SaysSoWhenNothingInTheFamilyFits) {
  const OpCase c = PatchOpCase(Positional({1, 1, 5, 3}), {2, 2}, {2, 1}, {2, 1}, "valid");
  const Tensor expected = *Evaluate(c)->output;
  // Elements 0 and 1 (input 1 and 2) exchanged: no strided gather reads 2 before 1 here.
  std::optional<LayoutFit> fit = FitPatchGather(
      c, expected, I32({1, 4, 2, 2}, {2, 1, 7, 8, 2, 3, 8, 9, 7, 8, 13, 14, 8, 9, 14, 15}));
  ASSERT_TRUE(fit.has_value());
  EXPECT_FALSE(fit->explained);
  EXPECT_TRUE(fit->terms.empty());
  EXPECT_TRUE(absl::StartsWith(fit->summary, "no member of the family")) << fit->summary;
  // Not applicable: data that does not encode positions, another shape.
  const OpCase zeros =
      PatchOpCase(*Tensor::Zeros(ElementType::kI32, {1, 1, 5, 3}), {2, 2}, {2, 1}, {2, 1}, "valid");
  EXPECT_FALSE(FitPatchGather(zeros, expected, expected).has_value());
  EXPECT_FALSE(FitPatchGather(c, expected, Positional({1, 4, 4, 1})).has_value());
}

}  // namespace
}  // namespace dmconf
