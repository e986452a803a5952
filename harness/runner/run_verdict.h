// The one rule for "does this run fail" (exit status 1), shared by `dmconf run`,
// `dmconf vectors verify`, `dmconf report merge` (from the rules its shard reports recorded)
// and the text summary's closing OK / FAILED line.
//
// A run fails when any of these holds:
//   - a backend that is not a mutant has a new failure (a failing verdict, IsFailure with the
//     run's strictness: --strict-shapes, --nan-payload, --fail-unsupported, not listed in an
//     expectations file): `CaseResult::failure`, decided when the case ran;
//   - a mutant backend was not caught with its verdict class (mutation testing);
//   - a vector file could not be read;
//   - with --strict-coverage, a declared slice ran none of its cases;
//   - with --strict-expectations, an expectations entry matched no failing case;
//   - with --require-cases, a backend ran no case (every case of the selection unsupported,
//     or none selected): a test of an op that tested nothing is no pass.
// A backend with shape inference only (Capabilities::kernels false) is judged on its shape
// lane; its kernel lane is "not provided", which neither passes nor fails: the closing line
// reads "OK (shape inference only; kernel lane not provided by NAME): ..." instead of "OK:".
//
// Example:
//   RunFacts facts{.runs = &runs, .file_errors = 0};
//   RunVerdict v = JudgeRun(facts, RunRules{.strict_coverage = true});
//   return v.fails ? 1 : 0;
#ifndef DMCONF_HARNESS_RUNNER_RUN_VERDICT_H_
#define DMCONF_HARNESS_RUNNER_RUN_VERDICT_H_

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "harness/runner/runner.h"

namespace dmconf {

// The run-level strict flags (the case-level ones are in StrictnessOptions and already decided
// each case's `failure`). A report records them in its options block; the report reader
// decodes them from there (report_reader.h).
struct RunRules {
  bool strict_coverage = false;      // --strict-coverage
  bool strict_expectations = false;  // --strict-expectations
  bool require_cases = false;        // --require-cases
};

struct RunFacts {
  const std::vector<BackendRun>* runs = nullptr;
  // The new failures of each run, when its results are not held (a streamed report merge):
  // then runs[k].results are not looked at.
  const std::vector<int64_t>* new_failures = nullptr;
  std::set<std::string> mutants;  // backends expected to fail (their failures are no failure)
  int64_t mutants_missed = 0;     // mutants not caught with their verdict class
  int64_t file_errors = 0;        // vector files that could not be read
  int64_t stale_expectations = 0;
  // Backends that are not mutants and ran no case (CaseTally::run == 0), by name.
  std::vector<std::string> ran_no_case;
};

struct RunVerdict {
  bool fails = false;
  int64_t new_failures = 0;   // of backends that are not mutants
  int64_t worker_errors = 0;  // BackendRun::worker_errors, of every backend
  int64_t unexercised_slices = 0;
  int64_t mutants_missed = 0;  // RunFacts::mutants_missed
  // Backends with shape inference only (Capabilities::kernels false), in run order: their
  // kernel lane is not provided. It does not fail the run; the closing line says so.
  std::vector<std::string> kernels_not_provided;
  // With --require-cases, the backends that ran no case (each fails the run).
  std::vector<std::string> ran_no_case;
  // Why the run fails, one phrase each ("3 new failure(s)", "1 unexercised slice(s)
  // (--strict-coverage)"); empty when it passes.
  std::vector<std::string> reasons;
};

RunVerdict JudgeRun(const RunFacts& facts, const RunRules& rules);

// Declared slices of all runs in which nothing ran (SliceCoverage::Unexercised).
int64_t CountUnexercisedSlices(const std::vector<BackendRun>& runs);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_RUNNER_RUN_VERDICT_H_
