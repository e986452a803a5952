#include "harness/cli/pipeline_options.h"

#include "harness/cli/option_checks.h"

namespace dmconf::cli {

void AddMemoryLimitOption(CLI::App* cmd, std::string* memory_limit) {
  cmd->add_option("--memory-limit", *memory_limit,
                  "each worker's address-space limit (RLIMIT_AS): a size such as 512M or 4G, "
                  "'auto' (half of this machine's memory) or 'none'; a backend that runs out of "
                  "it gets the verdict out_of_memory and the run goes on")
      ->capture_default_str();
}

namespace {

// The backends, the expectations, the outputs and the limits of each case.
void AddBackendAndOutputOptions(CLI::App* cmd, SessionOptions* f) {
  cmd->add_option("--backend", f->backends,
                  "backend name, comma list, `all` (every default built-in backend), `mutants`, "
                  "or a plugin path; repeatable (`dmconf backends` lists them)");
  cmd->add_option("--backend-lib", f->backend_libs, "path to a plugin shared library (C ABI)");
  cmd->add_option("--expectations", f->expectations,
                  "known-failure file (dmconf-expectations/1); repeatable")
      ->check(NonEmptyPath());
  cmd->add_option("--update-expectations", f->update_expectations,
                  "after the run, rewrite this expectations file (made when missing): entries "
                  "that matched no failing case among the cases they name are removed, and each "
                  "new failure is added as known with a reason to fill in; every change is "
                  "printed. The exit status is judged against the file as it was read. Not "
                  "with --shard")
      ->check(NonEmptyPath());
  cmd->add_option("--report", f->report, "write the JSON report (dmconf-report/2) here")
      ->check(NonEmptyPath());
  cmd->add_option("--junit", f->junit, "write JUnit XML here")->check(NonEmptyPath());
  cmd->add_option("--html", f->html,
                  "write the report as one self-contained HTML page here (as `dmconf report "
                  "html` does)")
      ->check(NonEmptyPath());
  cmd->add_option("--html-max-failures", f->html_max_failures,
                  "at most this many failing cases are embedded in the --html page (the counts "
                  "still count every case; the page says how many it leaves out)")
      ->check(IntegerIn(0, INT32_MAX))
      ->capture_default_str();
  cmd->add_option(
         "--timeout", f->timeout,
         "per-case timeout in seconds, from the case's request (a worker's start, a plugin's "
         "load, has 60 s of its own; more than 0, at most one day)")
      ->check(SecondsIn(kMaxTimeoutSeconds))
      ->capture_default_str();
  AddMemoryLimitOption(cmd, &f->memory_limit);
  cmd->add_option("--max-consecutive-hangs", f->max_consecutive_hangs,
                  "after this many hangs in a row in one op of one backend, its remaining cases "
                  "are not run and get the failing verdict skipped_after_hangs (0: never skip)")
      ->check(IntegerIn(0, INT32_MAX))
      ->capture_default_str();
  cmd->add_option("--max-consecutive-crashes", f->max_consecutive_crashes,
                  "likewise for crashes in a row: skipped_after_crashes (0: never skip)")
      ->check(IntegerIn(0, INT32_MAX))
      ->capture_default_str();
  cmd->add_option("--failures", f->failures_dir,
                  "directory for failing cases saved as vector files (default: failures/ beside "
                  "the report, else dmconf-failures/); checked before the run")
      ->check(NonEmptyPath());
  cmd->add_option("--jobs", f->jobs,
                  "isolated workers that run each backend's cases side by side (1 to 256; about "
                  "one per core). The results, reports and verdicts are the same for any count, "
                  "order included; not with --no-isolation")
      ->check(IntegerIn(1, kMaxJobs))
      ->capture_default_str();
  cmd->add_flag("--no-isolation", f->no_isolation,
                "run backends in this process (debugging only: a crash or hang ends the run)");
  cmd->add_option("--nan-payload", f->nan_payload,
                  "strict: a changed NaN payload fails; lenient: a NaN quieted or canonicalised in "
                  "place is accepted (a NaN moved to another place fails either way)")
      ->check(CLI::IsMember({"strict", "lenient"}))
      ->capture_default_str();
  cmd->add_option("--directed-count", f->directed_count,
                  "for a backend that declares a narrow slice (some element types, ranks or "
                  "modes), this many extra valid cases per declared op, generated inside that "
                  "slice (dmconf run only; 0: none)")
      ->check(IntegerIn(0, kMaxCaseCount))
      ->capture_default_str();
}

// What fails the run, shrinking and the summary.
void AddJudgingOptions(CLI::App* cmd, SessionOptions* f) {
  cmd->add_flag("--quiet", f->quiet, "no progress display");
  cmd->add_flag("--strict-expectations", f->strict_expectations,
                "fail the run (exit 1) when an --expectations entry matched no failing case of "
                "a backend it applies to (default: such stale entries are listed as warnings)");
  cmd->add_flag("--strict-shapes", f->strict_shapes,
                "count loose_shape (a sound shape-inference answer wider than the oracle's at a "
                "finite bound) as a failure (default: counted and reported only)");
  cmd->add_flag("--fail-unsupported", f->fail_unsupported,
                "count every unsupported case as a failure (for a backend that claims to "
                "support everything it is given; default: unsupported is counted apart)");
  cmd->add_flag("--require-cases", f->require_cases,
                "fail the run (exit 1) when a backend ran no case: every case of the selection "
                "(--ops, --no-kernels, ...) unsupported, or none selected. The per-op tests of "
                "dmconf_add_backend_tests pass it: a test that tested nothing is no pass");
  cmd->add_flag("--strict-coverage", f->strict_coverage,
                "fail the run (exit 1) when a declared slice of a backend (an op with its "
                "element types, ranks and modes) had cases in the run but ran none of them, "
                "because the backend answered UNSUPPORTED to all (default: a warning)");
  cmd->add_flag("--no-shrink", f->no_shrink,
                "do not shrink new failures (default: each new failing kernel case is reduced "
                "to a minimal case of the same verdict class, through the same isolated worker, "
                "and saved beside the original as <id>.min.json)");
  cmd->add_option("--shrink-seconds", f->shrink_seconds,
                  "time budget for shrinking one failure (more than 0, at most one day)")
      ->check(SecondsIn(kMaxTimeoutSeconds))
      ->capture_default_str();
  cmd->add_option("--shrink-total-seconds", f->shrink_total_seconds,
                  "time budget for shrinking all new failures of one backend; failures left "
                  "when it runs out keep their unshrunk repro")
      ->check(SecondsIn(kMaxTimeoutSeconds))
      ->capture_default_str();
  cmd->add_option("--max-listed", f->max_listed, "failures listed per backend in the summary")
      ->check(IntegerIn(0, INT32_MAX))
      ->capture_default_str();
}

}  // namespace

void AddPipelineOptions(CLI::App* cmd, SessionOptions* f) {
  AddBackendAndOutputOptions(cmd, f);
  AddJudgingOptions(cmd, f);
}

}  // namespace dmconf::cli
