// A temporary folder removed however dmconf ends (guarded_temp_folder.h).
#include "harness/cli/guarded_temp_folder.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "harness/isolation/process_tree.h"

namespace dmconf::cli {
namespace {

constexpr size_t kMaxPath = 4096;

// The watcher, in the forked child: async-signal-safe calls only (the parent may have had other
// threads). Reads messages from descriptor `in` until end of file, then cleans up what it was
// last told about. Never returns.
[[noreturn]] void Watch(int in) {
  setpgid(0, 0);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) signal(sig, SIG_IGN);
  if (in != 0) {
    dup2(in, 0);
    close(in);
  }
  const int null = open("/dev/null", O_RDWR);
  if (null >= 0) {
    dup2(null, 1);
    dup2(null, 2);
  }
  close_range(3, ~0U, 0);
  char folder[kMaxPath + 1] = {};
  long group = 0;
  char line[kMaxPath + 2];
  size_t len = 0;
  bool overlong = false;
  char buf[512];
  for (;;) {
    const ssize_t n = read(0, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) {
      if (buf[i] != '\n') {
        if (len < sizeof line - 1) {
          line[len++] = buf[i];
        } else {
          overlong = true;
        }
        continue;
      }
      line[len] = '\0';
      if (overlong) {
        // Never from dmconf (paths are checked to fit); ignored rather than cut.
      } else if (line[0] == 'T') {
        size_t k = 0;
        for (; line[k + 1] != '\0' && k < kMaxPath; ++k) folder[k] = line[k + 1];
        folder[k] = '\0';
      } else if (line[0] == 'C') {
        folder[0] = '\0';
      } else if (line[0] == 'P') {
        group = 0;
        for (size_t k = 1; line[k] >= '0' && line[k] <= '9'; ++k)
          group = group * 10 + (line[k] - '0');
      } else if (line[0] == 'D') {
        group = 0;
      }
      len = 0;
      overlong = false;
    }
  }
  if (group > 1) kill(static_cast<pid_t>(-group), SIGKILL);
  if (folder[0] == '/') {
    char rm[] = "rm", rf[] = "-rf", dashes[] = "--";
    char* argv[] = {rm, rf, dashes, folder, nullptr};
    char* env[] = {nullptr};
    execve("/bin/rm", argv, env);
    execve("/usr/bin/rm", argv, env);
  }
  _exit(0);
}

}  // namespace

absl::StatusOr<std::unique_ptr<GuardedTempFolder>> GuardedTempFolder::Create(
    absl::string_view name) {
  const char* tmpdir = std::getenv("TMPDIR");
  std::string base = tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
  std::error_code ec;
  base = std::filesystem::absolute(base, ec).lexically_normal().string();
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  std::string templ = absl::StrCat(base, "/dmconf-", name, "-XXXXXX");
  if (templ.size() > kMaxPath) {
    return absl::InvalidArgumentError(
        absl::StrCat("cli.tmp: the temporary folder's path would be longer than ", kMaxPath,
                     " bytes ($TMPDIR is ", base, ")"));
  }
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    return absl::InternalError(absl::StrCat("cli.tmp: socketpair: ", std::strerror(errno)));
  }
  InstallProcessTreeGuards();
  const pid_t watcher = fork();
  if (watcher < 0) {
    close(sv[0]);
    close(sv[1]);
    return absl::InternalError(absl::StrCat("cli.tmp: fork: ", std::strerror(errno)));
  }
  if (watcher == 0) {
    close(sv[0]);
    Watch(sv[1]);
  }
  RegisterOwnChild(watcher);
  close(sv[1]);
  std::unique_ptr<GuardedTempFolder> t(new GuardedTempFolder(sv[0], watcher));
  if (mkdtemp(templ.data()) == nullptr) {
    return absl::InternalError(absl::StrCat("cli.tmp: cannot create a temporary folder ", templ,
                                            ": ", std::strerror(errno)));
  }
  t->path_ = templ;
  t->Tell(absl::StrCat("T", templ, "\n"));
  return t;
}

void GuardedTempFolder::Tell(const std::string& message) {
  // MSG_NOSIGNAL: a watcher that is gone must not take dmconf with it (SIGPIPE).
  for (size_t off = 0; off < message.size();) {
    const ssize_t n = send(socket_, message.data() + off, message.size() - off, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    off += static_cast<size_t>(n);
  }
}

void GuardedTempFolder::ChildStarted(pid_t pgid) { Tell(absl::StrCat("P", pgid, "\n")); }

void GuardedTempFolder::ChildDone() { Tell("D\n"); }

GuardedTempFolder::~GuardedTempFolder() {
  if (!path_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
    if (!ec) Tell("C\n");
  }
  close(socket_);
  while (waitpid(watcher_, nullptr, 0) < 0 && errno == EINTR) {
  }
  UnregisterOwnChild(watcher_);
}

}  // namespace dmconf::cli
