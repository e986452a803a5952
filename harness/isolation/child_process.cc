#include "harness/isolation/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "harness/isolation/process_tree.h"

namespace dmconf {

absl::StatusOr<ChildResult> RunChild(const std::vector<std::string>& argv, int seconds,
                                     const std::function<void(const std::string&)>& on_line,
                                     const std::function<void(pid_t)>& on_start) {
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) {
    return absl::InternalError("process.spawn: cannot create a pipe");
  }
  InstallProcessTreeGuards();
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) {
    close(out[0]);
    close(out[1]);
    return absl::InternalError("process.spawn: fork failed");
  }
  if (pid == 0) {
    dup2(out[1], 1);  // the copy on 1 is not close-on-exec
    BecomeWorker(nullptr, 0);
    // Dies with dmconf even when dmconf is killed outright (no guard runs on SIGKILL).
    if (!AskParentDeathSignal(parent, SIGKILL)) _exit(127);
    execvp(args[0], args.data());
    _exit(127);
  }
  RegisterWorker(pid);
  close(out[1]);
  if (on_start) on_start(pid);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  ChildResult result;
  std::string pending;
  char buf[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      result.timed_out = true;
      break;
    }
    pollfd p{out[0], POLLIN, 0};
    const int r = poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
    if (r <= 0) continue;
    const ssize_t n = read(out[0], buf, sizeof(buf));
    if (n <= 0) break;  // end of output: the child is done (or closed its stdout)
    pending.append(buf, static_cast<size_t>(n));
    for (size_t nl; (nl = pending.find('\n')) != std::string::npos;) {
      on_line(pending.substr(0, nl));
      pending.erase(0, nl + 1);
    }
  }
  close(out[0]);
  if (!pending.empty()) on_line(pending);
  // Give a child that closed its output a moment to exit, then kill whatever is left.
  for (int i = 0; i < 50 && !result.timed_out; ++i) {
    int st = 0;
    if (waitpid(pid, &st, WNOHANG) == pid) {
      UnregisterWorker(pid);
      KillWorkerTree(pid);  // anything it left behind in its group
      result.status = st;
      return result;
    }
    usleep(100 * 1000);
  }
  const int st = KillWorkerTree(pid);
  result.status = st < 0 ? 0 : st;
  if (!result.timed_out) result.timed_out = true;  // it outlived its output
  return result;
}

bool OnPath(absl::string_view name) {
  const char* path = std::getenv("PATH");
  for (absl::string_view d : absl::StrSplit(path != nullptr ? path : "", ':', absl::SkipEmpty())) {
    if (access(absl::StrCat(d, "/", name).c_str(), X_OK) == 0) return true;
  }
  return false;
}

std::string SignalName(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return absl::StrCat(abbrev != nullptr ? absl::StrCat("SIG", abbrev) : "signal", " (signal ", sig,
                      ")");
}

std::string WaitStatusText(int status) {
  if (WIFSIGNALED(status)) return absl::StrCat("killed by ", SignalName(WTERMSIG(status)));
  return absl::StrCat("exited with status ", WEXITSTATUS(status));
}

}  // namespace dmconf
