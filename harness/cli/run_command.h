// `dmconf run` as a function: its flags and the whole command (catalogue, shape lane, vector
// files, the pipeline), for the commands built on it (`dmconf certify`).
//
// Example:
//   RunFlags f;  f.pipeline.backend_libs = {"./libmine.so"};  f.ops = "d2s";
//   std::vector<BackendRun> runs;
//   int status = RunCommand(f, &runs);  // 0, 1 or 2, as `dmconf run`
#ifndef DMCONF_HARNESS_CLI_RUN_COMMAND_H_
#define DMCONF_HARNESS_CLI_RUN_COMMAND_H_

#include <cstdint>
#include <string>
#include <vector>

#include "harness/cli/run_pipeline.h"
#include "harness/runner/runner.h"
#include "harness/runner/shard.h"

namespace dmconf::cli {

struct RunFlags {
  std::string command = "dmconf run";  // prefixes messages
  PipelineFlags pipeline;
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
};

// Runs `dmconf run` with these flags; returns its exit status. With `runs_out`, the runs too.
int RunCommand(RunFlags f, std::vector<BackendRun>* runs_out = nullptr);

}  // namespace dmconf::cli

#endif  // DMCONF_HARNESS_CLI_RUN_COMMAND_H_
