#include "harness/base/files.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace dmconf::io {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxSymlinkHops = 40;  // Linux's own limit (MAXSYMLINKS)
constexpr absl::string_view kTmpInfix = ".dmconf-tmp.";

absl::Status Errno(absl::string_view rule, const std::string& path, absl::string_view step,
                   int err) {
  return absl::UnavailableError(absl::StrCat(rule, ": ", path, ": ", step, ": ", strerror(err)));
}

const char* KindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISREG(mode)) return "a regular file";
  return "not a regular file";
}

absl::Status NotRegular(const std::string& path, mode_t mode, const std::string& resolved) {
  return absl::FailedPreconditionError(absl::StrCat(
      "io.write.not_regular: ", path, resolved == path ? "" : absl::StrCat(" (-> ", resolved, ")"),
      ": is ", KindOf(mode), "; dmconf writes only regular files and leaves this one untouched"));
}

bool InGroup(gid_t gid) {
  if (getegid() == gid) return true;
  gid_t groups[256];
  const int n = getgroups(256, groups);
  return std::find(groups, groups + std::max(n, 0), gid) != groups + std::max(n, 0);
}

// Whether the write bit of `st` that applies to this process is set (policy in the header:
// root is held to the owner's bits).
bool ModeLetsUsWrite(const struct stat& st) {
  const uid_t me = geteuid();
  if (me == 0 || me == st.st_uid) return (st.st_mode & S_IWUSR) != 0;
  if (InGroup(st.st_gid)) return (st.st_mode & S_IWGRP) != 0;
  return (st.st_mode & S_IWOTH) != 0;
}

absl::Status ReadOnly(const std::string& path, const struct stat& st, const std::string& target) {
  return absl::PermissionDeniedError(absl::StrFormat(
      "io.write.read_only: %s%s: its mode %04o gives no write permission to %s; dmconf does not "
      "replace a read-only file (make it writable to allow it: chmod u+w)",
      path, target == path ? "" : absl::StrCat(" (-> ", target, ")"), st.st_mode & 07777,
      geteuid() == 0 || geteuid() == st.st_uid ? "its owner" : "this user"));
}

// The file at `fd` given the owner, group and mode of the file `old` it replaces.
absl::Status KeepOwnerAndMode(int fd, const struct stat& old, const std::string& path) {
  struct stat now;
  if (fstat(fd, &now) != 0) return Errno("io.write", path, "stat temporary file", errno);
  if ((now.st_uid != old.st_uid || now.st_gid != old.st_gid) &&
      fchown(fd, old.st_uid, old.st_gid) != 0) {
    if (errno == EPERM) {
      return absl::PermissionDeniedError(absl::StrCat(
          "io.write.owner: ", path, ": owned by uid ", old.st_uid, " gid ", old.st_gid,
          "; its replacement could not keep that owner (no permission to give it away); not "
          "replaced"));
    }
    return Errno("io.write", path, "chown temporary file", errno);
  }
  if (fchmod(fd, old.st_mode & 07777) != 0) {
    return Errno("io.write", path, "chmod temporary file", errno);
  }
  return absl::OkStatus();
}

absl::Status TooLarge(const std::string& path, int64_t bytes, int64_t max_bytes,
                      absl::string_view reader) {
  return absl::ResourceExhaustedError(absl::StrCat(
      "io.write.too_large: ", path, ": ", bytes, " bytes, above the ", max_bytes, " bytes ",
      reader.empty() ? "its reader accepts" : absl::StrCat(reader, " may have"),
      " (read back, it would be refused: io.read.too_large); not written, the file on disk is "
      "kept"));
}

