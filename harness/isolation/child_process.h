// Child processes: a bounded one that runs a program in its own process group and streams its
// output by lines (`dmconf vectors run-onnx` runs its ONNX runtime this way), and the one text
// that names how any child of dmconf ended (the isolated worker, worker_process.cc; the
// subprocess adapters, harness/backends/subprocess; this runner).
//
// Rules: process.spawn (no pipe, or fork failed).
//
// Example:
//   absl::StatusOr<ChildResult> r = RunChild({"node", "run.js", dir}, 600,
//       [](const std::string& line) { std::cout << line << "\n"; });
//   if (r.ok() && !r->timed_out && WIFEXITED(r->status)) ...
//   else if (r.ok()) std::cerr << WaitStatusText(r->status);  // "killed by SIGKILL (signal 9)"
#ifndef DMCONF_HARNESS_ISOLATION_CHILD_PROCESS_H_
#define DMCONF_HARNESS_ISOLATION_CHILD_PROCESS_H_

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dmconf {

struct ChildResult {
  bool timed_out = false;  // killed after `seconds`, or it outlived its output
  int status = 0;          // wait status
};

// Runs argv (argv[0] searched on PATH) in its own process group with stdin from /dev/null;
// every line of its stdout goes to `on_line`, its stderr passes through. Killed with everything
// it started after `seconds`, and by dmconf's signal guards (harness/isolation/process_tree.h)
// when dmconf is interrupted; should dmconf die without them (kill -9), the child is killed by
// the kernel (PR_SET_PDEATHSIG: when the thread that called RunChild ends, so call it from the
// thread that runs the command). `on_start`, when given, is told the child's pid (its process
// group) once it runs, before its first line.
absl::StatusOr<ChildResult> RunChild(const std::vector<std::string>& argv, int seconds,
                                     const std::function<void(const std::string&)>& on_line,
                                     const std::function<void(pid_t)>& on_start = nullptr);

// True when an executable `name` is in a folder of $PATH.
bool OnPath(absl::string_view name);

// "SIGSEGV (signal 11)"; "signal (signal 40)" for one without a name (a real-time signal).
std::string SignalName(int sig);
// How a reaped child ended, from its wait status: "exited with status 3", "killed by SIGKILL
// (signal 9)".
std::string WaitStatusText(int status);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_ISOLATION_CHILD_PROCESS_H_
