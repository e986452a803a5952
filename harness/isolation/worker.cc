#include "harness/isolation/worker.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <new>
#include <optional>

#include "absl/strings/str_cat.h"
#include "harness/isolation/fork_gate.h"
#include "harness/isolation/memory_watch.h"
#include "harness/isolation/process_tree.h"
#include "harness/isolation/wire.h"
#include "oracle/oracle.h"
#include "oracle/shape.h"

namespace dmconf {
namespace {

// kBatch: a count, then that many requests of the other kinds, each a length-prefixed blob;
// each is answered by its own reply.
enum Request : uint8_t { kCaps = 1, kRun = 2, kInferStatic = 3, kInferPartial = 4, kBatch = 5 };
// kReplyReady: the worker's first message, once its backend is built (or failed to build).
enum Reply : uint8_t { kReplyOk = 0, kReplyStartupError = 1, kReplyReady = 2 };
// A reply within a batch starts with one of these: whether the worker goes on to the next item,
// or stopped the batch there because, after the item, a process is below the worker and a PID
// was allocated while the item ran (a process or a thread, the backend's or another's). The
// harness counts the process cap at a paused reply and at the batch's last, with the worker
// idle (IsolatedBackend::RunBatch): each count sees the tree as that item left it.
enum BatchStep : uint8_t { kBatchGoesOn = 0, kBatchPaused = 1 };

constexpr uint64_t kMaxMessage = uint64_t{1} << 34;

double Now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

bool WriteAll(int fd, const char* p, size_t n) {
  while (n > 0) {
    const ssize_t k = write(fd, p, n);
    if (k < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += k;
    n -= static_cast<size_t>(k);
  }
  return true;
}

// One message: its length, then `first` when given (a batch reply's BatchStep, written with
// the header rather than copied in front of the payload), then the payload.
bool SendMessage(int fd, const std::string& payload, std::optional<uint8_t> first = std::nullopt) {
  char header[9];
  const uint64_t n = payload.size() + (first.has_value() ? 1 : 0);
  for (int i = 0; i < 8; ++i) header[i] = static_cast<char>((n >> (8 * i)) & 0xff);
  if (first.has_value()) header[8] = static_cast<char>(*first);
  return WriteAll(fd, header, first.has_value() ? 9 : 8) &&
         WriteAll(fd, payload.data(), payload.size());
}

// True once process `pid` (a child) has ended; it stays waitable (WNOWAIT).
bool Ended(pid_t pid) {
  siginfo_t info = {};
  return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid == pid;
}

// Reads exactly n bytes. deadline < 0: no deadline. Returns 1 ok, 0 EOF/error or `watch`
// ended, -1 timeout. With a deadline, the child `watch` is checked every 20 ms: its death ends
// the wait even when a process it started still holds the pipe open (no end of file comes).
constexpr int kTooManyProcesses = -3;
// With `buffer` (the harness's end of the reply pipe, non-blocking), bytes come from the buffer
// first, and one read() refills it with every reply the worker has written so far; poll() is
// called only when nothing is there.
int ReadAll(int fd, char* p, size_t n, double deadline, pid_t watch = -1,
            ReplyBuffer* buffer = nullptr) {
  int ticks = 0;
  while (n > 0) {
    if (buffer != nullptr) {
      if (buffer->begin < buffer->end) {
        const size_t k = std::min(n, buffer->end - buffer->begin);
        std::memcpy(p, buffer->data.data() + buffer->begin, k);
        buffer->begin += k;
        p += k;
        n -= k;
        continue;
      }
      const bool refill = n < buffer->data.size();
      const ssize_t k =
          refill ? read(fd, buffer->data.data(), buffer->data.size()) : read(fd, p, n);
      if (k > 0 && refill) {
        buffer->begin = 0;
        buffer->end = static_cast<size_t>(k);
        continue;
      }
      if (k > 0) {
        p += k;
        n -= static_cast<size_t>(k);
        continue;
      }
      if (k == 0 || (errno != EINTR && errno != EAGAIN)) return 0;
      if (errno == EINTR) continue;
    }
    if (deadline >= 0) {
      const double left = deadline - Now();
      if (left <= 0) return -1;
      pollfd pfd{fd, POLLIN, 0};
      const int r = [&] {
        const ForkGate::Pause pause;  // waiting: another lane may fork meanwhile
        return poll(&pfd, 1, std::min(20, static_cast<int>(left * 1000) + 1));
      }();
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) return 0;
      if (r == 0) {
        if (watch > 0 && Ended(watch)) return 0;
        // Every 100 ms: a tree that forks without end is stopped while it does, not only
        // after the case.
        if (watch > 0 && ++ticks % 5 == 0 &&
            CountWorkerProcesses(watch, kMaxWorkerProcesses) > kMaxWorkerProcesses) {
          return kTooManyProcesses;
        }
        continue;  // re-check the deadline
      }
      if (buffer != nullptr) continue;  // something to read now
    }
    const ssize_t k = read(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return 0;
    p += k;
    n -= static_cast<size_t>(k);
  }
  return 1;
}

// A header claiming more than `max_bytes` is refused before anything is allocated: -2, with
// the claimed length in *claimed.
constexpr int kTooLong = -2;
int ReceiveMessage(int fd, std::string* payload, double deadline, pid_t watch = -1,
                   uint64_t max_bytes = kMaxMessage, uint64_t* claimed = nullptr,
                   ReplyBuffer* buffer = nullptr) {
  char header[8];
  int r = ReadAll(fd, header, 8, deadline, watch, buffer);
  if (r != 1) return r;
  uint64_t n = 0;
  for (int i = 0; i < 8; ++i) n |= uint64_t{static_cast<uint8_t>(header[i])} << (8 * i);
  if (n > std::min(max_bytes, kMaxMessage)) {
    if (claimed != nullptr) *claimed = n;
    return kTooLong;
  }
  payload->assign(n, '\0');
  return ReadAll(fd, payload->data(), n, deadline, watch, buffer);
}

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

// Runs one request against the backend; a failed C++ allocation is the out-of-memory outcome.
template <typename F>
auto Guarded(F call) -> decltype(call()) {
  try {
    return call();
  } catch (const std::bad_alloc&) {
    decltype(call()) o;
    o.kind = RunOutcome::Kind::kOutOfMemory;
    o.message = "out of memory: an allocation in the backend failed (std::bad_alloc)";
    return o;
  }
}

// An out-of-memory answer of the worker (a std::bad_alloc it caught) names the limit in force.
void NameMemoryLimit(const EffectiveMemoryLimit& limit, RunOutcome::Kind kind,
                     std::string* message) {
  if (kind == RunOutcome::Kind::kOutOfMemory && limit.bytes > 0) {
    absl::StrAppend(message, ", at the worker's address-space limit of ", limit.Describe());
  }
}

// Largest file the worker may write (RLIMIT_FSIZE): a backend has no business writing more.
constexpr rlim_t kWorkerMaxFileBytes = rlim_t{1} << 30;

}  // namespace

#if defined(__SANITIZE_ADDRESS__)
const bool kMemoryLimitApplies = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
const bool kMemoryLimitApplies = false;
#else
const bool kMemoryLimitApplies = true;
#endif
#else
const bool kMemoryLimitApplies = true;
#endif

int64_t DefaultWorkerMemoryLimit() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return int64_t{8} << 30;
  return static_cast<int64_t>(pages) * page / 2;
}

namespace {

// One request's reply, written into w. Everything it allocates (the decoded case, the
// backend's work, the encoded reply) is guarded: a failed allocation is the out-of-memory
// outcome, never an exception that escapes the worker.
void Answer(const absl::StatusOr<std::unique_ptr<Backend>>& backend,
            const std::function<const Capabilities&()>& capabilities, absl::string_view request,
            wire::Writer& w) {
  w.Clear();
  if (!backend.ok()) {
    w.U8(kReplyStartupError);
    w.Str(std::string(backend.status().message()));
    return;
  }
  w.U8(kReplyOk);
  wire::Reader r(request);
  uint8_t kind = 0;
  OpCase c;
  PartialCase pc;
  r.U8(&kind);
  if (kind == kCaps) {
    wire::WriteCapabilities(w, (*backend)->GetCapabilities());
  } else if (kind == kInferStatic || kind == kInferPartial) {
    ShapeOutcome o;
    if (!wire::ReadPartialCase(r, &pc)) {
      o.kind = RunOutcome::Kind::kHarnessError;
      o.message = "worker: bad request";
    } else if (kind == kInferStatic) {
      o = Guarded([&] { return (*backend)->InferStatic(pc); });
    } else {
      o = Guarded([&] { return (*backend)->InferPartial(pc); });
    }
    wire::WriteShapeOutcome(w, o);
  } else if (!wire::ReadCase(r, &c)) {
    wire::WriteOutcome(w, RunOutcome::Of(RunOutcome::Kind::kHarnessError, "worker: bad request"));
  } else if (!ShouldRun(**backend, capabilities(), c)) {
    wire::WriteOutcome(w, RunOutcome::Of(RunOutcome::Kind::kUnsupported,
                                         "outside the backend's declared capabilities"));
  } else {
    wire::WriteOutcome(w, Guarded([&] { return (*backend)->Run(c); }));
  }
}

// The reply to a request whose handling ran out of memory outside the backend's own call
// (decoding the case, encoding a big output): small, built once the big buffers are gone.
void OutOfMemoryReply(absl::string_view request, wire::Writer& w) {
  const std::string why =
      "out of memory: an allocation in the worker failed (std::bad_alloc) while it decoded the "
      "request or encoded the answer";
  w = wire::Writer();  // the big buffers go first
  const uint8_t kind = request.empty() ? 0 : static_cast<uint8_t>(request[0]);
  if (kind == kCaps) {
    w.U8(kReplyStartupError);
    w.Str(why);
  } else if (kind == kInferStatic || kind == kInferPartial) {
    w.U8(kReplyOk);
    ShapeOutcome o;
    o.kind = RunOutcome::Kind::kOutOfMemory;
    o.message = why;
    wire::WriteShapeOutcome(w, o);
  } else {
    w.U8(kReplyOk);
    wire::WriteOutcome(w, RunOutcome::Of(RunOutcome::Kind::kOutOfMemory, why));
  }
}

// In the worker: false when it has no child, alive or not. As a child subreaper (WorkerMain)
// it then has nothing below it, and its tree cannot have grown during the request it just
// answered (the common case, one system call); true otherwise, and the caller reads the last
// PID to know.
bool TreeMayHaveGrown() {
  siginfo_t info;
  return !(waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) < 0 && errno == ECHILD);
}

}  // namespace

