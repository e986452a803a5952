// One lock for the set of outputs a command writes together (a run's --report, --junit and
// --html; a merge's -o and --junit): concurrent commands on the same paths never mix their
// outputs (docs/bad-input.md, "Files dmconf writes").
//
// Each file is already replaced whole (WriteFileAtomically); what the lock adds is that the
// set is written by one command at a time, so the report, the JUnit file and the HTML page
// left on disk all come from one run. The lock is flock(LOCK_EX) on each output's folder
// (opened read-only), taken in one order (by device and inode) so that two commands never
// wait on each other, and held from the first write to the last. A lock on the folder, not on
// a `.lock` file beside the outputs: nothing is left behind, and no lock file can be removed
// while another process waits on it. A folder that cannot be opened for reading (write-only)
// is not locked: its outputs are still whole, but a set written there may mix.
//
// Example:
//   absl::StatusOr<io::OutputLock> lock = io::OutputLock::Take({report, junit, html});
//   ... WriteFileAtomically(report, ...); WriteFileAtomically(junit, ...); ...
//   // released when `lock` goes out of scope
#ifndef DMCONF_HARNESS_BASE_OUTPUT_LOCK_H_
#define DMCONF_HARNESS_BASE_OUTPUT_LOCK_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace dmconf::io {

class OutputLock {
 public:
  // Locks the folders of the non-empty `paths` (their folders must exist: call
  // CreateParentDirectories first); blocks until every lock is held. Errors:
  // "io.lock: <folder>: <reason>".
  static absl::StatusOr<OutputLock> Take(const std::vector<std::string>& paths);

  OutputLock(OutputLock&& other) noexcept;
  OutputLock& operator=(OutputLock&& other) noexcept;
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;
  ~OutputLock();

 private:
  OutputLock() = default;
  void Release();
  std::vector<int> fds_;
};

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_BASE_OUTPUT_LOCK_H_
