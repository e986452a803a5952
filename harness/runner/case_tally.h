// The figures computed from a backend's cases (the report's totals, pass rates, verdict counts,
// status matrix and mutant score, JUnit's per-op counts, the text summary's tables and
// closing counts), gathered in one pass and added case by case: a writer that is given a tally
// instead of the cases (a streamed `dmconf report merge`) writes the same text without holding
// them.
//
// Example:
//   CaseTally t;
//   for (const CaseResult& c : run.results) t.Add(c);  // or TallyOf(run)
//   t.Merge(other_shard);                                 // the same as adding its cases
#ifndef DMCONF_HARNESS_RUNNER_CASE_TALLY_H_
#define DMCONF_HARNESS_RUNNER_CASE_TALLY_H_

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>

#include "harness/runner/runner.h"

namespace dmconf {

// The cases of one status-matrix cell, each counted once: passed (ran, not failing), a new
// failure, a known failure or unsupported (not run).
struct StatusCell {
  int64_t cases = 0, passed = 0, failed = 0, known = 0, unsupported = 0;
  void Add(const CaseResult& c);
  void Merge(const StatusCell& o);
  // "failing" when any case fails (new or known); else "implemented" when any case ran and
  // passed; else "unsupported".
  const char* Status() const;
};

// "kernel" or "shape".
const char* MatrixLane(const CaseResult& c);

// Status-matrix cells by op, element type, rank and lane (the enums' order).
using StatusCells = std::map<std::tuple<Op, ElementType, int, std::string>, StatusCell>;

// Per op of one backend: its cases, failures and skipped cases (a JUnit testsuite's counts).
struct SuiteCounts {
  int64_t tests = 0, failures = 0, skipped = 0;
};

struct CaseTally {
  int64_t cases = 0, run = 0, failures = 0, known = 0;   // run: not unsupported
  int64_t ok = 0;                                        // ran and did not fail (IsFailure)
  std::map<Op, std::pair<int64_t, int64_t>> pass_by_op;  // ok, run
  std::map<Op, std::map<ElementType, std::map<Verdict, int64_t>>> counts;
  StatusCells cells;
  std::map<Verdict, int64_t> failing;  // failing verdicts (IsFailure without strictness)
  std::map<Op, SuiteCounts> suites;
  int64_t unsupported = 0;  // not run, and not a failure (the summary's "unsupported")
  // Cases of the shape-inference lane by entry asked (kShapeStatic, kShapePartial) and verdict.
  std::map<CaseLane, std::map<Verdict, int64_t>> shape_lanes;

  void Add(const CaseResult& c);
  void Merge(const CaseTally& o);
};

// Every result of the run added; in `threads` threads, each adding a contiguous range into a
// tally of its own, merged after (the counts are sums: the same tally for any thread count).
CaseTally TallyOf(const BackendRun& run, int threads = 1);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_RUNNER_CASE_TALLY_H_