// Follows symbolic links from `path` to the name that will be replaced (policy in the header).
absl::StatusOr<std::string> ResolveTarget(const std::string& path) {
  std::string current = path;
  for (int hop = 0; hop <= kMaxSymlinkHops; ++hop) {
    struct stat st;
    if (lstat(current.c_str(), &st) != 0) {
      if (errno == ENOENT) return current;  // created by the write
      return Errno("io.write", path, "stat", errno);
    }
    if (S_ISREG(st.st_mode)) return current;
    if (!S_ISLNK(st.st_mode)) return NotRegular(path, st.st_mode, current);
    std::error_code ec;
    const fs::path link = fs::read_symlink(current, ec);
    if (ec) return Errno("io.write", path, "readlink", ec.value());
    current = link.is_absolute()
                  ? link.string()
                  : (fs::path(current).parent_path() / link).lexically_normal().string();
  }
  return absl::FailedPreconditionError(absl::StrCat("io.write.symlink_loop: ", path, ": more than ",
                                                    kMaxSymlinkHops, " symbolic links"));
}

std::string FolderOf(const std::string& target) {
  const fs::path parent = fs::path(target).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

// Named temporaries are `.<name>.dmconf-tmp.<pid>.<n>` beside the target.
std::string TmpPrefix(const std::string& target) {
  return absl::StrCat(".", fs::path(target).filename().string(), kTmpInfix);
}

bool ProcessGone(pid_t pid) { return kill(pid, 0) != 0 && errno == ESRCH; }

// Removes named temporaries of `target` whose writing process no longer exists (a writer
// killed with SIGKILL cannot clean up after itself).
void RemoveStaleTemporaries(const std::string& target) {
  const std::string folder = FolderOf(target);
  const std::string prefix = TmpPrefix(target);
  DIR* dir = opendir(folder.c_str());
  if (dir == nullptr) return;
  while (const dirent* e = readdir(dir)) {
    const absl::string_view name = e->d_name;
    if (!absl::StartsWith(name, prefix)) continue;
    const absl::string_view rest = name.substr(prefix.size());
    const size_t dot = rest.find('.');
    int64_t pid = 0;
    if (dot == absl::string_view::npos || !absl::SimpleAtoi(rest.substr(0, dot), &pid) ||
        pid <= 0 || pid == getpid() || !ProcessGone(static_cast<pid_t>(pid))) {
      continue;
    }
    const std::string stale = absl::StrCat(folder, "/", name);
    struct stat st;
    if (lstat(stale.c_str(), &st) == 0 && S_ISREG(st.st_mode)) unlink(stale.c_str());
  }
  closedir(dir);
}

absl::Status WriteAll(int fd, absl::string_view contents, const std::string& path) {
  const char* p = contents.data();
  size_t left = contents.size();
  while (left > 0) {
    const ssize_t n = write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Errno("io.write", path, "write", errno);
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

std::string NextTmpName(const std::string& target) {
  static std::atomic<uint64_t> counter{0};
  return absl::StrCat(FolderOf(target), "/", TmpPrefix(target), getpid(), ".", counter++);
}

// Renames `tmp` over `target` after checking once more that the target did not become a
// non-regular file meanwhile; removes `tmp` on failure.
absl::Status Publish(const std::string& tmp, const std::string& target, const std::string& path) {
  struct stat st;
  if (lstat(target.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    unlink(tmp.c_str());
    return NotRegular(path, st.st_mode, target);
  }
  if (rename(tmp.c_str(), target.c_str()) != 0) {
    const int err = errno;
    unlink(tmp.c_str());
    return Errno("io.write", path, "rename", err);
  }
  return absl::OkStatus();
}

// O_TMPFILE: the data never has a name until it is complete. -1 with errno when the file
// system does not allow it.
int OpenAnonymous(const std::string& target) {
#ifdef O_TMPFILE
  return open(FolderOf(target).c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
#else
  (void)target;
  errno = EOPNOTSUPP;
  return -1;
#endif
}

bool NoAnonymousFiles(int err) {
  return err == EOPNOTSUPP || err == EISDIR || err == EINVAL || err == ENOENT;
}

// Where an anonymous file cannot be given a name (no /proc, a file system without linkat of
// O_TMPFILE): its bytes copied to a new named temporary `tmp`, flushed.
absl::Status CopyToNamed(int from, const std::string& tmp, const std::string& path) {
  const int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return Errno("io.write", path, "create temporary file", errno);
  std::string block(1 << 20, '\0');
  absl::Status s;
  struct stat from_st;
  if (fstat(from, &from_st) != 0) {
    s = Errno("io.write", path, "stat temporary file", errno);
  } else {
    s = KeepOwnerAndMode(fd, from_st, path);  // the anonymous file's, already the target's
  }
  for (off_t at = 0; s.ok();) {
    const ssize_t n = pread(from, block.data(), block.size(), at);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) s = Errno("io.write", path, "read temporary file", errno);
    if (n <= 0) break;
    s = WriteAll(fd, absl::string_view(block.data(), static_cast<size_t>(n)), path);
    at += n;
  }
  if (s.ok() && fsync(fd) != 0) s = Errno("io.write", path, "fsync", errno);
  if (close(fd) != 0 && s.ok()) s = Errno("io.write", path, "close", errno);
  if (!s.ok()) unlink(tmp.c_str());
  return s;
}

}  // namespace

absl::Status CheckPathGiven(const std::string& path, absl::string_view what) {
  if (!path.empty()) return absl::OkStatus();
  // An empty folder path would put "<out>/<name>" at "/<name>": refused, never taken as "/"
  // or ".".
  return absl::InvalidArgumentError(
      absl::StrCat("io.path.empty: the ", what, " path is empty; give a file or folder name"));
}

absl::Status CheckWriteTarget(const std::string& path) {
  if (absl::Status given = CheckPathGiven(path, "output file"); !given.ok()) return given;
  absl::StatusOr<std::string> target = ResolveTarget(path);
  if (!target.ok()) return target.status();
  struct stat st;
  if (stat(target->c_str(), &st) == 0 && S_ISREG(st.st_mode) && !ModeLetsUsWrite(st)) {
    return ReadOnly(path, st, *target);
  }
  std::error_code ec;
  const fs::path folder = fs::path(*target).parent_path();
  if (folder.empty()) return absl::OkStatus();
  if (fs::exists(folder, ec)) {
    // A folder that exists but is not a folder cannot hold the file.
    if (!fs::is_directory(folder, ec)) {
      return absl::FailedPreconditionError(
          absl::StrCat("io.write: ", path, ": ", folder.string(), " is not a directory"));
    }
    return absl::OkStatus();
  }
  if (*target != path) {
    return absl::FailedPreconditionError(absl::StrCat(
        "io.write.dangling_link: ", path, " -> ", *target, ": the folder ", folder.string(),
        " does not exist; dmconf makes the folders of the paths it is given, never those of a "
        "link's target"));
  }
  return CheckDirectoryTarget(folder.string());
}

absl::StatusOr<AtomicFileWriter> AtomicFileWriter::Open(const std::string& path, WriteLimit limit) {
  absl::Status check = CheckWriteTarget(path);
  if (!check.ok()) return check;
  absl::StatusOr<std::string> target = ResolveTarget(path);
  if (!target.ok()) return target.status();
  RemoveStaleTemporaries(*target);
  AtomicFileWriter w;
  w.path_ = path;
  w.target_ = *target;
  w.max_bytes_ = limit.max_bytes;
  w.reader_ = std::string(limit.reader);
  w.fd_ = OpenAnonymous(*target);
  if (w.fd_ < 0 && !NoAnonymousFiles(errno)) {
    return Errno("io.write", path, "create temporary file", errno);
  }
  if (w.fd_ < 0) {
    w.tmp_ = NextTmpName(*target);
    w.fd_ = open(w.tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (w.fd_ < 0) return Errno("io.write", path, "create temporary file", errno);
  }
  // A replaced file keeps its owner and mode: the temporary gets them now, before any byte.
  struct stat old;
  if (stat(target->c_str(), &old) == 0 && S_ISREG(old.st_mode)) {
    if (absl::Status kept = KeepOwnerAndMode(w.fd_, old, path); !kept.ok()) return kept;
  }
  return w;
}

AtomicFileWriter::AtomicFileWriter(AtomicFileWriter&& o) noexcept { *this = std::move(o); }

AtomicFileWriter& AtomicFileWriter::operator=(AtomicFileWriter&& o) noexcept {
  if (this != &o) {
    Abandon();
    path_ = std::move(o.path_);
    target_ = std::move(o.target_);
    tmp_ = std::move(o.tmp_);
    buffer_ = std::move(o.buffer_);
    status_ = std::move(o.status_);
    fd_ = o.fd_;
    written_ = o.written_;
    max_bytes_ = o.max_bytes_;
    reader_ = std::move(o.reader_);
    o.fd_ = -1;
    o.tmp_.clear();
  }
  return *this;
}

AtomicFileWriter::~AtomicFileWriter() { Abandon(); }

void AtomicFileWriter::Abandon() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  if (!tmp_.empty()) unlink(tmp_.c_str());
  tmp_.clear();
}

void AtomicFileWriter::Append(absl::string_view chunk) {
  // Past the reader's limit nothing more is written, only counted, for Commit's message.
  written_ += static_cast<int64_t>(chunk.size());
  if (max_bytes_ >= 0 && written_ > max_bytes_) return;
  if (!status_.ok() || fd_ < 0) return;
  if (buffer_.size() + chunk.size() < kBufferBytes) {
    buffer_.append(chunk.data(), chunk.size());
    return;
  }
  Flush();
  // A large chunk goes straight to the file: never a second copy of it in memory.
  if (status_.ok()) status_ = WriteAll(fd_, chunk, path_);
}

void AtomicFileWriter::Flush() {
  if (!status_.ok() || fd_ < 0) return;
  status_ = WriteAll(fd_, buffer_, path_);
  buffer_.clear();
}

absl::Status AtomicFileWriter::Commit() {
  if (fd_ < 0 && status_.ok()) status_ = absl::FailedPreconditionError("io.write: not open");
  if (status_.ok() && max_bytes_ >= 0 && written_ > max_bytes_) {
    status_ = TooLarge(path_, written_, max_bytes_, reader_);
  }
  Flush();
  // fsync before rename: after a power loss the new name must not point at empty data.
  if (status_.ok() && fsync(fd_) != 0) status_ = Errno("io.write", path_, "fsync", errno);
  if (status_.ok() && tmp_.empty()) {
    // The anonymous file gets its temporary name only now, complete.
    std::string tmp = NextTmpName(target_);
    const std::string proc = absl::StrCat("/proc/self/fd/", fd_);
    if (linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, tmp.c_str(), AT_SYMLINK_FOLLOW) != 0) {
      const int err = errno;
      if (err == ENOENT || err == EPERM || err == EXDEV || err == EOPNOTSUPP) {
        status_ = CopyToNamed(fd_, tmp, path_);
      } else {
        status_ = Errno("io.write", path_, "link temporary file", err);
      }
    }
    if (status_.ok()) tmp_ = std::move(tmp);
  }
  if (status_.ok() && close(fd_) != 0) status_ = Errno("io.write", path_, "close", errno);
  if (status_.ok()) fd_ = -1;
  if (!status_.ok()) {
    Abandon();
    return status_;
  }
  const std::string tmp = std::move(tmp_);
  tmp_.clear();
  status_ = Publish(tmp, target_, path_);
  return status_;
}

absl::Status WriteFileAtomically(const std::string& path, absl::string_view contents,
                                 WriteLimit limit) {
  if (limit.max_bytes >= 0 && static_cast<int64_t>(contents.size()) > limit.max_bytes) {
    return TooLarge(path, static_cast<int64_t>(contents.size()), limit.max_bytes, limit.reader);
  }
  absl::StatusOr<AtomicFileWriter> w = AtomicFileWriter::Open(path, limit);
  if (!w.ok()) return w.status();
  w->Append(contents);
  return w->Commit();
}

absl::Status CheckDirectoryTarget(const std::string& dir) {
  if (absl::Status given = CheckPathGiven(dir, "output folder"); !given.ok()) return given;
  // The nearest existing ancestor decides: every missing level below it can be made there.
  fs::path p = fs::path(dir).lexically_normal();
  if (p.is_relative()) p = fs::path(".") / p;
  while (true) {
    struct stat st;
    if (stat(p.c_str(), &st) == 0) {
      if (!S_ISDIR(st.st_mode)) {
        return absl::FailedPreconditionError(absl::StrCat(
            "io.mkdir: ", dir, ": ", p.string(), " is ", KindOf(st.st_mode), ", not a directory"));
      }
      if (access(p.c_str(), W_OK | X_OK) != 0) {
        return absl::PermissionDeniedError(absl::StrCat("io.mkdir: ", dir, ": cannot write in ",
                                                        p.string(), ": ", strerror(errno)));
      }
      return absl::OkStatus();
    }
    const int err = errno;
    struct stat link;
    if (err == ENOENT && lstat(p.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
      return absl::FailedPreconditionError(
          absl::StrCat("io.mkdir: ", dir, ": ", p.string(),
                       " is a symbolic link to a missing folder; dmconf makes the folders of the "
                       "paths it is given, never those of a link's target"));
    }
    // ENOTDIR: an ancestor is a file; going up names it.
    if (err != ENOENT && err != ENOTDIR) {
      return absl::FailedPreconditionError(
          absl::StrCat("io.mkdir: ", dir, ": ", p.string(), ": ", strerror(err)));
    }
    if (!p.has_parent_path() || p.parent_path() == p) {
      return absl::NotFoundError(absl::StrCat("io.mkdir: ", dir, ": no existing ancestor"));
    }
    p = p.parent_path();
  }
}

absl::Status CreateDirectories(const std::string& path) {
  if (absl::Status given = CheckPathGiven(path, "output folder"); !given.ok()) return given;
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec) return absl::UnavailableError(absl::StrCat("io.mkdir: ", path, ": ", ec.message()));
  if (!fs::is_directory(path, ec)) {
    return absl::FailedPreconditionError(absl::StrCat("io.mkdir: ", path, ": not a directory"));
  }
  return absl::OkStatus();
}

absl::Status CreateParentDirectories(const std::string& path) {
  if (absl::Status given = CheckPathGiven(path, "output file"); !given.ok()) return given;
  const std::string parent = fs::path(path).parent_path().string();
  if (parent.empty()) return absl::OkStatus();  // a name in the current folder
  return CreateDirectories(parent);
}

absl::Status RemoveFileIfPresent(const std::string& path) {
  if (absl::Status given = CheckPathGiven(path, "output file"); !given.ok()) return given;
  struct stat st;
  if (lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return absl::OkStatus();
    return Errno("io.remove", path, "stat", errno);
  }
  if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "io.remove: ", path, ": is ", KindOf(st.st_mode), "; dmconf removes only files it writes"));
  }
  if (unlink(path.c_str()) != 0 && errno != ENOENT)
    return Errno("io.remove", path, "unlink", errno);
  return absl::OkStatus();
}