[[noreturn]] void WorkerMain(const BackendFactory& factory, int in_fd, int out_fd) {
  // A process orphaned below the worker is re-parented to it, not to the harness, while the
  // worker lives: then a worker without children has no process below it (TreeMayHaveGrown).
  // When the worker dies they go on to the harness, which kills them (process_tree.h).
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  const LastPidReader pids;  // before the backend is built: its descriptors are its own
  absl::StatusOr<std::unique_ptr<Backend>> backend = factory();
  // A backend that failed to build says so in each reply (kReplyStartupError).
  if (!SendMessage(out_fd, std::string(1, static_cast<char>(kReplyReady)))) _exit(0);
  // The capabilities ShouldRun consults: asked once, when the first case needs them.
  std::optional<Capabilities> caps;
  const std::function<const Capabilities&()> capabilities = [&]() -> const Capabilities& {
    if (!caps.has_value()) caps = (*backend)->GetCapabilities();
    return *caps;
  };
  std::string request;
  wire::Writer reply;
  const auto answer = [&](absl::string_view one) {
    ResetAllocationWatch();
    try {
      Answer(backend, capabilities, one, reply);
    } catch (const std::bad_alloc&) {
      OutOfMemoryReply(one, reply);
    }
  };
  while (ReceiveMessage(in_fd, &request, -1) == 1) {
    if (request.empty() || static_cast<uint8_t>(request[0]) != kBatch) {
      answer(request);
      if (!SendMessage(out_fd, reply.data())) break;
      continue;
    }
    // A batch: each request is answered as soon as it is done, so that the harness times
    // each case on its own and reads one reply while the next case runs. A request after which
    // the worker has a process below it, and during which a PID was allocated, ends the batch:
    // the harness counts the process tree then, before the next request runs.
    wire::Reader r(absl::string_view(request).substr(1));
    int64_t n = 0;
    bool ok = r.I64(&n) && n > 0;
    long last_pid = pids.Read();
    for (int64_t i = 0; ok && i < n; ++i) {
      absl::string_view one;
      ok = r.View(&one);
      if (!ok) break;
      answer(one);
      const long now = TreeMayHaveGrown() ? pids.Read() : last_pid;
      const bool paused = now < 0 || now != last_pid;
      last_pid = now;
      ok = SendMessage(out_fd, reply.data(), paused ? kBatchPaused : kBatchGoesOn);
      if (paused) break;
    }
    if (!ok) break;
  }
  _exit(0);
}

