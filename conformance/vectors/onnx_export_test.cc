// `dmconf vectors export-onnx`: every exported model passes the ONNX checker and strict shape
// inference, computes its expected output under the test's own evaluator of the ONNX operators
// (onnx_reference.h, written from the ONNX operator documentation), and imports back to the
// same vector bit for bit; what ONNX cannot express is skipped with its reason.
#include "harness/onnx/onnx_export.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "conformance/vectors/onnx_reference.h"
#include "conformance/vectors/scratch_dir.h"
#include "harness/base/files.h"
#include "harness/io/vector_file.h"
#include "harness/onnx/model_builder.h"
#include "harness/onnx/model_check.h"
#include "harness/onnx/onnx_import.h"
#include "harness/onnx/onnx_parse.h"
#include "harness/onnx/tensor_proto.h"
#include "harness/suites/vector_sets.h"

namespace dmconf::io {
namespace {

const std::vector<VectorCase>& Golden() {
  static const auto* set = new std::vector<VectorCase>(*BuildProfile("golden", kDefaultSeed));
  return *set;
}

std::string FreshDir(const std::string& name) { return testing::ScratchDir("onnx_export_" + name); }

const OnnxExport& GoldenExport(std::string* dir_out = nullptr) {
  static std::string dir = FreshDir("golden");
  static const auto* e = new absl::StatusOr<OnnxExport>(ExportOnnx(Golden(), dir));
  if (dir_out != nullptr) *dir_out = dir;
  EXPECT_TRUE(e->ok()) << e->status();
  static const OnnxExport empty;
  return e->ok() ? **e : empty;
}

const VectorCase& ById(const std::string& id) {
  for (const VectorCase& v : Golden()) {
    if (v.c.id == id) return v;
  }
  static const VectorCase none;
  ADD_FAILURE() << "no vector " << id;
  return none;
}

TEST(OnnxExport, EveryModelPassesTheCheckerComputesItsOutputAndRoundTrips) {
  std::string dir;
  const OnnxExport& e = GoldenExport(&dir);
  EXPECT_EQ(e.exported.size() + e.skipped.size(), Golden().size());
  std::map<Op, int> per_op;
  for (const auto& [id, folder] : e.exported) {
    SCOPED_TRACE(id);
    const VectorCase& v = ById(id);
    ++per_op[v.c.op];
    const std::string path = absl::StrCat(dir, "/", folder);
    absl::StatusOr<::onnx::ModelProto> m = onnx_io::ReadOnnxModel(path + "/model.onnx");
    ASSERT_TRUE(m.ok()) << m.status();
    EXPECT_TRUE(onnx_io::CheckOnnxModel(*m).ok()) << onnx_io::CheckOnnxModel(*m);
    absl::StatusOr<::onnx::TensorProto> x =
        onnx_io::ReadOnnxTensor(path + "/test_data_set_0/input_0.pb");
    ASSERT_TRUE(x.ok()) << x.status();
    absl::StatusOr<Tensor> input = onnx_io::TensorFromProto(*x, "input_0.pb");
    ASSERT_TRUE(input.ok()) << input.status();
    EXPECT_TRUE(*input == v.c.data);
    absl::StatusOr<Tensor> y = testing::RunOnnxModel(*m, *input);
    ASSERT_TRUE(y.ok()) << y.status();
    EXPECT_TRUE(*y == *v.expected.output) << "the graph does not compute the expected output";
    absl::StatusOr<VectorCase> back = ImportOnnxNodeTest(path);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(SerializeVector(*back), SerializeVector(v));
  }
  for (Op op : AllOps()) EXPECT_GT(per_op[op], 0) << OpName(op) << " never exported";
}

// OpenVINO's names of the element types in ONNX 1.12's TensorProto.DataType.
const std::set<std::string> kOnnxTypes = {"boolean", "u8",  "i8",  "u16",  "i16", "u32", "i32",
                                          "u64",     "i64", "f16", "bf16", "f32", "f64"};

TEST(OnnxExport, SkipsWhatOnnxCannotExpressWithItsReason) {
  const OnnxExport& e = GoldenExport();
  std::map<std::string, std::string> skipped(e.skipped.begin(), e.skipped.end());
  int must_reject = 0, no_onnx_type = 0, s2d_depth_first = 0, depth_rank = 0;
  for (const VectorCase& v : Golden()) {
    const auto it = skipped.find(v.c.id);
    const bool valid = v.expected.kind == ExpectationKind::kValid;
    const bool depth = v.c.op == Op::kDepthToSpace || v.c.op == Op::kSpaceToDepth;
    if (!valid) {
      ++must_reject;
      ASSERT_NE(it, skipped.end()) << v.c.id;
      EXPECT_TRUE(absl::StartsWith(it->second, "onnx.export.case: ")) << it->second;
    } else if (!kOnnxTypes.contains(std::string(ElementTypeName(v.c.data.type)))) {
      ++no_onnx_type;
      ASSERT_NE(it, skipped.end()) << v.c.id;
      EXPECT_TRUE(absl::StartsWith(it->second, "onnx.export.type: ")) << it->second;
    } else if (depth && v.c.data.shape.size() != 4) {
      ++depth_rank;
      ASSERT_NE(it, skipped.end()) << v.c.id;
      EXPECT_TRUE(absl::StartsWith(it->second, "onnx.export.rank: ")) << it->second;
    } else if (v.c.op == Op::kSpaceToDepth && v.c.mode == "depth_first") {
      ++s2d_depth_first;
      ASSERT_NE(it, skipped.end()) << v.c.id;
      EXPECT_TRUE(absl::StartsWith(it->second, "onnx.export.mode: ")) << it->second;
    } else if (v.c.op == Op::kDepthToSpace && v.c.data.type == ElementType::kF32 &&
               v.c.block_size) {
      EXPECT_EQ(it, skipped.end()) << v.c.id << ": " << it->second;
    }
    if (it != skipped.end()) {
      EXPECT_TRUE(absl::StartsWith(it->second, "onnx.export."));
    }
  }
  EXPECT_GT(must_reject, 0);
  EXPECT_GT(no_onnx_type, 0);
  EXPECT_GT(depth_rank, 0);
  EXPECT_GT(s2d_depth_first, 0);
}

TEST(OnnxExport, ListFileNamesEveryVector) {
  std::string dir;
  const OnnxExport& e = GoldenExport(&dir);
  absl::StatusOr<std::string> text =
      ReadFileToString(absl::StrCat(dir, "/", kOnnxExportListName), 64 << 20);
  ASSERT_TRUE(text.ok()) << text.status();
  absl::StatusOr<nlohmann::json> j = ParseJsonText(*text, "list");
  ASSERT_TRUE(j.ok()) << j.status();
  EXPECT_EQ((*j)["exported"].size(), e.exported.size());
  EXPECT_EQ((*j)["skipped"].size(), e.skipped.size());
  EXPECT_EQ((*j)["skipped"][0]["reason"], e.skipped[0].second);
}

// Exporting again into the same folder removes the earlier export's folders that are not
// written again, and nothing else.
TEST(OnnxExport, ReExportRemovesOnlyItsOwnStaleFolders) {
  const std::string dir = FreshDir("again");
  const VectorCase& a = ById("spec.s2b.ir_layer");
  const VectorCase& b = ById("spec.b2s.ir_layer");
  ASSERT_TRUE(ExportOnnx({a, b}, dir).ok());
  ASSERT_TRUE(CreateDirectories(dir + "/mine").ok());
  ASSERT_TRUE(ExportOnnx({a}, dir).ok());
  namespace fs = std::filesystem;
  EXPECT_TRUE(fs::exists(dir + "/" + OnnxTestFolderName(a.c.id) + "/model.onnx"));
  EXPECT_FALSE(fs::exists(dir + "/" + OnnxTestFolderName(b.c.id)));
  EXPECT_TRUE(fs::is_directory(dir + "/mine"));
}

TEST(OnnxExport, FolderNamesAreTestNames) {
  EXPECT_EQ(OnnxTestFolderName("rule.b2s.batch.divisible.twin"),
            "test_dmconf_rule_b2s_batch_divisible_twin");
  EXPECT_EQ(OnnxTestFolderName("a-b+c"), "test_dmconf_a_b_c");
}

// The reference evaluator itself against ONNX's own node tests (libonnx-testdata).
TEST(OnnxReference, ReproducesOnnxNodeTests) {
  if (!std::filesystem::is_directory(std::string(kOnnxTestDataDir) + "/test_spacetodepth")) {
    GTEST_SKIP() << "libonnx-testdata is not installed";
  }
  for (const std::string& name : OnnxNodeTestNames()) {
    const std::string dir = std::string(kOnnxTestDataDir) + "/" + name;
    absl::StatusOr<::onnx::ModelProto> m = onnx_io::ReadOnnxModel(dir + "/model.onnx");
    ASSERT_TRUE(m.ok()) << m.status();
    absl::StatusOr<VectorCase> v = ImportOnnxNodeTest(dir);
    ASSERT_TRUE(v.ok()) << v.status();
    absl::StatusOr<Tensor> y = testing::RunOnnxModel(*m, v->c.data);
    ASSERT_TRUE(y.ok()) << y.status();
    EXPECT_TRUE(*y == *v->expected.output) << name;
  }
}

// The OpenCV adapter's models (one node, the adapter's opset 13) pass the checker too.
TEST(OnnxModels, SingleNodeModelsPassTheChecker) {
  const int32_t f32 = ::onnx::TensorProto::FLOAT;
  for (const char* mode : {"DCR", "CRD"}) {
    ::onnx::ModelProto m = onnx_io::SingleNodeModel(
        "DepthToSpace", {{"blocksize", 2}}, {{"mode", mode}}, f32, {1, 8, 2, 3}, {1, 2, 4, 6}, 13);
    EXPECT_TRUE(onnx_io::CheckOnnxModel(m).ok()) << onnx_io::CheckOnnxModel(m);
  }
  ::onnx::ModelProto s2d = onnx_io::SingleNodeModel("SpaceToDepth", {{"blocksize", 2}}, {}, f32,
                                                    {1, 2, 4, 6}, {1, 8, 2, 3}, 13);
  EXPECT_TRUE(onnx_io::CheckOnnxModel(s2d).ok()) << onnx_io::CheckOnnxModel(s2d);
}

// The check can fail: a wrong declared output shape, an op ONNX does not have.
TEST(OnnxModels, TheCheckRefusesBrokenModels) {
  const int32_t f32 = ::onnx::TensorProto::FLOAT;
  ::onnx::ModelProto wrong_shape = onnx_io::SingleNodeModel(
      "DepthToSpace", {{"blocksize", 2}}, {{"mode", "DCR"}}, f32, {1, 8, 2, 3}, {1, 2, 4, 7}, 13);
  absl::Status s = onnx_io::CheckOnnxModel(wrong_shape);
  EXPECT_TRUE(absl::StartsWith(s.message(), "onnx.shape_inference: ")) << s;
  ::onnx::ModelProto unknown_op =
      onnx_io::SingleNodeModel("SpaceToBatch", {}, {}, f32, {1, 8, 2, 3}, {1, 8, 2, 3}, 13);
  s = onnx_io::CheckOnnxModel(unknown_op);
  EXPECT_TRUE(absl::StartsWith(s.message(), "onnx.checker: ")) << s;
}

}  // namespace
}  // namespace dmconf::io
