// The measurement of the fitted diagnoses (harness/compare/depth_fit.h, block_fit.h,
// patch_fit.h): every mutant of a fitted op is run in-process over two populations (the default
// catalogue, and a wider seeded sweep); for each wrong_values case with self-identifying
// (position-encoded) data, the fit must name exactly the terms the mutant was written to change,
// or say that the case cannot tell members apart, and must never name another term. The
// expected terms below come from how each mutant is written (harness/backends/mutants), not
// from the fit's output.
//
// The figures are printed (ctest --preset dev -R FitMeasure -V, or run the test binary):
// docs/diagnoses.md quotes them.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "harness/backends/mutants/mutants.h"
#include "harness/compare/block_fit.h"
#include "harness/compare/depth_fit.h"
#include "harness/compare/diagnosis.h"
#include "harness/compare/patch_fit.h"
#include "harness/runner/runner.h"
#include "harness/suites/catalogue.h"

namespace dmconf {
namespace {

struct Expected {
  const char* mutant;
  const char* family;
  const char* terms;  // the terms the mutant changes, joined by '+'
  // For a mutant whose change also moves the padding on some cases (ExtractImagePatches
  // same_*: the padding follows from the strides and rates): whether it does on this case.
  bool (*also_pads)(const OpCase& c) = nullptr;
};

// eip_rate_as_stride runs the spec with strides and rates swapped: under same_upper /
// same_lower, the padding it computes follows the swapped values.
bool SwappedPadsDiffer(const OpCase& c) {
  OpCase m = c;
  std::swap(m.strides, m.rates);
  absl::StatusOr<Validation> a = Validate(c), b = Validate(m);
  return a.ok() && b.ok() && a->parsed.pad_begin != b->parsed.pad_begin;
}

// One row per mutant with wrong values on a fitted op; the terms are what the mutant does.
const Expected kExpected[] = {
    {"d2s_mode_swapped", "depth", "depth.fit.mode"},
    {"s2d_mode_swapped", "depth", "depth.fit.mode"},
    {"d2s_mode_4d_only", "depth", "depth.fit.mode"},  // depth_first computed as blocks_first
    {"d2s_nhwc_as_nchw", "depth", "depth.fit.input_layout"},
    {"s2b_pads_swapped", "pad/crop", "s2b.fit.pads"},
    {"s2b_pads_at_end", "pad/crop", "s2b.fit.pads"},
    {"s2b_batch_major", "pad/crop", "s2b.fit.batch_order"},
    {"s2b_block_order_reversed", "pad/crop", "s2b.fit.block_order"},
    {"s2b_nhwc_as_nchw", "pad/crop", "s2b.fit.input_layout"},
    {"s2b_pad_garbage", "pad/crop", "s2b.fit.pad_value"},
    {"b2s_crops_swapped", "pad/crop", "b2s.fit.crops"},
    {"b2s_crops_at_end", "pad/crop", "b2s.fit.crops"},
    {"b2s_batch_major", "pad/crop", "b2s.fit.batch_order"},
    {"b2s_block_order_reversed", "pad/crop", "b2s.fit.block_order"},
    {"b2s_nhwc_as_nchw", "pad/crop", "b2s.fit.input_layout"},
    {"eip_same_swapped", "patch", "eip.fit.pads"},
    {"eip_same_lower_off_by_one", "patch", "eip.fit.pads"},
    {"eip_rate_as_stride", "patch", "eip.fit.strides+eip.fit.rates", SwappedPadsDiffer},
    {"eip_col_rate_for_rows", "patch", "eip.fit.rates"},
    {"eip_patch_major", "patch", "eip.fit.depth_order"},
    {"eip_kernel_column_major", "patch", "eip.fit.kernel_order"},
    {"eip_nhwc_as_nchw", "patch", "eip.fit.input_layout"},
    {"eip_valid_padded", "patch", "eip.fit.pads"},
};

struct Tally {
  int64_t cases = 0;        // wrong_values cases with self-identifying data
  int64_t named = 0;        // the fit names exactly the mutant's term
  int64_t partial = 0;      // names some of the mutant's terms, no other (the rest unseen)
  int64_t wrong = 0;        // the fit names a term the mutant does not change (must be 0)
  int64_t unexplained = 0;  // the fit says no member of the family explains the output
  int64_t ambiguous = 0;    // several members explain it equally (named as such)
  int64_t not_covered = 0;  // no fit applies (e.g. DepthToSpace with more than 3 spatial axes)
  void Add(const Tally& t) {
    cases += t.cases;
    named += t.named;
    partial += t.partial;
    wrong += t.wrong;
    unexplained += t.unexplained;
    ambiguous += t.ambiguous;
    not_covered += t.not_covered;
  }
};

// The default catalogue (what `dmconf run` runs), and the catalogue of the fitted ops with
// another seed and a ten times wider sweep (its fixed cases are the default's).
const std::vector<PreparedCase>& Population(bool wide) {
  static const std::vector<PreparedCase>* const kDefault =
      new std::vector<PreparedCase>(PrepareCases(BuildCatalogue(CatalogueOptions{})));
  static const std::vector<PreparedCase>* const kWide = [] {
    CatalogueOptions o;
    o.seed = 2;
    o.sweep_count = 4000;
    o.ops = {Op::kSpaceToBatch, Op::kBatchToSpace, Op::kSpaceToDepth, Op::kDepthToSpace,
             Op::kExtractImagePatches};
    return new std::vector<PreparedCase>(PrepareCases(BuildCatalogue(o)));
  }();
  return wide ? *kWide : *kDefault;
}

const MutantInfo* Find(const std::string& name) {
  for (const MutantInfo& m : AllMutants()) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

Tally Measure(const Expected& e, const std::vector<PreparedCase>& cases) {
  const MutantInfo* m = Find(e.mutant);
  EXPECT_NE(m, nullptr) << e.mutant;
  Tally t;
  if (m == nullptr) return t;
  int listed = 0;
  for (const PreparedCase& p : cases) {
    if (!p.expectation.ok() || !p.expectation->output.has_value()) continue;
    const Tensor& want = *p.expectation->output;
    RunOutcome r = m->run(p.c);
    if (!r.output.has_value() || r.output->type != want.type || r.output->shape != want.shape ||
        *r.output == want || !IsPositionEncoded(p.c.data)) {
      continue;  // not a wrong_values case with self-identifying data
    }
    const Tensor& got = *r.output;
    ++t.cases;
    std::optional<LayoutFit> fit = FitDepthLayout(p.c, want, got);
    if (!fit.has_value()) fit = FitBlockLayout(p.c, want, got);
    if (!fit.has_value()) fit = FitPatchGather(p.c, want, got);
    if (!fit.has_value()) {
      ++t.not_covered;
      continue;
    }
    // The fit is what the diagnosis says (and its terms its id when no known mistake matched).
    std::optional<Diagnosis> d = Diagnose(p.c, want, got);
    EXPECT_TRUE(d.has_value() && absl::StrContains(d->summary, fit->summary)) << p.c.id;
    std::set<std::string> expected;
    expected = absl::StrSplit(e.terms, '+');
    if (e.also_pads != nullptr && e.also_pads(p.c)) expected.insert("eip.fit.pads");
    const std::set<std::string> got_terms(fit->terms.begin(), fit->terms.end());
    const bool subset =
        std::includes(expected.begin(), expected.end(), got_terms.begin(), got_terms.end());
    if (!fit->explained) {
      ++t.unexplained;
    } else if (fit->terms.empty()) {
      ++t.ambiguous;
    } else if (got_terms == expected) {
      ++t.named;
      continue;
    } else if (subset) {
      ++t.partial;
    } else {
      ++t.wrong;
      ADD_FAILURE() << e.mutant << " " << p.c.id << ": names " << absl::StrJoin(fit->terms, "+")
                    << ": " << fit->summary;
    }
    if (++listed <= 2)
      std::printf("  not named: %s %s: %s\n", e.mutant, p.c.id.c_str(), fit->summary.c_str());
  }
  return t;
}

void Row(const char* name, const char* family, const Tally& t) {
  std::printf("%-26s %-9s", name, family);
  for (int64_t v :
       {t.cases, t.named, t.partial, t.wrong, t.unexplained, t.ambiguous, t.not_covered}) {
    std::printf(" %5lld", static_cast<long long>(v));
  }
  std::printf("\n");
}

void Share(const std::string& what, const Tally& t) {
  std::printf(
      "%s: %lld cases, %lld named exactly (%.1f%%), %lld wrong term named\n", what.c_str(),
      static_cast<long long>(t.cases), static_cast<long long>(t.named),
      t.cases == 0 ? 0.0 : 100.0 * static_cast<double>(t.named) / static_cast<double>(t.cases),
      static_cast<long long>(t.wrong));
}

class FitMeasure : public ::testing::TestWithParam<bool> {};

TEST_P(FitMeasure, EveryMutantOfAFittedFamilyIsNamedAndNoWrongTermIsNamed) {
  const bool wide = GetParam();
  std::printf("population: %s\n",
              wide ? "the catalogue of the five ops with seed 2 and a 4000-case sweep"
                   : "the default catalogue (dmconf run)");
  std::printf("%-26s %-9s %5s %5s %5s %5s %5s %5s %5s\n", "mutant", "family", "cases", "named",
              "part", "wrong", "none", "equal", "n/a");
  std::map<std::string, Tally> family;
  Tally all;
  for (const Expected& e : kExpected) {
    const Tally t = Measure(e, Population(wide));
    Row(e.mutant, e.family, t);
    family[e.family].Add(t);
    all.Add(t);
    EXPECT_EQ(t.wrong, 0) << e.mutant;
    if (std::string(e.family) == "pad/crop") {
      // Named exactly, or (a case that cannot tell two members apart) both named.
      EXPECT_EQ(t.named + t.ambiguous, t.cases) << e.mutant << ": the fit must name " << e.terms;
    } else if (std::string(e.family) == "depth") {
      // Named, named as indistinguishable, or out of the fit's reach (more than 3 spatial axes,
      // block size 1).
      EXPECT_EQ(t.named + t.ambiguous + t.not_covered, t.cases)
          << e.mutant << ": the fit must name " << e.terms;
    } else {
      EXPECT_TRUE(t.cases == 0 || t.named > 0) << e.mutant << ": never named";
    }
  }
  for (const auto& [name, t] : family) Share("family " + name, t);
  Share("all fitted families", all);
  EXPECT_GE(family["pad/crop"].named * 10, family["pad/crop"].cases * 9);
  EXPECT_GE(family["patch"].named * 10, family["patch"].cases * 8);
  EXPECT_GE(all.named * 10, all.cases * 8) << "target: at least 80% named exactly";
  EXPECT_EQ(all.wrong, 0);
}

INSTANTIATE_TEST_SUITE_P(Populations, FitMeasure, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) {
                           return i.param ? std::string("WideSweep") : std::string("Catalogue");
                         });

}  // namespace
}  // namespace dmconf
