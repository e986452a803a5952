#include "harness/backends/subprocess/subprocess_backend.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/isolation/child_process.h"
#include "harness/isolation/process_tree.h"

namespace dmconf {

SubprocessBackend::SubprocessBackend(std::string name, std::vector<std::string> argv)
    : SubprocessBackend(std::move(name), std::move(argv), Options{}) {}

SubprocessBackend::SubprocessBackend(std::string name, std::vector<std::string> argv,
                                     Options options)
    : name_(std::move(name)), argv_(std::move(argv)), options_(options) {}

SubprocessBackend::~SubprocessBackend() {
  if (pid_ > 0) {
    WriteLine(subprocess::EncodeShutdownRequest());
    // Give the adapter a moment to exit by itself (EOF) before it is killed.
    bool timed_out = false;
    ReadLine(2000, &timed_out);
  }
  Stop();
}

bool SubprocessBackend::WriteLine(const std::string& line) const {
  const std::string out = line + "\n";
  size_t done = 0;
  while (done < out.size()) {
    // MSG_NOSIGNAL: a dead adapter gives EPIPE, not SIGPIPE for the whole harness.
    const ssize_t n = send(fd_, out.data() + done, out.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

std::optional<std::string> SubprocessBackend::ReadLine(int timeout_ms, bool* timed_out) const {
  *timed_out = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (true) {
    const size_t nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return line;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) {
      *timed_out = true;
      return std::nullopt;
    }
    pollfd p{fd_, POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready == 0) continue;  // the deadline check above decides
    if (ready < 0) return std::nullopt;
    char chunk[65536];
    const ssize_t n = recv(fd_, chunk, sizeof(chunk), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::nullopt;
    buffer_.append(chunk, static_cast<size_t>(n));
  }
}

void SubprocessBackend::Stop() const {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  buffer_.clear();
  if (pid_ > 0) {
    UnregisterOwnChild(pid_);
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, &status, 0);
    }
  }
  pid_ = -1;
}

std::string SubprocessBackend::DeathMessage() const {
  int status = 0;
  std::string how = "closed its output";
  // The adapter closed the socket; wait briefly for its exit status.
  for (int i = 0; i < 50 && pid_ > 0; ++i) {
    const pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      UnregisterOwnChild(pid_);
      how = WaitStatusText(status);
      pid_ = -1;
      break;
    }
    usleep(10000);
  }
  return how;
}

bool SubprocessBackend::EnsureStarted() const {
  if (pid_ > 0 && hello_.has_value()) return true;
  if (argv_.empty()) {
    start_error_ = "no adapter command";
    return false;
  }
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    start_error_ = absl::StrCat("socketpair: ", std::strerror(errno));
    return false;
  }
  std::vector<char*> args;
  for (const std::string& a : argv_) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // The parent's death signal is sent when the forking *thread* ends: asked for only from the
  // main thread, which ends with the process (a lane thread may end while its adapter is still
  // wanted; there the process-tree sweeps and a worker's keeper see to the adapter).
  const pid_t parent = getpid();
  const bool from_main_thread = gettid() == parent;
  const pid_t pid = fork();
  if (pid < 0) {
    close(sv[0]);
    close(sv[1]);
    start_error_ = absl::StrCat("fork: ", std::strerror(errno));
    return false;
  }
  if (pid == 0) {
    // Child: dies with dmconf, kill -9 included (in a worker, its keeper sees to that);
    // the socket becomes stdin and stdout (dup2 clears close-on-exec).
    if (from_main_thread && !AskParentDeathSignal(parent, SIGKILL)) _exit(127);
    dup2(sv[1], 0);
    dup2(sv[1], 1);
    execvp(args[0], args.data());
    const char msg[] = "dmconf subprocess adapter: exec failed\n";
    (void)!write(2, msg, sizeof(msg) - 1);
    _exit(127);
  }
  close(sv[1]);
  pid_ = pid;
  RegisterOwnChild(pid);  // not a stray to the process-tree sweeps (harness/isolation)
  fd_ = sv[0];
  const std::string command = absl::StrJoin(argv_, " ");
  if (!WriteLine(subprocess::EncodeHelloRequest())) {
    start_error_ = absl::StrCat("could not greet '", command, "'");
    Stop();
    return false;
  }
  bool timed_out = false;
  std::optional<std::string> line = ReadLine(options_.timeout_ms, &timed_out);
  if (!line.has_value()) {
    start_error_ = absl::StrCat("'", command, "' ",
                                timed_out ? "did not answer hello in time" : DeathMessage(),
                                " before answering hello");
    Stop();
    return false;
  }
  absl::StatusOr<subprocess::Hello> hello = subprocess::DecodeHelloResponse(*line);
  if (!hello.ok()) {
    start_error_ = absl::StrCat("'", command, "': ", hello.status().message());
    Stop();
    return false;
  }
  hello_ = std::move(*hello);
  start_error_.clear();
  return true;
}