namespace {

// The status of a regular file (links followed) in `st`: io.read for a missing file or anything
// else (a FIFO, a device, a socket, a folder).
absl::Status StatRegular(const std::string& path, struct stat* st) {
  if (stat(path.c_str(), st) != 0) {
    return absl::NotFoundError(absl::StrCat("io.read: ", path, ": ", strerror(errno)));
  }
  if (!S_ISREG(st->st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat("io.read: ", path, ": is ", KindOf(st->st_mode), ", not a regular file"));
  }
  return absl::OkStatus();
}

// Opens a regular file for reading, refusing by stat before open anything else: a FIFO, a
// device or a socket is never opened (opening a FIFO waits for a writer). O_NONBLOCK: should
// the name have become a FIFO since the stat, open() must not wait either. Fills `st`.
absl::StatusOr<int> OpenRegular(const std::string& path, struct stat* st) {
  if (absl::Status s = StatRegular(path, st); !s.ok()) return s;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return absl::NotFoundError(absl::StrCat("io.read: ", path, ": ", strerror(errno)));
  if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
    close(fd);
    return absl::InvalidArgumentError(absl::StrCat("io.read: ", path, ": not a regular file"));
  }
  return fd;
}

// Reads from fd into out until end of file or `stop` bytes; false on a read error (errno).
bool ReadUpTo(int fd, int64_t stop, std::string* out) {
  char buf[65536];
  while (static_cast<int64_t>(out->size()) < stop) {
    const size_t want = static_cast<size_t>(
        std::min<int64_t>(sizeof buf, stop - static_cast<int64_t>(out->size())));
    const ssize_t n = read(fd, buf, want);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (n == 0) break;
    out->append(buf, static_cast<size_t>(n));
  }
  return true;
}

