// The ONNX node-test import: TensorProtos (built with ONNX's generated class, and packed fields),
// the mapping of modes, the values of the ONNX DepthToSpace documentation example, agreement with
// the oracle, and bad protobuf input.
#include "harness/onnx/onnx_import.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "absl/strings/match.h"
#include "harness/io/vector_verify.h"
#include "onnx/onnx_pb.h"

namespace dmconf::io {
namespace {

uint32_t F32(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

std::string LittleEndian(const std::vector<float>& v) {
  std::string out;
  for (float f : v) {
    const uint32_t b = F32(f);
    for (int k = 0; k < 4; ++k) out += static_cast<char>((b >> (8 * k)) & 0xFF);
  }
  return out;
}

// A TensorProto built with ONNX's generated class: dims [2, 3], float, raw_data.
TEST(OnnxImport, ParsesDimsAndRawData) {
  ::onnx::TensorProto p;
  p.add_dims(2);
  p.add_dims(3);
  p.set_data_type(::onnx::TensorProto::FLOAT);
  p.set_raw_data(LittleEndian({0, 1.5f, -2, 3, 4, 5}));
  absl::StatusOr<Tensor> t = ParseOnnxTensor(p.SerializeAsString(), "t.pb");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->shape, (Shape{2, 3}));
  EXPECT_EQ(t->GetBits(1), F32(1.5f));
  EXPECT_EQ(t->GetBits(2), F32(-2));
}

// float_data (packed, as onnx.proto declares it), and dims packed: the generated class writes
// dims unpacked, so these bytes are spelt out (field 1, wire type 2, length 2: dims 1 and 2;
// data_type 1; float_data: field 4, wire type 2, 8 bytes).
TEST(OnnxImport, ParsesPackedDimsAndFloatData) {
  std::string pb = std::string("\x0a\x02\x01\x02\x10\x01\x22\x08", 8) + LittleEndian({7, 8});
  absl::StatusOr<Tensor> t = ParseOnnxTensor(pb, "t.pb");
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->shape, (Shape{1, 2}));
  EXPECT_EQ(t->GetBits(1), F32(8));
  ::onnx::TensorProto p;
  p.add_dims(1);
  p.add_dims(2);
  p.set_data_type(::onnx::TensorProto::FLOAT);
  p.add_float_data(7);
  p.add_float_data(8);
  absl::StatusOr<Tensor> u = ParseOnnxTensor(p.SerializeAsString(), "u.pb");
  ASSERT_TRUE(u.ok()) << u.status();
  EXPECT_TRUE(*u == *t);
}

TEST(OnnxImport, BadProtobufGivesErrorsNamingTheFile) {
  const std::string good =
      std::string("\x08\x02\x08\x03\x10\x01\x4a\x18", 8) + LittleEndian({0, 1, 2, 3, 4, 5});
  const std::string bad[] = {
      good.substr(0, good.size() - 3),                                    // truncated raw_data
      std::string("\x08\x02\x10\x07\x4a\x08", 6) + LittleEndian({1, 2}),  // data_type 7
      std::string("\x08\x05\x10\x01\x4a\x08", 6) + LittleEndian({1, 2}),  // 5 dims, 2 values
      std::string("\x08\xff\xff\xff\xff\xff\xff\xff\xff\x7f\x08\xff\xff\xff\xff\xff\xff\xff\xff"
                  "\x7f\x10\x01",
                  23),                             // dims overflow
      std::string("\x0f", 1),                      // wire type 7
      std::string("\x08", 1),                      // varint cut off
      std::string("\x4a\xff\xff\xff\xff\x0f", 6),  // length past the end
  };
  for (const std::string& b : bad) {
    absl::StatusOr<Tensor> t = ParseOnnxTensor(b, "bad.pb");
    ASSERT_FALSE(t.ok());
    EXPECT_TRUE(absl::StartsWith(t.status().message(), "onnx.")) << t.status();
    EXPECT_NE(t.status().message().find("bad.pb"), absl::string_view::npos) << t.status();
  }
}

std::string NodeDir(const std::string& name) { return std::string(kOnnxTestDataDir) + "/" + name; }

bool HaveTestData() { return std::filesystem::is_directory(NodeDir("test_depthtospace_example")); }

// The ONNX DepthToSpace documentation example (DCR): x[0, c, h, w] = 9 c + 3 h + w, and the
// first output row is 0, 18, 1, 19, 2, 20 (typed in from the ONNX operator docs).
TEST(OnnxImport, DocumentationExampleValuesAndMapping) {
  if (!HaveTestData()) GTEST_SKIP() << "libonnx-testdata is not installed";
  absl::StatusOr<VectorCase> v = ImportOnnxNodeTest(NodeDir("test_depthtospace_example"));
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->c.op, Op::kDepthToSpace);
  EXPECT_EQ(v->c.mode, "blocks_first");
  EXPECT_EQ(v->c.block_size, 2);
  EXPECT_EQ(v->c.data.shape, (Shape{1, 8, 2, 3}));
  EXPECT_EQ(v->c.data.GetBits(6), F32(9));  // x[0, 1, 0, 0]
  ASSERT_TRUE(v->expected.output.has_value());
  EXPECT_EQ(v->expected.output->shape, (Shape{1, 2, 4, 6}));
  const float row[] = {0, 18, 1, 19, 2, 20};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(v->expected.output->GetBits(i), F32(row[i]));
  EXPECT_EQ(v->provenance.kind, "external");

  absl::StatusOr<VectorCase> crd = ImportOnnxNodeTest(NodeDir("test_depthtospace_crd_mode"));
  ASSERT_TRUE(crd.ok()) << crd.status();
  EXPECT_EQ(crd->c.mode, "depth_first");
  absl::StatusOr<VectorCase> s2d = ImportOnnxNodeTest(NodeDir("test_spacetodepth"));
  ASSERT_TRUE(s2d.ok()) << s2d.status();
  EXPECT_EQ(s2d->c.op, Op::kSpaceToDepth);
  EXPECT_EQ(s2d->c.mode, "blocks_first");
}

TEST(OnnxImport, EveryTestAgreesWithTheOracle) {
  if (!HaveTestData()) GTEST_SKIP() << "libonnx-testdata is not installed";
  for (const std::string& name : OnnxNodeTestNames()) {
    absl::StatusOr<VectorCase> v = ImportOnnxNodeTest(NodeDir(name));
    ASSERT_TRUE(v.ok()) << v.status();
    std::optional<std::string> why = OracleMismatch(*v);
    EXPECT_FALSE(why.has_value()) << name << ": " << *why;
  }
}

TEST(OnnxImport, MissingFolderIsAnError) {
  EXPECT_FALSE(ImportOnnxNodeTest("/nonexistent/test_depthtospace_example").ok());
}

}  // namespace
}  // namespace dmconf::io
