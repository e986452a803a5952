// No diagnosis names a bug that is not there, on original and shrunk cases alike; and the
// measurement docs/diagnoses.md quotes. Every mutant backend with wrong outputs is run
// in-process over the default catalogue (what `dmconf run` runs); every wrong output's
// diagnosis is classed against the mistake the mutant was written to make (the table below
// comes from how each mutant is written, harness/backends/mutants, not from the diagnosis):
//   exact    names the seeded mistake (a model id, the fitted terms, or the term of the shape
//            formula), or a mistake that is
//            equivalent on that case: its predicted output equals the mutant's on the case and
//            on a self-identifying twin of it (same op, shape and attributes, data element i
//            holding i + 1), so that equal outputs of few distinct values prove nothing (and
//            an empty output shows nothing: no mistake is equivalent on it)
//   partial  names some of the seeded fitted terms and no other (the rest does not show)
//   ambiguous  names several explanations equally ("a|b"), the seeded one among them or not
//   located  names nothing, but says something (where the first wrong element came from,
//            explanations consistent with data that cannot identify positions)
//   wrong    names anything else (must be 0)
//   none     no diagnosis
// The same for the originals of a wider population (seed 2, a 4000-case sweep of the five ops).
// Then a sample of each mutant's failures is shrunk in-process (harness/shrink) and the
// minimal case's diagnosis is classed the same way; a minimal case of an original named exactly
// must name the same mistake (the shrinker keeps the diagnosis class).
//
// The figures are printed (ctest --preset dev -R DiagnosisMeasure -V).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "harness/backends/mutants/mutants.h"
#include "harness/compare/diagnosis.h"
#include "harness/compare/mistakes.h"
#include "harness/gen/fills.h"
#include "harness/runner/runner.h"
#include "harness/runner/twin_run.h"
#include "harness/shrink/shrink.h"
#include "harness/suites/catalogue.h"

