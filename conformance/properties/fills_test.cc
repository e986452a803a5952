// harness/gen/fills.h: the positional fill (values typed in from the formats' definitions) and
// the special-value fill.
#include "harness/gen/fills.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace dmconf {
namespace {

TEST(PositionalFill, HoldsTheNumberWhereTheTypeHoldsItExactly) {
  // f32 1.0 = 0x3F800000, 100.0 = 0x42C80000 (IEEE 754 binary32).
  EXPECT_EQ(PositionalBits(ElementType::kF32, 1, 0), 0x3F800000u);
  EXPECT_EQ(PositionalBits(ElementType::kF32, 1, 99), 0x42C80000u);
  // f16 3.0 = 0x4200; bf16 256.0 = 0x4380, 257 is not a bf16 value: the bits of 257.
  EXPECT_EQ(PositionalBits(ElementType::kF16, 1, 2), 0x4200u);
  EXPECT_EQ(PositionalBits(ElementType::kBf16, 1, 255), 0x4380u);
  EXPECT_EQ(PositionalBits(ElementType::kBf16, 1, 256), 257u);
  // f8e4m3 1.0 = 0.0111.000; f4e2m1 6.0 = 0.11.1 (its largest value), 5 is not one: bits 5.
  EXPECT_EQ(PositionalBits(ElementType::kF8e4m3, 1, 0), 0x38u);
  EXPECT_EQ(PositionalBits(ElementType::kF4e2m1, 1, 5), 0x7u);
  EXPECT_EQ(PositionalBits(ElementType::kF4e2m1, 1, 4), 5u);
  // Integers wrap to the width: i8 128 -> 0x80, u4 17 -> 1.
  EXPECT_EQ(PositionalBits(ElementType::kI8, 1, 127), 0x80u);
  EXPECT_EQ(PositionalBits(ElementType::kU4, 1, 16), 1u);
  // Boolean: the Thue-Morse bit (parity) of 1, 2, 3, 4 = 1, 1, 0, 1.
  const uint64_t thue_morse[] = {1, 1, 0, 1};
  for (int64_t i = 0; i < 4; ++i) {
    EXPECT_EQ(PositionalBits(ElementType::kBoolean, 1, i), thue_morse[i]) << i;
  }
  // From 0 (the command line's iota): element 0 holds 0.
  EXPECT_EQ(PositionalBits(ElementType::kF32, 0, 0), 0u);
}

// FillPositional writes whole-byte types without SetBits: every element must still hold the
// element-by-element definition (PositionalBits, whose values the test above types in), for
// every type, from 1, 0 and a negative start, across the end of the 16-bit types' table
// (2^16) and across f32's and f64's last exact integers (2^24, 2^53).
TEST(PositionalFill, TensorHoldsPositionalBitsOfEveryElement) {
  for (ElementType t : AllElementTypes()) {
    for (int64_t first : {int64_t{1}, int64_t{0}, int64_t{-3}, (int64_t{1} << 16) - 21,
                          (int64_t{1} << 16) - 5, (int64_t{1} << 24) - 5, (int64_t{1} << 53) - 5}) {
      absl::StatusOr<Tensor> x = Tensor::Zeros(t, {3, 7});
      ASSERT_TRUE(x.ok());
      FillPositional(*x, first);
      for (int64_t i = 0; i < 21; ++i) {
        ASSERT_EQ(x->GetBits(i), PositionalBits(t, first, i))
            << ElementTypeName(t) << " from " << first << ", element " << i;
      }
    }
  }
}

TEST(PositionalFill, DistinctAndNonZeroForEveryByteWideTypeUpToItsRange) {
  for (ElementType t : AllElementTypes()) {
    if (BitWidth(t) < 16) continue;
    Tensor x = PositionalTensor(t, {2, 3, 400});
    std::set<uint64_t> seen;
    for (int64_t i = 0; i < x.NumElements(); ++i) {
      EXPECT_NE(x.GetBits(i), 0u) << ElementTypeName(t) << " " << i;
      EXPECT_TRUE(seen.insert(x.GetBits(i)).second) << ElementTypeName(t) << " " << i;
    }
  }
}

TEST(SpecialFill, EverySpecialAppearsAndTheSeedOnlyReorders) {
  for (ElementType t : AllElementTypes()) {
    const std::vector<uint64_t> table = SpecialBits(t);
    if (t == ElementType::kBoolean || t == ElementType::kNf4) {
      EXPECT_TRUE(table.empty()) << ElementTypeName(t);
      continue;
    }
    ASSERT_FALSE(table.empty()) << ElementTypeName(t);
    const int64_t n = static_cast<int64_t>(table.size());
    Tensor a = SpecialTensor(t, {n}, 1), b = SpecialTensor(t, {n}, 1), c = SpecialTensor(t, {n}, 7);
    EXPECT_EQ(a, b);
    std::multiset<uint64_t> want(table.begin(), table.end()), got_a, got_c;
    for (int64_t i = 0; i < n; ++i) {
      got_a.insert(a.GetBits(i));
      got_c.insert(c.GetBits(i));
    }
    EXPECT_EQ(got_a, want) << ElementTypeName(t);
    EXPECT_EQ(got_c, want) << ElementTypeName(t);
  }
  // f32's table has the quiet NaN 0x7FC00000, the signalling 0x7F800001, -0 and a subnormal.
  const std::vector<uint64_t> f32 = SpecialBits(ElementType::kF32);
  for (uint64_t b : {0x7FC00000u, 0x7F800001u, 0x80000000u, 0x00000001u}) {
    EXPECT_NE(std::find(f32.begin(), f32.end(), b), f32.end()) << std::hex << b;
  }
}

}  // namespace
}  // namespace dmconf
