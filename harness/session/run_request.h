// `dmconf run` as a function: the cases it selects (catalogue, shape lane, vector files,
// filters, shard) and the session that runs them, for the commands built on it (`dmconf run`,
// `dmconf certify`).
//
// Example:
//   RunRequest f;  f.session.backend_libs = {"./libmine.so"};  f.ops = "d2s";
//   std::vector<BackendRun> runs;
//   int status = RunRequested(f, &runs);  // 0, 1 or 2, as `dmconf run`
#ifndef DMCONF_HARNESS_SESSION_RUN_REQUEST_H_
#define DMCONF_HARNESS_SESSION_RUN_REQUEST_H_

#include <cstdint>
#include <string>
#include <vector>

#include "harness/runner/runner.h"
#include "harness/runner/shard.h"
#include "harness/session/run_session.h"
#include "harness/suites/catalogue.h"

namespace dmconf {

struct RunRequest {
  std::string command = "dmconf run";  // prefixes messages
  SessionOptions session;
  std::string ops, types;
  uint64_t seed = 1;
  int count = 400;
  std::vector<std::string> vectors;
  bool no_catalogue = false;
  bool count_given = false;
  std::vector<std::string> case_ids;
  int shape_count = 400;
  bool no_shapes = false;
  bool no_kernels = false;
  int threads = 1;
  std::string shard_text;
  bool shard_given = false;
  Shard shard;
  // Kernel cases whose data rank lies outside [min_rank, max_rank] are left out (profiles).
  int min_rank = 0;
  int max_rank = 64;
  // The catalogue edition (harness/suites/catalogue.h): a profile's own; `dmconf run` the latest.
  int catalogue_edition = kLatestCatalogueEdition;
  // The process exits after this call (the `dmconf run` command): its cases, shape cases and
  // results are left to the exit, not freed one by one (harness/base/left_to_exit.h).
  bool exits_next = false;
};

// Runs `dmconf run` with these flags; returns its exit status. With `runs_out`, the runs too.
int RunRequested(RunRequest f, std::vector<BackendRun>* runs_out = nullptr);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_SESSION_RUN_REQUEST_H_
