// The failure records of the properties (prop_support.h): a failing case is saved as a
// dmconf-vector/1 file that reads back as the same case, with the regression provenance.
#include "conformance/properties/prop_support.h"

#include <cstdlib>
#include <filesystem>

#include "gtest/gtest.h"
#include "harness/io/vector_file.h"
#include "rapidcheck.h"

namespace dmconf::props {
namespace {

// DepthToSpace depth_first, [1,8,1,1] i32 0..7, block 2: output [1,2,2,2], and
// out[c', y, x] = in[c' * 4 + y * 2 + x] is the input order (worked out by hand).
OpCase D2sDepthFirst() {
  OpCase c;
  c.op = Op::kDepthToSpace;
  c.data = *MakeTensor(ElementType::kI32, {1, 8, 1, 1}, [](int64_t i) { return i; });
  c.block_size = 2;
  c.mode = "depth_first";
  return c;
}

std::string TempDir(const char* name) {
  const std::filesystem::path d = std::filesystem::path(testing::TempDir()) / name;
  std::filesystem::remove_all(d);
  return d.string();
}

TEST(PropSupport, SavedFailureReadsBackAsTheCase) {
  const std::string dir = TempDir("prop_support_save");
  const OpCase c = D2sDepthFirst();
  absl::StatusOr<std::string> path = SaveFailureVector("SomeProperty", c, dir);
  ASSERT_TRUE(path.ok()) << path.status();
  EXPECT_EQ(*path, (std::filesystem::path(dir) / "SomeProperty.json").string());

  absl::StatusOr<io::VectorCase> v = io::ReadVectorFile(*path);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->c.id, "SomeProperty");
  EXPECT_EQ(v->c.op, Op::kDepthToSpace);
  EXPECT_EQ(v->c.data.type, ElementType::kI32);
  EXPECT_EQ(v->c.data.shape, (Shape{1, 8, 1, 1}));
  EXPECT_EQ(v->c.data, c.data);
  EXPECT_EQ(v->c.block_size, std::optional<int64_t>(2));
  EXPECT_EQ(v->c.mode, std::optional<std::string>("depth_first"));
  EXPECT_TRUE(v->c.int_inputs.empty());
  EXPECT_EQ(v->provenance.kind, "regression");
  EXPECT_EQ(v->provenance.found_by, "property");
  EXPECT_EQ(v->provenance.note, "SomeProperty");
  ASSERT_EQ(v->expected.kind, ExpectationKind::kValid);
  ASSERT_TRUE(v->expected.output.has_value());
  EXPECT_EQ(v->expected.output->shape, (Shape{1, 2, 2, 2}));
  for (int64_t i = 0; i < 8; ++i) EXPECT_EQ(v->expected.output->GetBits(i), uint64_t(i));
  std::filesystem::remove_all(dir);
}

TEST(PropSupport, MalformedCaseIsNotSaved) {
  const std::string dir = TempDir("prop_support_malformed");
  OpCase c = D2sDepthFirst();
  c.data.bytes.resize(3);  // not 8 i32 values
  absl::StatusOr<std::string> path = SaveFailureVector("Malformed", c, dir);
  EXPECT_FALSE(path.ok());
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(dir) / "Malformed.json"));
  std::filesystem::remove_all(dir);
}

TEST(PropSupport, RecordFailureWritesToTheEnvironmentsDirectory) {
  const std::string dir = TempDir("prop_support_env");
  ASSERT_EQ(setenv("DMCONF_PROPERTY_FAILURES", dir.c_str(), 1), 0);
  EXPECT_EQ(PropertyFailureDir(), dir);
  // RC_LOG needs a running property: this one records once and passes.
  EXPECT_TRUE(rc::check(
      "records once", [] { RecordFailure("EnvProperty", D2sDepthFirst(), "not a real failure"); }));
  unsetenv("DMCONF_PROPERTY_FAILURES");
  EXPECT_EQ(PropertyFailureDir(), "property-failures");
  absl::StatusOr<io::VectorCase> v =
      io::ReadVectorFile((std::filesystem::path(dir) / "EnvProperty.json").string());
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->c.data.shape, (Shape{1, 8, 1, 1}));
  EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(dir) / "EnvProperty.txt"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dmconf::props
