// The ONNX import through the ONNX library: Debian's libonnx-testdata still gives the
// checked-in vectors byte for byte, and hostile files are refused by rule before (or instead
// of) a large allocation.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "conformance/vectors/scratch_dir.h"
#include "harness/base/files.h"
#include "harness/io/vector_file.h"
#include "harness/onnx/onnx_export.h"
#include "harness/onnx/onnx_import.h"
#include "harness/onnx/onnx_parse.h"
#include "onnx/onnx_pb.h"
#include "oracle/oracle.h"

namespace dmconf::io {
namespace {

bool HaveTestData() {
  return std::filesystem::is_directory(std::string(kOnnxTestDataDir) + "/test_spacetodepth");
}

// The checked-in vectors/external/onnx files were written by the earlier hand-written reader;
// the library-based one must give the same bytes.
TEST(OnnxImport, LibonnxTestdataGivesTheCheckedInVectorsByteForByte) {
  if (!HaveTestData()) GTEST_SKIP() << "libonnx-testdata is not installed";
  for (const std::string& name : OnnxNodeTestNames()) {
    absl::StatusOr<VectorCase> v = ImportOnnxNodeTest(std::string(kOnnxTestDataDir) + "/" + name);
    ASSERT_TRUE(v.ok()) << v.status();
    absl::StatusOr<std::string> file = ReadFileToString(
        absl::StrCat(DMCONF_SOURCE_DIR, "/vectors/external/onnx/onnx.", name, ".json"), 1 << 24);
    ASSERT_TRUE(file.ok()) << file.status();
    EXPECT_EQ(SerializeVector(*v), *file) << name;
  }
}

std::string Refusal(const ::onnx::TensorProto& t) {
  absl::StatusOr<Tensor> r = ParseOnnxTensor(t.SerializeAsString(), "hostile.pb");
  EXPECT_FALSE(r.ok());
  if (r.ok()) return "";
  EXPECT_NE(r.status().message().find("hostile.pb"), absl::string_view::npos) << r.status();
  return std::string(r.status().message());
}

::onnx::TensorProto FloatTensor(int dims) {
  ::onnx::TensorProto t;
  t.set_data_type(::onnx::TensorProto::FLOAT);
  for (int i = 0; i < dims; ++i) t.add_dims(1);
  t.set_raw_data(std::string(4, '\0'));
  return t;
}

TEST(OnnxImport, HostileTensorsAreRefusedByRule) {
  EXPECT_TRUE(ParseOnnxTensor(FloatTensor(64).SerializeAsString(), "ok.pb").ok());
  // Too many dims: after the parse (65) or already in the walk before it (1000).
  EXPECT_TRUE(absl::StartsWith(Refusal(FloatTensor(65)), "onnx.tensor.shape: "));
  EXPECT_TRUE(absl::StartsWith(Refusal(FloatTensor(1000)), "onnx.protobuf: "));
  // Fields that expand in memory are not parsed at all.
  ::onnx::TensorProto ints;
  ints.set_data_type(::onnx::TensorProto::INT64);
  ints.add_dims(2);
  ints.add_int64_data(1);
  ints.add_int64_data(2);
  EXPECT_TRUE(absl::StartsWith(Refusal(ints), "onnx.tensor.storage: "));
  ::onnx::TensorProto strings = FloatTensor(1);
  strings.add_string_data("x");
  EXPECT_TRUE(absl::StartsWith(Refusal(strings), "onnx.tensor.storage: "));
  ::onnx::TensorProto external = FloatTensor(1);
  external.add_external_data()->set_key("location");
  EXPECT_TRUE(absl::StartsWith(Refusal(external), "onnx.tensor.storage: "));
  // A type without an OpenVINO match, a byte count that does not fit the shape, float_data
  // holding a non-float tensor.
  ::onnx::TensorProto text = FloatTensor(1);
  text.set_data_type(::onnx::TensorProto::STRING);
  EXPECT_TRUE(absl::StartsWith(Refusal(text), "onnx.data_type: "));
  ::onnx::TensorProto short_data = FloatTensor(1);
  short_data.set_raw_data("abc");
  EXPECT_TRUE(absl::StartsWith(Refusal(short_data), "onnx.tensor.size: "));
  ::onnx::TensorProto f16_floats;
  f16_floats.set_data_type(::onnx::TensorProto::FLOAT16);
  f16_floats.add_dims(1);
  f16_floats.add_float_data(1.0f);
  EXPECT_TRUE(absl::StartsWith(Refusal(f16_floats), "onnx.tensor.storage: "));
  ::onnx::TensorProto negative = FloatTensor(1);
  negative.set_dims(0, -1);
  EXPECT_TRUE(absl::StartsWith(Refusal(negative), "onnx.tensor.shape: "));
  // A field number TensorProto does not have: field 99, varint 1.
  EXPECT_TRUE(
      absl::StartsWith(ParseOnnxTensor(FloatTensor(1).SerializeAsString() + "\x98\x06\x01", "x.pb")
                           .status()
                           .message(),
                       "onnx.protobuf: "));
}

std::string FreshDir(const std::string& name) {
  return testing::ScratchDir("onnx_hostile_" + name);
}

// One SpaceToBatch vector (block_shape [1, 2], pads [0, 0] / [0, 1]) exported to `dir`.
std::string ExportOne(const std::string& dir) {
  OpCase c;
  c.op = Op::kSpaceToBatch;
  c.data = *MakeTensor(ElementType::kF32, {1, 3}, [](int64_t i) { return uint64_t(i + 1); });
  c.int_inputs = {*MakeIntegerTensor(ElementType::kI64, {1, 2}),
                  *MakeIntegerTensor(ElementType::kI64, {0, 0}),
                  *MakeIntegerTensor(ElementType::kI64, {0, 1})};
  c.id = "hostile.s2b";
  Provenance p;
  p.kind = "hand_written";
  p.note = "export for the hostile-file tests";
  absl::StatusOr<VectorCase> v = VectorCaseFromOracle(c, p, {});
  EXPECT_TRUE(v.ok()) << v.status();
  absl::StatusOr<OnnxExport> e = ExportOnnx({*v}, dir);
  EXPECT_TRUE(e.ok() && e->exported.size() == 1) << e.status();
  return absl::StrCat(dir, "/", OnnxTestFolderName(c.id));
}

TEST(OnnxImport, HostileModelsAreRefusedByRule) {
  const std::string folder = ExportOne(FreshDir("models"));
  ASSERT_TRUE(ImportOnnxNodeTest(folder).ok());
  const std::string model_path = folder + "/model.onnx";
  absl::StatusOr<::onnx::ModelProto> m = onnx_io::ReadOnnxModel(model_path);
  ASSERT_TRUE(m.ok()) << m.status();
  auto import_with = [&](const std::string& bytes) {
    EXPECT_TRUE(WriteFileAtomically(model_path, bytes).ok());
    absl::StatusOr<VectorCase> v = ImportOnnxNodeTest(folder);
    EXPECT_FALSE(v.ok());
    return v.ok() ? std::string() : std::string(v.status().message());
  };
  // A graph that no longer computes the recorded case (another transpose).
  ::onnx::ModelProto tampered = *m;
  for (::onnx::NodeProto& n : *tampered.mutable_graph()->mutable_node()) {
    if (n.op_type() == "Transpose") n.mutable_attribute(0)->set_ints(0, 1);
  }
  EXPECT_TRUE(absl::StartsWith(import_with(tampered.SerializeAsString()), "onnx.graph: "));
  // Recorded metadata that does not match the tensors.
  ::onnx::ModelProto lying = *m;
  std::string meta = lying.metadata_props(0).value();
  const size_t at = meta.find("[1, 3]");
  ASSERT_NE(at, std::string::npos);
  meta.replace(at, 6, "[3, 1]");
  lying.mutable_metadata_props(0)->set_value(meta);
  EXPECT_TRUE(absl::StartsWith(import_with(lying.SerializeAsString()), "onnx.metadata: "));
  // Not protobuf; above the model size limit (refused by its size before it is read).
  EXPECT_TRUE(absl::StartsWith(import_with("\xff\xff\xff\xff"), "onnx.protobuf: "));
  EXPECT_TRUE(absl::StartsWith(
      import_with(std::string(static_cast<size_t>(onnx_io::kMaxOnnxModelBytes) + 1, '\0')),
      "io.read.too_large: "));
  // Deep nesting is bounded by protobuf's recursion limit: graphs in attributes 200 deep.
  ::onnx::ModelProto deep = *m;
  ::onnx::GraphProto* g = deep.mutable_graph();
  for (int i = 0; i < 200; ++i) {
    ::onnx::AttributeProto* a = g->add_node()->add_attribute();
    a->set_name("body");
    g = a->mutable_g();
  }
  EXPECT_TRUE(absl::StartsWith(import_with(deep.SerializeAsString()), "onnx.protobuf: "));
}

// Seeded random damage (flipped, cut, repeated and inserted bytes) to a good tensor and to a
// good exported folder's model: every result is a value or an error naming a rule (onnx.*,
// io.*, vector.*, case.*), never a crash (run under ASan + UBSan in CI).
std::string Damage(std::string bytes, std::mt19937_64& rng) {
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && !bytes.empty(); ++e) {
    const size_t at = rng() % bytes.size();
    switch (rng() % 4) {
      case 0:
        bytes[at] = static_cast<char>(rng());
        break;
      case 1:
        bytes.resize(at);
        break;
      case 2:
        bytes.insert(at, bytes.substr(at, rng() % 16));
        break;
      default:
        bytes.insert(at, 1, static_cast<char>(rng()));
        break;
    }
  }
  return bytes;
}

bool NamesARule(absl::string_view message) {
  for (const char* prefix : {"onnx.", "io.", "vector.", "case."}) {
    if (absl::StartsWith(message, prefix)) return true;
  }
  return false;
}

TEST(OnnxImport, RandomDamageGivesValuesOrRuleErrors) {
  std::mt19937_64 rng(20261125);
  ::onnx::TensorProto t = FloatTensor(3);
  t.set_raw_data(std::string(4, '\x7f'));
  t.set_name("data");
  const std::string tensor = t.SerializeAsString();
  for (int i = 0; i < 20000; ++i) {
    absl::StatusOr<Tensor> r = ParseOnnxTensor(Damage(tensor, rng), "damaged.pb");
    if (!r.ok()) {
      EXPECT_TRUE(NamesARule(r.status().message())) << r.status();
    }
  }
  const std::string folder = ExportOne(FreshDir("damage"));
  absl::StatusOr<std::string> model = ReadFileToString(folder + "/model.onnx", 1 << 16);
  ASSERT_TRUE(model.ok()) << model.status();
  int imported = 0;
  for (int i = 0; i < 2000; ++i) {
    ASSERT_TRUE(WriteFileAtomically(folder + "/model.onnx", Damage(*model, rng)).ok());
    absl::StatusOr<VectorCase> v = ImportOnnxNodeTest(folder);
    if (v.ok()) {
      ++imported;
    } else {
      EXPECT_TRUE(NamesARule(v.status().message())) << v.status();
    }
  }
  // Most damage is caught; what still imports is a model whose damage missed what is read.
  EXPECT_LT(imported, 2000);
}

}  // namespace
}  // namespace dmconf::io