namespace dmconf {
namespace {

// mutant -> what it was written to do: model ids and fitted-term sets ('+'), alternatives '|'.
const std::map<std::string, std::string>& Seeded() {
  static const auto* const kSeeded = new std::map<std::string, std::string>{
      {"d2s_mode_swapped", "depth.mode_swapped|depth.fit.mode"},
      {"s2d_mode_swapped", "depth.mode_swapped|depth.fit.mode"},
      {"d2s_mode_4d_only", "depth.fit.mode"},
      {"d2s_nhwc_as_nchw", "layout.nhwc_as_nchw|depth.fit.input_layout"},
      {"s2b_pads_swapped", "s2b.pads_swapped|s2b.fit.pads"},
      {"s2b_pads_at_end", "s2b.fit.pads"},
      {"s2b_batch_major", "s2b.batch_major|s2b.fit.batch_order"},
      {"s2b_block_order_reversed", "s2b.fit.block_order"},
      {"s2b_nhwc_as_nchw", "s2b.fit.input_layout"},
      {"s2b_pad_garbage", "s2b.fit.pad_value"},
      {"b2s_crops_swapped", "b2s.crops_swapped|b2s.fit.crops"},
      {"b2s_crops_at_end", "b2s.fit.crops"},
      {"b2s_batch_major", "b2s.batch_major|b2s.fit.batch_order"},
      {"b2s_block_order_reversed", "b2s.fit.block_order"},
      {"b2s_nhwc_as_nchw", "b2s.fit.input_layout"},
      {"eip_same_swapped", "eip.same_swapped|eip.fit.pads"},
      {"eip_same_lower_off_by_one", "eip.same_lower_off_by_one|eip.fit.pads"},
      {"eip_rate_as_stride",
       "eip.rate_stride_swapped|eip.fit.strides+eip.fit.rates|eip.fit.strides+eip.fit.rates+"
       "eip.fit.pads|eip.shape.rate_stride_swapped"},
      {"eip_col_rate_for_rows", "eip.fit.rates|eip.shape.col_rate"},
      {"eip_patch_major", "eip.patch_major|eip.fit.depth_order"},
      {"eip_kernel_column_major", "eip.fit.kernel_order"},
      {"eip_nhwc_as_nchw", "layout.nhwc_as_nchw|eip.fit.input_layout"},
      {"eip_valid_padded", "eip.fit.pads|eip.shape.padding"},
      {"b2s_ignores_crops_end", "b2s.shape.crops_end"},
      {"eip_valid_no_plus_one", "eip.shape.plus_one"},
      {"nan_quieting", "nan.quieted"},
      {"nan_canonicalising", "nan.canonicalised"},
      {"neg_zero_flush", "zero.sign_flushed"},
      {"nibble_order_swapped", "subbyte.nibbles_swapped"},
      {"u1_bit_order_reversed", "subbyte.bit_order_reversed"},
      {"d2s_depth_first_offsets_swapped", "depth.fit.permutation"},
      {"word_halves_swapped", "elem.word_halves_swapped"},
      {"u1_lsb_first_throughout", "subbyte.lsb_first_throughout"},
      {"d2s_batch_fixed_zero", "batch.fixed_zero"},
      // Written from the spec alone, without the diagnosis in view (blind_mutants.cc). The
      // measurement first ran them with no expected mistake: it found wrong names (a fitted
      // rate of 0 for edge-clamped reads; cropping at the end for a one-element output read
      // from batch 0; offsets and layouts for an NHWC output), which the models below and
      // the fit's positive strides and rates now answer.
      {"s2b_pads_end_forgotten", "s2b.pads_end_forgotten"},
      {"b2s_8byte_bytes_reversed", "elem.bytes_reversed"},
      {"s2d_block_two_only", "depth.block_two_only"},
      {"b2s_offset_ignores_crops", "b2s.offset_ignores_crops"},
      {"eip_pad_edge_clamped", "eip.pad_edge_clamped"},
      {"eip_row_stride_for_cols", "eip.fit.strides"},
      {"eip_same_pads_undilated", "eip.fit.pads"},
      {"b2s_reads_batch_zero", "batch.fixed_zero"},
      {"eip_nhwc_output", "eip.nhwc_output"},
  };
  return *kSeeded;
}

bool WrongOutput(Verdict v) {
  return v == Verdict::kWrongValues || v == Verdict::kWrongShape ||
         v == Verdict::kNanPayloadChanged;
}

// The output the mistake `id` predicts for c (a value mistake of the oracle's output, or a
// known mistake's model); nullopt when it has none there.
std::optional<Tensor> Predicted(const std::string& id, const OpCase& c) {
  absl::StatusOr<Expectation> e = Evaluate(c);
  if (!e.ok() || !e->output.has_value()) return std::nullopt;
  const std::map<std::string, Tensor (*)(Tensor)> values = {
      {"nan.quieted", QuietSignallingNaNs},
      {"nan.canonicalised", CanonicaliseNaNs},
      {"zero.sign_flushed", FlushNegativeZero},
      {"subbyte.nibbles_swapped", SwapNibbles},
      {"subbyte.bit_order_reversed", ReverseBitOrder},
      {"elem.word_halves_swapped", SwapWordHalves}};
  if (auto it = values.find(id); it != values.end()) return it->second(*e->output);
  const Mistake* m = FindMistake(id);
  if (m == nullptr || !m->applies(c)) return std::nullopt;
  absl::StatusOr<Tensor> t = m->apply(c);
  if (!t.ok()) return std::nullopt;
  return *t;
}

// c with self-identifying data: its own type where that holds distinct non-zero elements,
// else i32.
OpCase Twin(const OpCase& c) {
  OpCase t = c;
  t.data = PositionalTensor(c.data.type, c.data.shape);
  if (!IsPositionEncoded(t.data)) t.data = PositionalTensor(ElementType::kI32, c.data.shape);
  return t;
}

// Whether mistake `id` and the mutant agree on c and on its self-identifying twin.
// An empty output shows nothing of the mistake: no mistake is equivalent on it.
bool EquivalentOn(const std::string& id, const MutantInfo& m, const OpCase& c) {
  for (const OpCase& x : {c, Twin(c)}) {
    const RunOutcome r = m.run(x);
    const std::optional<Tensor> p = Predicted(id, x);
    if (!r.output.has_value() || r.output->NumElements() == 0 || !p.has_value() ||
        *p != *r.output) {
      return false;
    }
  }
  return true;
}

// Fitted terms (of the map, or of the shape formula): no model predicts an output for them.
bool Fitted(const std::string& mistake) {
  return absl::StrContains(mistake, ".fit.") || absl::StrContains(mistake, ".shape.");
}

enum Class { kExact, kPartial, kAmbiguous, kLocated, kWrong, kNone, kClasses };
constexpr const char* kClassNames[] = {"exact", "part", "amb", "loc", "wrong", "none"};

Class Classify(const MutantInfo& m, const OpCase& c, const std::optional<Diagnosis>& d,
               std::string* why) {
  if (!d.has_value()) return kNone;
  if (d->mistake.empty()) return kLocated;
  if (absl::StrContains(d->mistake, "|")) return kAmbiguous;
  auto it = Seeded().find(m.name);
  const std::string seeded = it == Seeded().end() ? "" : it->second;
  const std::set<std::string> named = absl::StrSplit(d->mistake, '+');
  for (absl::string_view alt : absl::StrSplit(seeded, '|', absl::SkipEmpty())) {
    const std::set<std::string> want = absl::StrSplit(alt, '+');
    if (want == named) return kExact;
  }
  for (absl::string_view alt : absl::StrSplit(seeded, '|', absl::SkipEmpty())) {
    const std::set<std::string> want = absl::StrSplit(alt, '+');
    if (Fitted(d->mistake) && std::includes(want.begin(), want.end(), named.begin(), named.end())) {
      return kPartial;
    }
  }
  if (!Fitted(d->mistake) && EquivalentOn(d->mistake, m, c)) return kExact;
  *why = c.id + ": " + d->mistake + ": " + d->summary;
  return kWrong;
}

struct Tally {
  int64_t n[kClasses] = {};
  int64_t cases() const {
    int64_t s = 0;
    for (int64_t x : n) s += x;
    return s;
  }
};

// A wider population: the catalogue of the five ops with seed 2 and a 4000-case sweep (its
// fixed cases are the default's), for the originals only.
const std::vector<PreparedCase>& WideCases() {
  static const std::vector<PreparedCase>* const kWide = [] {
    CatalogueOptions o;
    o.seed = 2;
    o.sweep_count = 4000;
    o.ops = {Op::kSpaceToBatch, Op::kBatchToSpace, Op::kSpaceToDepth, Op::kDepthToSpace,
             Op::kExtractImagePatches};
    return new std::vector<PreparedCase>(PrepareCases(BuildCatalogue(o)));
  }();
  return *kWide;
}

const std::vector<PreparedCase>& DefaultCases() {
  static const std::vector<PreparedCase>* const kCases =
      new std::vector<PreparedCase>(PrepareCases(BuildCatalogue(CatalogueOptions{})));
  return *kCases;
}

// Mutants with wrong outputs.
std::vector<MutantInfo> WrongOutputMutants() {
  std::vector<MutantInfo> out;
  for (const MutantInfo& m : AllMutants()) {
    if (std::any_of(m.expected_verdicts.begin(), m.expected_verdicts.end(), WrongOutput) &&
        m.infer == nullptr) {
      out.push_back(m);
    }
  }
  return out;
}

constexpr size_t kShrunkPerMutant = 6;

void PrintRow(const std::string& name, const char* what, const Tally& t) {
  static bool header = false;
  if (!header) {
    header = true;
    std::printf("%-26s %-8s %5s", "mutant", "cases", "n");
    for (const char* k : kClassNames) std::printf(" %5s", k);
    std::printf("\n");
  }
  std::printf("%-26s %-8s %5lld", name.c_str(), what, static_cast<long long>(t.cases()));
  for (int64_t x : t.n) std::printf(" %5lld", static_cast<long long>(x));
  std::printf("\n");
}

class DiagnosisMeasure : public ::testing::TestWithParam<MutantInfo> {};

TEST_P(DiagnosisMeasure, NoWrongNameOnOriginalOrShrunkCases) {
  const MutantInfo& m = GetParam();
  const std::string name = "mutant." + m.name;
  RunOptions o;
  o.isolate = false;
  Tally original, shrunk;
  std::vector<size_t> failing;
  const std::vector<PreparedCase>& cases = DefaultCases();
  std::vector<CaseResult> results(cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    const RunOutcome out = m.run(cases[i].c);
    results[i] = Judge(name, cases[i], out, o);
    DiagnoseByTwins(cases[i], out, m.run, o, results[i]);
    if (!results[i].failure || !WrongOutput(results[i].verdict)) continue;
    failing.push_back(i);
    std::string why;
    const Class k = Classify(m, cases[i].c, results[i].diagnosis, &why);
    ++original.n[k];
    EXPECT_NE(k, kWrong) << m.name << " original " << why;
  }
  // A sample spread over the failures, shrunk in-process.
  std::unique_ptr<Backend> backend = *MutantFactory(m)();
  const Capabilities caps = backend->GetCapabilities();
  const size_t step = std::max<size_t>(1, failing.size() / kShrunkPerMutant);
  int64_t kept = 0, named_originals = 0;
  for (size_t j = 0; j < failing.size() && j / step < kShrunkPerMutant; j += step) {
    const size_t i = failing[j];
    ShrinkOptions so;
    so.budget_seconds = 3;
    so.max_attempts = 400;
    const ShrunkCase s = ShrinkFailure(*backend, name, caps, cases[i], results[i], o, so);
    std::string why;
    const Class k = Classify(m, s.minimal.c, s.result.diagnosis, &why);
    ++shrunk.n[k];
    EXPECT_NE(k, kWrong) << m.name << " shrunk from " << cases[i].c.id << ": " << why;
    const std::optional<Diagnosis>& d0 = results[i].diagnosis;
    if (d0.has_value() && !d0->mistake.empty() && !absl::StrContains(d0->mistake, "|")) {
      ++named_originals;
      if (s.stats.diagnosis_kept) {
        ++kept;
        EXPECT_TRUE(s.result.diagnosis.has_value() && s.result.diagnosis->mistake == d0->mistake)
            << m.name << " " << cases[i].c.id << ": the original names " << d0->mistake
            << ", the shrunk case "
            << (s.result.diagnosis ? s.result.diagnosis->mistake : "nothing");
      }
    }
  }
  Tally wide;
  for (const PreparedCase& p : WideCases()) {
    const RunOutcome out = m.run(p.c);
    CaseResult r = Judge(name, p, out, o);
    DiagnoseByTwins(p, out, m.run, o, r);
    if (!r.failure || !WrongOutput(r.verdict)) continue;
    std::string why;
    const Class k = Classify(m, p.c, r.diagnosis, &why);
    ++wide.n[k];
    EXPECT_NE(k, kWrong) << m.name << " wide " << why;
  }
  PrintRow(m.name, "original", original);
  PrintRow(m.name, "shrunk", shrunk);
  PrintRow(m.name, "wide", wide);
  std::printf("%-26s named originals shrunk keeping their diagnosis: %lld of %lld\n",
              m.name.c_str(), static_cast<long long>(kept),
              static_cast<long long>(named_originals));
}

INSTANTIATE_TEST_SUITE_P(Mutants, DiagnosisMeasure, ::testing::ValuesIn(WrongOutputMutants()),
                         [](const ::testing::TestParamInfo<MutantInfo>& i) {
                           return i.param.name;
                         });

// Every diagnosis model (known mistake and value mistake) is the seeded mistake of some
// mutant above, so that the measurement runs each model's name against a bug that is really
// there: a model added without a mutant that makes its mistake fails here.
TEST(DiagnosisMeasureCoverage, EveryModelIsSeededByAMutant) {
  std::set<std::string> seeded;
  for (const auto& [mutant, expected] : Seeded()) {
    for (absl::string_view alt : absl::StrSplit(expected, '|', absl::SkipEmpty())) {
      for (absl::string_view id : absl::StrSplit(alt, '+')) seeded.insert(std::string(id));
    }
  }
  std::vector<std::string> models;
  for (const Mistake& m : AllMistakes()) models.push_back(std::string(m.id));
  for (const ValueMistake& v : ValueMistakes()) models.push_back(v.id);
  ASSERT_GE(models.size(), 20u);
  for (const std::string& id : models) {
    EXPECT_TRUE(seeded.count(id) > 0) << id << " is the seeded mistake of no mutant";
  }
}

}  // namespace
}  // namespace dmconf
