// The isolated backend's worker as a process (worker.h): its start (the pipes, the keeper
// and the worker forked under the fork gate), the watch while a reply is awaited (the keeper's
// end or stop, the process cap), its stop with every process it started, the notes of a worker
// that failed between two requests, and the judgement of a worker that failed during one: its
// death, named (a signal, an exit status, the stop signal, the memory limit), as the outcome of
// the request it was answering. The requests and replies themselves, single and batched, are
// worker.cc's.
#include <fcntl.h>
#include <signal.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/isolation/child_process.h"
#include "harness/isolation/fork_gate.h"
#include "harness/isolation/keeper.h"
#include "harness/isolation/process_tree.h"
#include "harness/isolation/signal_fence.h"
#include "harness/isolation/worker.h"
#include "harness/isolation/worker_main.h"

namespace dmconf {
namespace {

using namespace worker_protocol;  // NOLINT: the protocol's names, in the worker's two files

// A random number for a worker's replies (worker_protocol.h): from the kernel, else from the
// clock and the process (a forger still has to read the worker's memory to know it).
uint64_t DrawToken() {
  uint64_t token = 0;
  if (getrandom(&token, sizeof token, GRND_NONBLOCK) == static_cast<ssize_t>(sizeof token)) {
    return token;
  }
  return CheckOf(static_cast<uint64_t>(Now() * 1e9), static_cast<uint64_t>(getpid()));
}

// How long a keeper may take, once its worker has ended, to kill what is left and end itself.
constexpr double kKeeperEndSeconds = 2.0;

}  // namespace

bool IsolatedBackend::EnsureWorker(std::string* error) {
  if (pid_ > 0) return true;
  int down[2], up[2], note[2], out[2] = {-1, -1};
  const auto fail = [&](const char* what) {
    *error = absl::StrCat("harness.worker.", what, ": ", strerror(errno));
    for (int fd : {down[0], down[1], up[0], up[1], note[0], note[1], out[0], out[1]}) {
      if (fd >= 0) close(fd);
    }
    return false;
  };
  down[0] = down[1] = up[0] = up[1] = note[0] = note[1] = -1;
  if (pipe2(down, O_CLOEXEC) != 0 || pipe2(up, O_CLOEXEC) != 0 ||
      pipe2(note, O_CLOEXEC | O_NONBLOCK) != 0 ||
      (!options_.silence_worker_output && pipe2(out, O_CLOEXEC) != 0)) {
    return fail("pipe");
  }
  limit_ = ComputeEffectiveMemoryLimit(options_.memory_limit_bytes, kMemoryLimitApplies);
  token_ = DrawToken();
  next_seq_ = 1;
  // No other lane thread may hold a lock the worker inherits (fork_gate.h).
  const ForkGate::Fork gate;
  std::fflush(nullptr);  // no buffered output may be written twice
  const pid_t parent = getpid();
  const pid_t parent_group = getpgrp();
  // Until RegisterWorker, another thread's sweep would take the new worker for a stray.
  auto hold = HoldWorkerTable();
  const pid_t pid = fork();
  if (pid < 0) return fail("fork");
  if (pid == 0) {
    // The keeper (keeper.h), which forks the worker proper.
    close(down[1]);
    close(up[0]);
    close(note[0]);
    if (out[0] >= 0) close(out[0]);
    const int null_fd = out[1] >= 0 ? out[1] : open("/dev/null", O_WRONLY);
    int keep[4] = {down[0], up[1], note[1], null_fd};
    BecomeWorker(keep, 4);
    RunKeeper(parent, keep[2], {keep[0], keep[1], keep[3]}, [&] {
      // The worker must die of a fatal signal, so that the harness can name it. Sanitizer
      // runtimes (ASan, UBSan) install handlers that print a report and exit(1) instead; the
      // default action restores the real signal (the asan preset's isolation tests need it).
      for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP}) signal(sig, SIG_DFL);
      // Its standard output and error go to the harness's capture (or /dev/null): never to
      // the harness's stdout (reports may be printed there) nor straight to its terminal.
      dup2(keep[3], 1);
      dup2(keep[3], 2);
      close(keep[3]);
      FenceSignals(parent, parent_group, getppid());
      const BackendFactory factory = ApplyWorkerLimits(limit_, factory_, keep[2]);
      WorkerMain(factory, keep[0], keep[1], token_);
    });
  }
  close(down[0]);
  close(up[1]);
  close(note[1]);
  if (out[1] >= 0) close(out[1]);
  oom_note_ = note[0];
  channel_.Open(down[1], up[0], out[0]);
  RegisterWorker(pid);
  hold.unlock();
  pid_ = pid;
  worker_pid_ = -1;
  cap_.Start(pid);
  ++starts_;
  return true;
}

