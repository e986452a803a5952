#include "harness/isolation/worker_main.h"

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <functional>
#include <new>
#include <optional>
#include <string>

#include "harness/isolation/frame.h"
#include "harness/isolation/memory_watch.h"
#include "harness/isolation/process_tree.h"
#include "harness/isolation/wire.h"
#include "harness/isolation/worker_protocol.h"

namespace dmconf {
namespace {

using namespace worker_protocol;  // NOLINT: the protocol's names, in its one user

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

using Capabilities_ = std::function<const Capabilities&()>;

// One request's reply (its kind, then its body in r), written into w. Everything it allocates
// (the decoded case, the backend's work, the encoded reply) is guarded: a failed allocation is
// the out-of-memory outcome, never an exception that escapes the worker.
void Answer(const absl::StatusOr<std::unique_ptr<Backend>>& backend,
            const Capabilities_& capabilities, uint8_t kind, wire::Reader& r, wire::Writer& w) {
  w.Clear();
  if (!backend.ok()) {
    w.U8(kReplyStartupError);
    w.Str(std::string(backend.status().message()));
    return;
  }
  w.U8(kReplyOk);
  OpCase c;
  PartialCase pc;
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
  } else if (kind != kRun || !wire::ReadCase(r, &c)) {
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
void OutOfMemoryReply(uint8_t kind, wire::Writer& w) {
  const std::string why =
      "out of memory: an allocation in the worker failed (std::bad_alloc) while it decoded the "
      "request or encoded the answer";
  w = wire::Writer();  // the big buffers go first
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

// False when the worker has no child, alive or not. As a child subreaper (WorkerMain) it then
// has nothing below it, and its tree cannot have grown during the request it just answered
// (the common case, one system call); true otherwise, and the caller reads the last PID to know.
bool TreeMayHaveGrown() {
  siginfo_t info;
  return !(waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) < 0 && errno == ECHILD);
}

}  // namespace

[[noreturn]] void WorkerMain(const BackendFactory& factory, int in_fd, int out_fd, uint64_t token) {
  // A process orphaned below the worker is re-parented to it while the worker lives: then a
  // worker without children has no process below it (TreeMayHaveGrown). When the worker dies
  // they go on to its keeper, which kills them (keeper.h).
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  const LastPidReader pids;  // before the backend is built: its descriptors are its own
  absl::StatusOr<std::unique_ptr<Backend>> backend = factory();
  // A backend that failed to build says so in each reply (kReplyStartupError). The ready
  // message carries the worker's pid (the harness's child is its keeper).
  {
    wire::Writer ready;
    ready.I64(getpid());
    if (!SendReply(out_fd, token, 0, kReady, ready.data())) _exit(0);
  }
  // The capabilities ShouldRun consults: asked once, when the first case needs them.
  std::optional<Capabilities> caps;
  const Capabilities_ capabilities = [&]() -> const Capabilities& {
    if (!caps.has_value()) caps = (*backend)->GetCapabilities();
    return *caps;
  };
  std::string request;
  wire::Writer reply;
  // Answers one request of `kind` whose body `r` holds, into `reply`.
  const auto answer = [&](uint8_t kind, wire::Reader& r) {
    ResetAllocationWatch();
    try {
      Answer(backend, capabilities, kind, r, reply);
    } catch (const std::bad_alloc&) {
      OutOfMemoryReply(kind, reply);
    }
  };
  while (ReceiveRequest(in_fd, &request)) {
    wire::Reader r(request);
    uint8_t kind = 0;
    int64_t seq = 0;
    if (!r.U8(&kind) || !r.I64(&seq)) break;
    if (kind != kBatch) {
      answer(kind, r);
      if (!SendReply(out_fd, token, static_cast<uint64_t>(seq), kAnswer, reply.data())) break;
      continue;
    }
    // A batch: each item is answered as soon as it is done, so that the harness times each
    // case on its own and reads one reply while the next case runs. An item after which the
    // worker has a process below it, and during which a PID was allocated, ends the batch: the
    // harness counts the process tree then, before the next item runs.
    int64_t n = 0;
    bool ok = r.I64(&n) && n > 0;
    long last_pid = pids.Read();
    for (int64_t i = 0; ok && i < n; ++i) {
      absl::string_view one;
      uint8_t item_kind = 0;
      ok = r.View(&one);
      if (!ok) break;
      wire::Reader item(one);
      item.U8(&item_kind);
      answer(item_kind, item);
      const long now = TreeMayHaveGrown() ? pids.Read() : last_pid;
      const bool paused = now < 0 || now != last_pid;
      last_pid = now;
      ok = SendReply(out_fd, token, static_cast<uint64_t>(seq + i), paused ? kPaused : kGoesOn,
                     reply.data());
      if (paused) break;
    }
    if (!ok) break;
  }
  _exit(0);
}

}  // namespace dmconf
