// Runs a backend in a worker process, so that its crashes, aborts and hangs become verdicts of
// one case instead of the end of the run.
//
// Design: fork() + two pipes, not a re-exec'd `dmconf worker`. The worker is forked from the
// harness and builds the backend itself by calling the BackendFactory (so a plugin's dlopen or
// constructor crash also happens in the worker). Fork needs no command line that re-describes
// the backend (built-in, mutant, plugin path, test-only factories all work the same way) and
// costs one fork per worker start, not per case. The price is that no other thread of the
// harness may hold a lock when it forks: with --jobs the lane threads fork their workers side
// by side, and the fork gate (fork_gate.h) makes the others stand still, at known points,
// while one forks. Requests and replies are length-prefixed wire.h messages.
//
// Start: the worker builds its backend (the factory: a plugin's load and constructor), then
// says it is ready; that is awaited up to the startup timeout, which is not a case's time (a
// fresh worker's first case would otherwise be charged for the start: a false hang on a slow
// or loaded machine). A start that ends the worker is the first case's crash, a start past
// its timeout that case's hang ("the backend did not start within ...").
// Per case: the request is written, then the reply is awaited with poll() up to the timeout.
// A batch (RunBatch) is one message of many requests; the worker answers each with its own
// reply as soon as it is done, and each reply is awaited up to the timeout from the one
// before: the timeout stays per case. The outcomes below end a batch at their case; the cases
// after it were not run, and the caller sends them again (to a fresh worker).
// The process cap (kMaxWorkerProcesses) is counted by the harness while it awaits a reply
// (every 100 ms) and after a reply, with the worker idle: after each single request, and in a
// batch at the last reply and at a reply where the worker paused the batch. The worker, a
// child subreaper, pauses after a request that left a process below it while a PID was
// allocated; it goes on without a count when it has no child (one waitid() call), since a count
// taken while it runs the next request would see that request's processes and blame this one.
// A paused batch is not a failure: its answers stand, the rest go again to the same worker.
//   reply                -> the backend's outcome
//   end of file / error, -> the worker died: waitpid() gives the signal or exit status, the
//   or the worker ended     outcome is kCrash ("SIGSEGV (signal 11)"). The worker's own death
//                           is watched (waitid WNOWAIT every 20 ms), not only end of file: a
//                           process it forked may hold the pipe open after it died.
//   timeout              -> SIGKILL, reap, outcome kHang
// After a crash or a hang the next request starts a fresh worker. Whenever a worker is
// stopped (crash, hang, backend done, SIGINT/SIGTERM/SIGHUP to the harness) it is killed with
// every process it started, even those that called setsid() (process_tree.h: own process
// group per worker, the harness a child subreaper). A worker inherits no descriptor but its two
// pipes and stdio (stdin is /dev/null). SIGPIPE is ignored in the harness (a write to a dead
// worker is an error, not a signal); the worker asks the kernel to kill it when the harness
// dies (PR_SET_PDEATHSIG), so no worker outlives its harness.
//
// Example:
//   IsolatedBackend b("oracle", factory, {.timeout_seconds = 2});
//   RunOutcome o = b.Run(c);  // o.kind == RunOutcome::Kind::kHang for a hanging backend
#ifndef DMCONF_HARNESS_ISOLATION_WORKER_H_
#define DMCONF_HARNESS_ISOLATION_WORKER_H_

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "harness/backend/backend.h"
#include "harness/isolation/memory_watch.h"
#include "harness/isolation/wire.h"

namespace dmconf {

struct IsolationOptions {
  double timeout_seconds = 10.0;  // per request (case)
  // For the worker's start (its backend built), never less than timeout_seconds.
  double startup_timeout_seconds = 60.0;
  bool silence_worker_output = false;  // send the worker's stdout/stderr to /dev/null
  // The worker's address-space limit (RLIMIT_AS), bytes; 0: none. A lower limit inherited
  // from the caller is kept (memory_watch.h). Running out of it is the outcome kOutOfMemory:
  // a std::bad_alloc anywhere in the worker's handling of a request, or the worker's death of
  // a fatal signal (SIGSEGV, SIGBUS, SIGABRT) after an allocation of the request failed, or
  // at a moment it could not map even 1/8 of its limit more (memory_watch.h; checked by the
  // worker's own handler, which then dies of the same signal). Not applied in
  // AddressSanitizer builds, whose shadow memory reserves terabytes of address space
  // (kMemoryLimitApplies says so).
  int64_t memory_limit_bytes = 0;
};

// The most processes one worker's tree may hold (the worker included), counted by walking it
// (process_tree.h CountWorkerProcesses) every 100 ms while a case runs and after each reply
// that follows the creation of a process or thread anywhere in the PID namespace (the last
// PID allocated, process_tree.h LastPidAllocated, has moved since the last count: without a
// new PID the tree cannot have grown, and the walk of /proc is skipped).
// Above it the tree is killed and the case is a crash naming worker.process_cap. Counting,
// not RLIMIT_NPROC: that limit counts every process of the user (dmconf's own, a shell's)
// and does not bind root; a cgroup's pids.max needs a delegated hierarchy.
inline constexpr int kMaxWorkerProcesses = 128;

// False in AddressSanitizer builds (see IsolationOptions::memory_limit_bytes).
extern const bool kMemoryLimitApplies;

// The default memory limit: half of the machine's physical memory.
int64_t DefaultWorkerMemoryLimit();

// How many items one batch sends at most, and the bytes its requests may take (a larger first
// item goes alone).
inline constexpr size_t kMaxBatchItems = 64;
inline constexpr size_t kMaxBatchBytes = size_t{1} << 20;

// The harness's end of a worker's reply pipe is read through this buffer (worker.cc ReadAll).
struct ReplyBuffer {
  std::vector<char> data;
  size_t begin = 0, end = 0;  // the bytes not taken yet
};
inline constexpr size_t kReplyBufferBytes = size_t{1} << 16;

class IsolatedBackend : public Backend {
 public:
  IsolatedBackend(std::string name, BackendFactory factory, IsolationOptions options);
  ~IsolatedBackend() override;
  IsolatedBackend(const IsolatedBackend&) = delete;
  IsolatedBackend& operator=(const IsolatedBackend&) = delete;

