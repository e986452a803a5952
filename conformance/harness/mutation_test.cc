// Proof that the suite catches bugs: the default catalogue (what `dmconf run` runs) flags every
// mutant backend, and only with the verdicts of its class. One test per mutant.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/backends/mutants/mutants.h"
#include "harness/backends/registry/registry.h"
#include "harness/report/report.h"
#include "harness/runner/runner.h"
#include "harness/suites/catalogue.h"

namespace dmconf {
namespace {

const std::vector<PreparedCase>& DefaultCases() {
  static const std::vector<PreparedCase>* const kCases =
      new std::vector<PreparedCase>(PrepareCases(BuildCatalogue(CatalogueOptions{})));
  return *kCases;
}

class Mutation : public ::testing::TestWithParam<MutantInfo> {};

TEST_P(Mutation, CaughtWithTheRightVerdictClass) {
  const MutantInfo& m = GetParam();
  RunOptions o;
  // Short for a mutant that hangs (on every zero-sized case, or every block above 4); the
  // others get time enough not to be taken for hangs on a loaded machine under ASan.
  const bool hangs = std::find(m.expected_verdicts.begin(), m.expected_verdicts.end(),
                               Verdict::kHang) != m.expected_verdicts.end();
  o.timeout_seconds = hangs ? 0.5 : 10.0;
  o.silence_worker_output = true;
  BackendRun r = RunBackend("mutant." + m.name, MutantFactory(m), DefaultCases(), o);
  MutantScore s = ScoreMutant(r, {"mutant." + m.name, m.description, m.expected_verdicts});
  EXPECT_TRUE(s.killed) << m.name << " survived the default run";
  std::string got;
  for (const auto& [v, n] : s.failing_verdicts) absl::StrAppend(&got, " ", VerdictName(v), "=", n);
  EXPECT_TRUE(s.right_class) << m.name << " failing verdicts:" << got;
  // Wrong outputs of mutants modelled on a known mistake are diagnosed as that mistake. The
  // packing mutants' sub-byte data never identify positions: their mistake is listed as
  // consistent, not named (docs/diagnoses.md).
  int64_t diagnosed = 0, listed = 0;
  for (const CaseResult& c : r.results) {
    diagnosed += c.diagnosis.has_value() && !c.diagnosis->mistake.empty();
    listed += c.diagnosis.has_value() &&
              c.diagnosis->summary.find("consistent with: ") != std::string::npos &&
              c.diagnosis->summary.find("packed") != std::string::npos;
  }
  if (m.name == "nibble_order_swapped" || m.name == "u1_bit_order_reversed") {
    EXPECT_GT(listed, 0) << m.name;
  } else if (m.name.find("mode_swapped") != std::string::npos ||
             m.name.find("batch_major") != std::string::npos ||
             m.name.find("patch_major") != std::string::npos || m.name.find("nan_") == 0 ||
             m.name.find("_swapped") != std::string::npos) {
    EXPECT_GT(diagnosed, 0) << m.name;
  }
}

INSTANTIATE_TEST_SUITE_P(Mutants, Mutation, ::testing::ValuesIn(AllMutants()),
                         [](const ::testing::TestParamInfo<MutantInfo>& i) {
                           return i.param.name;
                         });

TEST(MutationScore, AtLeastTwentyMutants) { EXPECT_GE(AllMutants().size(), 20u); }

}  // namespace
}  // namespace dmconf
