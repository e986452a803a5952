// Hollow cases (harness/runner/whole_cases.h): the sweep's cases held without their tensors and
// made whole as they run give the run of the cases held whole, verdict for verdict; so do
// unheld ones (harness/runner/case_list.h), held as their sweep index alone and made again.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/backend/backend.h"
#include "harness/backends/oracle/oracle_backend.h"
#include "harness/backends/registry/registry.h"
#include "harness/runner/case_list.h"
#include "harness/runner/runner.h"
#include "harness/runner/shape_lane.h"
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

// The hollow catalogue of Sweep(count), and each case's hollow index in `index`.
std::vector<OpCase> HollowCatalogue(int count, std::vector<int64_t>* index) {
  CatalogueOptions o = Sweep(count);
  o.hollow = true;
  return BuildCatalogue(o, index);
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

// Every result of `got` is `want`'s: the same id, op, type, rank, expected class, failure, lane,
// verdict, detail, rule and diagnosis.
// Returns how many of them fail.
size_t ExpectSameResults(const BackendRun& want, const BackendRun& got, int jobs) {
  EXPECT_EQ(want.results.size(), got.results.size());
  size_t failing = 0;
  for (size_t i = 0; i < want.results.size() && i < got.results.size(); ++i) {
    const CaseResult &w = want.results[i], &g = got.results[i];
    EXPECT_EQ(w.id, g.id);
    EXPECT_EQ(w.op, g.op) << w.id;
    EXPECT_EQ(w.type, g.type) << w.id;
    EXPECT_EQ(w.rank, g.rank) << w.id;
    EXPECT_EQ(w.expected, g.expected) << w.id;
    EXPECT_EQ(w.failure, g.failure) << w.id;
    EXPECT_EQ(w.lane, g.lane) << w.id;
    EXPECT_EQ(w.verdict, g.verdict) << w.id << " jobs " << jobs;
    EXPECT_EQ(w.detail, g.detail) << w.id;
    EXPECT_EQ(w.rule, g.rule) << w.id;
    EXPECT_EQ(w.diagnosis.has_value(), g.diagnosis.has_value()) << w.id;
    if (w.diagnosis && g.diagnosis) {
      EXPECT_EQ(w.diagnosis->mistake, g.diagnosis->mistake) << w.id;
    }
    failing += w.failure;
  }
  return failing;
}

// Each failing case of `got`, made whole in `made`, holds the whole case's data and expected
// output.
void ExpectFailingCasesWhole(const CaseList& made, const BackendRun& got,
                             const std::vector<PreparedCase>& whole) {
  for (size_t i = 0; i < made.size(); ++i) {
    if (!got.results[i].failure) continue;
    ASSERT_NE(made.Held(i), nullptr) << whole[i].c.id;
    const PreparedCase& m = *made.Held(i);
    EXPECT_EQ(m.hollow_index, -1) << m.c.id;
    EXPECT_EQ(m.c.id, whole[i].c.id);
    EXPECT_EQ(m.c.data.bytes, whole[i].c.data.bytes) << m.c.id;
    ASSERT_TRUE(m.expectation.ok() && whole[i].expectation.ok());
    ASSERT_EQ(m.expectation->output.has_value(), whole[i].expectation->output.has_value())
        << m.c.id;
    if (whole[i].expectation->output) {
      EXPECT_EQ(m.expectation->output->bytes, whole[i].expectation->output->bytes);
    }
  }
}

// The cases of a catalogue held whole, held hollow (prepared without data and expected output)
// and unheld (case_list.h: made again from their sweep index) give the same results: verdicts,
// details, rules, diagnoses and slice counts, sequentially and with two isolated workers; the
// failing cases made whole afterwards hold the whole cases' data and expectations.
TEST(HollowCases, RunGivesTheWholeRunsResults) {
  // (The sweep draws over every op and keeps these two: about 2/5 of its cases.)
  CatalogueOptions o = Sweep(750);
  o.ops = {Op::kSpaceToBatch, Op::kDepthToSpace};
  std::vector<PreparedCase> whole = PrepareCases(BuildCatalogue(o));
  o.hollow = true;
  std::vector<int64_t> index;
  std::vector<PreparedCase> hollow = PrepareCases(BuildCatalogue(o, &index), {}, 1, index);
  ASSERT_EQ(whole.size(), hollow.size());
  CaseList unheld_list;
  size_t unheld = 0;
  for (size_t k = 0; k < hollow.size(); ++k) {
    if (index[k] >= 0 && unheld_list.AddUnheld(hollow[k].c, index[k])) {
      ++unheld;
    } else {
      unheld_list.Add(hollow[k]);
    }
  }
  EXPECT_GT(unheld, 250u);
  const CaseList hollow_list(hollow);
  for (const char* name : {"mutant.s2b_pads_swapped", "mutant.d2s_mode_swapped"}) {
    absl::StatusOr<BackendInfo> b = ResolveBackend(name);
    ASSERT_TRUE(b.ok()) << b.status();
    for (int jobs : {1, 2}) {
      RunOptions ro;
      ro.jobs = jobs;
      const BackendRun want = RunBackend(name, b->factory, whole, ro);
      ro.hollow_data = [&o](int64_t i) { return SweepData(o, static_cast<uint64_t>(i)); };
      ro.sweep_case = [&o](int64_t i) { return WholeSweepCase(o, static_cast<uint64_t>(i)); };
      const CaseList* lists[] = {&hollow_list, &unheld_list};
      for (const CaseList* list : lists) {
        const BackendRun got = RunBackend(name, b->factory, *list, ro);
        EXPECT_GT(ExpectSameResults(want, got, jobs), 10u) << name;  // caught on many cases
        ASSERT_EQ(want.slices.size(), got.slices.size());
        for (size_t k = 0; k < want.slices.size(); ++k) {
          EXPECT_EQ(want.slices[k].in_slice, got.slices[k].in_slice) << k;
          EXPECT_EQ(want.slices[k].ran, got.slices[k].ran) << k;
          EXPECT_EQ(want.slices[k].unsupported, got.slices[k].unsupported) << k;
        }
        CaseList made = *list;
        MakeFailingCasesWhole(made, got, ro);
        ExpectFailingCasesWhole(made, got, whole);
      }
      // The results spooled (result_list.h): read back the same, and only the plain passes
      // left out of memory.
      RunOptions spool = ro;
      spool.spool_results = true;
      const BackendRun spooled = RunBackend(name, b->factory, unheld_list, spool);
      ASSERT_TRUE(spooled.results.spooling());
      EXPECT_GT(ExpectSameResults(want, spooled, jobs), 10u) << name;
      size_t held = 0, not_plain = 0;
      spooled.results.ForEachHeld([&](size_t, const CaseResult&) { ++held; });
      for (const CaseResult& w : want.results) not_plain += !IsPlainResult(w);
      EXPECT_EQ(held, not_plain) << name;
      EXPECT_LT(held, want.results.size()) << name;
      for (size_t k = 0; k < want.slices.size(); ++k) {
        EXPECT_EQ(want.slices[k].ran, spooled.slices[k].ran) << k;
      }
      CaseList made = unheld_list;
      MakeFailingCasesWhole(made, spooled, spool);
      ExpectFailingCasesWhole(made, spooled, whole);
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
  const CaseList list(hollow);
  WholeCases cases(run, list, ro);
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

// The catalogue handed over a block at a time is BuildCatalogue's, case for case, hollow
// index for index, each block at its position; WholeSweepCase makes the whole catalogue's case
// at a sweep index again.
TEST(CatalogueBlocks, TheWholeCatalogueInOrderAndEachSweepCaseMadeAgain) {
  CatalogueOptions o = Sweep(9000);  // three sweep blocks
  o.hollow = true;
  std::vector<int64_t> index;
  const std::vector<OpCase> all = BuildCatalogue(o, &index);
  std::vector<OpCase> got;
  std::vector<int64_t> got_index;
  int blocks = 0;
  ForEachCatalogueBlock(
      o, [&](std::vector<OpCase>& block, const std::vector<int64_t>& hollow, size_t first) {
        EXPECT_EQ(first, got.size());
        EXPECT_EQ(block.size(), hollow.size());
        ++blocks;
        for (size_t k = 0; k < block.size(); ++k) {
          got.push_back(std::move(block[k]));
          got_index.push_back(hollow[k]);
        }
      });
  EXPECT_GE(blocks, 4);  // the curated and edge cases, then each sweep block
  ASSERT_EQ(got.size(), all.size());
  EXPECT_EQ(got_index, index);
  const std::vector<OpCase> whole = BuildCatalogue(Sweep(9000));
  ASSERT_EQ(whole.size(), all.size());
  for (size_t k = 0; k < all.size(); ++k) {
    ASSERT_EQ(got[k].id, all[k].id) << k;
    if (index[k] < 0) continue;
    const std::optional<OpCase> made = WholeSweepCase(o, static_cast<uint64_t>(index[k]));
    ASSERT_TRUE(made.has_value()) << all[k].id;
    EXPECT_EQ(made->id, whole[k].id);
    EXPECT_EQ(made->data.bytes, whole[k].data.bytes) << whole[k].id;
    EXPECT_EQ(made->data.shape, whole[k].data.shape) << whole[k].id;
    EXPECT_TRUE(static_cast<const OpAttributes&>(*made) ==
                static_cast<const OpAttributes&>(whole[k]))
        << whole[k].id;
    EXPECT_EQ(made->int_inputs, whole[k].int_inputs) << whole[k].id;
  }
}

// The hollow sweep cases of a catalogue as a CaseList of unheld cases: each keeps its op,
// sweep index and facts (every slice covers it exactly when it covers the case, a slice that
// declares a mode no specification names included), and takes only cases of a rank up to 15,
// an index below 2^31 and no mode, a specification's or one of kOtherModes others.
TEST(UnheldCases, KeepTheFactsTheRunReads) {
  std::vector<int64_t> index;
  const std::vector<OpCase> all = HollowCatalogue(2000, &index);
  CaseList list;
  std::vector<size_t> position;  // per list entry: its catalogue position
  for (size_t k = 0; k < all.size(); ++k) {
    if (index[k] >= 0 && list.AddUnheld(all[k], index[k])) position.push_back(k);
  }
  ASSERT_GT(position.size(), 1000u);
  std::vector<OpSupport> slices;
  for (Op op : AllOps()) {
    slices.push_back(SupportAll(op));
    OpSupport narrow = SupportAll(op);
    narrow.element_types = {ElementType::kF32, ElementType::kU4, ElementType::kBf16};
    narrow.min_rank = 3;
    narrow.max_rank = 4;
    narrow.modes = {"blocks_first", "same_upper"};
    slices.push_back(narrow);
    OpSupport by_mode = SupportAll(op);  // only the mode tells
    by_mode.modes = {"depth_first", "same_lower", "valid"};
    slices.push_back(by_mode);
    OpSupport by_other_mode = SupportAll(op);  // a backend may declare a mode no spec names
    by_other_mode.modes = {"depth first", "notset", "blocks_first"};
    slices.push_back(by_other_mode);
  }
  size_t covered = 0, not_covered = 0, other_mode = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    const OpCase& c = all[position[i]];
    OpCase other = c;
    // The mode the facts keep: ExtractImagePatches' auto_pad, the others' mode.
    const auto mode_of = [](OpCase& x) -> std::optional<std::string>& {
      return x.op == Op::kExtractImagePatches ? x.auto_pad : x.mode;
    };
    const std::optional<std::string> mode = mode_of(other);
    const bool spec_mode = !mode.has_value() || *mode == "blocks_first" || *mode == "depth_first" ||
                           *mode == "valid" || *mode == "same_upper" || *mode == "same_lower";
    if (!spec_mode) {  // a negative case's misspelt mode: another one is another case
      ++other_mode;
      mode_of(other) = *mode + "x";
      EXPECT_FALSE(list.Matches(i, other)) << c.id;
      mode_of(other) = std::nullopt;
      EXPECT_FALSE(list.Matches(i, other)) << c.id;
    }
    EXPECT_EQ(list.Held(i), nullptr);
    EXPECT_EQ(list.SweepIndex(i), index[position[i]]);
    EXPECT_EQ(list.OpAt(i), c.op) << c.id;
    EXPECT_TRUE(list.Matches(i, c)) << c.id;
    other = c;  // one fact changed at a time
    other.data.shape.push_back(1);
    EXPECT_FALSE(list.Matches(i, other)) << c.id;
    other = c;
    other.op = c.op == Op::kSpaceToBatch ? Op::kBatchToSpace : Op::kSpaceToBatch;
    EXPECT_FALSE(list.Matches(i, other)) << c.id;
    other = c;
    other.data.type = c.data.type == ElementType::kF32 ? ElementType::kF16 : ElementType::kF32;
    EXPECT_FALSE(list.Matches(i, other)) << c.id;
    if (c.op == Op::kDepthToSpace || c.op == Op::kSpaceToDepth) {
      other = c;
      other.mode = c.mode == "blocks_first" ? "depth_first" : "blocks_first";
      EXPECT_FALSE(list.Matches(i, other)) << c.id;
    }
    for (const OpSupport& s : slices) {
      const bool want = OpSupportCovers(s, c);
      EXPECT_EQ(list.InSlice(i, s), want) << c.id;
      (want ? covered : not_covered) += 1;
    }
  }
  EXPECT_GT(covered, list.size());  // each case is in its op's SupportAll, some in a narrow one
  EXPECT_GT(not_covered, list.size());
  EXPECT_GT(other_mode, 10u);  // the negative cases' misspelt modes are unheld too
  // A list codes up to kOtherModes modes no specification names; the case of one more is held.
  CaseList fresh;
  OpCase odd = all[position[0]];
  odd.op = Op::kDepthToSpace;
  odd.mode = "depth_first";
  EXPECT_TRUE(fresh.UnheldFacts(odd, 5).has_value());
  EXPECT_FALSE(fresh.UnheldFacts(odd, int64_t{1} << 31).has_value());
  EXPECT_FALSE(fresh.UnheldFacts(odd, -1).has_value());
  for (size_t k = 0; k < CaseList::kOtherModes; ++k) {
    odd.mode = absl::StrCat("sideways ", k);
    ASSERT_TRUE(fresh.AddUnheld(odd, static_cast<int64_t>(k))) << k;
  }
  odd.mode = "sideways, once more";
  EXPECT_FALSE(fresh.UnheldFacts(odd, 5).has_value());
  odd.mode = "sideways 3";  // one the list has
  ASSERT_TRUE(fresh.AddUnheld(odd, 5));
  EXPECT_TRUE(fresh.Matches(fresh.size() - 1, odd));
  EXPECT_TRUE(fresh.Matches(3, odd));
  EXPECT_FALSE(fresh.Matches(2, odd));  // "sideways 2"
  OpSupport declares = SupportAll(Op::kDepthToSpace);
  declares.modes = {"sideways 7"};
  for (size_t i = 0; i < fresh.size(); ++i) {
    EXPECT_EQ(fresh.InSlice(i, declares), i == 7) << i;
  }
  odd.mode = "blocks_first";
  EXPECT_TRUE(fresh.AddUnheld(odd, 6));  // a specification's mode needs no code of its own
  odd.data.shape.assign(16, 1);
  EXPECT_FALSE(fresh.UnheldFacts(odd, 5).has_value());
}

// Held and unheld cases mixed in one list, and an unheld case in the middle of a sweep held
// afterwards (a failing case made whole): every other case reads as it was added.
TEST(UnheldCases, HoldingOneLeavesTheOthersAsTheyWere) {
  std::vector<int64_t> index;
  const std::vector<OpCase> all = HollowCatalogue(300, &index);
  CaseList list;
  std::vector<int64_t> want_index;   // per list entry: its sweep index, -1 when held
  std::vector<std::string> want_id;  // per held entry: its id
  auto hold = [&](const OpCase& c) {
    PreparedCase p;
    p.c = c;
    list.Add(p);
    want_index.push_back(-1);
    want_id.push_back(c.id);
  };
  hold(all[0]);
  hold(all[1]);
  std::vector<Op> want_op = {all[0].op, all[1].op};
  for (size_t k = 0; k < all.size(); ++k) {
    if (index[k] < 0 || !list.UnheldFacts(all[k], index[k]).has_value()) continue;
    if (want_index.size() % 97 == 0) {  // now and then a held case between unheld ones
      hold(all[k]);
    } else {
      ASSERT_TRUE(list.AddUnheld(all[k], index[k]));
      want_index.push_back(index[k]);
      want_id.emplace_back();
    }
    want_op.push_back(all[k].op);
  }
  ASSERT_GT(list.size(), 200u);
  const size_t middle = list.size() / 2 + (list.SweepIndex(list.size() / 2) < 0 ? 1 : 0);
  ASSERT_GE(list.SweepIndex(middle), 0);
  PreparedCase whole;
  whole.c = all[0];
  whole.c.id = "made whole";
  list.Hold(middle, whole);
  want_index[middle] = -1;
  want_id[middle] = "made whole";
  want_op[middle] = all[0].op;
  ASSERT_EQ(list.size(), want_index.size());
  for (size_t i = 0; i < list.size(); ++i) {
    EXPECT_EQ(list.SweepIndex(i), want_index[i]) << i;
    EXPECT_EQ(list.OpAt(i), want_op[i]) << i;
    const PreparedCase* p = list.Held(i);
    ASSERT_EQ(p != nullptr, want_index[i] < 0) << i;
    if (p != nullptr) {
      EXPECT_EQ(p->c.id, want_id[i]) << i;
    }
  }
}

// An unheld case that cannot be made again, or is made as another case (another op, type,
// rank or mode), runs as a harness error naming the rule runner.sweep_case, never as a
// different case.
TEST(UnheldCases, ACaseNotMadeAgainIsAHarnessError) {
  CatalogueOptions o = Sweep(200);
  o.hollow = true;
  std::vector<int64_t> index;
  const std::vector<OpCase> all = BuildCatalogue(o, &index);
  size_t a = all.size(), b = all.size();
  for (size_t k = 0; k < all.size(); ++k) {
    if (index[k] < 0 || !CaseList().UnheldFacts(all[k], index[k]).has_value()) continue;
    if (a == all.size()) {
      a = k;
    } else if (all[k].op != all[a].op) {
      b = k;
      break;
    }
  }
  ASSERT_LT(b, all.size());
  CaseList list;
  ASSERT_TRUE(list.AddUnheld(all[a], index[a]));
  absl::StatusOr<BackendInfo> oracle = ResolveBackend("oracle");
  ASSERT_TRUE(oracle.ok());
  RunOptions ro;
  ro.isolate = false;
  for (bool wrong_case : {false, true}) {
    if (wrong_case) {
      ro.sweep_case = [&](int64_t) { return WholeSweepCase(o, static_cast<uint64_t>(index[b])); };
    }
    const BackendRun run = RunBackend("oracle", oracle->factory, list, ro);
    ASSERT_EQ(run.results.size(), 1u);
    EXPECT_EQ(run.results[0].verdict, Verdict::kHarnessError);
    EXPECT_TRUE(absl::StrContains(run.results[0].detail, "runner.sweep_case"))
        << run.results[0].detail;
    EXPECT_TRUE(absl::StrContains(run.results[0].detail,
                                  wrong_case ? "is not the case selected" : "could not be made"))
        << run.results[0].detail;
  }
}

// A view (CaseList::ViewOf) reads the caller's cases where they are; its first change copies
// them in, and the caller's vector is left as it was.
TEST(CaseListView, ReadsInPlaceAndCopiesOnTheFirstChange) {
  std::vector<PreparedCase> mine(3);
  for (size_t k = 0; k < mine.size(); ++k) mine[k].c.id = "case " + std::to_string(k);
  CaseList view = CaseList::ViewOf(mine);
  ASSERT_EQ(view.size(), 3u);
  for (size_t k = 0; k < mine.size(); ++k) EXPECT_EQ(view.Held(k), &mine[k]);
  PreparedCase replaced;
  replaced.c.id = "replaced";
  view.Hold(1, replaced);
  ASSERT_EQ(view.size(), 3u);
  EXPECT_NE(view.Held(0), &mine[0]);
  EXPECT_EQ(view.Held(0)->c.id, "case 0");
  EXPECT_EQ(view.Held(1)->c.id, "replaced");
  EXPECT_EQ(view.Held(2)->c.id, "case 2");
  EXPECT_EQ(mine[1].c.id, "case 1");
  CaseList grown = CaseList::ViewOf(mine);
  grown.Add(replaced);
  ASSERT_EQ(grown.size(), 4u);
  EXPECT_EQ(grown.Held(3)->c.id, "replaced");
  EXPECT_EQ(mine.size(), 3u);
}

// A backend of shape inference only, wrong: its partial answers shift the first dim's interval
// up by 1, its static answers to DepthToSpace add 1 to the last dim.
class LooseShapes : public Backend {
 public:
  std::string Name() const override { return "loose"; }
  Capabilities GetCapabilities() const override {
    Capabilities caps = SupportEverything();
    caps.kernels = false;
    caps.infer_static = caps.infer_partial = true;
    return caps;
  }
  RunOutcome Run(const OpCase&) override {
    RunOutcome o;
    o.kind = RunOutcome::Kind::kUnsupported;
    return o;
  }
  ShapeOutcome InferStatic(const PartialCase& c) override {
    ShapeOutcome o = oracle_->InferStatic(c);
    if (c.op == Op::kDepthToSpace && o.kind == ShapeOutcome::Kind::kOutput && o.shape.dims &&
        !o.shape.dims->empty()) {
      o.shape.dims->back() = Dim::Exact(o.shape.dims->back().lo + 1);
    }
    return o;
  }
  ShapeOutcome InferPartial(const PartialCase& c) override {
    ShapeOutcome o = oracle_->InferPartial(c);
    if (o.kind == ShapeOutcome::Kind::kOutput && o.shape.dims && !o.shape.dims->empty()) {
      Dim& d = o.shape.dims->front();
      d.lo += 1;
      if (d.hi) *d.hi += 1;
    }
    return o;
  }

 private:
  std::unique_ptr<Backend> oracle_ = MakeOracleBackend();
};

BackendFactory LooseShapesFactory() {
  return [] { return absl::StatusOr<std::unique_ptr<Backend>>(std::make_unique<LooseShapes>()); };
}

// The shape lane over a catalogue's widened cases held, as BuildShapeCases makes them, and
// unheld (made again from their catalogue position and sweep index, case_list.h): the same
// results, sequentially and with two workers. Each unheld entry keeps its op, staticness,
// position and index, and the failing cases, made whole and held afterwards, are the held
// run's cases.
TEST(UnheldShapeCases, RunGivesTheHeldRunsResults) {
  CatalogueOptions o = Sweep(400);
  o.hollow = true;
  ShapeLaneOptions so;
  so.seed = 5;
  so.count = 0;
  std::vector<int64_t> index;
  const std::vector<OpCase> catalogue = BuildCatalogue(o, &index);
  std::vector<ShapeCase> widened;
  std::vector<size_t> position;
  WidenCatalogueCases(catalogue, 0, so, widened, &position);
  ASSERT_EQ(widened.size(), position.size());
  const std::vector<ShapeCase> built = BuildShapeCases(catalogue, so);
  ASSERT_GE(built.size(), widened.size());
  for (size_t k = 0; k < widened.size(); ++k) ASSERT_EQ(built[k].id, widened[k].id);
  std::vector<absl::StatusOr<PartialResult>> answers = OracleShapeAnswers(widened, 2);
  std::vector<PreparedShapeCase> held;
  ShapeCaseList list;
  size_t unheld = 0;
  for (size_t k = 0; k < widened.size(); ++k) {
    if (!answers[k].ok()) continue;
    PreparedShapeCase p;
    p.s = widened[k];
    p.expectation = answers[k];
    held.push_back(p);
    const auto at = static_cast<int64_t>(position[k]);
    if (index[position[k]] >= 0 && list.AddUnheld(widened[k], at, index[position[k]])) {
      const size_t i = list.size() - 1;
      ++unheld;
      EXPECT_EQ(list.Held(i), nullptr);
      EXPECT_EQ(list.OpAt(i), widened[k].c.op);
      EXPECT_EQ(list.IsStatic(i), widened[k].c.IsStatic());
      EXPECT_EQ(list.Position(i), at);
      EXPECT_EQ(list.SweepIndex(i), index[position[k]]);
    } else {
      list.Add(std::move(p));
    }
  }
  ASSERT_EQ(list.size(), held.size());
  EXPECT_GT(unheld, 300u);
  EXPECT_FALSE(ShapeCaseList::Fits(int64_t{1} << 29, 0));
  EXPECT_FALSE(ShapeCaseList::Fits(0, int64_t{1} << 29));
  EXPECT_TRUE(ShapeCaseList::Fits((int64_t{1} << 29) - 1, (int64_t{1} << 29) - 1));
  const ShapeCaseList held_list(held);
  const CaseList no_kernels;
  for (int jobs : {1, 2}) {
    RunOptions ro;
    ro.jobs = jobs;
    ro.timeout_seconds = 20;
    ro.shape_cases = &held_list;
    const BackendRun want = RunBackend("loose", LooseShapesFactory(), no_kernels, ro);
    ro.shape_cases = &list;
    ro.shape_case = [&](int64_t /*at*/, int64_t i) -> std::optional<ShapeCase> {
      std::optional<OpCase> c = HollowSweepCase(o, static_cast<uint64_t>(i));
      if (!c.has_value()) return std::nullopt;
      return WidenCatalogueCase(*c, so);
    };
    const BackendRun got = RunBackend("loose", LooseShapesFactory(), no_kernels, ro);
    ASSERT_EQ(want.results.size(), held.size());
    ASSERT_EQ(got.results.size(), held.size());
    EXPECT_GT(ExpectSameResults(want, got, jobs), 10u);
    ShapeCaseList made = list;
    CaseList kernels;
    MakeFailingCasesWhole(kernels, got, ro, &made);
    for (size_t i = 0; i < got.results.size(); ++i) {
      if (!got.results[i].failure) continue;
      ASSERT_NE(made.Held(i), nullptr) << got.results[i].id;
      const PreparedShapeCase& m = ShapeCaseOf(got, kernels, made, i);
      EXPECT_EQ(m.s.id, held[i].s.id);
      EXPECT_EQ(m.s.origin, held[i].s.origin);
      EXPECT_EQ(m.s.c.IsStatic(), held[i].s.c.IsStatic()) << m.s.id;
      EXPECT_TRUE(m.expectation.ok()) << m.s.id;
    }
  }
  // Made again as another case (another op), an unheld case is a harness error naming the
  // rule, never that case run.
  {
    RunOptions ro;
    ro.isolate = false;
    ro.shape_cases = &list;
    ro.shape_case = [&](int64_t /*at*/, int64_t i) -> std::optional<ShapeCase> {
      std::optional<OpCase> c = HollowSweepCase(o, static_cast<uint64_t>(i));
      if (!c.has_value()) return std::nullopt;
      std::optional<ShapeCase> s = WidenCatalogueCase(*c, so);
      if (s.has_value()) {
        s->c.op = s->c.op == Op::kSpaceToBatch ? Op::kBatchToSpace : Op::kSpaceToBatch;
      }
      return s;
    };
    const BackendRun other = RunBackend("loose", LooseShapesFactory(), no_kernels, ro);
    ASSERT_EQ(other.results.size(), list.size());
    for (size_t i = 0; i < list.size(); ++i) {
      if (list.Held(i) != nullptr) continue;
      EXPECT_EQ(other.results[i].verdict, Verdict::kHarnessError);
      EXPECT_TRUE(absl::StrContains(other.results[i].detail, "is not the case selected"))
          << other.results[i].detail;
    }
  }
  // Without the function that makes them again, the unheld cases are harness errors naming
  // the rule.
  RunOptions ro;
  ro.isolate = false;
  ro.shape_cases = &list;
  const BackendRun none = RunBackend("loose", LooseShapesFactory(), no_kernels, ro);
  ASSERT_EQ(none.results.size(), list.size());
  size_t errors = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    if (list.Held(i) != nullptr) continue;
    EXPECT_EQ(none.results[i].verdict, Verdict::kHarnessError);
    EXPECT_TRUE(absl::StrContains(none.results[i].detail, "runner.shape_case"))
        << none.results[i].detail;
    ++errors;
  }
  EXPECT_EQ(errors, unheld);
}

}  // namespace
}  // namespace dmconf
