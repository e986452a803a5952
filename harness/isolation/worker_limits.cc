#include "harness/isolation/worker_limits.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "harness/isolation/process_tree.h"

namespace dmconf {

#if defined(__SANITIZE_ADDRESS__)
const bool kMemoryLimitApplies = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
const bool kMemoryLimitApplies = false;
#else
const bool kMemoryLimitApplies = true;
#endif
#else
const bool kMemoryLimitApplies = true;
#endif

int64_t DefaultWorkerMemoryLimit() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return int64_t{8} << 30;
  return static_cast<int64_t>(pages) * page / 2;
}

namespace {
// Largest file the worker may write (RLIMIT_FSIZE): a backend has no business writing more.
constexpr rlim_t kWorkerMaxFileBytes = rlim_t{1} << 30;
}  // namespace

BackendFactory ApplyWorkerLimits(const EffectiveMemoryLimit& limit, const BackendFactory& backend,
                                 int oom_fd) {
  BackendFactory factory = backend;
  auto refuse = [&factory](std::string why) {
    factory = [why]() -> absl::StatusOr<std::unique_ptr<Backend>> {
      return absl::FailedPreconditionError(why);
    };
  };
  if (limit.bytes > 0) {
    // Soft and hard: the backend may not raise it. Never above an inherited limit, so this
    // only lowers (ComputeEffectiveMemoryLimit); still checked.
    const rlimit as{static_cast<rlim_t>(limit.bytes), static_cast<rlim_t>(limit.bytes)};
    if (setrlimit(RLIMIT_AS, &as) != 0) {
      refuse(absl::StrCat("harness.worker.rlimit: setrlimit(RLIMIT_AS, ", limit.bytes,
                          " bytes) failed: ", strerror(errno)));
    }
    WatchForOutOfMemory(oom_fd, limit.bytes);
  }
  const rlimit fsize{kWorkerMaxFileBytes, kWorkerMaxFileBytes};
  if (setrlimit(RLIMIT_FSIZE, &fsize) != 0) {
    // A lower inherited file-size limit is kept: only a higher one is refused.
    rlimit now{};
    if (getrlimit(RLIMIT_FSIZE, &now) != 0 || now.rlim_cur > kWorkerMaxFileBytes) {
      refuse(
          absl::StrCat("harness.worker.rlimit: setrlimit(RLIMIT_FSIZE) failed: ", strerror(errno)));
    }
  }
  return factory;
}

void ProcessCap::Start(pid_t keeper) {
  keeper_ = keeper;
  counted_at_pid_ = -1;
  base_ = last_ = 0;
}

int ProcessCap::Count() {
  // The keeper and the worker are not the requests': the tree below them is.
  const int limit = 2 * kMaxWorkerProcesses + 4;
  const int n = CountWorkerProcesses(keeper_, limit) - 2;
  return n < 0 ? 0 : n;
}

bool ProcessCap::RequestOverCapNow() {
  const long last_pid = LastPidAllocated();
  last_ = Count();
  counted_at_pid_ = last_pid;
  return last_ - base_ > kMaxWorkerProcesses;
}

bool ProcessCap::RequestOverCap() {
  // Without a new PID since the last count the tree cannot have grown: the walk of /proc is
  // spared.
  const long last_pid = LastPidAllocated();
  if (last_pid >= 0 && last_pid == counted_at_pid_) return last_ - base_ > kMaxWorkerProcesses;
  return RequestOverCapNow();
}

}  // namespace dmconf
