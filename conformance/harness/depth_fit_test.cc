// The fitted-layout diagnosis (harness/compare/depth_fit.h) on hand-computed wrong outputs:
// it recovers the permutation a backend used, names the term that differs from the spec's,
// and says so when no member of the family explains the output.
#include "harness/compare/depth_fit.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "oracle/case_factory.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

// DepthToSpace blocks_first, data [1, 8, 2, 3] holding i + 1 (self-identifying), block 2:
// C' = 2, output [1, 2, 4, 6].
OpCase Case(const char* mode) {
  return DepthOpCase(Op::kDepthToSpace,
                     *MakeTensor(ElementType::kI32, {1, 8, 2, 3}, [](int64_t i) { return i + 1; }),
                     2, mode);
}

// out[0, c, y, x] = data[0, in_c, y / 2, x / 2], written here from the formula with the two
// block offsets' roles chosen by `swap`: the spec's blocks_first has
// in_c = ((y % 2) * 2 + x % 2) * C' + c; a backend that swaps the offsets of rows and columns
// uses ((x % 2) * 2 + y % 2) * C' + c.
Tensor Computed(const OpCase& c, bool swap) {
  Tensor out = *Tensor::Zeros(ElementType::kI32, {1, 2, 4, 6});
  for (int64_t ch = 0; ch < 2; ++ch)
    for (int64_t y = 0; y < 4; ++y)
      for (int64_t x = 0; x < 6; ++x) {
        const int64_t off = swap ? (x % 2) * 2 + y % 2 : (y % 2) * 2 + x % 2;
        const int64_t in_c = off * 2 + ch;
        out.SetBits((ch * 4 + y) * 6 + x, c.data.GetBits((in_c * 2 + y / 2) * 3 + x / 2));
      }
  return out;
}

TEST(DepthFit, NamesTheSwappedBlockAxes) {
  const OpCase c = Case("blocks_first");
  const Tensor expected = *Evaluate(c)->output;
  ASSERT_EQ(Computed(c, false), expected) << "the test's own formula is the spec's";
  std::optional<LayoutFit> fit = FitDepthLayout(c, expected, Computed(c, true));
  ASSERT_TRUE(fit.has_value());
  EXPECT_TRUE(fit->explained);
  EXPECT_EQ(fit->terms, std::vector<std::string>{"depth.fit.permutation"});
  // x' = [N, b_rows, b_cols, C', D1, D2]; the spec reads [0, 3, 4, 1, 5, 2] (b_rows beside
  // D1); the swap reads b_cols beside D1: [0, 3, 4, 2, 5, 1].
  EXPECT_EQ(fit->summary,
            "your output is transpose(x', [0, 3, 4, 2, 5, 1]) of the blocks_first split "
            "[N, b, b, C', D1, D2]; the spec (blocks_first) says transpose(x', [0, 3, 4, 1, 5, "
            "2]) of the blocks_first split [N, b, b, C', D1, D2]: the permutation at position(s) "
            "3, 5 differ");
}

TEST(DepthFit, NamesTheOtherMode) {
  const OpCase c = Case("blocks_first");
  const Tensor other = *Evaluate(Case("depth_first"))->output;
  std::optional<LayoutFit> fit = FitDepthLayout(c, *Evaluate(c)->output, other);
  ASSERT_TRUE(fit.has_value());
  EXPECT_TRUE(fit->explained);
  EXPECT_EQ(fit->terms, std::vector<std::string>{"depth.fit.mode"});
  EXPECT_TRUE(absl::StartsWith(fit->summary, "your output is the spec's depth_first layout"))
      << fit->summary;
}

// A kernel that reads the NCHW data [1, 8, 2, 3] from a buffer laid out NHWC: logical element
// (0, c, h, w) is buffer element (h * 3 + w) * 8 + c. Its output is the spec's on that reading.
TEST(DepthFit, NamesNhwcReading) {
  const OpCase c = Case("blocks_first");
  OpCase read = c;
  read.data = *MakeTensor(ElementType::kI32, {1, 8, 2, 3}, [&](int64_t k) {
    const int64_t w = k % 3, h = k / 3 % 2, ch = k / 6;
    return c.data.GetBits((h * 3 + w) * 8 + ch);
  });
  std::optional<LayoutFit> fit = FitDepthLayout(c, *Evaluate(c)->output, *Evaluate(read)->output);
  ASSERT_TRUE(fit.has_value());
  EXPECT_TRUE(fit->explained);
  EXPECT_EQ(fit->terms, std::vector<std::string>{"depth.fit.input_layout"});
  EXPECT_EQ(fit->summary,
            "your output is the spec's blocks_first layout, but the elements are read as NHWC "
            "where the data is NCHW");
}

TEST(DepthFit, SaysSoWhenNothingInTheFamilyFits) {
  const OpCase c = Case("blocks_first");
  const Tensor expected = *Evaluate(c)->output;
  Tensor actual = expected;
  // Two elements exchanged: every element is still an input element, but no transpose of any
  // split puts exactly these two out of place.
  const uint64_t a = actual.GetBits(1);
  actual.SetBits(1, actual.GetBits(2));
  actual.SetBits(2, a);
  std::optional<LayoutFit> fit = FitDepthLayout(c, expected, actual);
  ASSERT_TRUE(fit.has_value());
  EXPECT_FALSE(fit->explained);
  EXPECT_TRUE(fit->terms.empty());
  EXPECT_TRUE(absl::StartsWith(fit->summary, "no reshape-transpose-reshape")) << fit->summary;
  // Not applicable: data that does not encode positions (all zeros).
  OpCase zeros = DepthOpCase(Op::kDepthToSpace, *Tensor::Zeros(ElementType::kI32, {1, 8, 2, 3}), 2,
                             "blocks_first");
  EXPECT_FALSE(FitDepthLayout(zeros, expected, actual).has_value());
}

}  // namespace
}  // namespace dmconf
