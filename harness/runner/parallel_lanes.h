// A backend's kernel lane and then its shape lane, run by one worker or, with `dmconf run
// --jobs N`, by N isolated workers side by side, with results equal to those of one worker,
// order included. One job is the sequential run: one chunk, on the calling thread.
//
// How (parallel_lanes.cc):
// - The lane's cases, kernel cases then shape cases, are cut into contiguous chunks, several
//   per job; N threads, each with its own worker (the first is the run's own backend), take the
//   chunks in order and run each with chunk-local budget streaks (budget.h).
// - A chunk-local streak of hangs (crashes) is a run of consecutive cases of the op, so the
//   sequential run's streak at that case is at least as long: a case a chunk skips is one the
//   sequential run skips too. The first index at which some chunk used up an op's budget is
//   shared, and later chunks skip the op's cases after it instead of hanging on them.
// - Then one pass replays the sequential streaks over the results in order: every case the
//   sequential run skips gets its exact skip result (the count and the last case of the
//   streak it would have seen); the others keep what they ran to.
// The backend must answer each case as it would alone (a stateless plugin), as for the
// batches of run_ahead.h.
//
// Example:
//   RunOptions o;  o.jobs = 2;
//   BackendRun r = RunBackend("oracle", factory, cases, o);  // as with o.jobs = 1
#ifndef DMCONF_HARNESS_RUNNER_PARALLEL_LANES_H_
#define DMCONF_HARNESS_RUNNER_PARALLEL_LANES_H_

#include <string>
#include <vector>

#include "harness/runner/runner.h"

namespace dmconf {

// Runs the first `total` kernel cases (CaseOf(run, cases, i), each made whole as it runs:
// whole_cases.h) and then the shape cases run.shape_case_index names (of options.shape_cases)
// with `jobs` workers: `first`, the run's started backend, and jobs - 1 more made from
// `factory` (isolated). Fills run.results in case order, reports each case to
// options.progress, and adds the extra workers' starts to run.worker_starts.
void RunLanes(Backend& first, const std::string& name, const BackendFactory& factory,
              const CaseList& cases, size_t total, int jobs, const RunOptions& options,
              BackendRun& run);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_RUNNER_PARALLEL_LANES_H_
