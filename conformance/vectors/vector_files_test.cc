// Every vector file under vectors/ (golden, external, regressions), two tests each:
//   Vectors/VectorFile.OracleAgrees/<file>: the file parses and the oracle agrees with its
//     expectation (verdict, rule and bit-exact output);
//   Vectors/VectorFile.Backend/<file>: the selected backend (DMCONF_BACKEND, see
//     conformance/harness/selected_backend.h) is judged against the file's expectation through
//     the harness runner, like `dmconf vectors verify FILE --backend NAME`.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "conformance/harness/selected_backend.h"
#include "harness/io/vector_file.h"
#include "harness/io/vector_verify.h"
#include "harness/runner/vector_cases.h"

namespace dmconf {
namespace {

using io::ListVectorFiles;
using io::OracleMismatch;
using io::ReadVectorFile;
using io::VectorCase;

std::vector<std::string> AllVectorFiles() {
  absl::StatusOr<std::vector<std::string>> files =
      ListVectorFiles(std::string(DMCONF_SOURCE_DIR) + "/vectors");
  std::vector<std::string> out;
  if (!files.ok()) return out;
  // dmconf-shape-case/1 files (vectors/shapes) are tested by vectors_shape_case_test.
  for (const std::string& f : *files) {
    if (!IsShapeCaseFile(f)) out.push_back(f);
  }
  return out;
}

class VectorFile : public ::testing::TestWithParam<std::string> {};

TEST_P(VectorFile, OracleAgrees) {
  absl::StatusOr<VectorCase> v = ReadVectorFile(GetParam());
  ASSERT_TRUE(v.ok()) << v.status();
  std::optional<std::string> why = OracleMismatch(*v);
  EXPECT_FALSE(why.has_value()) << GetParam() << ": " << *why;
}

TEST_P(VectorFile, Backend) {
  SelectedBackend& b = GetSelectedBackend();
  ASSERT_TRUE(b.error.empty()) << b.error;
  absl::StatusOr<LoadedVectors> loaded = LoadVectorCases({GetParam()});
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_TRUE(loaded->errors.empty()) << loaded->errors.front().message;
  ASSERT_EQ(loaded->cases.size(), 1u);
  CheckCase(b, loaded->cases.front());
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

// The route of Vectors/VectorFile.Backend (LoadVectorCases): a file whose expectation the
// oracle contradicts is a file error naming the rule, the file and the oracle's answer, and
// no case, so that no backend is judged against it. The file right, it is one case.
TEST(VectorFiles, ContradictedExpectationIsAFileErrorNotACase) {
  absl::StatusOr<VectorCase> v = ReadVectorFile(std::string(DMCONF_SOURCE_DIR) +
                                                "/vectors/golden/attrs.d2s.blocks_first.b3.json");
  ASSERT_TRUE(v.ok()) << v.status();
  const std::string dir = (std::filesystem::temp_directory_path() /
                           ("dmconf-contradicted-" + std::to_string(::getpid())))
                              .string();
  std::filesystem::create_directories(dir);
  const std::string right = dir + "/right.json", wrong = dir + "/wrong.json";
  ASSERT_TRUE(io::WriteVectorFile(right, *v).ok());
  // Element 2 of the output is 9 (the spec's blocks_first: out[0,0,0,2] = in[0,4,0,0] = 9).
  ASSERT_EQ(v->expected.output->GetBits(2), 0x41100000u);
  v->expected.output->SetBits(2, 0x40e00000u);  // 7
  ASSERT_TRUE(io::WriteVectorFile(wrong, *v).ok());

  absl::StatusOr<LoadedVectors> loaded = LoadVectorCases({wrong});
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_TRUE(loaded->cases.empty());
  ASSERT_EQ(loaded->errors.size(), 1u);
  EXPECT_EQ(loaded->errors[0].rule, "vector.expectation.contradicts_oracle");
  EXPECT_EQ(loaded->errors[0].file, wrong);
  EXPECT_NE(loaded->errors[0].message.find("output element 2: the file expects 7, the oracle "
                                           "gives 9"),
            std::string::npos)
      << loaded->errors[0].message;

  loaded = LoadVectorCases({right});
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_TRUE(loaded->errors.empty());
  EXPECT_EQ(loaded->cases.size(), 1u);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dmconf