IsolatedBackend::IsolatedBackend(std::string name, BackendFactory factory, IsolationOptions options)
    : name_(std::move(name)), factory_(std::move(factory)), options_(options) {
  // A write to a worker that just died must be an error we can handle, not a signal that
  // kills the harness.
  signal(SIGPIPE, SIG_IGN);
  InstallProcessTreeGuards();
}

IsolatedBackend::~IsolatedBackend() { StopWorker(); }

// In the worker: the memory limit (with the out-of-memory watch on `oom_fd`) and the file-size
// limit. Checked: a limit that cannot be set (an inherited hard limit below it, for a user who
// may not raise it) must not leave the worker running under another limit than the one named;
// the returned factory then answers every request with this startup error.
namespace {
BackendFactory ApplyWorkerLimits(const EffectiveMemoryLimit& limit, const BackendFactory& backend,
                                 int oom_fd) {
  BackendFactory factory = backend;
  auto refuse = [&factory](std::string why) {
    factory = [why]() -> absl::StatusOr<std::unique_ptr<Backend>> {
      return absl::FailedPreconditionError(why);
    };
  };
  if (limit.bytes > 0) {
    // Soft and hard: the backend may not raise it. Never above an inherited limit, so this
    // only lowers (ComputeEffectiveMemoryLimit); still checked.
    const rlimit as{static_cast<rlim_t>(limit.bytes), static_cast<rlim_t>(limit.bytes)};
    if (setrlimit(RLIMIT_AS, &as) != 0) {
      refuse(absl::StrCat("harness.worker.rlimit: setrlimit(RLIMIT_AS, ", limit.bytes,
                          " bytes) failed: ", strerror(errno)));
    }
    WatchForOutOfMemory(oom_fd, limit.bytes);
  }
  const rlimit fsize{kWorkerMaxFileBytes, kWorkerMaxFileBytes};
  if (setrlimit(RLIMIT_FSIZE, &fsize) != 0) {
    // A lower inherited file-size limit is kept: only a higher one is refused.
    rlimit now{};
    if (getrlimit(RLIMIT_FSIZE, &now) != 0 || now.rlim_cur > kWorkerMaxFileBytes) {
      refuse(
          absl::StrCat("harness.worker.rlimit: setrlimit(RLIMIT_FSIZE) failed: ", strerror(errno)));
    }
  }
  return factory;
}
}  // namespace

