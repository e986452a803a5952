#include "harness/util/atomic_write.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace dmconf::util {
namespace {

absl::Status WriteError(const std::string& path, absl::string_view what) {
  return absl::InternalError(absl::StrCat("io.write: ", path, ": ", what, ": ", strerror(errno)));
}

}  // namespace

absl::Status WriteFileAtomic(const std::string& path, absl::string_view contents) {
  // The temporary lives in the target's directory so that rename() stays on one file system
  // (rename across file systems is not atomic). The pid keeps concurrent writers apart.
  const std::string tmp = absl::StrCat(path, ".tmp.", getpid());
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return WriteError(path, "cannot create temporary file");
  const char* p = contents.data();
  size_t left = contents.size();
  while (left > 0) {
    const ssize_t n = write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      absl::Status s = WriteError(path, "write failed");
      close(fd);
      unlink(tmp.c_str());
      return s;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  // fsync before rename: after a power loss the new name must not point at empty data.
  if (fsync(fd) != 0 || close(fd) != 0) {
    absl::Status s = WriteError(path, "flush failed");
    unlink(tmp.c_str());
    return s;
  }
  if (rename(tmp.c_str(), path.c_str()) != 0) {
    absl::Status s = WriteError(path, "rename failed");
    unlink(tmp.c_str());
    return s;
  }
  return absl::OkStatus();
}

absl::Status MakeDirectories(const std::string& path) {
  if (path.empty()) return absl::OkStatus();
  std::string prefix;
  size_t pos = 0;
  while (pos != std::string::npos) {
    pos = path.find('/', pos + 1);
    prefix = path.substr(0, pos);
    if (prefix.empty()) continue;
    if (mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST) {
      return absl::InternalError(absl::StrCat("io.mkdir: ", prefix, ": ", strerror(errno)));
    }
  }
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    return absl::InternalError(absl::StrCat("io.mkdir: ", path, ": not a directory"));
  }
  return absl::OkStatus();
}

}  // namespace dmconf::util
