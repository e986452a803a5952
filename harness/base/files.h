// The one home of dmconf's file writing and reading: atomic whole-file writes that refuse
// targets that are not regular files, `mkdir -p`, and whole-file reads with a size limit.
//
// Write policy (docs/bad-input.md, "Files dmconf writes"):
// - The contents go to an anonymous temporary file (O_TMPFILE) in the target's folder, or,
//   where the file system has no O_TMPFILE, to a named temporary `.<name>.dmconf-tmp.<pid>.<n>`
//   there; the temporary is flushed (fsync) and renamed over the target. A reader, or a run
//   killed at any moment, sees the previous file or the complete new one, never a partial one.
// - A named temporary left behind by a writer that was killed (kill -9) is removed by the next
//   write of the same target once the process that made it is gone.
// - The target must be a regular file or not exist yet. A device, FIFO, socket or directory is
//   refused (`io.write.not_regular`) and left untouched.
// - A symbolic link is followed to the file it finally points to; that file is replaced (its
//   temporary is made beside it) and the link itself is kept. A link to a non-regular file is
//   refused like the file itself; a loop (more than 40 links) is `io.write.symlink_loop`.
// - A replaced file keeps its owner, group and mode (the temporary is given them before the
//   rename); a new file gets 0644 less the umask. A file whose mode gives no write permission
//   to the writer is refused (`io.write.read_only`), not replaced: the class of bits that
//   applies is the owner's when the process is the owner or root (root is held to the owner's
//   bits, not to access(), which lets root write anything), else the group's when it is in the
//   file's group, else the others'. A file of another owner that the process may write but
//   cannot give back to that owner (fchown, EPERM) is refused too (`io.write.owner`).
// - A write given its reader's limit (WriteLimit) is refused when the contents exceed it
//   (`io.write.too_large`), before the rename: dmconf never writes a file its own reader
//   refuses (io.read.too_large).
// - Any failure (ENOSPC, EACCES, EFBIG, a disk that fills while writing) returns an `io.write`
//   error and leaves no temporary file behind.
//
// Example:
//   absl::Status ok = CheckWriteTarget("reports/out/report.json");   // before a long run
//   absl::Status s = WriteFileAtomically("reports/out/report.json", text);
//   absl::StatusOr<std::string> back = ReadFileToString("reports/out/report.json", 1 << 20);
#ifndef DMCONF_HARNESS_BASE_ATOMIC_FILE_H_
#define DMCONF_HARNESS_BASE_ATOMIC_FILE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dmconf::io {

// The one check that an output path was given: every writer and folder maker below calls it,
// so `--out ""` can never become "/" (""+"/"+name). Error: "io.path.empty: the <what> path is
// empty; ...".
absl::Status CheckPathGiven(const std::string& path, absl::string_view what);

// The size limit of the reader of a file being written: its bytes at most, and what reads it,
// for the message ("an expectations file"). max_bytes < 0: no limit.
struct WriteLimit {
  int64_t max_bytes = -1;
  absl::string_view reader;
};

// Writes `contents` to `path` atomically (policy above). Creates no folders.
// Errors: "io.path.empty", "io.write.not_regular: <path>: is a <kind>; ...",
// "io.write.symlink_loop: <path>: ...", "io.write.read_only: ...", "io.write.owner: ...",
// "io.write.dangling_link: ...", "io.write.too_large: <path>: N bytes, above the M bytes
// <reader> may have; not written", "io.write: <path>: <step>: <reason>".
absl::Status WriteFileAtomically(const std::string& path, absl::string_view contents,
                                 WriteLimit limit = {});

// The same write, piece by piece, for a file too large to hold in memory (a report of 10^7
// cases): Open makes the temporary (the checks and errors of WriteFileAtomically), Append adds
// bytes (buffered; the first error is kept and returned by Commit), Commit flushes and renames
// the complete file over the target. A writer destroyed without Commit leaves the target as it
// was and removes its temporary.
//   absl::StatusOr<AtomicFileWriter> w = AtomicFileWriter::Open("reports/out/report.json");
//   w->Append("{");  ...  absl::Status s = w->Commit();
// With a WriteLimit, Append stops at the limit and Commit returns io.write.too_large.
class AtomicFileWriter {
 public:
  static absl::StatusOr<AtomicFileWriter> Open(const std::string& path, WriteLimit limit = {});
  AtomicFileWriter(AtomicFileWriter&& o) noexcept;
  AtomicFileWriter& operator=(AtomicFileWriter&& o) noexcept;
  ~AtomicFileWriter();
  void Append(absl::string_view chunk);
  absl::Status Commit();

