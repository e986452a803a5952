// A temporary folder that does not outlive the command that made it, however the command ends:
// removed by the destructor on a normal return, and, should dmconf die first (SIGINT, SIGTERM,
// SIGHUP, even kill -9), by a watcher process, which also kills the process group of the child
// it was told about (`dmconf vectors run-onnx`'s ONNX runtime).
//
// Mechanism: Create() forks the watcher before it makes the folder. The watcher leads its own
// process group, ignores SIGINT, SIGTERM and SIGHUP (a Ctrl-C reaches dmconf's group, not it),
// holds no descriptor of dmconf's but its end of a socket pair whose only other end dmconf
// holds (close-on-exec: no child inherits it), and is registered as dmconf's own child
// (RegisterOwnChild), so the process-tree sweeps leave it alone. dmconf tells it the folder
// ("T<path>"), the child's group while it runs ("P<pgid>", then "D") and that the folder is
// gone ("C"). At end of file (dmconf closed its end, or the kernel did when dmconf died) it
// kills the group still named and removes the folder still named (/bin/rm -rf), then exits. Until
// then it only reads: after fork it makes async-signal-safe calls only.
//
// Example:
//   absl::StatusOr<std::unique_ptr<GuardedTempFolder>> t = GuardedTempFolder::Create("run-onnx");
//   // (*t)->path() is $TMPDIR/dmconf-run-onnx-XXXXXX (or /tmp/...), mode 0700
//   RunChild(argv, 60, on_line, [&](pid_t pid) { (*t)->ChildStarted(pid); });
//   (*t)->ChildDone();
#ifndef DMCONF_HARNESS_CLI_GUARDED_TEMP_FOLDER_H_
#define DMCONF_HARNESS_CLI_GUARDED_TEMP_FOLDER_H_

#include <sys/types.h>

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dmconf::cli {

class GuardedTempFolder {
 public:
  // $TMPDIR (or /tmp when unset or empty)/dmconf-<name>-XXXXXX. Errors: "cli.tmp: ...".
  static absl::StatusOr<std::unique_ptr<GuardedTempFolder>> Create(absl::string_view name);
  GuardedTempFolder(const GuardedTempFolder&) = delete;
  GuardedTempFolder& operator=(const GuardedTempFolder&) = delete;
  // Removes the folder, then lets the watcher go and reaps it.
  ~GuardedTempFolder();

  const std::string& path() const { return path_; }
  // The child whose process group the watcher kills if dmconf dies while it runs / it is reaped.
  void ChildStarted(pid_t pgid);
  void ChildDone();

 private:
  GuardedTempFolder(int socket, pid_t watcher) : socket_(socket), watcher_(watcher) {}
  void Tell(const std::string& message);
  int socket_ = -1;
  pid_t watcher_ = -1;
  std::string path_;
};

}  // namespace dmconf::cli

#endif  // DMCONF_HARNESS_CLI_GUARDED_TEMP_FOLDER_H_
