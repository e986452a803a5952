// A Backend that runs an adapter process speaking dmconf-subprocess/1 (protocol.h,
// docs/subprocess-protocol.md): any non-C++ backend (Python, JavaScript, ...) plugs in this way.
//
// The process is started on first use (GetCapabilities or Run), greeted with "hello", and then
// serves one case per request over a Unix socket pair on its stdin/stdout; its stderr is
// inherited. If it cannot start or does not speak the protocol, the backend supports nothing and
// every Run() answers `unsupported` with the reason. The process is the backend, so its death
// is a crash of the case (RunOutcome::Kind::kCrash, "subprocess.died: ...") and no response
// within the timeout a hang (kHang, "subprocess.timeout: ..."), exactly as the worker isolation
// reports an in-process backend; a response that breaks the protocol is a harness error
// (kHarnessError, "subprocess.protocol: ..."). None of them is ever `rejected`, so a dying
// adapter cannot pass a must_reject case. The process is restarted for the next case.
//
// Example:
//   SubprocessBackend b("onnxruntime", {"node", "harness/backends/subprocess/node/adapter.js",
//                                        "onnxruntime"});
//   RunOutcome r = b.Run(c);
#ifndef DMCONF_HARNESS_BACKENDS_SUBPROCESS_SUBPROCESS_BACKEND_H_
#define DMCONF_HARNESS_BACKENDS_SUBPROCESS_SUBPROCESS_BACKEND_H_

#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/backends/subprocess/protocol.h"

namespace dmconf {

class SubprocessBackend : public Backend {
 public:
  struct Options {
    int timeout_ms = 120000;  // per response, hello included
  };
  SubprocessBackend(std::string name, std::vector<std::string> argv);
  SubprocessBackend(std::string name, std::vector<std::string> argv, Options options);
  ~SubprocessBackend() override;
  SubprocessBackend(const SubprocessBackend&) = delete;
  SubprocessBackend& operator=(const SubprocessBackend&) = delete;

  std::string Name() const override { return name_; }
  Capabilities GetCapabilities() const override;
  RunOutcome Run(const OpCase& c) override;
  // dmconf-subprocess/2 adapters that declare infer_static / infer_partial in their hello.
  ShapeOutcome InferStatic(const PartialCase& c) override;
  ShapeOutcome InferPartial(const PartialCase& c) override;

  // The adapter's hello (name, version), or why it could not be started.
  std::string Describe() const;

 private:
  // Writes one request and reads its response line; on the adapter's death, silence or
  // absence, nullopt with `failure` saying which (crash, hang, unsupported).
  std::optional<std::string> Exchange(const std::string& request, RunOutcome* failure);
  ShapeOutcome Infer(const PartialCase& c, bool partial);
  int64_t shape_requests_ = 0;
  bool EnsureStarted() const;  // starts and greets the process; false sets start_error_
  void Stop() const;           // kills and reaps the process
  bool WriteLine(const std::string& line) const;
  // Reads one line; std::nullopt on EOF or timeout (timed_out set).
  std::optional<std::string> ReadLine(int timeout_ms, bool* timed_out) const;
  std::string DeathMessage() const;

  std::string name_;
  std::vector<std::string> argv_;
  Options options_;
  // Process state; mutable because capabilities are learned lazily in a const method.
  mutable pid_t pid_ = -1;
  mutable int fd_ = -1;
  mutable std::string buffer_;
  mutable std::optional<subprocess::Hello> hello_;
  mutable std::string start_error_;
};

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BACKENDS_SUBPROCESS_SUBPROCESS_BACKEND_H_