bool IsolatedBackend::EnsureWorker(std::string* error) {
  if (pid_ > 0) return true;
  int down[2], up[2], note[2];
  if (pipe2(down, O_CLOEXEC) != 0) {
    *error = absl::StrCat("harness.worker.pipe: ", strerror(errno));
    return false;
  }
  if (pipe2(up, O_CLOEXEC) != 0) {
    *error = absl::StrCat("harness.worker.pipe: ", strerror(errno));
    close(down[0]);
    close(down[1]);
    return false;
  }
  if (pipe2(note, O_CLOEXEC | O_NONBLOCK) != 0) {
    *error = absl::StrCat("harness.worker.pipe: ", strerror(errno));
    for (int fd : {down[0], down[1], up[0], up[1]}) close(fd);
    return false;
  }
  counted_at_pid_ = -1;
  limit_ = ComputeEffectiveMemoryLimit(options_.memory_limit_bytes, kMemoryLimitApplies);
  // No other lane thread may hold a lock the worker inherits (fork_gate.h).
  const ForkGate::Fork gate;
  std::fflush(nullptr);  // no buffered output may be written twice
  const pid_t parent = getpid();
  // Until RegisterWorker, another thread's sweep would take the new worker for a stray.
  auto hold = HoldWorkerTable();
  const pid_t pid = fork();
  if (pid < 0) {
    *error = absl::StrCat("harness.worker.fork: ", strerror(errno));
    for (int fd : {down[0], down[1], up[0], up[1], note[0], note[1]}) close(fd);
    return false;
  }
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);  // the harness died before prctl took effect
    // The worker must die of a fatal signal, so that the harness can name it. Sanitizer
    // runtimes (ASan, UBSan) install handlers that print a report and exit(1) instead; the
    // default action restores the real signal (the asan preset's isolation tests need it).
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP}) signal(sig, SIG_DFL);
    close(down[1]);
    close(up[0]);
    close(note[0]);
    int keep[3] = {down[0], up[1], note[1]};
    BecomeWorker(keep, 3);
    const BackendFactory factory = ApplyWorkerLimits(limit_, factory_, keep[2]);
    // The worker must never write to the harness's stdout (reports may be printed there).
    if (options_.silence_worker_output) {
      const int null_fd = open("/dev/null", O_WRONLY);
      if (null_fd >= 0) {
        dup2(null_fd, 1);
        dup2(null_fd, 2);
      }
    } else {
      dup2(2, 1);
    }
    WorkerMain(factory, keep[0], keep[1]);
  }
  close(down[0]);
  close(up[1]);
  close(note[1]);
  oom_note_ = note[0];
  fcntl(up[0], F_SETFL, O_NONBLOCK);  // ReadAll polls only when nothing is there
  replies_.data.resize(kReplyBufferBytes);
  replies_.begin = replies_.end = 0;
  RegisterWorker(pid);
  hold.unlock();
  pid_ = pid;
  to_worker_ = down[1];
  from_worker_ = up[0];
  ++starts_;
  return true;
}

