#include "harness/isolation/keeper.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>

#include "harness/isolation/process_tree.h"

namespace dmconf {
namespace {

// Kills every process below the keeper until it has no child left (each orphan below it is
// re-parented to it as its parent dies, so the walk ends when nothing is left).
void KillEverythingBelow() {
  for (int round = 0; round < 5000; ++round) {
    const int signalled = KillDescendants(getpid());
    while (waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    if (signalled == 0 && waitpid(-1, nullptr, WNOHANG) < 0 && errno == ECHILD) return;
    const timespec pause{0, 1'000'000};
    nanosleep(&pause, nullptr);
  }
}

// Ends as the worker ended (status from waitpid).
[[noreturn]] void EndAs(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    signal(sig, SIG_DFL);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, sig);
    sigprocmask(SIG_UNBLOCK, &one, nullptr);
    raise(sig);
    _exit(128 + sig);  // a signal whose default is not to end (never a worker's death)
  }
  _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

}  // namespace

[[noreturn]] void RunKeeper(pid_t harness, int note_fd, std::initializer_list<int> close_in_keeper,
                            absl::FunctionRef<void()> worker) {
  sigset_t all, old;
  sigfillset(&all);
  sigprocmask(SIG_BLOCK, &all, &old);
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  if (!AskParentDeathSignal(harness, SIGUSR1)) _exit(1);  // the harness is already gone
  const pid_t keeper = getpid();
  const pid_t w = fork();
  if (w == 0) {
    sigprocmask(SIG_SETMASK, &old, nullptr);
    prctl(PR_SET_CHILD_SUBREAPER, 0);
    if (!AskParentDeathSignal(keeper, SIGKILL)) _exit(1);
    worker();
    _exit(0);
  }
  if (w < 0) _exit(125);
  for (int fd : close_in_keeper) close(fd);
  const int null_fd = open("/dev/null", O_RDWR);
  if (null_fd >= 0) {
    dup2(null_fd, 1);
    dup2(null_fd, 2);
    if (null_fd > 2) close(null_fd);
  }
  const timespec tick{0, 200'000'000};
  for (;;) {
    siginfo_t info;
    const int sig = sigtimedwait(&all, &info, &tick);
    if (getppid() != harness) {  // the harness is gone: so is everything it started
      KillEverythingBelow();
      _exit(0);
    }
    if (sig != SIGCHLD) continue;  // a timeout, or a signal from anyone else: ignored
    for (;;) {
      int status = 0;
      const pid_t p = waitpid(-1, &status, WNOHANG | WUNTRACED);
      if (p <= 0) break;
      if (p != w) continue;  // an orphan below it, reaped
      if (WIFSTOPPED(status)) {
        const char note[2] = {kNoteStopped, static_cast<char>(WSTOPSIG(status))};
        ssize_t ignored = write(note_fd, note, sizeof note);
        (void)ignored;
        KillEverythingBelow();
        _exit(0);
      }
      KillEverythingBelow();
      EndAs(status);
    }
  }
}

}  // namespace dmconf
