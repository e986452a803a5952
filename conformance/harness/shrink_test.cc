// Shrinking, measured on the project's mutants: for every mutant, its largest failing case of
// the default catalogue (of its verdict class) is shrunk through the isolated worker. The
// minimal case must keep the verdict class and the diagnosis class (checked again here,
// independently of the shrinker's own acceptance), hold at most 64 data elements, and be a local
// minimum: no smaller candidate of ShrinkCandidates keeps the failure. Each mutant's figures are
// printed
// ("shrink <mutant> <from> -> <to> elements"); docs/shrinking.md records their medians.
#include "harness/shrink/shrink.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "gtest/gtest.h"
#include "harness/backends/mutants/mutants.h"
#include "harness/isolation/worker.h"
#include "harness/runner/runner.h"
#include "harness/suites/catalogue.h"

namespace dmconf {
namespace {

const std::vector<PreparedCase>& DefaultCases() {
  static const std::vector<PreparedCase>* const kCases =
      new std::vector<PreparedCase>(PrepareCases(BuildCatalogue(CatalogueOptions{})));
  return *kCases;
}

// A mutant that hangs gets a short case timeout (it hangs on every zero-sized case); any other
// the runner's default: the catalogue's largest cases (deeplabv3's SpaceToBatch, 1x9x9x320
// padded to 54x54) take 0.3 to 0.5 s in an ASan build, more under load, and a false hang on
// three of them in a row would skip the op's other cases (the hang budget).
RunOptions Options(const MutantInfo& m) {
  RunOptions o;
  const bool hangs = std::find(m.expected_verdicts.begin(), m.expected_verdicts.end(),
                               Verdict::kHang) != m.expected_verdicts.end();
  if (hangs) o.timeout_seconds = 0.5;
  o.silence_worker_output = true;
  return o;
}

class ShrinkMutant : public ::testing::TestWithParam<MutantInfo> {};

TEST_P(ShrinkMutant, MinimalCaseKeepsTheVerdictClassAndIsSmall) {
  const MutantInfo& m = GetParam();
  const std::string name = "mutant." + m.name;
  const RunOptions o = Options(m);
  const BackendRun run = RunBackend(name, MutantFactory(m), DefaultCases(), o);
  // The largest failing kernel case whose verdict is of the mutant's class.
  int best = -1;
  for (size_t i = 0; i < run.results.size(); ++i) {
    const CaseResult& r = run.results[i];
    if (!r.failure || IsShapeLane(r.lane)) continue;
    if (std::find(m.expected_verdicts.begin(), m.expected_verdicts.end(), r.verdict) ==
        m.expected_verdicts.end()) {
      continue;
    }
    if (best < 0 || CaseOf(run, DefaultCases(), i).c.data.NumElements() >
                        CaseOf(run, DefaultCases(), best).c.data.NumElements()) {
      best = static_cast<int>(i);
    }
  }
  ASSERT_GE(best, 0) << m.name << " has no failing kernel case";
  const PreparedCase& original = CaseOf(run, DefaultCases(), best);
  const CaseResult& failure = run.results[best];

  IsolationOptions io;
  io.timeout_seconds = o.timeout_seconds;
  io.silence_worker_output = true;
  IsolatedBackend backend(name, MutantFactory(m), io);
  const Capabilities caps = backend.GetCapabilities();
  ShrinkOptions so;
  so.budget_seconds = 20;
  const ShrunkCase s = ShrinkFailure(backend, name, caps, original, failure, o, so);

  // Judged again from scratch: same verdict class, no larger than the original.
  const CaseResult again = RunCase(backend, name, caps, PrepareCases({s.minimal.c})[0], o);
  EXPECT_TRUE(SameFailureClass(failure, again))
      << m.name << ": " << VerdictName(again.verdict) << " " << again.rule << " vs "
      << VerdictName(failure.verdict) << " " << failure.rule;
  if (s.stats.diagnosis_kept) {
    EXPECT_TRUE(SameDiagnosisClass(failure, again))
        << m.name << ": " << (again.diagnosis ? again.diagnosis->mistake : "no diagnosis") << " vs "
        << failure.diagnosis->mistake;
  }
  EXPECT_LE(s.minimal.c.data.NumElements(), original.c.data.NumElements());
  EXPECT_LE(s.minimal.c.data.NumElements(), 64) << m.name << " shrunk to " << s.minimal.c.id;
  EXPECT_NE(s.minimal.c.origin.find(original.c.id), std::string::npos);
  // A local minimum (unless the budget ran out first).
  if (!s.stats.budget_exhausted) {
    for (const OpCase& cand : ShrinkCandidates(s.minimal.c)) {
      if (!Smaller(cand, s.minimal.c)) continue;
      const CaseResult r = RunCase(backend, name, caps, PrepareCases({cand})[0], o);
      // Kept: the verdict class and (unless no smaller case kept it) the diagnosis class.
      EXPECT_FALSE(SameFailureClass(failure, r) &&
                   (!s.stats.diagnosis_kept || SameDiagnosisClass(failure, r)))
          << m.name << ": a smaller case still fails";
    }
  }
  const double ratio = original.c.data.NumElements() > 0 ? double(s.minimal.c.data.NumElements()) /
                                                               double(original.c.data.NumElements())
                                                         : 1.0;
  std::printf("shrink %-28s %6lld -> %3lld elements (%.4f) in %.2f s, %d attempts%s\n",
              m.name.c_str(), static_cast<long long>(original.c.data.NumElements()),
              static_cast<long long>(s.minimal.c.data.NumElements()), ratio, s.stats.seconds,
              s.stats.attempts, s.stats.budget_exhausted ? " (budget)" : "");
}

INSTANTIATE_TEST_SUITE_P(Mutants, ShrinkMutant, ::testing::ValuesIn(AllMutants()),
                         [](const ::testing::TestParamInfo<MutantInfo>& i) {
                           return i.param.name;
                         });

// The reduction order: hand-built pairs.
TEST(Shrink, SmallerOrdersByElementsThenRankThenAttributes) {
  OpCase a;
  a.op = Op::kDepthToSpace;
  a.data = *Tensor::Zeros(ElementType::kF32, {1, 8, 2, 2});
  a.block_size = 2;
  OpCase b = a;
  b.data = *Tensor::Zeros(ElementType::kF32, {1, 8, 1, 2});
  EXPECT_TRUE(Smaller(b, a));
  EXPECT_FALSE(Smaller(a, b));
  EXPECT_FALSE(Smaller(a, a));
  OpCase c = a;
  c.block_size = 1;  // same data, smaller attribute
  EXPECT_TRUE(Smaller(c, a));
}

// The loop stops at a local minimum of a predicate known by hand: "no zero dim, depth >= 4 and
// a spatial dim >= 2" on DepthToSpace [1, 32, 6, 6], block 2: the smallest such shapes are
// [1, 4, 2, 1] and [1, 4, 1, 2], 8 elements.
TEST(Shrink, ReachesALocalMinimumOfAHandPredicate) {
  OpCase c;
  c.op = Op::kDepthToSpace;
  c.data = *Tensor::Zeros(ElementType::kF32, {1, 32, 6, 6});
  c.block_size = 2;
  c.mode = "blocks_first";
  const KeepsFailure keeps = [](const OpCase& x) {
    return x.data.shape.size() == 4 && x.data.shape[1] >= 4 &&
           std::max(x.data.shape[2], x.data.shape[3]) >= 2 && x.data.NumElements() > 0;
  };
  ShrinkStats st;
  const OpCase m = ShrinkCase(c, keeps, {}, &st);
  EXPECT_TRUE(keeps(m));
  EXPECT_TRUE(m.data.shape == (Shape{1, 4, 2, 1}) || m.data.shape == (Shape{1, 4, 1, 2}))
      << ShapeToString(m.data.shape);
  EXPECT_EQ(m.data.NumElements(), 8);
  EXPECT_EQ(st.from_elements, 32 * 36);
  EXPECT_EQ(st.to_elements, 8);
  EXPECT_FALSE(st.budget_exhausted);
}

}  // namespace
}  // namespace dmconf
