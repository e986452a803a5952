// A run session: what `dmconf run`, `dmconf certify` and `dmconf vectors verify` share once
// their cases are chosen: resolving backends, loading expectations files, running every
// backend (isolated), saving each failing case as a vector file with a one-line repro,
// shrinking new failures, the summary, the JSON report, JUnit XML and HTML page, the update
// of an expectations file, and the exit status (the one rule of harness/runner/run_verdict.h).
//
// Example:
//   SessionOptions f;  f.backends = {"oracle"};  f.report = "out/report.json";
//   RunCases cases{CaseList(std::move(prepared)), {}};
//   int status = RunSession(cases, f, "dmconf run");  // 0, 1 or 2
#ifndef DMCONF_HARNESS_SESSION_RUN_SESSION_H_
#define DMCONF_HARNESS_SESSION_RUN_SESSION_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "harness/report/html_failures.h"
#include "harness/runner/runner.h"
#include "harness/session/backend_choice.h"
#include "nlohmann/json.hpp"

namespace dmconf {

struct SessionOptions {
  std::vector<std::string> backends;
  std::vector<std::string> backend_libs;
  // A --backend-lib entry (as given in backend_libs) made by this factory instead of by loading
  // its path: dmconf certify loads the plugin's bytes read once before the run
  // (PluginCopyFactory, harness/plugin/plugin_backend.h). Its name, repro line and the report's
  // `library` stay the path.
  std::map<std::string, BackendFactory> backend_lib_factories;
  std::vector<std::string> expectations;
  // --update-expectations FILE: read as one more expectations file (once, when it is also an
  // --expectations file) and rewritten after the run (harness/runner/expectations_update.h).
  std::string update_expectations;
  std::string report, junit, html;
  // Outputs written with --report, --junit and --html as one set (dmconf certify's statement):
  // checked before the run as they are (CheckWriteTarget, io.path.same), written under their
  // lock by `write_companions`, after them, as the last step. The old files at these paths are
  // removed before the first output of the set is written, and should any output of the set
  // fail, every file of the set this run did not write is removed: the folder never holds a
  // companion beside outputs of another run. `write_companions` gets the runs.
  std::vector<std::string> companion_paths;
  std::function<absl::Status(const std::vector<BackendRun>&)> write_companions;
  // --html-max-failures: the failing cases the page embeds at most (html_report.h).
  int64_t html_max_failures = kDefaultHtmlMaxFailures;
  double timeout = 10.0;
  std::string memory_limit = "auto";
  int max_consecutive_hangs = 3;
  int max_consecutive_crashes = 10;
  std::string failures_dir;
  bool no_isolation = false;
  // Isolated workers running each backend's cases side by side (RunOptions::jobs); more than 1
  // is refused with no_isolation (cli.jobs.no_isolation).
  int jobs = 1;
  std::string nan_payload = "strict";
  bool quiet = false;
  bool strict_coverage = false;
  bool require_cases = false;  // --require-cases (run_verdict.h)
  bool fail_unsupported = false;
  bool strict_expectations = false;
  bool strict_shapes = false;
  int max_listed = 30;
  bool no_shrink = false;
  double shrink_seconds = 5.0;         // per failure
  double shrink_total_seconds = 60.0;  // per backend
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
  // Makes the data of the hollow cases (RunOptions::hollow_data); required when any is.
  std::function<Tensor(int64_t hollow_index)> hollow_data;
  // Make the unheld kernel and shape cases again (RunOptions::sweep_case, shape_case); required
  // when any is.
  std::function<std::optional<OpCase>(int64_t sweep_index)> sweep_case;
  std::function<std::optional<ShapeCase>(int64_t position, int64_t sweep_index)> shape_case;
};

// Runs the cases (their shape cases: the shape-inference lane, for backends that declare
// infer_static / infer_partial; none: no lane); returns 0 (no new failure), 1 (new failures, or a
// surviving mutant) or 2 (usage or I/O error). `command` prefixes messages ("dmconf run"). With
// `runs_out`, the runs are also returned (one per backend, results in case order). The hollow and
// unheld cases of failing results are made whole and held in `cases` (MakeFailingCasesWhole).
int RunSession(RunCases& cases, const SessionOptions& f, const std::string& command,
               std::vector<BackendRun>* runs_out = nullptr);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_SESSION_RUN_SESSION_H_
