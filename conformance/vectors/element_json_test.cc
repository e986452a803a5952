// Element encoding: expected JSON values are hand-derived from the IEEE / OCP bit layouts.
#include "harness/io/element_json.h"

#include <gtest/gtest.h>

namespace dmconf::io {
namespace {

using nlohmann::json;

std::string EncText(ElementType t, uint64_t bits) { return EncodeElement(t, bits).dump(); }

TEST(ElementJson, IntegerTypesAreJsonIntegers) {
  EXPECT_EQ(EncText(ElementType::kI8, 0x80), "-128");
  EXPECT_EQ(EncText(ElementType::kI8, 0x7F), "127");
  EXPECT_EQ(EncText(ElementType::kI4, 0xF), "-1");
  EXPECT_EQ(EncText(ElementType::kI4, 0x8), "-8");
  EXPECT_EQ(EncText(ElementType::kU4, 0xF), "15");
  EXPECT_EQ(EncText(ElementType::kU1, 1), "1");
  EXPECT_EQ(EncText(ElementType::kU3, 7), "7");
  EXPECT_EQ(EncText(ElementType::kU6, 63), "63");
  EXPECT_EQ(EncText(ElementType::kU64, ~uint64_t{0}), "18446744073709551615");
  EXPECT_EQ(EncText(ElementType::kI64, uint64_t{1} << 63), "-9223372036854775808");
  EXPECT_EQ(EncText(ElementType::kBoolean, 1), "1");
}

TEST(ElementJson, IntegerValuedFloatsAreReadable) {
  EXPECT_EQ(EncText(ElementType::kF32, 0x40400000), "3");   // 1.5 * 2^1
  EXPECT_EQ(EncText(ElementType::kF32, 0xC0E00000), "-7");  // -1.75 * 2^2
  EXPECT_EQ(EncText(ElementType::kF32, 0x00000000), "0");
  EXPECT_EQ(EncText(ElementType::kF16, 0x3C00), "1");
  EXPECT_EQ(EncText(ElementType::kF16, 0x7BFF), "65504");  // largest f16
  EXPECT_EQ(EncText(ElementType::kBf16, 0x3F80), "1");
  EXPECT_EQ(EncText(ElementType::kF64, 0x4059000000000000), "100");
  EXPECT_EQ(EncText(ElementType::kF8e4m3, 0x38), "1");    // exp 7 = bias
  EXPECT_EQ(EncText(ElementType::kF8e4m3, 0x7E), "448");  // largest E4M3FN: 1.75 * 2^8
  EXPECT_EQ(EncText(ElementType::kF8e5m2, 0x3C), "1");    // exp 15 = bias
  EXPECT_EQ(EncText(ElementType::kF8e8m0, 0x7F), "1");    // 2^0
  EXPECT_EQ(EncText(ElementType::kF8e8m0, 0x80), "2");
  EXPECT_EQ(EncText(ElementType::kF4e2m1, 0x7), "6");  // 1.5 * 2^2
  EXPECT_EQ(EncText(ElementType::kF4e2m1, 0xA), "-1");
}

TEST(ElementJson, EverythingElseIsHexBits) {
  EXPECT_EQ(EncText(ElementType::kF32, 0x7FC00001), "\"0x7fc00001\"");  // NaN payload
  EXPECT_EQ(EncText(ElementType::kF32, 0x7F800001), "\"0x7f800001\"");  // signalling NaN
  EXPECT_EQ(EncText(ElementType::kF32, 0x80000000), "\"0x80000000\"");  // -0
  EXPECT_EQ(EncText(ElementType::kF32, 0x7F800000), "\"0x7f800000\"");  // +inf
  EXPECT_EQ(EncText(ElementType::kF32, 0x00000001), "\"0x00000001\"");  // smallest subnormal
  EXPECT_EQ(EncText(ElementType::kF32, 0x3F000000), "\"0x3f000000\"");  // 0.5
  EXPECT_EQ(EncText(ElementType::kF32, 0x5F000000), "\"0x5f000000\"");  // 2^63 > 2^53
  EXPECT_EQ(EncText(ElementType::kF16, 0x0001), "\"0x0001\"");
  EXPECT_EQ(EncText(ElementType::kF8e4m3, 0x7F), "\"0x7f\"");  // NaN
  EXPECT_EQ(EncText(ElementType::kF8e8m0, 0xFF), "\"0xff\"");  // NaN
  EXPECT_EQ(EncText(ElementType::kF8e8m0, 0x00), "\"0x00\"");  // 2^-127
  EXPECT_EQ(EncText(ElementType::kNf4, 0x7), "\"0x7\"");
}

TEST(ElementJson, DecodeAcceptsExactNumbersAndHex) {
  EXPECT_EQ(*DecodeElement(ElementType::kF32, json(0.5)), 0x3F000000u);
  EXPECT_EQ(*DecodeElement(ElementType::kF32, json(-0.0)), 0x80000000u);
  EXPECT_EQ(*DecodeElement(ElementType::kF16, json(-2)), 0xC000u);
  EXPECT_EQ(*DecodeElement(ElementType::kF16, json(5.9604644775390625e-08)), 0x0001u);
  EXPECT_EQ(*DecodeElement(ElementType::kBf16, json(1)), 0x3F80u);
  EXPECT_EQ(*DecodeElement(ElementType::kF4e2m1, json(1.5)), 0x3u);
  EXPECT_EQ(*DecodeElement(ElementType::kF32, json("0x7FC00001")), 0x7FC00001u);
  EXPECT_EQ(*DecodeElement(ElementType::kI8, json(-128)), 0x80u);
  EXPECT_EQ(*DecodeElement(ElementType::kBoolean, json(true)), 1u);
}

TEST(ElementJson, DecodeRejectsInexactOrOutOfRange) {
  EXPECT_FALSE(DecodeElement(ElementType::kF16, json(0.1)).ok());
  EXPECT_FALSE(DecodeElement(ElementType::kF16, json(65505)).ok());
  EXPECT_FALSE(DecodeElement(ElementType::kBf16, json(257)).ok());  // needs 9 significant bits
  EXPECT_FALSE(DecodeElement(ElementType::kI8, json(128)).ok());
  EXPECT_FALSE(DecodeElement(ElementType::kU8, json(-1)).ok());
  EXPECT_FALSE(DecodeElement(ElementType::kI4, json(8)).ok());
  EXPECT_FALSE(DecodeElement(ElementType::kU8, json(1.5)).ok());
  EXPECT_FALSE(DecodeElement(ElementType::kU8, json("0x01")).ok());
  EXPECT_FALSE(DecodeElement(ElementType::kF16, json("0x10000")).ok());
  EXPECT_FALSE(DecodeElement(ElementType::kF16, json("0xzz")).ok());
  EXPECT_FALSE(DecodeElement(ElementType::kF32, json(nullptr)).ok());
  EXPECT_FALSE(DecodeElement(ElementType::kNf4, json(1)).ok());
}

// Every code of every type up to 16 bits, and a spread of 32/64-bit patterns, round-trip.
TEST(ElementJson, EveryCodeRoundTrips) {
  for (ElementType t : AllElementTypes()) {
    const int w = BitWidth(t);
    std::vector<uint64_t> codes;
    if (w <= 16) {
      for (uint64_t b = 0; b < (uint64_t{1} << w); ++b) codes.push_back(b);
    } else {
      uint64_t x = 0x9E3779B97F4A7C15ull;
      for (int i = 0; i < 20000; ++i) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        codes.push_back(w == 64 ? x : x & ((uint64_t{1} << w) - 1));
      }
      for (uint64_t special : {0x0ull, 0x80000000ull, 0x7F800000ull, 0xFF800000ull, 0x7FC00000ull,
                               0x7F800001ull, 0x00000001ull, 0x7FFFFFFFull}) {
        codes.push_back(special);
      }
    }
    for (uint64_t b : codes) {
      const std::string text = EncodeElement(t, b).dump();
      absl::StatusOr<uint64_t> back = DecodeElement(t, json::parse(text));
      ASSERT_TRUE(back.ok()) << ElementTypeName(t) << " " << text << " " << back.status();
      ASSERT_EQ(*back, b) << ElementTypeName(t) << " " << text;
    }
  }
}

}  // namespace
}  // namespace dmconf::io
