// A bounded child process for the command line: runs a program in its own process group and
// streams its output by lines (`dmconf vectors run-onnx` runs its ONNX runtime this way).
//
// Example:
//   absl::StatusOr<ChildResult> r = RunChild({"node", "run.js", dir}, 600,
//       [](const std::string& line) { std::cout << line << "\n"; });
//   if (r.ok() && !r->timed_out && WIFEXITED(r->status)) ...
#ifndef DMCONF_HARNESS_CLI_CHILD_PROCESS_H_
#define DMCONF_HARNESS_CLI_CHILD_PROCESS_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace dmconf::cli {

struct ChildResult {
  bool timed_out = false;  // killed after `seconds`, or it outlived its output
  int status = 0;          // wait status
};

// Runs argv (argv[0] searched on PATH) in its own process group with stdin from /dev/null;
// every line of its stdout goes to `on_line`, its stderr passes through. Killed with everything
// it started after `seconds`, and by dmconf's signal guards (harness/isolation/process_tree.h)
// when dmconf is interrupted.
absl::StatusOr<ChildResult> RunChild(const std::vector<std::string>& argv, int seconds,
                                     const std::function<void(const std::string&)>& on_line);

// True when an executable `name` is in a folder of $PATH.
bool OnPath(const std::string& name);

}  // namespace dmconf::cli

#endif  // DMCONF_HARNESS_CLI_CHILD_PROCESS_H_
