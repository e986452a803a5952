// The conformance suite against one backend, one GoogleTest case per catalogue case.
//
// The backend and its settings: conformance/harness/selected_backend.h (DMCONF_BACKEND,
// DMCONF_EXPECTATIONS, DMCONF_TIMEOUT, DMCONF_FAILURES_DIR). Test names are
// "<Op>/Conformance.Case/<n>_<id>", so ctest registers one test per op (--gtest_filter=<Op>/*) with
// the op as label; GTEST_TOTAL_SHARDS and GTEST_SHARD_INDEX split the cases across machines.
#include "conformance/harness/selected_backend.h"
#include "gtest/gtest.h"
#include "harness/runner/runner.h"
#include "harness/suites/catalogue.h"

namespace dmconf {
namespace {

const std::vector<PreparedCase>& Cases() {
  static const std::vector<PreparedCase>* const kCases =
      new std::vector<PreparedCase>(PrepareCases(BuildCatalogue(CatalogueOptions{})));
  return *kCases;
}

std::vector<size_t> IndicesFor(Op op) {
  std::vector<size_t> out;
  for (size_t i = 0; i < Cases().size(); ++i) {
    if (Cases()[i].c.op == op) out.push_back(i);
  }
  return out;
}

class Conformance : public ::testing::TestWithParam<size_t> {};

TEST_P(Conformance, Case) {
  SelectedBackend& b = GetSelectedBackend();
  ASSERT_TRUE(b.error.empty()) << b.error;
  CheckCase(b, Cases()[GetParam()]);
}

std::string Name(const ::testing::TestParamInfo<size_t>& info) {
  std::string id = Cases()[info.param].c.id;
  for (char& ch : id) {
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')))
      ch = '_';
  }
  return std::to_string(info.param) + "_" + id;
}

INSTANTIATE_TEST_SUITE_P(SpaceToBatch, Conformance,
                         ::testing::ValuesIn(IndicesFor(Op::kSpaceToBatch)), Name);
INSTANTIATE_TEST_SUITE_P(BatchToSpace, Conformance,
                         ::testing::ValuesIn(IndicesFor(Op::kBatchToSpace)), Name);
INSTANTIATE_TEST_SUITE_P(SpaceToDepth, Conformance,
                         ::testing::ValuesIn(IndicesFor(Op::kSpaceToDepth)), Name);
INSTANTIATE_TEST_SUITE_P(DepthToSpace, Conformance,
                         ::testing::ValuesIn(IndicesFor(Op::kDepthToSpace)), Name);
INSTANTIATE_TEST_SUITE_P(ExtractImagePatches, Conformance,
                         ::testing::ValuesIn(IndicesFor(Op::kExtractImagePatches)), Name);

}  // namespace
}  // namespace dmconf
