// Runs a backend in a worker process, so that its crashes, aborts and hangs become verdicts of
// one case instead of the end of the run.
//
// Design: fork() + pipes, not a re-exec'd `dmconf worker`. The harness forks a keeper
// (keeper.h), which forks the worker; the worker builds the backend itself by calling the
// BackendFactory (so a plugin's dlopen or constructor crash also happens in the worker). Fork
// needs no command line that re-describes the backend (built-in, mutant, plugin path,
// test-only factories all work the same way) and costs two forks per worker start, not per
// case. The price is that no other thread of the harness may hold a lock when it forks: with
// --jobs the lane threads fork their workers side by side, and the fork gate (fork_gate.h)
// makes the others stand still, at known points, while one forks. The messages are framed as
// worker_protocol.h says; the waits for them are frame.h's, each with a deadline, the harness
// never blocked by a worker (not even while it writes a request).
//
// Start: the worker builds its backend (the factory: a plugin's load and constructor), then
// says it is ready; that is awaited up to the startup timeout, which is not a case's time (a
// fresh worker's first case would otherwise be charged for the start: a false hang on a slow
// or loaded machine). A start that ends the worker is the first case's crash, a start past
// its timeout that case's hang ("the backend did not start within ...").
// Per case: the request is written, then the reply is awaited up to the timeout.
// A batch (RunBatch) is one message of many requests; the worker answers each with its own
// reply as soon as it is done, and each reply is awaited up to the timeout from the one
// before: the timeout stays per case. The outcomes below end a batch at their case; the cases
// after it were not run, and the caller sends them again (to a fresh worker).
// The process cap (worker_limits.h) is counted by the harness while it awaits a reply
// (every 100 ms) and after a reply, with the worker idle: after each single request, and in a
// batch at the last reply and at a reply where the worker paused the batch. The worker, a
// child subreaper, pauses after a request that left a process below it while a PID was
// allocated; it goes on without a count when it has no child (one waitid() call), since a count
// taken while it runs the next request would see that request's processes and blame this one.
// A paused batch is not a failure: its answers stand, the rest go again to the same worker.
//   a reply framed as the   -> the backend's outcome, with what it wrote on its standard
//   answer asked for           output and error meanwhile (RunOutcome::output_text)
//   any other bytes         -> harness_error worker.reply.out_of_sequence for that case; the
//                              worker is replaced, nothing of them is taken as an answer
//   end of file / error,    -> the worker died: its keeper's status is the worker's own death,
//   or the worker ended        the outcome kCrash ("SIGSEGV (signal 11)"). The keeper's end is
//                              watched (waitid WNOWAIT every 20 ms), not only end of file: a
//                              process the worker forked may hold the pipe open after it died.
//   the worker stopped      -> kHang, worker.stopped (a stop signal; the keeper kills it at once)
//   timeout                 -> SIGKILL, reap, kHang ("dmconf killed the worker after the case's
//                              timeout")
// A worker that fails before it took a request (it wrote on its reply pipe with nothing asked,
// or it ended, stopped or stood still with the request still in the pipe) failed between two
// requests: no case is judged on it. The harness notes it (TakeUnattributedErrors), replaces
// the worker and sends the request again, once.
// After a crash or a hang the next request starts a fresh worker. Whenever a worker is
// stopped (crash, hang, backend done, SIGINT/SIGTERM/SIGHUP to the harness) it is killed with
// every process it started, even those that called setsid() (process_tree.h: own process
// group per worker, the harness a child subreaper; the keeper, a child subreaper too, kills
// its tree when the harness dies of anything, kill -9 included). A worker inherits no
// descriptor but its pipes (stdin is /dev/null); it may not signal its harness or its keeper
// (signal_fence.h). SIGPIPE is ignored in the harness (a write to a dead worker is an error,
// not a signal).
//
// The requests and replies are worker.cc's; the worker as a process (start, watch, stop, the
// death named as an outcome) is worker_process.cc's.
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
#include "harness/isolation/frame.h"
#include "harness/isolation/memory_watch.h"
#include "harness/isolation/wire.h"
#include "harness/isolation/worker_limits.h"

namespace dmconf {

struct IsolationOptions {
  double timeout_seconds = 10.0;  // per request (case)
  // For the worker's start (its backend built), never less than timeout_seconds.
  double startup_timeout_seconds = 60.0;
  // The worker's standard output and error go to /dev/null; else they are captured per
  // request (RunOutcome::output_text).
  bool silence_worker_output = false;
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

// How many items one batch sends at most, and the bytes its requests may take (a larger first
// item goes alone).
inline constexpr size_t kMaxBatchItems = 64;
inline constexpr size_t kMaxBatchBytes = size_t{1} << 20;

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
  // What failed between requests (no case's: see above), a line each starting with its rule,
  // since the last call; checks first for bytes the worker wrote after its last answer.
  std::vector<std::string> TakeUnattributedErrors() override;

