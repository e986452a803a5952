// Runs cases against one backend and turns each outcome into a CaseResult (verdict, rule,
// mismatch, diagnosis, known-failure status).
//
// Example:
//   std::vector<PreparedCase> cases = PrepareCases(BuildCatalogue({}));
//   BackendRun r = RunBackend("oracle", factory, cases, {.timeout_seconds = 2});
//   for (const CaseResult& x : r.results) if (x.failure) std::cout << x.id << "\n";
#ifndef DMCONF_HARNESS_RUNNER_RUNNER_H_
#define DMCONF_HARNESS_RUNNER_RUNNER_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "harness/backend/backend.h"
#include "harness/backend/case_class.h"
#include "harness/backend/verdict.h"
#include "harness/base/boxed.h"
#include "harness/compare/compare.h"
#include "harness/compare/diagnosis.h"
#include "harness/isolation/worker.h"
#include "harness/runner/case_list.h"
#include "harness/runner/case_result.h"
#include "harness/runner/compact_sequence.h"
#include "harness/runner/expectations.h"
#include "harness/runner/result_list.h"
#include "harness/runner/shape_lane.h"
#include "harness/runner/slice_coverage.h"
#include "oracle/oracle.h"

namespace dmconf {

// Evaluates every case with the oracle (`eval`: threads for one large case; `workers`: threads
// each evaluating a contiguous range of the cases, for `--jobs`; the expectations depend on
// neither). Case k is hollow when hollow_index[k] >= 0 (harness/suites/catalogue.h: its data
// bytes were left out): its expectation is then computed without the output.
std::vector<PreparedCase> PrepareCases(std::vector<OpCase> cases, const EvalOptions& eval = {},
                                       int workers = 1,
                                       const std::vector<int64_t>& hollow_index = {});

// A vector file that could not be read or parsed: listed, not fatal (the other files run).
struct FileError {
  std::string file;
  std::string rule;     // the reader's rule id ("vector.field.type", "io.read", ...)
  std::string message;  // the whole message (rule, file, JSON location), control bytes escaped
};

// `text` with every byte outside printable ASCII (control bytes such as NUL or ESC, and bytes
// of 0x80 and above) written as \xNN, so that it is safe on a terminal and in JSON / XML.
std::string Printable(absl::string_view text);

// What a failing case asked of the backend (Invocation, case_result.h), for a person reading
// the report.
Invocation DescribeInvocation(const OpCase& c);
// "block_size=2 mode=blocks_first; data f32 [1,8,2,2]" (a partial input as written:
// "data f32 2..5,?", "block_shape i64 ?[4]").
std::string InvocationText(const Invocation& inv);

struct RunOptions {
  bool isolate = true;
  // Each passing result written to a temporary file as it is judged, not held
  // (BackendRun::results, result_list.h): what a run of millions of cases needs.
  bool spool_results = false;
  double timeout_seconds = 10.0;
  bool silence_worker_output = false;
  StrictnessOptions strictness;
  bool diagnose = true;
  // A wrong output whose data cannot identify positions is run again as its diagnostic twins
  // (twin_run.h) to diagnose it.
  bool diagnostic_twins = true;
  const Expectations* expectations = nullptr;
  // Valid cases per declared op of a directed sweep (catalogue.h DirectedSweep) appended to
  // the cases of a backend with narrow capabilities; 0: none.
  int directed_count = 0;
  uint64_t directed_seed = 1;
  // When set, only directed cases it accepts are run (the command line's --ops / --types).
  std::function<bool(const OpCase&)> directed_filter;
  // The hang and crash budgets: after this many consecutive hangs (separately, crashes) among
  // the cases of one op, the op's remaining cases are not run and get the failing verdict
  // skipped_after_hangs (skipped_after_crashes). A case of the op that ran with any other
  // verdict resets the count (unsupported cases, not run, leave it). 0: never skip. A backend that
  // hangs in a common path would otherwise spend
  // --timeout seconds on every case of a sweep.
  // Each worker's address-space limit in bytes (IsolationOptions::memory_limit_bytes); 0: none.
  int64_t memory_limit_bytes = 0;
  int max_consecutive_hangs = 3;
  int max_consecutive_crashes = 10;
  // Shape cases for the shape-inference lane, shared by every backend (shape_lane.h); a
  // backend that declares infer_static or infer_partial gets them after its kernel cases.
  const ShapeCaseList* shape_cases = nullptr;
  // An unheld shape case (case_list.h) made again: the widening of catalogue position
  // `position` whose kernel case is sweep case `sweep_index`, or nullopt; required when any
  // shape case is unheld.
  std::function<std::optional<ShapeCase>(int64_t position, int64_t sweep_index)> shape_case;
  // Isolated workers that run the backend's cases side by side (`dmconf run --jobs`,
  // parallel_lanes.h); the results are those of one worker, in the same order. Taken only with
  // `isolate` (a backend in this process need not be thread-safe).
  int jobs = 1;
  // The data of a hollow case (PreparedCase::hollow_index), made again when the case runs;
  // required when any case is hollow.
  std::function<Tensor(int64_t hollow_index)> hollow_data;
  // An unheld case (case_list.h) made again from its sweep index, whole (data bytes included,
  // named), or nullopt; required when any case is unheld.
  std::function<std::optional<OpCase>(int64_t sweep_index)> sweep_case;
  // Called after every case (progress display); with jobs > 1, from any of the job threads
  // (one call at a time, `done` counting up; the result may be a placeholder of a skipped case).
  std::function<void(size_t done, size_t total, const CaseResult& r)> progress;
};

struct BackendRun {
  std::string backend;  // the run's name for it (harness/backend/identity.h)
  std::string library;  // a plugin's path as the user gave it; empty for a registered backend
  // Owns the entries the results' `known` point to, when the run outlives its caller's
  // expectations (RunSession's runs_out, harness/session/run_session.h).
  std::shared_ptr<const Expectations> expectations;
  Capabilities capabilities;
  std::string startup_error;  // the backend could not be created (every case: harness_error)
  // Harness errors that belong to no case (Backend::TakeUnattributedErrors: the isolated
  // worker's failures between two requests), a line each; a run with any fails.
  std::vector<std::string> worker_errors;
  // The shared cases, then extra_cases, then the shape cases the backend was asked
  // (shape_case_index[i - (cases + extra_cases)] is the shape case of such a result).
  ResultList results;  // result_list.h: held, or spooled when passing (RunOptions)
  std::vector<PreparedCase> extra_cases;  // the directed sweep of this backend
  // Indices into RunOptions::shape_cases, ascending: as runs (every case asked: one run).
  CompactSequence shape_case_index;
  // Per declared slice (capabilities.ops), how many of the cases in it ran.
  std::vector<SliceCoverage> slices;
  int worker_starts = 0;
  double seconds = 0;
};

BackendRun RunBackend(const std::string& name, const BackendFactory& factory, const CaseList& cases,
                      const RunOptions& options);
// The same over cases that are all held.
BackendRun RunBackend(const std::string& name, const BackendFactory& factory,
                      const std::vector<PreparedCase>& cases, const RunOptions& options);

// The case behind results[i] of a run over `cases`: a kernel case (CaseOf; results[i].lane
// kKernel) or a shape case (ShapeCaseOf, with the run's RunOptions::shape_cases). The case
// must be held (every failing one is, after MakeFailingCasesWhole); an unheld one is given as a
// case whose expectation is the error runner.case_of.
const PreparedCase& CaseOf(const BackendRun& run, const CaseList& cases, size_t i);
const PreparedCase& CaseOf(const BackendRun& run, const std::vector<PreparedCase>& cases, size_t i);
const PreparedShapeCase& ShapeCaseOf(const BackendRun& run, const CaseList& cases,
                                     const ShapeCaseList& shape_cases, size_t i);
// Kernel case i's op (held, unheld or of the directed sweep).
Op KernelOpOf(const BackendRun& run, const CaseList& cases, size_t i);

// A hollow case made whole: its data from options.hollow_data and the oracle's whole
// expectation (the same case and expectation PrepareCases makes of the whole case). A case held
// whole is returned as it is.
PreparedCase MakeWhole(const PreparedCase& p, const RunOptions& options);
// Kernel case i whole: held whole as it is, hollow made whole (MakeWhole), unheld made again
// from its sweep index (options.sweep_case) and prepared with the oracle's whole expectation.
// A case that cannot be made, or is made with other facts than the selected case's, has an
// expectation naming the rule runner.sweep_case.
PreparedCase WholeCaseOf(const BackendRun& run, const CaseList& cases, size_t i,
                         const RunOptions& options);
// f(kernel case i): the held case as it is, an unheld one made again (WholeCaseOf) for the call.
template <typename F>
auto WithKernelCase(const BackendRun& run, const CaseList& cases, size_t i,
                    const RunOptions& options, F&& f) {
  if (i < cases.size() && cases.Held(i) == nullptr) return f(WholeCaseOf(run, cases, i, options));
  return f(CaseOf(run, cases, i));
}
// Shape case k of `shapes` whole: held as it is, unheld made again (options.shape_case) with
// the oracle's answer. A case that cannot be made again, or is made with another op or
// staticness, has an expectation naming the rule runner.shape_case.
PreparedShapeCase WholeShapeCaseOf(const ShapeCaseList& shapes, size_t k,
                                   const RunOptions& options);
// f(shape case k): the held case as it is, an unheld one made again for the call.
template <typename F>
auto WithShapeCase(const ShapeCaseList& shapes, size_t k, const RunOptions& options, F&& f) {
  if (shapes.Held(k) == nullptr) return f(WholeShapeCaseOf(shapes, k, options));
  return f(*shapes.Held(k));
}
// The hollow and unheld cases of a run's failing results made whole and held (they are saved,
// confirmed and shrunk next): its kernel cases and, with `shapes`, its shape cases (the run's
// RunOptions::shape_cases).
void MakeFailingCasesWhole(CaseList& cases, const BackendRun& run, const RunOptions& options,
                           ShapeCaseList* shapes = nullptr);

// The worker settings of a run's options (timeout, output, memory limit).
IsolationOptions IsolationFor(const RunOptions& options);

// The kind of a failure: "<op>/<verdict>/<rule>/<diagnosed mistake>". Shrinking in a run and
// `dmconf fuzz` take one failure of each kind first (and `dmconf fuzz` reports each kind once).
std::string FailureKind(const CaseResult& r);

// What a shrunk case is, in a line of the summary, JUnit and `dmconf fuzz`: "1080 -> 4 data
// elements" (a kernel case) or "to block_size=2 mode=blocks_first; data f32 1..3,?" (a shape
// case), then its thresholds ("; fails from block_size 5; passes at 4", "; fails from dim 1 = 5;
// passes at 0").
std::string ShrunkText(const CaseResult::Shrunk& s);

// The one rule of whether a result fails, used wherever a verdict is given or changed: when
// r.verdict fails under options.strictness (IsFailure), r.known is the expectations entry that
// lists it (or null) and r.failure says it is a new failure; otherwise both are cleared.
// Returns whether the verdict fails, so that the caller attaches what a failing case records
// (its invocation, the backend's output):
//   if (MarkFailing(name, options, r)) r.invocation = DescribeInvocation(c);
bool MarkFailing(const std::string& backend, const RunOptions& options, CaseResult& r);

// The verdict of one outcome for a prepared case (exposed for tests).
CaseResult Judge(const std::string& backend, const PreparedCase& p, const RunOutcome& outcome,
                 const RunOptions& options);

// Folds the backend's static shape inference into a result that passed on Run(), judged by
// JudgeShapeAnswer (harness/compare/shape_judge.h): for a valid case the inferred shape and
// element type must equal the oracle's (else wrong_shape / wrong_type; a refusal is
// false_reject); a must_reject case must be refused (else false_accept); a crash or hang of
// the inference is that verdict. Unspecified cases and
// results that already failed are left alone. The detail starts with "shape inference:".
void JudgeShapeInference(const std::string& backend, const PreparedCase& p,
                         const ShapeOutcome& inferred, const RunOptions& options, CaseResult& r);

// One case end to end: unsupported when outside the backend's Supports(), else Run() and,
// when `caps.infer_static`, InferStatic(), judged together.
CaseResult RunCase(Backend& backend, const std::string& name, const Capabilities& caps,
                   const PreparedCase& p, const RunOptions& options);
// The same with the case's Run() and InferStatic() answered ahead (run_ahead.h); a nullopt
// one is asked of the backend here.
CaseResult RunCase(Backend& backend, const std::string& name, const Capabilities& caps,
                   const PreparedCase& p, const RunOptions& options, std::optional<RunOutcome> ran,
                   std::optional<ShapeOutcome> inferred);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_RUNNER_RUNNER_H_