  std::string Name() const override { return name_; }
  // Asked of the worker once and cached. A worker that cannot start gives no capabilities;
  // StartupError() then says why.
  Capabilities GetCapabilities() const override;
  // Always true: the worker applies the backend's own Supports() and answers kUnsupported.
  using Backend::Supports;
  bool Supports(const OpCase&, const Capabilities&) const override { return true; }
  RunOutcome Run(const OpCase& c) override;
  ShapeOutcome InferStatic(const PartialCase& c) override;
  ShapeOutcome InferPartial(const PartialCase& c) override;

  // Sends items[0..k) in one message (k: as many as kMaxBatchItems and kMaxBatchBytes allow,
  // at least 1) and calls done(i, answer) for each, in order, as its reply arrives, while the
  // worker runs the next ones; done must not call this backend. Returns k, or fewer when item
  // i ended the worker (crash, hang, death out of memory, the process cap, a reply too long):
  // the answer of i says so, as Run() or InferStatic() would, and the items after it were not
  // run; or when the worker paused the batch after item i (above: it left a process below the
  // worker), whose answer stands. Each answer is the one the single call (Run, InferStatic,
  // InferPartial) would give.
  // meanwhile() is called once the batch is sent, before the first reply is awaited: the
  // caller's work while the worker runs the items (the first reply's timeout starts after it).
  using Backend::RunBatch;
  size_t RunBatch(absl::Span<const BatchItem> items,
                  absl::FunctionRef<void(size_t, BatchAnswer&&)> done,
                  absl::FunctionRef<void()> meanwhile) override;
  size_t BatchCapacity() const override { return kMaxBatchItems; }

  // Number of worker processes started so far.
  int starts() const { return starts_; }
  const std::string& StartupError() const { return startup_error_; }

 private:
  bool EnsureWorker(std::string* error);
  // Starts a worker if none runs and awaits its ready message (the backend built): an outcome
  // of kind kOutput, or what ended the start (Failure's crash, hang, ... for the first case).
  RunOutcome StartWorker();
  // Kills the worker and every process it started (process_tree.h); returns the worker's wait
  // status, or -1 if there was none to reap.
  int StopWorker();
  // Sends one request and waits for its reply; fills `reply` or returns a crash/hang outcome.
  // A reply longer than `max_reply` bytes is refused by its header (harness_error).
  RunOutcome Exchange(const std::string& request, std::string* reply, uint64_t max_reply);
  // Waits up to `deadline` (Now()) for the next reply, then (count_processes) checks the
  // process cap: 1, or the code of what ended the wait (Failure turns it into an outcome).
  int AwaitReply(std::string* reply, uint64_t max_reply, uint64_t* claimed, double deadline,
                 bool count_processes = true);
  // The process cap, counted now if a PID was allocated since the last count: 1, or
  // kTooManyProcesses.
  int CheckProcessCap();
  // The outcome of a wait that ended without a reply (code from AwaitReply); stops the worker.
  RunOutcome Failure(int code, uint64_t claimed, uint64_t max_reply);
  // Sends a kRun request with the case; decodes the reply's outcome.
  RunOutcome CaseRequest(uint8_t request, const OpCase& c);
  // Sends `request` (kInferStatic or kInferPartial) with the case; decodes the answer.
  ShapeOutcome ShapeRequest(uint8_t request, const PartialCase& c);
  // The outcome in a case's / a shape question's reply.
  RunOutcome DecodeCaseReply(absl::string_view reply) const;
  ShapeOutcome DecodeShapeReply(absl::string_view reply) const;

  std::string name_;
  BackendFactory factory_;
  IsolationOptions options_;
  pid_t pid_ = -1;
  int to_worker_ = -1;
  int from_worker_ = -1;
  int starts_ = 0;
  long counted_at_pid_ = -1;           // LastPidAllocated() when the process cap was last counted
  std::string reply_;                  // the last reply, its storage reused
  ReplyBuffer replies_;                // read ahead from from_worker_
  wire::Writer batch_;                 // the batch in flight, its storage reused
  std::vector<uint64_t> max_replies_;  // of its items
  int oom_note_ = -1;  // non-blocking; the worker writes a MemoryNote when it dies out of memory
  EffectiveMemoryLimit limit_;  // of the current worker
  mutable bool caps_cached_ = false;
  mutable Capabilities caps_;
  mutable std::string startup_error_;
};

// Body of the worker process: serves requests on the two descriptors until end of file.
// Exposed for tests; never returns normally (it _exits).
[[noreturn]] void WorkerMain(const BackendFactory& factory, int in_fd, int out_fd);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_ISOLATION_WORKER_H_