  // Number of worker processes started so far.
  int starts() const { return starts_; }
  const std::string& StartupError() const { return startup_error_; }

 private:
  bool EnsureWorker(std::string* error);
  // Starts a worker if none runs (or replaces one whose tree grew past the process cap) and
  // awaits its ready message (the backend built): an outcome of kind kOutput, or what ended
  // the start (Failure's crash, hang, ... for the first case).
  RunOutcome StartWorker();
  // Kills the keeper, the worker and every process they started (process_tree.h); returns the
  // keeper's wait status (the worker's own death, when the keeper ended by itself), or -1 if
  // there was none to reap.
  int StopWorker();
  // The watch of every wait (frame.h): the keeper's end or stop; (count_processes) the process
  // cap every 100 ms.
  Wait Watch(bool count_processes);
  // Sends one request (its number set here) and waits for its reply; fills `reply` or returns
  // what ended the wait as an outcome. A reply longer than `max_reply` bytes is refused by its
  // header (harness_error).
  RunOutcome Exchange(wire::Writer& request, std::string* reply, uint64_t max_reply);
  // StartWorker for a request's attempt: after a failed start on attempt 0, kRejected (try
  // again: a start's failure is not the request's); the attempt's outcome otherwise. A failed
  // start followed by a good one is noted (TakeUnattributedErrors).
  RunOutcome StartForRequest(int attempt);
  // Whether a wait that ended with `w` ended before the worker took the request: the request
  // was not `sent` whole, or is still (partly) in the pipe.
  bool NotTaken(Wait w, bool sent) const;
  // Notes why the worker failed between requests and stops it.
  void Replace(Wait w);
  void NoteBetweenRequests(absl::string_view rule);
  // Notes bytes out of sequence that did not recur when their request was asked again.
  void NoteStray(const std::string& first);
  // The outcome of a wait that ended without a reply; stops the worker. Its output_text is what
  // the worker wrote meanwhile.
  RunOutcome Failure(Wait w, const ReplyHeader& h, uint64_t max_reply, bool not_received);
  RunOutcome Judge(Wait w, const ReplyHeader& h, uint64_t max_reply, bool not_received);
  // Judge's part once the worker is gone or stopped (a wait that ended, stopped or failed):
  // stopped, out of memory, its pipe closed, its exit or signal; `request` ends each text.
  RunOutcome JudgeDeath(Wait w, const std::string& request);
  RunOutcome CaseRequest(const OpCase& c);
  // RunBatch's parts: the batch written into batch_ (as many items as the limits allow; their
  // count), an item whose reply came out of sequence asked again alone, and a reply decoded.
  size_t EncodeBatch(absl::Span<const BatchItem> items);
  BatchAnswer ReplayStray(const BatchItem& item, const ReplyHeader& h, uint64_t max_reply);
  BatchAnswer DecodedAnswer(const BatchItem& item);
  // Sends `request` (kInferStatic or kInferPartial) with the case; decodes the answer.
  ShapeOutcome ShapeRequest(uint8_t request, const PartialCase& c);
  // The outcome in a case's / a shape question's reply.
  RunOutcome DecodeCaseReply(absl::string_view reply) const;
  ShapeOutcome DecodeShapeReply(absl::string_view reply) const;

  std::string name_;
  BackendFactory factory_;
  IsolationOptions options_;
  pid_t pid_ = -1;         // the keeper: the harness's child
  pid_t worker_pid_ = -1;  // the worker, below it (from its ready message)
  uint64_t token_ = 0;     // of the current worker's replies (worker_protocol.h)
  uint64_t next_seq_ = 1;  // the next request's number
  int starts_ = 0;
  WorkerChannel channel_;
  ProcessCap cap_;
  int ticks_ = 0;                            // of the current wait's watch
  std::string reply_;                        // the last reply, its storage reused
  std::string last_output_;                  // what the worker wrote while it answered the last one
  std::string last_answered_ = "its start";  // the last request answered, in words
  std::string current_request_;              // the request being asked, in words
  bool replaying_stray_ = false;             // asking again after bytes out of sequence
  std::vector<std::string> events_;          // TakeUnattributedErrors
  std::string failed_start_;                 // why the last start failed, while another is tried
  wire::Writer batch_;                       // the batch in flight, its storage reused
  std::vector<uint64_t> max_replies_;        // of its items
  int oom_note_ = -1;  // non-blocking; the worker writes a MemoryNote when it dies out of memory
  EffectiveMemoryLimit limit_;  // of the current worker
  mutable bool caps_cached_ = false;
  mutable Capabilities caps_;
  mutable std::string startup_error_;
};

}  // namespace dmconf

#endif  // DMCONF_HARNESS_ISOLATION_WORKER_H_
