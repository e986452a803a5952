#include "fuzz/in_process_limits.h"

#include <sys/resource.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "harness/isolation/process_tree.h"
#include "harness/isolation/worker.h"

namespace dmconf {
namespace {

void KillLeftovers() {
  const int n = KillStrayChildren();
  if (n > 0)
    std::fprintf(stderr, "dmconf fuzz driver: killed %d process(es) the backend left\n", n);
}

void SetLimit(int resource, rlim_t bytes, const char* name) {
  struct rlimit now;
  if (getrlimit(resource, &now) == 0 && now.rlim_cur != RLIM_INFINITY && now.rlim_cur <= bytes) {
    return;  // a lower limit from the caller is kept, as in the workers
  }
  struct rlimit want = {bytes, bytes};
  if (getrlimit(resource, &now) == 0 && now.rlim_max != RLIM_INFINITY && now.rlim_max < bytes) {
    want = {now.rlim_max, now.rlim_max};
  }
  if (setrlimit(resource, &want) != 0) {
    std::fprintf(stderr, "dmconf fuzz driver: setrlimit(%s, %llu bytes) failed: %s\n", name,
                 static_cast<unsigned long long>(bytes), std::strerror(errno));
  }
}

}  // namespace

void ApplyInProcessBackendLimits() {
  static bool done = false;
  if (done) return;
  done = true;
  const char* env = std::getenv("DMCONF_MEMORY_LIMIT_BYTES");
  const long long limit = env != nullptr && *env != '\0'
                              ? std::atoll(env)
                              : static_cast<long long>(DefaultWorkerMemoryLimit());
  if (kMemoryLimitApplies && limit > 0)
    SetLimit(RLIMIT_AS, static_cast<rlim_t>(limit), "RLIMIT_AS");
  SetLimit(RLIMIT_FSIZE, rlim_t{1} << 30, "RLIMIT_FSIZE");
  InstallProcessTreeGuards();
  std::atexit(KillLeftovers);
}

}  // namespace dmconf
