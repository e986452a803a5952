// Tensor packing: GetBits / SetBits for every element type against byte layouts written out by
// hand from OpenVINO's packing order (docs/element-types.md), PackedByteSize, and equality that
// ignores the padding bits after the last element.
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "conformance/oracle/case_builders.h"
#include "gtest/gtest.h"
#include "oracle/tensor.h"

namespace dmconf {
namespace {

Tensor FromBits(ElementType t, const std::vector<uint64_t>& values) {
  Tensor x = *Tensor::Zeros(t, {static_cast<int64_t>(values.size())});
  for (size_t i = 0; i < values.size(); ++i) x.SetBits(static_cast<int64_t>(i), values[i]);
  return x;
}

void ExpectLayout(ElementType t, const std::vector<uint64_t>& values,
                  const std::vector<uint8_t>& bytes) {
  const Tensor x = FromBits(t, values);
  EXPECT_EQ(x.bytes, bytes) << ElementTypeName(t);
  // Reading the hand-written bytes gives the values back.
  Tensor y;
  y.type = t;
  y.shape = {static_cast<int64_t>(values.size())};
  y.bytes = bytes;
  ASSERT_TRUE(y.Validate("y").ok()) << ElementTypeName(t);
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(y.GetBits(static_cast<int64_t>(i)), values[i]) << ElementTypeName(t) << " " << i;
  }
}

// ByteSize is the size Zeros allocates, from the packing rules (u4: two elements a byte,
// rounded up; f32: four bytes each), and its errors without allocating anything.
TEST(TensorPacking, ByteSizeIsWhatZerosAllocates) {
  EXPECT_EQ(*Tensor::ByteSize(ElementType::kU4, {3}), 2);
  EXPECT_EQ(*Tensor::ByteSize(ElementType::kF32, {2, 5}), 40);
  EXPECT_EQ(Tensor::Zeros(ElementType::kU4, {3})->bytes.size(), 2u);
  EXPECT_FALSE(Tensor::ByteSize(ElementType::kF32, {-1, 2}).ok());
  const absl::StatusOr<int64_t> big = Tensor::ByteSize(ElementType::kF32, {int64_t{1} << 40});
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.status().message().find("case.tensor.too_large"), absl::string_view::npos);
}

TEST(TensorPacking, U1FirstElementInTheMostSignificantBit) {
  // 1 0 1 1 0 0 0 1 | 1 0 1 -> 0b10110001, 0b10100000.
  ExpectLayout(ElementType::kU1, {1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1}, {0xB1, 0xA0});
}

TEST(TensorPacking, U2FirstElementInBits7And6) {
  // 11 00 01 10 | 01 -> 0xC6, 0x40.
  ExpectLayout(ElementType::kU2, {3, 0, 1, 2, 1}, {0xC6, 0x40});
}

TEST(TensorPacking, FourBitTypesFirstElementInTheLowNibble) {
  for (ElementType t :
       {ElementType::kU4, ElementType::kI4, ElementType::kNf4, ElementType::kF4e2m1}) {
    ExpectLayout(t, {0x1, 0x2, 0x3}, {0x21, 0x03});
    ExpectLayout(t, {0xF, 0x0, 0xA, 0x5}, {0x0F, 0x5A});
  }
  // i4 values are sign-extended: 0xF is -1, 0x8 is -8, 0x7 is 7.
  const Tensor x = FromBits(ElementType::kI4, {0xF, 0x8, 0x7});
  EXPECT_EQ(x.GetInteger(0), -1);
  EXPECT_EQ(x.GetInteger(1), -8);
  EXPECT_EQ(x.GetInteger(2), 7);
}

TEST(TensorPacking, U3SplitLayout) {
  // 1..7, 0: low 2 bits 01 10 11 00 01 10 11 00 -> 0x6C 0x6C; high bits 0001 1110 -> 0x1E.
  ExpectLayout(ElementType::kU3, {1, 2, 3, 4, 5, 6, 7, 0}, {0x6C, 0x6C, 0x1E});
  // A ninth element 5 = 1|01 opens a second group: low bits 01 at the top of the word, high bit
  // at bit 7 of the group's third byte.
  ExpectLayout(ElementType::kU3, {1, 2, 3, 4, 5, 6, 7, 0, 5}, {0x6C, 0x6C, 0x1E, 0x40, 0x00, 0x80});
  // Element 7 alone (last of a group): low bits 11 at bits 1-0 of byte 1, high bit at bit 0.
  ExpectLayout(ElementType::kU3, {0, 0, 0, 0, 0, 0, 0, 7}, {0x00, 0x03, 0x01});
}

TEST(TensorPacking, U6SplitLayout) {
  // 0x3F = 11|1111, 0x01 = 00|0001, 0x12 = 01|0010, 0x2A = 10|1010:
  // low nibbles F 1 2 A -> 0xF1 0x2A; high pairs 11 00 01 10 -> 0xC6.
  ExpectLayout(ElementType::kU6, {0x3F, 0x01, 0x12, 0x2A}, {0xF1, 0x2A, 0xC6});
  ExpectLayout(ElementType::kU6, {0x3F, 0x01, 0x12, 0x2A, 0x21},
               {0xF1, 0x2A, 0xC6, 0x10, 0x00, 0x80});
}

