#include "harness/runner/run_verdict.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace dmconf {

int64_t CountUnexercisedSlices(const std::vector<BackendRun>& runs) {
  int64_t n = 0;
  for (const BackendRun& r : runs) {
    for (const SliceCoverage& s : r.slices) n += s.Unexercised();
  }
  return n;
}

RunVerdict JudgeRun(const RunFacts& facts, const RunRules& rules) {
  RunVerdict v;
  if (facts.runs != nullptr) {
    for (size_t k = 0; k < facts.runs->size(); ++k) {
      const BackendRun& r = (*facts.runs)[k];
      if (!r.capabilities.kernels && r.startup_error.empty()) {
        v.kernels_not_provided.push_back(r.backend);
      }
      v.worker_errors += static_cast<int64_t>(r.worker_errors.size());
      if (facts.mutants.count(r.backend)) continue;
      if (facts.new_failures != nullptr) {
        v.new_failures += (*facts.new_failures)[k];
        continue;
      }
      r.results.ForEachHeld([&](size_t, const CaseResult& c) { v.new_failures += c.failure; });
    }
    v.unexercised_slices = CountUnexercisedSlices(*facts.runs);
  }
  if (v.new_failures > 0) v.reasons.push_back(absl::StrCat(v.new_failures, " new failure(s)"));
  if (v.worker_errors > 0) {
    v.reasons.push_back(absl::StrCat(v.worker_errors, " worker error(s) that belong to no case"));
  }
  v.mutants_missed = facts.mutants_missed;
  if (facts.mutants_missed > 0) {
    v.reasons.push_back(
        absl::StrCat(facts.mutants_missed, " mutant(s) not caught with their verdict class"));
  }
  if (facts.file_errors > 0) {
    v.reasons.push_back(absl::StrCat(facts.file_errors, " vector file error(s)"));
  }
  if (rules.strict_coverage && v.unexercised_slices > 0) {
    v.reasons.push_back(
        absl::StrCat(v.unexercised_slices, " unexercised slice(s) (--strict-coverage)"));
  }
  if (rules.strict_expectations && facts.stale_expectations > 0) {
    v.reasons.push_back(
        absl::StrCat(facts.stale_expectations, " stale expectation(s) (--strict-expectations)"));
  }
  if (rules.require_cases && !facts.ran_no_case.empty()) {
    v.ran_no_case = facts.ran_no_case;
    v.reasons.push_back(
        absl::StrCat(absl::StrJoin(facts.ran_no_case, ", "), " ran no case (--require-cases)"));
  }
  v.fails = !v.reasons.empty();
  return v;
}

}  // namespace dmconf