int IsolatedBackend::StopWorker() {
  if (pid_ <= 0) return -1;
  close(to_worker_);
  close(from_worker_);
  const int status = KillWorkerTree(pid_);
  close(oom_note_);
  oom_note_ = -1;
  pid_ = -1;
  to_worker_ = from_worker_ = -1;
  return status;
}

RunOutcome IsolatedBackend::StartWorker() {
  if (pid_ > 0) return RunOutcome::Of(RunOutcome::Kind::kOutput, "");
  std::string error;
  if (!EnsureWorker(&error)) return RunOutcome::Of(RunOutcome::Kind::kHarnessError, error);
  const double limit = std::max(options_.startup_timeout_seconds, options_.timeout_seconds);
  uint64_t claimed = 0;
  const int r = AwaitReply(&reply_, 1, &claimed, Now() + limit);
  if (r == 1 && reply_.size() == 1 && static_cast<uint8_t>(reply_[0]) == kReplyReady) {
    return RunOutcome::Of(RunOutcome::Kind::kOutput, "");
  }
  if (r == 1) {
    StopWorker();
    return RunOutcome::Of(RunOutcome::Kind::kHarnessError,
                          "worker.start: the worker's first message is not its ready message");
  }
  if (r == -1) {
    StopWorker();
    return RunOutcome::Of(
        RunOutcome::Kind::kHang,
        absl::StrCat("worker.start: the backend did not start within ", limit,
                     " s (its factory: a plugin's load and constructor); the worker and every "
                     "process it started were killed"));
  }
  return Failure(r, claimed, 1);
}