TEST(TensorPacking, WholeByteTypesAreLittleEndian) {
  ExpectLayout(ElementType::kU8, {0x12, 0xFF}, {0x12, 0xFF});
  ExpectLayout(ElementType::kBoolean, {1, 0}, {0x01, 0x00});
  ExpectLayout(ElementType::kF8e8m0, {0x7F}, {0x7F});
  ExpectLayout(ElementType::kU16, {0x1234, 0xABCD}, {0x34, 0x12, 0xCD, 0xAB});
  ExpectLayout(ElementType::kBf16, {0x3F80}, {0x80, 0x3F});
  ExpectLayout(ElementType::kF32, {0x3F800000}, {0x00, 0x00, 0x80, 0x3F});
  ExpectLayout(ElementType::kI32, {0x01020304}, {0x04, 0x03, 0x02, 0x01});
  ExpectLayout(ElementType::kU64, {0x0102030405060708ULL},
               {0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01});
  ExpectLayout(ElementType::kF64, {0xFFFFFFFFFFFFFFFFULL},
               {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF});
}

// A second packing written as a bit stream, per the documented layouts, checked against
// SetBits / GetBits for every type and many lengths.
std::vector<uint8_t> ReferencePack(ElementType t, const std::vector<uint64_t>& v) {
  const int w = BitWidth(t);
  std::vector<uint8_t> out;
  switch (PackingOf(t)) {
    case Packing::kBytes:
      for (uint64_t x : v)
        for (int k = 0; k < w / 8; ++k) out.push_back(static_cast<uint8_t>(x >> (8 * k)));
      break;
    case Packing::kMsbFirst:
      // The stream's bit j is bit (7 - j % 8) of byte j / 8; element i occupies stream bits
      // [i * w, (i + 1) * w), most significant first.
      out.assign((v.size() * static_cast<size_t>(w) + 7) / 8, 0);
      for (size_t i = 0; i < v.size(); ++i)
        for (int b = 0; b < w; ++b) {
          const size_t j = i * static_cast<size_t>(w) + static_cast<size_t>(b);
          if ((v[i] >> (w - 1 - b)) & 1) out[j / 8] |= static_cast<uint8_t>(0x80 >> (j % 8));
        }
      break;
    case Packing::kLowNibbleFirst:
      out.assign((v.size() + 1) / 2, 0);
      for (size_t i = 0; i < v.size(); ++i)
        out[i / 2] |= static_cast<uint8_t>((v[i] & 0xF) << (i % 2 == 0 ? 0 : 4));
      break;
    case Packing::kSplit: {
      // Per group of n = 24 / w: two streams, MSB first; the low (16 / n) bits of each element
      // in the first 16 bits, the high (8 / n) bits in the last 8.
      const size_t n = static_cast<size_t>(24 / w), lo = 16 / n, hi = 8 / n;
      out.assign((v.size() + n - 1) / n * 3, 0);
      for (size_t i = 0; i < v.size(); ++i) {
        const size_t g = i / n * 3, k = i % n;
        for (size_t b = 0; b < lo; ++b) {
          const size_t j = k * lo + b;  // bit j of the 16-bit stream, MSB first
          if ((v[i] >> (lo - 1 - b)) & 1) out[g + j / 8] |= static_cast<uint8_t>(0x80 >> (j % 8));
        }
        for (size_t b = 0; b < hi; ++b) {
          const size_t j = k * hi + b;
          if ((v[i] >> (lo + hi - 1 - b)) & 1) out[g + 2] |= static_cast<uint8_t>(0x80 >> j);
        }
      }
      break;
    }
  }
  return out;
}

TEST(TensorPacking, EveryTypeAgreesWithABitStreamReference) {
  for (ElementType t : AllElementTypes()) {
    const int w = BitWidth(t);
    const uint64_t mask = w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
    for (int64_t n : {0, 1, 2, 3, 5, 7, 8, 9, 13, 24, 25, 100}) {
      std::vector<uint64_t> v;
      for (int64_t i = 0; i < n; ++i)
        v.push_back(testing::Mix(static_cast<uint64_t>(i * 31 + n)) & mask);
      const Tensor x = FromBits(t, v);
      ASSERT_EQ(x.bytes, ReferencePack(t, v)) << ElementTypeName(t) << " n=" << n;
      ASSERT_EQ(static_cast<int64_t>(x.bytes.size()), *PackedByteSize(t, n));
      for (int64_t i = 0; i < n; ++i) ASSERT_EQ(x.GetBits(i), v[static_cast<size_t>(i)]);
    }
  }
}

