// The options of a run session (harness/session/run_session.h) on the command line, shared by
// `dmconf run` and `dmconf vectors verify`; --memory-limit, shared by every command that runs
// a backend.
//
// Example:
//   SessionOptions f;  AddPipelineOptions(cmd, &f);     // --backend, --report, ...
//   ... later: return RunSession(cases, f, "dmconf run");
#ifndef DMCONF_HARNESS_CLI_PIPELINE_OPTIONS_H_
#define DMCONF_HARNESS_CLI_PIPELINE_OPTIONS_H_

#include <string>

#include "CLI/CLI.hpp"
#include "harness/session/run_session.h"

namespace dmconf::cli {

// --backend, --backend-lib, --expectations, --report, --junit, --timeout,
// --max-consecutive-hangs, --max-consecutive-crashes, --failures, --jobs, --no-isolation,
// --nan-payload, --quiet, --max-listed.
void AddPipelineOptions(CLI::App* cmd, SessionOptions* f);

// --memory-limit, the same option (text, default "auto") for run, vectors verify, fuzz and
// shrink; ParseMemoryLimit (harness/session/backend_choice.h) turns it into bytes (0: none) or
// a cli.memory_limit error.
void AddMemoryLimitOption(CLI::App* cmd, std::string* memory_limit);

}  // namespace dmconf::cli

#endif  // DMCONF_HARNESS_CLI_PIPELINE_OPTIONS_H_
