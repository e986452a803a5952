// The limits a worker runs under: its address space (with the out-of-memory watch,
// memory_watch.h) and the size of the files it may write; and the process cap, counted by the
// harness per request.
#ifndef DMCONF_HARNESS_ISOLATION_WORKER_LIMITS_H_
#define DMCONF_HARNESS_ISOLATION_WORKER_LIMITS_H_

#include <sys/types.h>

#include <cstdint>

#include "harness/backend/backend.h"
#include "harness/isolation/memory_watch.h"

namespace dmconf {

// False in AddressSanitizer builds, whose shadow memory reserves terabytes of address space:
// no memory limit is applied there (IsolationOptions::memory_limit_bytes).
extern const bool kMemoryLimitApplies;

// The default memory limit: half of the machine's physical memory.
int64_t DefaultWorkerMemoryLimit();

// In the worker: sets the memory limit (with the out-of-memory watch writing on `oom_fd`) and
// the file-size limit. A limit that cannot be set (an inherited hard limit below it, for a user
// who may not raise it) must not leave the worker running under another limit than the one
// named: the returned factory then fails with that error, which each reply carries.
BackendFactory ApplyWorkerLimits(const EffectiveMemoryLimit& limit, const BackendFactory& backend,
                                 int oom_fd);

// The most processes one request may add to a worker's tree (the worker itself and its keeper
// not counted), counted by walking it (process_tree.h CountWorkerProcesses) every 100 ms while
// a request runs and after each reply that follows the creation of a process or thread
// anywhere in the PID namespace (without a new PID the tree cannot have grown, and the walk of
// /proc is skipped). A request past it is a crash naming worker.process_cap, on its own: the
// count is the tree's growth since the request was sent, so processes left by earlier requests
// are not charged to it, and its replay in a fresh worker meets the cap again. A tree that
// reaches the cap only across requests is not a failure of any of them: the worker is
// replaced, with every process it left, before the next request. Counting, not RLIMIT_NPROC:
// that limit counts every process of the user (dmconf's own, a shell's) and does not bind root;
// a cgroup's pids.max needs a delegated hierarchy.
inline constexpr int kMaxWorkerProcesses = 128;

// The process cap of one worker, counted by the harness.
class ProcessCap {
 public:
  // A new worker (keeper `pid`): nothing counted yet.
  void Start(pid_t keeper);
  // At a request's start: its growth is counted from the tree as it is now.
  void RequestStarts() { base_ = last_; }
  // Counts the tree now, if a PID was allocated since the last count. True when the current
  // request's growth is past the cap.
  bool RequestOverCap();
  // Counts now, whatever the last PID says (while a request runs, every 100 ms).
  bool RequestOverCapNow();
  // True when the tree, whoever made it, holds more than the cap.
  bool TreeOverCap() const { return last_ > kMaxWorkerProcesses; }

 private:
  int Count();
  pid_t keeper_ = -1;
  long counted_at_pid_ = -1;
  int base_ = 0;  // the tree's size when the current request started
  int last_ = 0;  // at the last count
};

}  // namespace dmconf

#endif  // DMCONF_HARNESS_ISOLATION_WORKER_LIMITS_H_