 private:
  static constexpr size_t kBufferBytes = size_t{1} << 20;
  AtomicFileWriter() = default;
  void Flush();
  void Abandon();
  std::string path_, target_;
  std::string tmp_;  // the named temporary, once there is one
  std::string buffer_;
  absl::Status status_;
  int fd_ = -1;
  int64_t written_ = 0;  // bytes appended
  int64_t max_bytes_ = -1;
  std::string reader_;
};

// The checks WriteFileAtomically makes before writing, without writing: for refusing a bad
// report path before a run starts (every output of a run is checked so: --report, --junit,
// --html, --update-expectations, a statement). Also refuses a target whose folder exists as a
// non-folder, a read-only target (io.write.read_only, the policy above), a link whose target's
// folder is missing (io.write.dangling_link: dmconf makes the folders of the paths it is given,
// never those of a link's target), and a missing folder that cannot be made (io.mkdir, as
// CheckDirectoryTarget).
absl::Status CheckWriteTarget(const std::string& path);

// Whether `dir` is, or could be made as, a folder this process can write into, without making
// it: the path or its nearest existing ancestor must be a directory with write and search
// permission. For refusing a bad --failures folder once, before a run, rather than once per
// failing case. Errors: "io.mkdir: <dir>: <reason>".
absl::Status CheckDirectoryTarget(const std::string& dir);

// mkdir -p (std::filesystem::create_directories). Errors: "io.path.empty" for "",
// "io.mkdir: <path>: <reason>".
absl::Status CreateDirectories(const std::string& path);
// CreateDirectories of the folder that holds `path`, when it names one; "io.path.empty" for "".
absl::Status CreateParentDirectories(const std::string& path);

// Removes an output file a command is about to replace or failed to write as part of a set
// (dmconf certify's statement): a regular file, or a symbolic link itself (never its target);
// a missing one is fine. Anything else is left alone: "io.remove: <path>: is a <kind>; ...".
absl::Status RemoveFileIfPresent(const std::string& path);

// Reads a whole regular file. A file larger than `max_bytes` is refused by its size (stat)
// before anything is read. Errors: "io.read: <path>: <reason>" (missing, a directory or another
// non-regular file, a read error), "io.read.too_large: <path>: ..." above max_bytes.
// A FIFO, device or socket is refused by stat before it is opened (a reader never blocks).
absl::StatusOr<std::string> ReadFileToString(const std::string& path, int64_t max_bytes);
// The checks of ReadFileToString without reading, by stat alone (the file is never opened): for
// a file another program will read (`dmconf vectors run-onnx` checks each file its ONNX runtime
// reads). Errors: the same io.read / io.read.too_large.
absl::Status CheckReadableFile(const std::string& path, int64_t max_bytes);
// The first `n` bytes (fewer when the file is shorter) of a regular file, with the same checks
// (for sniffing a file's format).
absl::StatusOr<std::string> ReadFileHead(const std::string& path, int64_t n);

// A regular file read piece by piece (up to 1 MiB at a time), with the checks and errors of
// ReadFileToString: for a reader whose memory must not grow with the file.
//
// Example:
//   absl::StatusOr<FileChunks> f = FileChunks::Open(path, int64_t{4} << 30);
//   for (absl::StatusOr<absl::string_view> c = f->Next(); c.ok() && !c->empty(); c = f->Next())
class FileChunks {
 public:
  static absl::StatusOr<FileChunks> Open(const std::string& path, int64_t max_bytes);
  FileChunks(FileChunks&& o) noexcept;
  FileChunks& operator=(FileChunks&&) = delete;
  FileChunks(const FileChunks&) = delete;
  ~FileChunks();
  // The next piece; empty at the end of the file. io.read / io.read.too_large errors.
  absl::StatusOr<absl::string_view> Next();

 private:
  FileChunks(int fd, std::string path, int64_t max_bytes);
  int fd_ = -1;
  std::string path_;
  int64_t max_bytes_ = 0, read_ = 0;
  std::string buffer_;
};

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_BASE_ATOMIC_FILE_H_