Capabilities SubprocessBackend::GetCapabilities() const {
  if (!hello_.has_value()) EnsureStarted();
  return hello_.has_value() ? hello_->capabilities : Capabilities{};
}

std::string SubprocessBackend::Describe() const {
  if (!hello_.has_value() && !EnsureStarted()) return start_error_;
  return absl::StrCat(hello_->name, " ", hello_->version);
}

std::optional<std::string> SubprocessBackend::Exchange(const std::string& request,
                                                       RunOutcome* failure) {
  if (!EnsureStarted()) {
    *failure = RunOutcome::Of(RunOutcome::Kind::kUnsupported,
                              absl::StrCat("adapter not available: ", start_error_));
    return std::nullopt;
  }
  if (!WriteLine(request)) {
    const std::string how = DeathMessage();
    Stop();
    *failure =
        RunOutcome::Of(RunOutcome::Kind::kCrash, absl::StrCat("subprocess.died: adapter ", how));
    return std::nullopt;
  }
  bool timed_out = false;
  std::optional<std::string> line = ReadLine(options_.timeout_ms, &timed_out);
  if (!line.has_value()) {
    // The adapter process is the backend: its death or silence is a crash or a hang of the
    // case, never a refusal (a must_reject case must not pass because the adapter died).
    if (timed_out) {
      Stop();
      *failure = RunOutcome::Of(
          RunOutcome::Kind::kHang,
          absl::StrCat("subprocess.timeout: no response within ", options_.timeout_ms, " ms"));
      return std::nullopt;
    }
    const std::string how = DeathMessage();
    Stop();
    *failure =
        RunOutcome::Of(RunOutcome::Kind::kCrash, absl::StrCat("subprocess.died: adapter ", how));
    return std::nullopt;
  }
  return line;
}

RunOutcome SubprocessBackend::Run(const OpCase& c) {
  RunOutcome failure;
  std::optional<std::string> line = Exchange(subprocess::EncodeRunRequest(c), &failure);
  if (!line.has_value()) return failure;
  absl::StatusOr<RunOutcome> r = subprocess::DecodeRunResponse(*line, c.id);
  if (!r.ok()) {
    Stop();  // the stream can no longer be trusted
    // A broken response is the adapter's fault, not the library's refusal.
    return RunOutcome::Of(RunOutcome::Kind::kHarnessError, std::string(r.status().message()));
  }
  return *std::move(r);
}

ShapeOutcome SubprocessBackend::Infer(const PartialCase& c, bool partial) {
  ShapeOutcome out;
  const bool declared = partial ? GetCapabilities().infer_partial : GetCapabilities().infer_static;
  if (!declared) {
    out.kind = ShapeOutcome::Kind::kUnsupported;
    out.message = "the adapter does not declare this entry (dmconf-subprocess/2)";
    return out;
  }
  const std::string id = absl::StrCat("shape-", ++shape_requests_);
  RunOutcome failure;
  std::optional<std::string> line =
      Exchange(subprocess::EncodeShapeRequest(id, partial, c), &failure);
  if (!line.has_value()) {
    out.kind = failure.kind;
    out.message = failure.message;
    return out;
  }
  absl::StatusOr<ShapeOutcome> r = subprocess::DecodeShapeResponse(*line, id);
  if (!r.ok()) {
    Stop();
    out.kind = ShapeOutcome::Kind::kHarnessError;
    out.message = std::string(r.status().message());
    return out;
  }
  return *std::move(r);
}

ShapeOutcome SubprocessBackend::InferStatic(const PartialCase& c) { return Infer(c, false); }
ShapeOutcome SubprocessBackend::InferPartial(const PartialCase& c) { return Infer(c, true); }

}  // namespace dmconf