int IsolatedBackend::StopWorker() {
  if (pid_ <= 0) return -1;
  channel_.Close();
  const int status = KillWorkerTree(pid_);
  close(oom_note_);
  oom_note_ = -1;
  pid_ = worker_pid_ = -1;
  return status;
}

Wait IsolatedBackend::Watch(bool count_processes) {
  // The keeper ends when its worker has ended (and it killed the rest); it may also have been
  // stopped, like the worker, by anyone allowed to.
  siginfo_t info = {};
  if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WSTOPPED | WNOHANG | WNOWAIT) == 0 &&
      info.si_pid == pid_) {
    return info.si_code == CLD_STOPPED ? Wait::kStopped : Wait::kEnded;
  }
  // Every 100 ms: a tree that forks without end is stopped while it does, not only after the
  // request.
  if (count_processes && ++ticks_ % 5 == 0 && cap_.RequestOverCapNow()) {
    return Wait::kTooManyProcesses;
  }
  return Wait::kOk;
}

RunOutcome IsolatedBackend::StartWorker() {
  if (pid_ > 0) {
    // A tree that grew past the cap across requests, none of them past it alone, is replaced
    // before the next request: no request is blamed (worker_limits.h).
    if (!cap_.TreeOverCap()) return RunOutcome::Of(RunOutcome::Kind::kOutput, "");
    StopWorker();
  }
  std::string error;
  if (!EnsureWorker(&error)) return RunOutcome::Of(RunOutcome::Kind::kHarnessError, error);
  const double limit = std::max(options_.startup_timeout_seconds, options_.timeout_seconds);
  ReplyHeader h;
  std::string ready;
  const Wait w = channel_.Receive(
      {token_, 0, StepBit(kReady)}, 16, Now() + limit, [&] { return Watch(false); }, &h, &ready);
  wire::Reader r(ready);
  int64_t worker = 0;
  if (w == Wait::kOk && r.I64(&worker) && worker > 0) {
    worker_pid_ = static_cast<pid_t>(worker);
    channel_.TakeOutput();  // what the backend printed while it was built belongs to no case
    return RunOutcome::Of(RunOutcome::Kind::kOutput, "");
  }
  if (w == Wait::kOk || w == Wait::kOutOfSequence) {
    RunOutcome o = RunOutcome::Of(
        RunOutcome::Kind::kHarnessError,
        "worker.start.out_of_sequence: the worker's first message is not its ready message "
        "(something in the worker, the backend's load or constructor, wrote on its reply pipe); "
        "dmconf stopped the worker and every process it started");
    o.output_text = channel_.TakeOutput().Text();
    StopWorker();
    return o;
  }
  if (w == Wait::kTimeout) {
    RunOutcome o = RunOutcome::Of(
        RunOutcome::Kind::kHang,
        absl::StrCat("worker.start: the backend did not start within ", limit,
                     " s (its factory: a plugin's load and constructor); dmconf killed the "
                     "worker and every process it started"));
    o.output_text = channel_.TakeOutput().Text();
    StopWorker();
    return o;
  }
  return Failure(w, h, 16, false);
}