RunOutcome IsolatedBackend::Exchange(const std::string& request, std::string* reply,
                                     uint64_t max_reply) {
  RunOutcome started = StartWorker();
  if (started.kind != RunOutcome::Kind::kOutput) return started;
  const double deadline = Now() + options_.timeout_seconds;
  int r = SendMessage(to_worker_, request) ? 1 : 0;
  uint64_t claimed = 0;
  if (r == 1) r = AwaitReply(reply, max_reply, &claimed, deadline);
  if (r == 1) return RunOutcome::Of(RunOutcome::Kind::kOutput, "");
  return Failure(r, claimed, max_reply);
}

int IsolatedBackend::AwaitReply(std::string* reply, uint64_t max_reply, uint64_t* claimed,
                                double deadline, bool count_processes) {
  ForkGate::Yield();  // a lane that finds its replies waiting never polls: it lets forks go here
  const int r = ReceiveMessage(from_worker_, reply, deadline, pid_, max_reply, claimed, &replies_);
  if (r != 1 || !count_processes) return r;
  return CheckProcessCap();
}

int IsolatedBackend::CheckProcessCap() {
  // The process cap, checked after a reply too: a backend that leaves one process behind
  // per case reaches it across cases. Without a new PID since the last count the tree cannot
  // have grown, and the walk of /proc is spared.
  const long last_pid = LastPidAllocated();
  if (last_pid < 0 || last_pid != counted_at_pid_) {
    if (CountWorkerProcesses(pid_, kMaxWorkerProcesses) > kMaxWorkerProcesses) {
      return kTooManyProcesses;
    }
    counted_at_pid_ = last_pid;
  }
  return 1;
}

RunOutcome IsolatedBackend::Failure(int r, uint64_t claimed, uint64_t max_reply) {
  if (r == kTooManyProcesses) {
    StopWorker();
    return RunOutcome::Of(
        RunOutcome::Kind::kCrash,
        absl::StrCat("worker.process_cap: the worker and the processes it started "
                     "were more than ",
                     kMaxWorkerProcesses,
                     "; the whole tree was killed (a backend may start processes, but "
                     "not without end)"));
  }
  if (r == kTooLong) {
    StopWorker();  // the rest of its stream cannot be trusted
    return RunOutcome::Of(
        RunOutcome::Kind::kHarnessError,
        absl::StrCat("worker.reply.too_long: the worker's reply claims ", claimed,
                     " bytes, more than this request's answer can hold (", max_reply,
                     "); nothing was allocated and the worker was stopped"));
  }
  if (r == -1) {
    StopWorker();
    return RunOutcome::Of(RunOutcome::Kind::kHang,
                          absl::StrCat("no answer within ", options_.timeout_seconds,
                                       " s; the worker and every process it started were killed"));
  }
  // The worker died (its end of the pipe closed, or it ended while a process it started still
  // holds the pipe). Kill what it left behind, reap it and say how it died.
  char note = 0;
  const bool out_of_memory =
      read(oom_note_, &note, 1) == 1 && (note == kNoteNearLimit || note == kNoteAllocationFailed);
  const int status = StopWorker();
  const bool reaped = status != -1;
  if (out_of_memory) {
    return RunOutcome::Of(RunOutcome::Kind::kOutOfMemory,
                          absl::StrCat("out of memory: the worker died",
                                       reaped && WIFSIGNALED(status)
                                           ? absl::StrCat(" of ", SignalName(WTERMSIG(status)))
                                           : std::string(),
                                       " after ", DescribeMemoryNote(note),
                                       ", at its address-space limit of ", limit_.Describe()));
  }
  if (reaped && WIFSIGNALED(status)) {
    return RunOutcome::Of(RunOutcome::Kind::kCrash,
                          absl::StrCat("worker killed by ", SignalName(WTERMSIG(status))));
  }
  if (reaped && WIFEXITED(status)) {
    return RunOutcome::Of(RunOutcome::Kind::kCrash,
                          absl::StrCat("worker exited with status ", WEXITSTATUS(status)));
  }
  return RunOutcome::Of(RunOutcome::Kind::kCrash, "worker vanished");
}

