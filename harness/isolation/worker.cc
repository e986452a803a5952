#include "harness/isolation/worker.h"

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
#include "harness/isolation/fork_gate.h"
#include "harness/isolation/keeper.h"
#include "harness/isolation/process_tree.h"
#include "harness/isolation/signal_fence.h"
#include "harness/isolation/wire.h"
#include "harness/isolation/worker_main.h"
#include "oracle/oracle.h"
#include "oracle/shape.h"

namespace dmconf {
namespace {

using namespace worker_protocol;  // NOLINT: the protocol's names, in its one user

// The largest reply a case request may get: its output (known from the oracle's shape
// inference, which reads no data, when the case is valid) with the list of elements the
// backend left unwritten (8 bytes each, wire.cc WriteOutcome), or its input, whichever is
// larger, plus room for the outcome's message and shape. A worker can write anything on its pipe
// (the plugin runs in it), so the length in a reply's header is checked against this before
// anything is allocated: a forged 16 GiB header is a harness_error, not a bad_alloc.
uint64_t MaxCaseReply(const OpCase& c) {
  constexpr uint64_t kSlack = uint64_t{1} << 20;
  uint64_t bytes = c.data.bytes.size();
  absl::StatusOr<Validation> v = Validate(c);
  if (v.ok()) {  // output_shape is set when the case is valid
    absl::StatusOr<int64_t> n = NumElements(v->output_shape);
    if (n.ok() && *n >= 0 && static_cast<uint64_t>(*n) <= (kMaxTensorBytes * uint64_t{8})) {
      const uint64_t out = (static_cast<uint64_t>(*n) * BitWidth(v->output_type) + 7) / 8;
      const uint64_t unwritten = static_cast<uint64_t>(*n) * 8;
      bytes = std::max(bytes, std::min<uint64_t>(out, kMaxTensorBytes) + unwritten);
    }
  }
  return bytes + kSlack;
}
// Capabilities and shape answers carry no tensor.
constexpr uint64_t kMaxSmallReply = uint64_t{16} << 20;

std::string SignalName(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  return absl::StrCat(abbrev != nullptr ? absl::StrCat("SIG", abbrev) : "signal", " (signal ", sig,
                      ")");
}

// An out-of-memory answer of the worker (a std::bad_alloc it caught) names the limit in force.
void NameMemoryLimit(const EffectiveMemoryLimit& limit, RunOutcome::Kind kind,
                     std::string* message) {
  if (kind == RunOutcome::Kind::kOutOfMemory && limit.bytes > 0) {
    absl::StrAppend(message, ", at the worker's address-space limit of ", limit.Describe());
  }
}

// A random number for a worker's replies (worker_protocol.h): from the kernel, else from the
// clock and the process (a forger still has to read the worker's memory to know it).
uint64_t DrawToken() {
  uint64_t token = 0;
  if (getrandom(&token, sizeof token, GRND_NONBLOCK) == static_cast<ssize_t>(sizeof token)) {
    return token;
  }
  return CheckOf(static_cast<uint64_t>(Now() * 1e9), static_cast<uint64_t>(getpid()));
}

// What the worker wrote while it answered, as an outcome carries it.
std::string OutputText(const CapturedOutput& out) {
  if (out.cut == 0) return out.text;
  return absl::StrCat(out.text, out.text.empty() || out.text.back() == '\n' ? "" : "\n",
                      "[dmconf: ", out.cut, " more bytes of the backend's output were cut]\n");
}

// A shape question's answer when the exchange itself failed (the worker crashed, hung, ran out
// of memory or its reply was refused): that failure's kind and message.
ShapeOutcome ShapeFailure(RunOutcome o) {
  ShapeOutcome result;
  result.kind = o.kind;
  result.message = std::move(o.message);
  result.output_text = std::move(o.output_text);
  return result;
}

// Writes one batch item's request (its kind and body) into w; returns the largest reply it
// may get.
uint64_t EncodeItem(const BatchItem& item, wire::Writer& w) {
  if (item.kind == BatchItem::Kind::kRun) {
    w.U8(kRun);
    wire::WriteCase(w, *item.c);
    return MaxCaseReply(*item.c);
  }
  w.U8(item.kind == BatchItem::Kind::kInferStatic ? kInferStatic : kInferPartial);
  wire::WritePartialCase(w, *item.pc);
  return kMaxSmallReply;
}

BatchAnswer AnswerOf(const BatchItem& item, RunOutcome o) {
  BatchAnswer a;
  if (item.kind == BatchItem::Kind::kRun) {
    a.run = std::move(o);
  } else {
    a.shape = ShapeFailure(std::move(o));
  }
  return a;
}

// How long a keeper may take, once its worker has ended, to kill what is left and end itself.
constexpr double kKeeperEndSeconds = 2.0;

}  // namespace

IsolatedBackend::IsolatedBackend(std::string name, BackendFactory factory, IsolationOptions options)
    : name_(std::move(name)), factory_(std::move(factory)), options_(options) {
  // A write to a worker that just died must be an error we can handle, not a signal that
  // kills the harness.
  signal(SIGPIPE, SIG_IGN);
  InstallProcessTreeGuards();
}

IsolatedBackend::~IsolatedBackend() { StopWorker(); }

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
    o.output_text = OutputText(channel_.TakeOutput());
    StopWorker();
    return o;
  }
  if (w == Wait::kTimeout) {
    RunOutcome o = RunOutcome::Of(
        RunOutcome::Kind::kHang,
        absl::StrCat("worker.start: the backend did not start within ", limit,
                     " s (its factory: a plugin's load and constructor); dmconf killed the "
                     "worker and every process it started"));
    o.output_text = OutputText(channel_.TakeOutput());
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

RunOutcome IsolatedBackend::Exchange(wire::Writer& request, std::string* reply,
                                     uint64_t max_reply) {
  // Bytes out of sequence are blamed on the request only when they recur: the first time, the
  // request goes once more to a fresh worker (their writer may be a thread of an earlier call).
  std::string stray;
  for (int attempt = 0;; ++attempt) {
    RunOutcome started = StartForRequest(attempt);
    if (started.kind == RunOutcome::Kind::kRejected) continue;  // one more start
    if (started.kind != RunOutcome::Kind::kOutput) return started;
    const double deadline = Now() + options_.timeout_seconds;
    cap_.RequestStarts();
    ticks_ = 0;
    const uint64_t seq = next_seq_++;
    request.SetI64(1, static_cast<int64_t>(seq));
    Wait w = channel_.Send(request.data(), deadline, [&] { return Watch(true); });
    const bool sent = w == Wait::kOk;
    ReplyHeader h;
    if (sent) {
      w = channel_.Receive(
          {token_, seq, StepBit(kAnswer)}, max_reply, deadline, [&] { return Watch(true); }, &h,
          reply);
    }
    if (w == Wait::kOk && cap_.RequestOverCap()) w = Wait::kTooManyProcesses;
    if (w == Wait::kOk) {
      last_output_ = OutputText(channel_.TakeOutput());
      if (!stray.empty()) NoteStray(stray);
      return RunOutcome::Of(RunOutcome::Kind::kOutput, "");
    }
    // A worker that failed before it took the request failed between requests: not this
    // one's. Once, the request goes to a fresh worker.
    if (attempt == 0 && NotTaken(w, sent)) {
      Replace(w);
      continue;
    }
    if (w == Wait::kOutOfSequence && stray.empty() && !replaying_stray_) {
      stray = Failure(w, h, max_reply, false).message;  // the worker is stopped
      continue;
    }
    RunOutcome failed = Failure(w, h, max_reply, channel_.Unread() > 0);
    if (!stray.empty() && w != Wait::kOutOfSequence) NoteStray(stray);
    return failed;
  }
}

RunOutcome IsolatedBackend::Failure(Wait w, const ReplyHeader& h, uint64_t max_reply,
                                    bool not_received) {
  const std::string output = OutputText(channel_.TakeOutput());
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
  if (reaped && WIFSIGNALED(status)) {
    return RunOutcome::Of(K::kCrash, absl::StrCat("worker killed by ", SignalName(WTERMSIG(status)),
                                                  " (not sent by dmconf)", request));
  }
  if (reaped && WIFEXITED(status)) {
    return RunOutcome::Of(K::kCrash,
                          absl::StrCat("worker exited with status ", WEXITSTATUS(status), request));
  }
  return RunOutcome::Of(K::kCrash, absl::StrCat("worker vanished", request));
}

Capabilities IsolatedBackend::GetCapabilities() const {
  if (caps_cached_) return caps_;
  auto* self = const_cast<IsolatedBackend*>(this);
  wire::Writer w;
  w.U8(kCaps);
  w.I64(0);  // its number, set when sent
  std::string reply;
  RunOutcome o = self->Exchange(w, &reply, kMaxSmallReply);
  caps_cached_ = true;
  if (o.kind != RunOutcome::Kind::kOutput) {
    startup_error_ = absl::StrCat("capabilities: ", o.message);
    return caps_;
  }
  wire::Reader r(reply);
  uint8_t status = 0;
  if (!r.U8(&status)) {
    startup_error_ = "capabilities: empty reply";
  } else if (status == kReplyStartupError) {
    r.Str(&startup_error_);
  } else if (!wire::ReadCapabilities(r, &caps_)) {
    startup_error_ = "capabilities: malformed reply";
  }
  return caps_;
}

RunOutcome IsolatedBackend::CaseRequest(const OpCase& c) {
  wire::Writer w;
  w.U8(kRun);
  w.I64(0);
  wire::WriteCase(w, c);
  current_request_ = absl::StrCat("case ", c.id.empty() ? "(no id)" : c.id);
  RunOutcome o = Exchange(w, &reply_, MaxCaseReply(c));
  last_answered_ = current_request_;
  if (o.kind != RunOutcome::Kind::kOutput) return o;
  o = DecodeCaseReply(reply_);
  o.output_text = std::move(last_output_);
  return o;
}

RunOutcome IsolatedBackend::DecodeCaseReply(absl::string_view reply) const {
  wire::Reader r(reply);
  uint8_t status = 0;
  RunOutcome result;
  if (!r.U8(&status)) return RunOutcome::Of(RunOutcome::Kind::kHarnessError, "worker: empty reply");
  if (status == kReplyStartupError) {
    std::string msg;
    r.Str(&msg);
    return RunOutcome::Of(RunOutcome::Kind::kHarnessError,
                          absl::StrCat("backend did not start: ", msg));
  }
  if (status != kReplyOk || !wire::ReadOutcome(r, &result)) {
    return RunOutcome::Of(RunOutcome::Kind::kHarnessError, "worker: malformed reply");
  }
  NameMemoryLimit(limit_, result.kind, &result.message);
  return result;
}

RunOutcome IsolatedBackend::Run(const OpCase& c) { return CaseRequest(c); }

ShapeOutcome IsolatedBackend::ShapeRequest(uint8_t request, const PartialCase& c) {
  wire::Writer w;
  w.U8(request);
  w.I64(0);
  wire::WritePartialCase(w, c);
  current_request_ = "a shape question";
  RunOutcome o = Exchange(w, &reply_, kMaxSmallReply);
  last_answered_ = current_request_;
  if (o.kind != RunOutcome::Kind::kOutput) return ShapeFailure(std::move(o));
  ShapeOutcome s = DecodeShapeReply(reply_);
  s.output_text = std::move(last_output_);
  return s;
}

ShapeOutcome IsolatedBackend::DecodeShapeReply(absl::string_view reply) const {
  ShapeOutcome result;
  wire::Reader r(reply);
  uint8_t status = 0;
  result.kind = RunOutcome::Kind::kHarnessError;
  if (!r.U8(&status)) {
    result.message = "worker: empty reply";
  } else if (status == kReplyStartupError) {
    std::string msg;
    r.Str(&msg);
    result.message = absl::StrCat("backend did not start: ", msg);
  } else if (status != kReplyOk || !wire::ReadShapeOutcome(r, &result)) {
    result.kind = RunOutcome::Kind::kHarnessError;
    result.message = "worker: malformed reply";
  }
  NameMemoryLimit(limit_, result.kind, &result.message);
  return result;
}

size_t IsolatedBackend::RunBatch(absl::Span<const BatchItem> items,
                                 absl::FunctionRef<void(size_t, BatchAnswer&&)> done,
                                 absl::FunctionRef<void()> meanwhile) {
  if (items.empty()) {
    meanwhile();
    return 0;
  }
  RunOutcome started = StartForRequest(0);
  if (started.kind == RunOutcome::Kind::kRejected) started = StartForRequest(1);
  if (started.kind != RunOutcome::Kind::kOutput) {
    meanwhile();
    done(0, AnswerOf(items[0], std::move(started)));
    return 1;
  }
  // As many items as the limits allow: U8 kBatch, the first item's number, I64 count, then each
  // request as a blob.
  batch_.Clear();
  batch_.U8(kBatch);
  batch_.I64(0);
  batch_.I64(0);
  max_replies_.clear();
  size_t k = 0;
  for (; k < items.size() && k < kMaxBatchItems; ++k) {
    const size_t before = batch_.data().size();
    const size_t where = batch_.Begin();
    const uint64_t max_reply = EncodeItem(items[k], batch_);
    batch_.End(where);
    if (k > 0 && batch_.data().size() > kMaxBatchBytes) {
      batch_.Truncate(before);
      break;
    }
    max_replies_.push_back(max_reply);
  }
  batch_.SetI64(9, static_cast<int64_t>(k));
  // Sends the batch (numbered from the worker's next number); its first reply's deadline.
  uint64_t first = 0;
  const auto send = [&](double deadline) {
    cap_.RequestStarts();
    ticks_ = 0;
    first = next_seq_;
    next_seq_ += k;
    batch_.SetI64(1, static_cast<int64_t>(first));
    return channel_.Send(batch_.data(), deadline, [&] { return Watch(true); });
  };
  Wait w = send(Now() + options_.timeout_seconds);
  bool sent = w == Wait::kOk;
  // The caller's work overlaps the worker's: the replies wait in the pipe meanwhile.
  meanwhile();
  // Each reply within the timeout of the one before (the first: of the caller's work above).
  double deadline = Now() + options_.timeout_seconds;
  bool resent = false;
  for (size_t i = 0; i < k; ++i) {
    const uint64_t max_reply = max_replies_[i];
    ReplyHeader h;
    if (w == Wait::kOk) {
      w = channel_.Receive(
          {token_, first + i, kBatchSteps}, max_reply, deadline, [&] { return Watch(true); }, &h,
          &reply_);
    }
    // A worker that failed before it took the batch failed between requests (Exchange): once,
    // the batch goes to a fresh worker.
    if (i == 0 && !resent && NotTaken(w, sent)) {
      Replace(w);
      resent = true;
      started = StartForRequest(1);
      if (started.kind != RunOutcome::Kind::kOutput) {
        done(0, AnswerOf(items[0], std::move(started)));
        return 1;
      }
      deadline = Now() + options_.timeout_seconds;
      w = send(deadline);
      sent = w == Wait::kOk;
      --i;
      continue;
    }
    // The process cap is counted where the worker stands idle: at a reply that paused the batch
    // and at the last. At a reply that goes on, the item left no new process below the worker,
    // and a count then would see the next items' processes too, and blame this one.
    const bool paused = w == Wait::kOk && h.step == kPaused;
    if (w == Wait::kOk && (paused || i + 1 == k) && cap_.RequestOverCap()) {
      w = Wait::kTooManyProcesses;
    }
    last_answered_ =
        items[i].kind == BatchItem::Kind::kRun
            ? absl::StrCat("case ", items[i].c->id.empty() ? "(no id)" : items[i].c->id)
            : "a shape question";
    if (w == Wait::kOutOfSequence) {
      // Blamed on the item only when it recurs (Exchange): asked once more, alone, of a
      // fresh worker.
      current_request_ = last_answered_;
      const std::string stray = Failure(w, h, max_reply, false).message;
      replaying_stray_ = true;
      BatchAnswer again;
      if (items[i].kind == BatchItem::Kind::kRun) {
        again.run = CaseRequest(*items[i].c);
      } else {
        again.shape = ShapeRequest(
            items[i].kind == BatchItem::Kind::kInferStatic ? kInferStatic : kInferPartial,
            *items[i].pc);
        current_request_ = last_answered_;
      }
      replaying_stray_ = false;
      const std::string& message =
          items[i].kind == BatchItem::Kind::kRun ? again.run.message : again.shape.message;
      if (message.rfind("worker.reply.out_of_sequence", 0) != 0) NoteStray(stray);
      done(i, std::move(again));
      return i + 1;
    }
    if (w != Wait::kOk) {
      done(i, AnswerOf(items[i], Failure(w, h, max_reply, channel_.Unread() > 0)));
      return i + 1;
    }
    const std::string output = OutputText(channel_.TakeOutput());
    BatchAnswer a;
    if (items[i].kind == BatchItem::Kind::kRun) {
      a.run = DecodeCaseReply(reply_);
      a.run.output_text = output;
    } else {
      a.shape = DecodeShapeReply(reply_);
      a.shape.output_text = output;
    }
    done(i, std::move(a));
    if (paused) return i + 1;  // the worker awaits the next request: the rest go again
    // The caller's work on this answer is not the next case's time, nor its processes.
    deadline = Now() + options_.timeout_seconds;
    cap_.RequestStarts();
  }
  return k;
}

ShapeOutcome IsolatedBackend::InferStatic(const PartialCase& c) {
  return ShapeRequest(kInferStatic, c);
}

ShapeOutcome IsolatedBackend::InferPartial(const PartialCase& c) {
  return ShapeRequest(kInferPartial, c);
}

}  // namespace dmconf