RunOutcome IsolatedBackend::StartForRequest(int attempt) {
  const bool fresh = pid_ <= 0;
  RunOutcome started = StartWorker();
  if (started.kind == RunOutcome::Kind::kOutput) {
    if (fresh && !failed_start_.empty()) {
      events_.push_back(absl::StrCat(
          "worker.start.failed: a worker's start failed (", failed_start_,
          ") before any request was sent to it; no case was judged on it: the next start "
          "succeeded"));
    }
    failed_start_.clear();
    return started;
  }
  // A start that failed is not the request's failure: once, another start is tried (a
  // backend whose start always fails gets its verdict from the second).
  if (attempt > 0) {
    failed_start_.clear();
    return started;
  }
  failed_start_ = started.message;
  return RunOutcome::Of(RunOutcome::Kind::kRejected, "");
}

void IsolatedBackend::NoteBetweenRequests(absl::string_view rule) {
  std::string what;
  if (rule == "worker.reply.unsolicited") {
    what =
        "the worker wrote on its reply pipe while no request awaited an answer (a backend "
        "writing there, or a thread of it that outlived its call)";
  } else if (rule == "worker.stopped") {
    what = "the worker was stopped (a stop signal) before it read the next request";
  } else if (rule == "worker.hang") {
    what = absl::StrCat("the worker did not read the next request within ",
                        options_.timeout_seconds, " s");
  } else {
    what = "the worker ended before it read the next request";
  }
  events_.push_back(absl::StrCat(rule, ": ", what, ", after its answer to ", last_answered_,
                                 "; no case was judged on it: dmconf replaced the worker and "
                                 "sent the request to the new one"));
}

std::vector<std::string> IsolatedBackend::TakeUnattributedErrors() {
  // Bytes the worker wrote after its last answer, with nothing asked since.
  if (pid_ > 0 && channel_.HasUnsolicited()) {
    NoteBetweenRequests("worker.reply.unsolicited");
    StopWorker();
  }
  return std::exchange(events_, {});
}

bool IsolatedBackend::NotTaken(Wait w, bool sent) const {
  return w != Wait::kOk && (!sent || channel_.Unread() > 0);
}

void IsolatedBackend::Replace(Wait w) {
  // The keeper notes a stop before it kills the worker: the worker then ended of it.
  char note[8] = {};
  const ssize_t noted = oom_note_ >= 0 ? read(oom_note_, note, sizeof note) : 0;
  const bool stopped = w == Wait::kStopped || (noted >= 2 && note[noted - 2] == kNoteStopped);
  NoteBetweenRequests(w == Wait::kUnsolicited ? "worker.reply.unsolicited"
                      : stopped               ? "worker.stopped"
                      : w == Wait::kTimeout   ? "worker.hang"
                                              : "worker.ended");
  StopWorker();
}

void IsolatedBackend::NoteStray(const std::string& first) {
  events_.push_back(absl::StrCat(
      "worker.reply.out_of_sequence: while ", current_request_,
      " ran, the worker's reply pipe carried bytes that are not its answer; replayed in a new "
      "worker, it was answered in sequence, so no case was judged on them (a thread or process "
      "of the backend that outlived an earlier call may have written them): ",
      first.substr(0, first.find(';'))));
}

RunOutcome IsolatedBackend::Failure(Wait w, const ReplyHeader& h, uint64_t max_reply,
                                    bool not_received) {
  const std::string output = channel_.TakeOutput().Text();
  RunOutcome o = Judge(w, h, max_reply, not_received);
  o.output_text = output;
  return o;
}