// A file of `size` bytes, above `max_bytes`: io.read.too_large.
absl::Status SizeAboveLimit(const std::string& path, int64_t size, int64_t max_bytes) {
  return absl::ResourceExhaustedError(absl::StrCat(
      "io.read.too_large: ", path, ": ", size, " bytes, above the limit of ", max_bytes, " bytes"));
}

// OpenRegular, refused (io.read.too_large, the descriptor closed) when the file is larger than
// max_bytes; st holds its status.
absl::StatusOr<int> OpenBounded(const std::string& path, int64_t max_bytes, struct stat* st) {
  absl::StatusOr<int> fd = OpenRegular(path, st);
  if (!fd.ok()) return fd.status();
  if (st->st_size > max_bytes) {
    close(*fd);
    return SizeAboveLimit(path, st->st_size, max_bytes);
  }
  return fd;
}

}  // namespace

absl::Status CheckReadableFile(const std::string& path, int64_t max_bytes) {
  struct stat st {};
  if (absl::Status s = StatRegular(path, &st); !s.ok()) return s;
  if (st.st_size > max_bytes) return SizeAboveLimit(path, st.st_size, max_bytes);
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReadFileToString(const std::string& path, int64_t max_bytes) {
  struct stat st;
  absl::StatusOr<int> fd = OpenBounded(path, max_bytes, &st);
  if (!fd.ok()) return fd.status();
  std::string out;
  out.reserve(static_cast<size_t>(st.st_size));
  // One byte past the limit: the file may grow while it is read, and the limit holds for what
  // is read too.
  const bool ok = ReadUpTo(*fd, max_bytes + 1, &out);
  const int err = errno;
  close(*fd);
  if (!ok) return absl::DataLossError(absl::StrCat("io.read: ", path, ": ", strerror(err)));
  if (static_cast<int64_t>(out.size()) > max_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "io.read.too_large: ", path, ": larger than the limit of ", max_bytes, " bytes"));
  }
  return out;
}

