// What `dmconf run` and `dmconf vectors verify` share once their cases are chosen: resolving
// backends, loading expectations files, running every backend (isolated), saving each failing
// case as a vector file with a one-line repro, the summary, the JSON report and JUnit XML,
// and the exit status.
//
// Example:
//   PipelineFlags f;  AddPipelineOptions(cmd, &f);     // --backend, --report, ...
//   ... later: return RunPipeline(cases, f, "dmconf run");
#ifndef DMCONF_HARNESS_CLI_RUN_PIPELINE_H_
#define DMCONF_HARNESS_CLI_RUN_PIPELINE_H_

#include <functional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "harness/runner/runner.h"
#include "nlohmann/json.hpp"

namespace dmconf::cli {

struct PipelineFlags {
  std::vector<std::string> backends;
  std::vector<std::string> backend_libs;
  std::vector<std::string> expectations;
  // --update-expectations FILE: read as one more expectations file (once, when it is also an
  // --expectations file) and rewritten after the run (harness/runner/expectations_update.h).
  std::string update_expectations;
  std::string report, junit, html;
  double timeout = 10.0;
  std::string memory_limit = "auto";
  int max_consecutive_hangs = 3;
  int max_consecutive_crashes = 10;
  std::string failures_dir;
  bool no_isolation = false;
  std::string nan_payload = "strict";
  bool quiet = false;
  bool strict_coverage = false;
  bool fail_unsupported = false;
  bool strict_expectations = false;
  bool strict_shapes = false;
  int max_listed = 30;
  bool no_shrink = false;
  double shrink_seconds = 5.0;         // per failure
  double shrink_total_seconds = 60.0;  // per backend
  // The shape-inference lane's cases (shape_lane.h), for backends that declare infer_static /
  // infer_partial; empty: no lane.
  std::vector<PreparedShapeCase> shape_cases;
  // Appended to a `--case-id` repro line of a generated shape case (" --shape-count 400").
  std::string shape_repro_args;
  int directed_count = 100;
  uint64_t directed_seed = 1;
  std::function<bool(const OpCase&)> directed_filter;
  // Appended to a `--case-id` repro line when a failing catalogue case could not be saved
  // (" --seed 1 --count 400").
  std::string catalogue_repro_args;
  // Vector files that could not be read (listed on stderr, in the summary and the reports;
  // they make the run fail).
  std::vector<FileError> file_errors;
  // The files and folders the command reads (--vectors, PATH): no output may be one of them
  // (io.path.same), as no output may be an --expectations file or another output.
  std::vector<std::string> input_paths;
  // Recorded in the report's options block (the command's own choices: seed, ops, ...).
  nlohmann::ordered_json options = nlohmann::ordered_json::object();
};

// --backend, --backend-lib, --expectations, --report, --junit, --timeout,
// --max-consecutive-hangs, --max-consecutive-crashes, --failures, --no-isolation,
// --nan-payload, --quiet, --max-listed.
void AddPipelineOptions(CLI::App* cmd, PipelineFlags* f);

// --memory-limit: "auto" (DefaultWorkerMemoryLimit()), "none" or "0" (0: no limit), or a
// size with an optional K/M/G/T suffix (binary units), at least 16M.
// Errors: "cli.memory_limit: ...".
// --memory-limit, the same option (text, default "auto") for run, vectors verify, fuzz and
// shrink; ParseMemoryLimit turns it into bytes (0: none) or a cli.memory_limit error.
void AddMemoryLimitOption(CLI::App* cmd, std::string* memory_limit);
absl::StatusOr<int64_t> ParseMemoryLimit(const std::string& text);

// Quotes an argument for a POSIX shell when it needs it.
std::string ShellQuote(const std::string& s);

// The startup check of every command that runs a backend (run, vectors verify, fuzz, shrink):
// the backend is made as its cases would be (in a worker when `options.isolate`, under the
// same limits) and asked its capabilities, before any case runs and before anything is
// written. One that cannot start (a plugin the loader cannot load or that lacks the entry
// point) is a usage error, exit 2: "backend.startup: <name> did not start: <the loader's
// message>", with a note when a memory limit was set (too low a limit keeps a plugin from
// loading).
// With `declared_name`, the name the backend declares for itself (Capabilities::declared_name).
absl::Status CheckBackendStarts(const std::string& name, const BackendFactory& factory,
                                const RunOptions& options, std::string* declared_name = nullptr);

// Runs the cases; returns 0 (no new failure), 1 (new failures, or a surviving mutant) or 2
// (usage or I/O error). `command` prefixes messages ("dmconf run").
// With `runs_out`, the runs are also returned (one per backend, results in case order).
int RunPipeline(const std::vector<PreparedCase>& cases, const PipelineFlags& f,
                const std::string& command, std::vector<BackendRun>* runs_out = nullptr);

}  // namespace dmconf::cli

#endif  // DMCONF_HARNESS_CLI_RUN_PIPELINE_H_