RunOutcome IsolatedBackend::Judge(Wait w, const ReplyHeader& h, uint64_t max_reply,
                                  bool not_received) {
  using K = RunOutcome::Kind;
  const std::string request = not_received ? " (the worker had not read the whole request)" : "";
  if (w == Wait::kTooManyProcesses) {
    StopWorker();
    return RunOutcome::Of(
        K::kCrash,
        absl::StrCat("worker.process_cap: the request started more than ", kMaxWorkerProcesses,
                     " processes; dmconf killed the worker after the cap, with every "
                     "process it started (a backend may start processes, but not "
                     "without end)"));
  }
  if (w == Wait::kTooLong) {
    StopWorker();  // the rest of its stream cannot be trusted
    return RunOutcome::Of(
        K::kHarnessError,
        absl::StrCat("worker.reply.too_long: the worker's reply claims ", h.length,
                     " bytes, more than this request's answer can hold (", max_reply,
                     "); nothing was allocated and dmconf stopped the worker"));
  }
  if (w == Wait::kOutOfSequence || w == Wait::kUnsolicited) {
    StopWorker();
    return RunOutcome::Of(
        K::kHarnessError,
        absl::StrFormat(
            "worker.reply.out_of_sequence: while this case ran, the worker's reply pipe carried "
            "bytes that are not its answer (check 0x%016x, number %d, step %d); nothing of them "
            "was taken as any case's answer, and dmconf stopped the worker (a backend must "
            "never write on descriptors it was not given)",
            h.check, h.seq, h.step));
  }
  if (w == Wait::kTimeout) {
    StopWorker();
    return RunOutcome::Of(K::kHang,
                          absl::StrCat("no answer within ", options_.timeout_seconds,
                                       " s; dmconf killed the worker after the case's timeout, "
                                       "with every process it started",
                                       request));
  }
  return JudgeDeath(w, request);
}

RunOutcome IsolatedBackend::JudgeDeath(Wait w, const std::string& request) {
  using K = RunOutcome::Kind;
  // The keeper was stopped, or ended: it ends only once the worker has, and has killed what
  // the worker left. Let it finish (the worker's own death is its status), then reap it.
  if (w == Wait::kEnded) {
    const double until = Now() + kKeeperEndSeconds;
    while (Now() < until && Watch(false) == Wait::kOk) {
      const timespec pause{0, 1'000'000};
      nanosleep(&pause, nullptr);
    }
  }
  char note[8] = {};
  const ssize_t noted = read(oom_note_, note, sizeof note);
  const bool stopped = w == Wait::kStopped || (noted >= 2 && note[noted - 2] == kNoteStopped);
  const bool out_of_memory =
      noted >= 1 && (note[0] == kNoteNearLimit || note[0] == kNoteAllocationFailed);
  const bool keeper_ended = Watch(false) == Wait::kEnded;
  const int status = StopWorker();
  const bool reaped = status != -1;
  if (stopped) {
    const int sig = noted >= 2 && note[noted - 2] == kNoteStopped ? note[noted - 1] : SIGSTOP;
    return RunOutcome::Of(
        K::kHang, absl::StrCat("worker.stopped: the worker was stopped by ", SignalName(sig),
                               " while it answered this case; dmconf killed it, with every "
                               "process it started",
                               request));
  }
  if (out_of_memory) {
    return RunOutcome::Of(K::kOutOfMemory,
                          absl::StrCat("out of memory: the worker died",
                                       reaped && WIFSIGNALED(status)
                                           ? absl::StrCat(" of ", SignalName(WTERMSIG(status)))
                                           : std::string(),
                                       " after ", DescribeMemoryNote(note[0]),
                                       ", at its address-space limit of ", limit_.Describe()));
  }
  if (!keeper_ended) {
    return RunOutcome::Of(K::kCrash,
                          absl::StrCat("the worker closed its reply pipe without ending; dmconf "
                                       "killed it, with every process it started",
                                       request));
  }
  if (reaped && (WIFSIGNALED(status) || WIFEXITED(status))) {
    return RunOutcome::Of(
        K::kCrash, absl::StrCat("worker ", WaitStatusText(status),
                                WIFSIGNALED(status) ? " (not sent by dmconf)" : "", request));
  }
  return RunOutcome::Of(K::kCrash, absl::StrCat("worker vanished", request));
}

}  // namespace dmconf