absl::StatusOr<FileChunks> FileChunks::Open(const std::string& path, int64_t max_bytes) {
  struct stat st;
  absl::StatusOr<int> fd = OpenBounded(path, max_bytes, &st);
  if (!fd.ok()) return fd.status();
  return FileChunks(*fd, path, max_bytes);
}

FileChunks::FileChunks(int fd, std::string path, int64_t max_bytes)
    : fd_(fd), path_(std::move(path)), max_bytes_(max_bytes) {}

FileChunks::FileChunks(FileChunks&& o) noexcept
    : fd_(o.fd_), path_(std::move(o.path_)), max_bytes_(o.max_bytes_), read_(o.read_) {
  o.fd_ = -1;
}

FileChunks::~FileChunks() {
  if (fd_ >= 0) close(fd_);
}

absl::StatusOr<absl::string_view> FileChunks::Next() {
  constexpr size_t kPiece = size_t{1} << 20;
  buffer_.resize(kPiece);
  for (;;) {
    const ssize_t n = read(fd_, buffer_.data(), kPiece);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return absl::DataLossError(absl::StrCat("io.read: ", path_, ": ", strerror(errno)));
    read_ += n;
    // The file may grow while it is read: the limit holds for what is read too.
    if (read_ > max_bytes_) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "io.read.too_large: ", path_, ": larger than the limit of ", max_bytes_, " bytes"));
    }
    return absl::string_view(buffer_.data(), static_cast<size_t>(n));
  }
}

absl::StatusOr<std::string> ReadFileHead(const std::string& path, int64_t n) {
  struct stat st;
  absl::StatusOr<int> fd = OpenRegular(path, &st);
  if (!fd.ok()) return fd.status();
  std::string out;
  const bool ok = ReadUpTo(*fd, n, &out);
  const int err = errno;
  close(*fd);
  if (!ok) return absl::DataLossError(absl::StrCat("io.read: ", path, ": ", strerror(err)));
  return out;
}

}  // namespace dmconf::io
