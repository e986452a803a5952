// Every vector file under vectors/ (golden, external, regressions), one test each: the file
// parses and the oracle agrees with its expectation (verdict, rule and bit-exact output).
#include <gtest/gtest.h>

#include <filesystem>

#include "harness/io/vector_file.h"
#include "harness/io/vector_verify.h"

namespace dmconf::io {
namespace {

std::vector<std::string> AllVectorFiles() {
  absl::StatusOr<std::vector<std::string>> files =
      ListVectorFiles(std::string(DMCONF_SOURCE_DIR) + "/vectors");
  return files.ok() ? *files : std::vector<std::string>{};
}

class VectorFile : public ::testing::TestWithParam<std::string> {};

TEST_P(VectorFile, OracleAgrees) {
  absl::StatusOr<VectorCase> v = ReadVectorFile(GetParam());
  ASSERT_TRUE(v.ok()) << v.status();
  std::optional<std::string> why = OracleMismatch(*v);
  EXPECT_FALSE(why.has_value()) << GetParam() << ": " << *why;
}

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  const std::string root = std::string(DMCONF_SOURCE_DIR) + "/vectors/";
  std::string name = info.param.substr(root.size());
  name = name.substr(0, name.size() - 5);  // ".json"
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Vectors, VectorFile, ::testing::ValuesIn(AllVectorFiles()), TestName);

TEST(VectorFiles, SetIsNotEmpty) { EXPECT_GT(AllVectorFiles().size(), 100u); }

}  // namespace
}  // namespace dmconf::io