TEST(TensorPacking, SetBitsMasksToTheWidthAndLeavesNeighboursAlone) {
  for (ElementType t : AllElementTypes()) {
    Tensor x = FromBits(t, std::vector<uint64_t>(9, 0));
    x.SetBits(4, ~uint64_t{0});
    const int w = BitWidth(t);
    const uint64_t mask = w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
    for (int64_t i = 0; i < 9; ++i)
      EXPECT_EQ(x.GetBits(i), i == 4 ? mask : 0) << ElementTypeName(t);
    x.SetBits(4, 0);
    for (uint8_t b : x.bytes) EXPECT_EQ(b, 0) << ElementTypeName(t);
  }
}

TEST(TensorPacking, PackedByteSize) {
  EXPECT_EQ(PackedByteSize(ElementType::kU1, 0), 0);
  EXPECT_EQ(PackedByteSize(ElementType::kU1, 1), 1);
  EXPECT_EQ(PackedByteSize(ElementType::kU1, 8), 1);
  EXPECT_EQ(PackedByteSize(ElementType::kU1, 9), 2);
  EXPECT_EQ(PackedByteSize(ElementType::kU2, 4), 1);
  EXPECT_EQ(PackedByteSize(ElementType::kU2, 5), 2);
  EXPECT_EQ(PackedByteSize(ElementType::kU4, 3), 2);
  EXPECT_EQ(PackedByteSize(ElementType::kNf4, 4), 2);
  EXPECT_EQ(PackedByteSize(ElementType::kU3, 1), 3);
  EXPECT_EQ(PackedByteSize(ElementType::kU3, 8), 3);
  EXPECT_EQ(PackedByteSize(ElementType::kU3, 9), 6);
  EXPECT_EQ(PackedByteSize(ElementType::kU6, 4), 3);
  EXPECT_EQ(PackedByteSize(ElementType::kU6, 5), 6);
  EXPECT_EQ(PackedByteSize(ElementType::kBoolean, 3), 3);
  EXPECT_EQ(PackedByteSize(ElementType::kF16, 3), 6);
  EXPECT_EQ(PackedByteSize(ElementType::kF32, 3), 12);
  EXPECT_EQ(PackedByteSize(ElementType::kF64, 3), 24);
  // Near the top of int64.
  EXPECT_EQ(PackedByteSize(ElementType::kU1, INT64_MAX), INT64_MAX / 8 + 1);
  EXPECT_EQ(PackedByteSize(ElementType::kU8, INT64_MAX), INT64_MAX);
  EXPECT_EQ(PackedByteSize(ElementType::kF64, int64_t{1} << 60), std::nullopt);
  EXPECT_EQ(PackedByteSize(ElementType::kU16, int64_t{1} << 62), std::nullopt);
  // u3 / u6 never overflow: 3 * ceil(n / 8) and 3 * ceil(n / 4) stay below n.
  EXPECT_EQ(PackedByteSize(ElementType::kU3, INT64_MAX), 3 * (int64_t{1} << 60));
  EXPECT_EQ(PackedByteSize(ElementType::kU6, INT64_MAX), 3 * (int64_t{1} << 61));
}

TEST(TensorPacking, EqualityIgnoresPaddingBitsOnly) {
  struct Case {
    ElementType t;
    int64_t n;
    size_t byte;
    uint8_t pad_bits;  // bits of `byte` that hold no element
  };
  const Case cases[] = {
      {ElementType::kU1, 3, 0, 0x1F},  {ElementType::kU2, 3, 0, 0x03},
      {ElementType::kU4, 3, 1, 0xF0},  {ElementType::kI4, 1, 0, 0xF0},
      {ElementType::kNf4, 5, 2, 0xF0}, {ElementType::kF4e2m1, 3, 1, 0xF0},
      {ElementType::kU3, 2, 1, 0xFF},  {ElementType::kU3, 2, 2, 0x3F},
      {ElementType::kU6, 3, 1, 0x0F},  {ElementType::kU6, 3, 2, 0x03},
  };
  for (const Case& c : cases) {
    const Tensor a = testing::Pattern(c.t, {c.n});
    Tensor b = a;
    b.bytes[c.byte] |= c.pad_bits;
    EXPECT_TRUE(a == b) << ElementTypeName(c.t) << " n=" << c.n;
    // Flipping one element bit is a difference.
    Tensor d = a;
    d.SetBits(c.n - 1, a.GetBits(c.n - 1) ^ 1);
    EXPECT_FALSE(a == d) << ElementTypeName(c.t);
  }
  // Type and shape are part of equality.
  const Tensor x = testing::Pattern(ElementType::kU8, {2, 3});
  Tensor y = x;
  y.shape = {3, 2};
  EXPECT_FALSE(x == y);
  y = x;
  y.type = ElementType::kI8;
  EXPECT_FALSE(x == y);
  // Whole-byte types compare every byte.
  y = x;
  y.bytes[5] ^= 0x80;
  EXPECT_FALSE(x == y);
}

TEST(TensorPacking, ValidateChecksTheByteCount) {
  Tensor x = *Tensor::Zeros(ElementType::kU3, {9});
  EXPECT_TRUE(x.Validate("x").ok());
  x.bytes.pop_back();
  const absl::Status s = x.Validate("x");
  EXPECT_EQ(s.message().substr(0, 22), "case.tensor.byte_size:") << s;
}

}  // namespace
}  // namespace dmconf
