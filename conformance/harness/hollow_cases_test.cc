// Hollow cases (harness/runner/whole_cases.h): the sweep's cases held without their tensors and
// made whole as they run give the run of the cases held whole, verdict for verdict.
#include <cstdint>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "harness/backends/registry/registry.h"
#include "harness/runner/runner.h"
#include "harness/runner/whole_cases.h"
#include "harness/suites/catalogue.h"

namespace dmconf {
namespace {

CatalogueOptions Sweep(int count) {
  CatalogueOptions o;
  o.seed = 7;
  o.sweep_count = count;
  return o;
}

// The catalogue with and without `hollow`: the same cases in the same order, attributes,
// integer inputs and origin included; a hollow case has no data bytes, and SweepData gives
// back the bytes of the case held whole. (The hollow sweep builds its non-valid cases with
// zero bytes, BuildOptions::positional, before it empties them.)
TEST(HollowCases, SweepDataGivesBackTheWholeCasesBytes) {
  const CatalogueOptions whole_options = Sweep(3000);
  CatalogueOptions hollow_options = whole_options;
  hollow_options.hollow = true;
  std::vector<int64_t> index;
  const std::vector<OpCase> whole = BuildCatalogue(whole_options);
  const std::vector<OpCase> hollow = BuildCatalogue(hollow_options, &index);
  ASSERT_EQ(whole.size(), hollow.size());
  ASSERT_EQ(index.size(), hollow.size());
  size_t hollow_cases = 0, sweep_cases = 0;
  for (size_t k = 0; k < whole.size(); ++k) {
    ASSERT_EQ(whole[k].id, hollow[k].id) << k;
    EXPECT_EQ(whole[k].data.shape, hollow[k].data.shape) << whole[k].id;
    EXPECT_EQ(whole[k].data.type, hollow[k].data.type) << whole[k].id;
    EXPECT_EQ(whole[k].op, hollow[k].op) << whole[k].id;
    EXPECT_TRUE(static_cast<const OpAttributes&>(whole[k]) ==
                static_cast<const OpAttributes&>(hollow[k]))
        << whole[k].id;
    EXPECT_EQ(whole[k].int_inputs, hollow[k].int_inputs) << whole[k].id;
    EXPECT_EQ(whole[k].origin, hollow[k].origin) << whole[k].id;
    sweep_cases += absl::StartsWith(whole[k].id, "sweep/");
    if (index[k] < 0) {
      EXPECT_EQ(whole[k].data.bytes, hollow[k].data.bytes) << whole[k].id;
      continue;
    }
    ++hollow_cases;
    EXPECT_TRUE(absl::StartsWith(whole[k].id, "sweep/")) << whole[k].id;
    EXPECT_TRUE(hollow[k].data.bytes.empty()) << whole[k].id;
    const Tensor made = SweepData(hollow_options, static_cast<uint64_t>(index[k]));
    EXPECT_EQ(made.bytes, whole[k].data.bytes) << whole[k].id;
    EXPECT_EQ(made.shape, whole[k].data.shape) << whole[k].id;
  }
  // Every sweep case but those with malformed data, if any are kept (the negative lane's
  // byte-count cases are malformed cases, which the catalogue leaves out).
  EXPECT_GT(hollow_cases, sweep_cases * 9 / 10);
}

// The cases of a hollow catalogue, prepared and run, and the same catalogue held whole: the
// same verdicts, details and diagnoses, sequentially and with two isolated workers; the failing
// cases made whole afterwards hold the whole cases' data and expectations.
TEST(HollowCases, RunGivesTheWholeRunsResults) {
  CatalogueOptions o = Sweep(300);
  o.ops = {Op::kSpaceToBatch, Op::kDepthToSpace};
  std::vector<PreparedCase> whole = PrepareCases(BuildCatalogue(o));
  o.hollow = true;
  std::vector<int64_t> index;
  std::vector<PreparedCase> hollow = PrepareCases(BuildCatalogue(o, &index), {}, 1, index);
  ASSERT_EQ(whole.size(), hollow.size());
  for (const char* name : {"mutant.s2b_pads_swapped", "mutant.d2s_mode_swapped"}) {
    absl::StatusOr<BackendInfo> b = ResolveBackend(name);
    ASSERT_TRUE(b.ok()) << b.status();
    for (int jobs : {1, 2}) {
      RunOptions ro;
      ro.jobs = jobs;
      const BackendRun want = RunBackend(name, b->factory, whole, ro);
      ro.hollow_data = [&o](int64_t i) { return SweepData(o, static_cast<uint64_t>(i)); };
      const BackendRun got = RunBackend(name, b->factory, hollow, ro);
      ASSERT_EQ(want.results.size(), got.results.size());
      size_t failing = 0;
      for (size_t i = 0; i < want.results.size(); ++i) {
        const CaseResult &w = want.results[i], &g = got.results[i];
        ASSERT_EQ(w.id, g.id);
        EXPECT_EQ(w.verdict, g.verdict) << w.id << " jobs " << jobs;
        EXPECT_EQ(w.detail, g.detail) << w.id;
        EXPECT_EQ(w.diagnosis.has_value(), g.diagnosis.has_value()) << w.id;
        if (w.diagnosis && g.diagnosis) {
          EXPECT_EQ(w.diagnosis->mistake, g.diagnosis->mistake) << w.id;
        }
        failing += w.failure;
      }
      EXPECT_GT(failing, 10u) << name;  // the mutant is caught on many cases
      std::vector<PreparedCase> made = hollow;
      MakeFailingCasesWhole(made, got, ro);
      for (size_t i = 0; i < made.size(); ++i) {
        if (!got.results[i].failure) continue;
        EXPECT_EQ(made[i].hollow_index, -1) << made[i].c.id;
        EXPECT_EQ(made[i].c.data.bytes, whole[i].c.data.bytes) << made[i].c.id;
        ASSERT_TRUE(made[i].expectation.ok() && whole[i].expectation.ok());
        ASSERT_EQ(made[i].expectation->output.has_value(), whole[i].expectation->output.has_value())
            << made[i].c.id;
        if (whole[i].expectation->output) {
          EXPECT_EQ(made[i].expectation->output->bytes, whole[i].expectation->output->bytes);
        }
      }
    }
  }
}

// A hollow case's prepared expectation has the whole one's kind, rule and output shape, and no
// output; WholeCases makes it whole once and forgets it when the lane moves on.
TEST(HollowCases, PreparedExpectationAndWholeCases) {
  CatalogueOptions o = Sweep(200);
  o.hollow = true;
  std::vector<int64_t> index;
  const std::vector<PreparedCase> whole = PrepareCases(BuildCatalogue(Sweep(200)));
  const std::vector<PreparedCase> hollow = PrepareCases(BuildCatalogue(o, &index), {}, 1, index);
  RunOptions ro;
  ro.hollow_data = [&o](int64_t i) { return SweepData(o, static_cast<uint64_t>(i)); };
  BackendRun run;
  WholeCases cases(run, hollow, ro);
  for (size_t k = 0; k < hollow.size(); ++k) {
    ASSERT_EQ(whole[k].expectation.ok(), hollow[k].expectation.ok()) << whole[k].c.id;
    if (!whole[k].expectation.ok()) continue;
    const Expectation &w = *whole[k].expectation, &h = *hollow[k].expectation;
    EXPECT_EQ(w.kind, h.kind) << whole[k].c.id;
    EXPECT_EQ(w.rule, h.rule) << whole[k].c.id;
    EXPECT_EQ(w.output_shape, h.output_shape) << whole[k].c.id;
    if (hollow[k].hollow_index >= 0) {
      EXPECT_FALSE(h.output.has_value()) << whole[k].c.id;
    }
    cases.Forget(k);
    const PreparedCase& made = cases.At(k);
    EXPECT_EQ(&made, &cases.At(k));  // made once
    EXPECT_EQ(made.c.data.bytes, whole[k].c.data.bytes) << whole[k].c.id;
    ASSERT_TRUE(made.expectation.ok());
    ASSERT_EQ(made.expectation->output.has_value(), w.output.has_value()) << whole[k].c.id;
    if (w.output) {
      EXPECT_EQ(made.expectation->output->bytes, w.output->bytes) << whole[k].c.id;
    }
  }
}

// Without the function that makes the data, a hollow case is a harness error naming the
// rule, never a run against empty data.
TEST(HollowCases, WithoutHollowDataTheCaseIsAHarnessError) {
  CatalogueOptions o = Sweep(20);
  o.hollow = true;
  std::vector<int64_t> index;
  const std::vector<PreparedCase> hollow = PrepareCases(BuildCatalogue(o, &index), {}, 1, index);
  size_t k = 0;
  while (k < hollow.size() && hollow[k].hollow_index < 0) ++k;
  ASSERT_LT(k, hollow.size());
  const PreparedCase made = MakeWhole(hollow[k], RunOptions{});
  ASSERT_FALSE(made.expectation.ok());
  EXPECT_TRUE(absl::StrContains(made.expectation.status().message(), "runner.hollow_data"));
}

}  // namespace
}  // namespace dmconf
