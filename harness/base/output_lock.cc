#include "harness/base/output_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

#include "absl/strings/str_cat.h"

namespace dmconf::io {

namespace {

// The folder that holds `path` ("." for a bare name).
std::string FolderOf(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

struct Folder {
  dev_t dev;
  ino_t ino;
  int fd;
};

}  // namespace

absl::StatusOr<OutputLock> OutputLock::Take(const std::vector<std::string>& paths) {
  std::vector<Folder> folders;
  auto close_all = [&folders] {
    for (const Folder& f : folders) close(f.fd);
  };
  for (const std::string& path : paths) {
    if (path.empty()) continue;
    const std::string dir = FolderOf(path);
    const int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
      if (errno == EACCES) continue;  // a write-only folder: not locked (see the header)
      const int err = errno;
      close_all();
      return absl::FailedPreconditionError(absl::StrCat("io.lock: ", dir, ": ", strerror(err)));
    }
    struct stat st {};
    fstat(fd, &st);
    const bool seen = std::any_of(folders.begin(), folders.end(), [&st](const Folder& f) {
      return f.dev == st.st_dev && f.ino == st.st_ino;
    });
    if (seen) {
      close(fd);
    } else {
      folders.push_back({st.st_dev, st.st_ino, fd});
    }
  }
  // One order for every command: no two wait on each other.
  std::sort(folders.begin(), folders.end(), [](const Folder& a, const Folder& b) {
    return a.dev != b.dev ? a.dev < b.dev : a.ino < b.ino;
  });
  OutputLock lock;
  for (const Folder& f : folders) lock.fds_.push_back(f.fd);
  for (const Folder& f : folders) {
    int r;
    do {
      r = flock(f.fd, LOCK_EX);
    } while (r != 0 && errno == EINTR);
    if (r != 0) {
      return absl::FailedPreconditionError(
          absl::StrCat("io.lock: flock of an output folder failed: ", strerror(errno)));
    }
  }
  return lock;
}

OutputLock::OutputLock(OutputLock&& other) noexcept : fds_(std::move(other.fds_)) {
  other.fds_.clear();
}

OutputLock& OutputLock::operator=(OutputLock&& other) noexcept {
  if (this != &other) {
    Release();
    fds_ = std::move(other.fds_);
    other.fds_.clear();
  }
  return *this;
}

OutputLock::~OutputLock() { Release(); }

void OutputLock::Release() {
  for (int fd : fds_) close(fd);  // closing the last descriptor releases the flock
  fds_.clear();
}

}  // namespace dmconf::io
