// Big tensors are read and written without a parsed JSON value per element (json_location.h
// DeferredArrays, canonical_json.h TensorRefs): the text and the bits must be exactly those of
// the element-by-element path, errors keep their rule and location, and a file too large to be
// read back is never written.
#include <cstring>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "harness/base/json_location.h"
#include "harness/io/canonical_json.h"
#include "harness/io/case_json.h"
#include "harness/io/vector_file.h"

namespace dmconf {
namespace {

// DepthToSpace f32 [1, 8, 25, 25] (5000 elements, above the 4096 threshold) whose values mix
// integers, NaNs with payloads, -0, infinities and fractions: both JSON element forms.
io::VectorCase BigCase() {
  OpCase c;
  c.op = Op::kDepthToSpace;
  c.id = "big.d2s.f32";
  c.block_size = 2;
  c.mode = "blocks_first";
  absl::StatusOr<Tensor> data = Tensor::Zeros(ElementType::kF32, {1, 8, 25, 25});
  EXPECT_TRUE(data.ok());
  const uint32_t specials[] = {0x7fc00001u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x3f000000u};
  for (int64_t i = 0; i < data->NumElements(); ++i) {
    float f = static_cast<float>(i);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    data->SetBits(i, i % 7 == 3 ? specials[i % 5] : bits);
  }
  c.data = *std::move(data);
  io::Provenance p;
  p.kind = "hand_written";
  p.note = "big tensor";
  absl::StatusOr<io::VectorCase> v = io::VectorCaseFromOracle(std::move(c), p, {});
  EXPECT_TRUE(v.ok()) << v.status();
  return *std::move(v);
}

TEST(BigTensors, WrittenTextEqualsTheElementByElementText) {
  const io::VectorCase v = BigCase();
  // The reference: every element a parsed JSON value, dumped by the same canonical writer.
  const std::string reference = io::DumpCanonical(io::VectorCaseToJson(v));
  EXPECT_EQ(io::SerializeVector(v), reference);
  EXPECT_TRUE(absl::StrContains(reference, "\"0x7fc00001\"")) << "both element forms are used";
}

TEST(BigTensors, ReadBackBitForBit) {
  const io::VectorCase v = BigCase();
  absl::StatusOr<io::VectorCase> back = io::ParseVector(io::SerializeVector(v), "big.json");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->c.data.shape, v.c.data.shape);
  EXPECT_EQ(back->c.data.bytes, v.c.data.bytes);
  ASSERT_TRUE(back->expected.output.has_value());
  EXPECT_EQ(back->expected.output->bytes, v.expected.output->bytes);
}

TEST(BigTensors, ErrorsInADeferredArrayKeepTheirRuleAndLocation) {
  const io::VectorCase v = BigCase();
  nlohmann::ordered_json j = io::VectorCaseToJson(v);
  nlohmann::ordered_json bad_value = j;
  bad_value["inputs"][0]["data"][4500] = "0xnothex";
  absl::Status s = io::ParseVector(bad_value.dump(), "big.json").status();
  EXPECT_TRUE(absl::StartsWith(s.message(), "vector.element.value: big.json: /inputs/0/data/4500:"))
      << s;
  nlohmann::ordered_json short_array = j;
  short_array["expectation"]["output"]["data"].erase(4999);
  s = io::ParseVector(short_array.dump(), "big.json").status();
  EXPECT_TRUE(
      absl::StartsWith(s.message(),
                       "case.tensor.byte_size: big.json: /expectation/output/data: 4999 values, "
                       "but shape [1,2,50,50] has 5000 elements"))
      << s;
}

TEST(BigTensors, VisitArrayElementsGoesInOrderAndStops) {
  const std::string text = R"({"a": {"data": [5, "x", 7]}, "b": [1, 2], "c": {"data": [9]}})";
  std::vector<std::string> seen;
  io::VisitArrayElements(text, "/a/data", [&](size_t i, const nlohmann::json& e) {
    seen.push_back(std::to_string(i) + "=" + e.dump());
    return true;
  });
  EXPECT_EQ(seen, (std::vector<std::string>{"0=5", "1=\"x\"", "2=7"}));
  seen.clear();
  io::VisitArrayElements(text, "/a/data", [&](size_t i, const nlohmann::json& e) {
    seen.push_back(std::to_string(i) + "=" + e.dump());
    return false;
  });
  EXPECT_EQ(seen, (std::vector<std::string>{"0=5"}));
}

TEST(BigTensors, AFileTooLargeToReadBackIsNotWritten) {
  // 90,000,000 u1 elements (11 MB of bits) need at least 3 bytes each as text: 270,000,000
  // bytes, above the 256 MiB (268,435,456 bytes) the reader accepts.
  io::VectorCase v;
  v.c.op = Op::kDepthToSpace;
  v.c.id = "too.big";
  v.c.block_size = 1;
  v.c.mode = "blocks_first";
  absl::StatusOr<Tensor> data = Tensor::Zeros(ElementType::kU1, {1, 90000000, 1, 1});
  ASSERT_TRUE(data.ok());
  v.c.data = *std::move(data);
  v.expected.kind = ExpectationKind::kUnspecified;
  const std::string path = ::testing::TempDir() + "/too.big.json";
  absl::Status s = io::WriteVectorFile(path, v);
  EXPECT_TRUE(absl::StartsWith(s.message(), "vector.write.too_large: " + path)) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "at least 270000000 bytes")) << s;
  EXPECT_FALSE(io::ReadVectorFile(path).ok()) << "nothing was written";
}

}  // namespace
}  // namespace dmconf