Capabilities IsolatedBackend::GetCapabilities() const {
  if (caps_cached_) return caps_;
  auto* self = const_cast<IsolatedBackend*>(this);
  wire::Writer w;
  w.U8(kCaps);
  std::string reply;
  RunOutcome o = self->Exchange(w.data(), &reply, kMaxSmallReply);
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

namespace {

// A shape question's answer when the exchange itself failed (the worker crashed, hung, ran out
// of memory or its reply was refused): that failure's kind and message.
ShapeOutcome ShapeFailure(RunOutcome o) {
  ShapeOutcome result;
  result.kind = o.kind;
  result.message = std::move(o.message);
  return result;
}

}  // namespace

RunOutcome IsolatedBackend::CaseRequest(uint8_t request, const OpCase& c) {
  wire::Writer w;
  w.U8(request);
  wire::WriteCase(w, c);
  RunOutcome o = Exchange(w.data(), &reply_, MaxCaseReply(c));
  if (o.kind != RunOutcome::Kind::kOutput) return o;
  return DecodeCaseReply(reply_);
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

RunOutcome IsolatedBackend::Run(const OpCase& c) { return CaseRequest(kRun, c); }

ShapeOutcome IsolatedBackend::ShapeRequest(uint8_t request, const PartialCase& c) {
  wire::Writer w;
  w.U8(request);
  wire::WritePartialCase(w, c);
  RunOutcome o = Exchange(w.data(), &reply_, kMaxSmallReply);
  if (o.kind != RunOutcome::Kind::kOutput) return ShapeFailure(std::move(o));
  return DecodeShapeReply(reply_);
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

namespace {

// Writes one batch item's request into w; returns the largest reply it may get.
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

}  // namespace

size_t IsolatedBackend::RunBatch(absl::Span<const BatchItem> items,
                                 absl::FunctionRef<void(size_t, BatchAnswer&&)> done,
                                 absl::FunctionRef<void()> meanwhile) {
  if (items.empty()) {
    meanwhile();
    return 0;
  }
  RunOutcome started = StartWorker();
  if (started.kind != RunOutcome::Kind::kOutput) {
    meanwhile();
    done(0, AnswerOf(items[0], std::move(started)));
    return 1;
  }
  // As many items as the limits allow: U8 kBatch, I64 count, then each request as a blob.
  batch_.Clear();
  batch_.U8(kBatch);
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
  batch_.SetI64(1, static_cast<int64_t>(k));
  int r = SendMessage(to_worker_, batch_.data()) ? 1 : 0;
  // The caller's work overlaps the worker's: the replies wait in the pipe meanwhile.
  meanwhile();
  // Each reply within the timeout of the one before (the first: of the caller's work above).
  double deadline = Now() + options_.timeout_seconds;
  for (size_t i = 0; i < k; ++i) {
    // Each reply starts with its BatchStep.
    const uint64_t max_reply = max_replies_[i] + 1;
    uint64_t claimed = 0;
    if (r == 1) r = AwaitReply(&reply_, max_reply, &claimed, deadline, false);
    // The process cap is counted where the worker stands idle: at a reply that paused the batch
    // and at the last. At a reply that goes on, the item left no new process below the worker,
    // and a count then would see the next items' processes too, and blame this one.
    // A reply without a valid step is malformed: decoded as empty, and the batch stops there.
    const bool framed =
        r == 1 && !reply_.empty() && static_cast<uint8_t>(reply_[0]) <= kBatchPaused;
    const bool paused = r == 1 && !(framed && static_cast<uint8_t>(reply_[0]) == kBatchGoesOn);
    if (r == 1 && (paused || i + 1 == k)) r = CheckProcessCap();
    if (r != 1) {
      done(i, AnswerOf(items[i], Failure(r, claimed, max_reply)));
      return i + 1;
    }
    const absl::string_view answer =
        framed ? absl::string_view(reply_).substr(1) : absl::string_view();
    BatchAnswer a;
    if (items[i].kind == BatchItem::Kind::kRun) {
      a.run = DecodeCaseReply(answer);
    } else {
      a.shape = DecodeShapeReply(answer);
    }
    done(i, std::move(a));
    if (paused) return i + 1;  // the worker awaits the next request: the rest go again
    // The caller's work on this answer is not the next case's time.
    deadline = Now() + options_.timeout_seconds;
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
