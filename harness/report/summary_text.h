// The text summary of a run: per backend, op x verdict and op x element type (passed / run)
// tables, the new failures grouped by cause (CausesText), the failures with their repro lines,
// and for several backends one
// backend x op x verdict matrix.
//
// Example:
//   std::cout << SummaryText(runs, {.max_failures_listed = 20});
#ifndef DMCONF_HARNESS_REPORT_SUMMARY_TEXT_H_
#define DMCONF_HARNESS_REPORT_SUMMARY_TEXT_H_

#include <map>
#include <string>
#include <vector>

#include "harness/runner/runner.h"

namespace dmconf {

struct CaseTally;
struct RunVerdict;

struct SummaryOptions {
  int max_failures_listed = 30;
  // Vector files that could not be read: listed, and they make the run fail.
  const std::vector<FileError>* file_errors = nullptr;
  // A declared slice in which no case ran fails the run (else it is a warning).
  bool strict_coverage = false;
  // Expectation entries that matched no failing case: listed; they fail the run when strict.
  const std::vector<StaleExpectation>* stale = nullptr;
  bool strict_expectations = false;
  // Whether the run fails (run_verdict.h JudgeRun, with the mutants): the closing OK / FAILED
  // line. Null: judged here from the runs and the options above (no mutants).
  const RunVerdict* verdict = nullptr;
  // The figures of runs[k] are tallies[k] (case_tally.h TallyOf, as the session already holds
  // them for its reports). Null: tallied here, one pass over each run's results.
  const std::vector<CaseTally>* tallies = nullptr;
};

// counts[op][verdict] of a run's figures (case_tally.h).
std::map<Op, std::map<Verdict, int64_t>> CountByOpVerdict(const CaseTally& t);

// The new failures of a run grouped by cause (the verdict and the mistake the diagnosis
// names), the largest group first, so that a report of 148 failures with one cause says so:
//   "   148 new failure(s), 1 named cause(s):\n
//         148 x wrong_values depth.mode_swapped, e.g. <case id>: <diagnosis summary>\n"
// Failures whose diagnosis names no mistake are grouped by verdict ("(no mistake named)").
// "" when the run has no new failure. SummaryText prints it before the failures.
std::string CausesText(const BackendRun& r);

std::string SummaryText(const std::vector<BackendRun>& runs, const SummaryOptions& o);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_SUMMARY_TEXT_H_
