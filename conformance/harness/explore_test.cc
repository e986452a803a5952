// `dmconf fuzz`'s engine (harness/explore) on every mutant: each is found within 60 s with a
// verdict of its class (MutantInfo::expected_verdicts, written with the mutant), its finding is
// saved and shrunk to at most 64 data elements, and the shrunk file replays with the same
// verdict class (a mutant of shape inference may be found by the shape lane instead: its saved
// shape-case file replays with the same verdict). The correct oracle backend gives no finding
// in 3 s, in both lanes.
#include "harness/explore/explore.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "gtest/gtest.h"
#include "harness/backends/mutants/mutants.h"
#include "harness/backends/registry/registry.h"
#include "harness/isolation/worker.h"
#include "harness/runner/shape_lane.h"
#include "harness/runner/vector_cases.h"

namespace dmconf {
namespace {

std::string TempDir(const std::string& name) {
  const std::filesystem::path p = std::filesystem::temp_directory_path() /
                                  ("dmconf-explore-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(p);
  return p.string();
}

class ExploreMutant : public ::testing::TestWithParam<MutantInfo> {};

TEST_P(ExploreMutant, FoundWithItsVerdictClassAndShrunk) {
  const MutantInfo& m = GetParam();
  const std::string name = "mutant." + m.name;
  IsolationOptions io;
  io.timeout_seconds = 0.5;
  io.silence_worker_output = true;
  IsolatedBackend backend(name, MutantFactory(m), io);
  ExploreOptions o;
  o.seconds = 60;
  o.max_findings = 1;
  o.failures_dir = TempDir(m.name);
  o.repro_flag = "--backend " + name;
  o.run.timeout_seconds = 0.5;
  o.run.silence_worker_output = true;
  const ExploreResult r = Explore(backend, name, backend.GetCapabilities(), o, nullptr);
  ASSERT_EQ(r.findings.size(), 1u) << m.name << " not found in " << r.cases << " cases";
  const Finding& f = r.findings[0];
  EXPECT_LE(f.found_after_seconds, 60.0);
  EXPECT_NE(std::find(m.expected_verdicts.begin(), m.expected_verdicts.end(), f.result.verdict),
            m.expected_verdicts.end())
      << m.name << ": " << VerdictName(f.result.verdict) << " " << f.result.detail;
  EXPECT_TRUE(std::filesystem::is_regular_file(f.vector_file)) << f.vector_file;
  if (IsShapeLane(f.result.lane)) {
    // A mutant of shape inference found by the shape lane: saved as a shape-case file (not
    // shrunk) that replays with the same verdict.
    EXPECT_FALSE(f.shrunk.has_value());
    absl::StatusOr<LoadedVectors> back = LoadVectorCases({f.vector_file});
    ASSERT_TRUE(back.ok() && back->shape_cases.size() == 1) << f.vector_file;
    const CaseResult again =
        RunShapeCase(backend, name, backend.GetCapabilities(), back->shape_cases[0], o.run);
    EXPECT_EQ(again.verdict, f.result.verdict) << again.detail;
    std::printf("fuzz %-28s %s (%s) after %.2f s (%lld cases), not shrunk\n", m.name.c_str(),
                std::string(VerdictName(f.result.verdict)).c_str(),
                std::string(CaseLaneName(f.result.lane)).c_str(), f.found_after_seconds,
                static_cast<long long>(r.cases));
    std::filesystem::remove_all(o.failures_dir);
    return;
  }
  ASSERT_TRUE(f.shrunk.has_value());
  EXPECT_LE(f.shrunk->minimal.c.data.NumElements(), 64) << f.shrunk->minimal.c.id;
  ASSERT_TRUE(std::filesystem::is_regular_file(f.shrunk_file)) << f.shrunk_file;
  // The saved minimal case, read back, fails the same way.
  absl::StatusOr<LoadedVectors> back = LoadVectorCases({f.shrunk_file});
  ASSERT_TRUE(back.ok() && back->cases.size() == 1);
  const CaseResult again = RunCase(backend, name, backend.GetCapabilities(), back->cases[0], o.run);
  EXPECT_EQ(again.verdict, f.result.verdict) << again.detail;
  std::printf("fuzz %-28s %s after %.2f s (%lld cases), shrunk %lld -> %lld elements\n",
              m.name.c_str(), std::string(VerdictName(f.result.verdict)).c_str(),
              f.found_after_seconds, static_cast<long long>(r.cases),
              static_cast<long long>(f.shrunk->stats.from_elements),
              static_cast<long long>(f.shrunk->stats.to_elements));
  std::filesystem::remove_all(o.failures_dir);
}

INSTANTIATE_TEST_SUITE_P(Mutants, ExploreMutant, ::testing::ValuesIn(AllMutants()),
                         [](const ::testing::TestParamInfo<MutantInfo>& i) {
                           return i.param.name;
                         });

// The kernel lane judges the same cases in the same order through the isolated worker (a
// batch at a time, the next batch made while the worker runs this one) as in process (a case
// at a time): every mutant of the kernels that fails without crashing or hanging is first found
// on the same case, after the same number of judged cases, by both. A batch made twice, lost
// or taken out of order would move the first finding of a mutant found past the first batches.
TEST(Explore, KernelLaneJudgesTheSameCasesIsolatedAsInProcess) {
  int64_t latest = 0;  // the most cases judged before a first finding
  for (const MutantInfo& m : AllMutants()) {
    if (m.infer != nullptr) continue;  // a shape lane would share the time
    const bool ends_worker =
        std::any_of(m.expected_verdicts.begin(), m.expected_verdicts.end(),
                    [](Verdict v) { return v == Verdict::kCrash || v == Verdict::kHang; });
    if (ends_worker) continue;  // not in this process
    const std::string name = "mutant." + m.name;
    ExploreOptions o;
    o.seconds = 60;
    o.max_findings = 1;
    o.shrink = false;
    o.failures_dir = TempDir(m.name + "-lanes");
    o.run.timeout_seconds = 5;
    o.run.silence_worker_output = true;
    absl::StatusOr<std::unique_ptr<Backend>> in_process = MutantFactory(m)();
    ASSERT_TRUE(in_process.ok());
    const ExploreResult here =
        Explore(**in_process, name, (*in_process)->GetCapabilities(), o, nullptr);
    std::filesystem::remove_all(o.failures_dir);
    IsolationOptions io;
    io.timeout_seconds = 5;
    io.silence_worker_output = true;
    IsolatedBackend isolated(name, MutantFactory(m), io);
    const ExploreResult there = Explore(isolated, name, isolated.GetCapabilities(), o, nullptr);
    std::filesystem::remove_all(o.failures_dir);
    ASSERT_EQ(here.findings.size(), 1u) << m.name;
    ASSERT_EQ(there.findings.size(), 1u) << m.name;
    EXPECT_FALSE(here.shape_lane || there.shape_lane) << m.name;
    EXPECT_EQ(there.findings[0].result.id, here.findings[0].result.id) << m.name;
    EXPECT_EQ(there.findings[0].kind, here.findings[0].kind) << m.name;
    EXPECT_EQ(there.kernel.cases, here.kernel.cases) << m.name;
    latest = std::max(latest, here.kernel.cases);
  }
  // At least one mutant is first found past the first batches (64 questions: 32 cases at most).
  EXPECT_GT(latest, 3 * 32);
}

TEST(Explore, TheOracleGivesNoFinding) {
  absl::StatusOr<std::vector<BackendInfo>> b = ResolveBackends("oracle");
  ASSERT_TRUE(b.ok() && b->size() == 1);
  IsolationOptions io;
  IsolatedBackend backend("oracle", b->front().factory, io);
  ExploreOptions o;
  o.seconds = 3;
  o.failures_dir = TempDir("oracle");
  const ExploreResult r = Explore(backend, "oracle", backend.GetCapabilities(), o, nullptr);
  EXPECT_GT(r.cases, 100);
  // The oracle declares infer_static and infer_partial: both lanes ran, and share the time.
  EXPECT_TRUE(r.kernel_lane && r.shape_lane);
  EXPECT_GT(r.kernel.cases, 10);
  EXPECT_GT(r.shape.cases, 10);
  EXPECT_GT(r.shape.seconds, 0.5);
  EXPECT_EQ(r.failing, 0);
  EXPECT_TRUE(r.findings.empty());
  EXPECT_FALSE(std::filesystem::exists(o.failures_dir));
}

}  // namespace
}  // namespace dmconf
