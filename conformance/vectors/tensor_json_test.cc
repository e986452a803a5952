#include "harness/io/tensor_json.h"

#include <gtest/gtest.h>

#include <cstring>

#include "absl/strings/match.h"
#include "harness/io/canonical_json.h"

namespace dmconf::io {
namespace {

using nlohmann::json;

Tensor FromText(const std::string& text) {
  absl::StatusOr<Tensor> t = TensorFromJson(json::parse(text), JsonLoc{"t.json", ""}, {});
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : Tensor{};
}

absl::Status ErrorOf(const std::string& text) {
  return TensorFromJson(json::parse(text), JsonLoc{"t.json", "/output"}, {}).status();
}

TEST(TensorJson, SmallIntegerTensorIsReadable) {
  absl::StatusOr<Tensor> t = MakeTensor(ElementType::kF32, {2, 3}, [](int64_t i) {
    const float f = static_cast<float>(i);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  });
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(DumpCanonical(TensorToJson(*t)),
            "{\n  \"type\": \"f32\",\n  \"shape\": [2, 3],\n  \"data\": [\n    0, 1, 2,\n"
            "    3, 4, 5\n  ]\n}\n");
}

// u1 packs the first element in the most significant bit: bytes {0b10100000} hold 1,0,1.
TEST(TensorJson, SubBytePackingFollowsTheTypeOrder) {
  Tensor u1 = FromText(R"({"type": "u1", "shape": [3], "data": [1, 0, 1]})");
  ASSERT_EQ(u1.bytes.size(), 1u);
  EXPECT_EQ(u1.bytes[0], 0xA0);
  // u4 / i4: first element in the low nibble.
  Tensor i4 = FromText(R"({"type": "i4", "shape": [3], "data": [-1, 2, -8]})");
  ASSERT_EQ(i4.bytes.size(), 2u);
  EXPECT_EQ(i4.bytes[0], 0x2F);
  EXPECT_EQ(i4.bytes[1], 0x08);
  EXPECT_EQ(TensorToJson(i4)["data"].dump(), "[-1,2,-8]");
}

TEST(TensorJson, EveryTypeRoundTripsIncludingSpecialBits) {
  for (ElementType t : AllElementTypes()) {
    for (Shape shape : {Shape{}, Shape{0}, Shape{7}, Shape{2, 0, 3}, Shape{3, 5, 2}}) {
      const int w = BitWidth(t);
      absl::StatusOr<Tensor> x = MakeTensor(t, shape, [w](int64_t i) {
        // All-ones, the sign bit alone, and a spread of patterns.
        const uint64_t mask = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
        const uint64_t pats[] = {mask, uint64_t{1} << (w - 1), 0, 1,
                                 0x9E3779B97F4A7C15ull * static_cast<uint64_t>(i + 1)};
        return pats[i % 5] & mask;
      });
      ASSERT_TRUE(x.ok());
      const std::string text = DumpCanonical(TensorToJson(*x));
      Tensor back = FromText(text);
      EXPECT_EQ(back, *x) << ElementTypeName(t) << " " << text;
      EXPECT_EQ(back.bytes, x->bytes) << ElementTypeName(t);  // padding bits zero both sides
      EXPECT_EQ(DumpCanonical(TensorToJson(back)), text);
    }
  }
}

TEST(TensorJson, ErrorsNameRuleFileAndPointer) {
  struct Bad {
    const char* text;
    const char* starts;
    const char* contains;
  } cases[] = {
      {R"({"type": "f17", "shape": [1], "data": [0]})", "case.element_type.known",
       "t.json: /output/type"},
      {R"({"type": "f32", "shape": [2, -3], "data": []})", "case.tensor.dims_nonnegative",
       "/output/shape/1"},
      {R"({"type": "f32", "shape": [2, 3], "data": [1, 2, 3, 4, 5]})", "case.tensor.byte_size",
       "/output/data: 5 values, but shape [2,3] has 6 elements"},
      {R"({"type": "f32", "shape": [4294967296, 4294967296], "data": [1]})",
       "case.tensor.size_representable", "/output/shape"},
      {R"({"type": "f32", "shape": [1000000000000], "data": [1]})", "case.tensor.byte_size",
       "/output/data"},
      {R"({"type": "u8", "shape": [2], "data": [1, 256]})", "vector.element.value",
       "/output/data/1"},
      {R"({"type": "f32", "shape": [1], "data": [0], "extra": 1})", "vector.field.unknown",
       "/output/extra"},
      {R"({"type": "f32", "data": [0]})", "vector.field.missing", "'shape'"},
      {R"({"type": "f32", "shape": [1.5], "data": [0]})", "vector.field.type", "/output/shape/0"},
      {R"([1, 2])", "vector.field.type", "/output"},
  };
  for (const Bad& b : cases) {
    absl::Status s = ErrorOf(b.text);
    ASSERT_FALSE(s.ok()) << b.text;
    EXPECT_TRUE(absl::StartsWith(s.message(), b.starts)) << s.message();
    EXPECT_NE(s.message().find(b.contains), absl::string_view::npos) << s.message();
  }
}

// A zero-sized tensor with a huge other dim is well-formed: nothing is allocated.
TEST(TensorJson, ZeroSizedWithHugeDim) {
  Tensor t = FromText(R"({"type": "f32", "shape": [0, 9223372036854775807], "data": []})");
  EXPECT_EQ(t.bytes.size(), 0u);
}

}  // namespace
}  // namespace dmconf::io
