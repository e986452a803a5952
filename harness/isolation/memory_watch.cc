#include "harness/isolation/memory_watch.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <new>

#include "absl/strings/str_cat.h"

namespace dmconf {

std::string EffectiveMemoryLimit::Describe() const {
  if (!inherited) return absl::StrCat(bytes, " bytes (--memory-limit)");
  return absl::StrCat(bytes, " bytes (the limit inherited from the caller, `ulimit -v`, ",
                      asked > 0 ? absl::StrCat("lower than --memory-limit ", asked)
                                : std::string("with --memory-limit none"),
                      ")");
}

EffectiveMemoryLimit ComputeEffectiveMemoryLimit(int64_t asked, bool applies) {
  EffectiveMemoryLimit e;
  e.asked = asked;
  if (!applies) return e;
  e.bytes = asked;
  rlimit now{};
  if (getrlimit(RLIMIT_AS, &now) == 0) {
    const rlim_t own = now.rlim_cur < now.rlim_max ? now.rlim_cur : now.rlim_max;
    if (own != RLIM_INFINITY && (asked <= 0 || own < static_cast<rlim_t>(asked))) {
      e.bytes = static_cast<int64_t>(own);
      e.inherited = true;
    }
  }
  return e;
}

namespace {

int g_note_fd = -1;
size_t g_probe_bytes = 0;
volatile sig_atomic_t g_allocation_failed = 0;

void WriteNote(char note) {
  ssize_t ignored = write(g_note_fd, &note, 1);
  (void)ignored;
}

// A fatal signal: out of memory when an allocation of this request failed (operator new, or
// errno ENOMEM left by malloc / mmap in the thread that took the signal: a plugin that writes
// through the null pointer malloc returned), or when not even 1/8 of the limit can be mapped
// more now. Then the worker dies of the same signal.
void OnFatalSignalInWorker(int sig) {
  const int interrupted_errno = errno;
  if (g_allocation_failed != 0 || interrupted_errno == ENOMEM) {
    WriteNote(kNoteAllocationFailed);
  } else {
    void* probe =
        mmap(nullptr, g_probe_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (probe == MAP_FAILED) {
      WriteNote(kNoteNearLimit);
    } else {
      munmap(probe, g_probe_bytes);
    }
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

// operator new failed: noted, then the usual std::bad_alloc.
void OnFailedNew() {
  g_allocation_failed = 1;
  throw std::bad_alloc();
}

}  // namespace

void WatchForOutOfMemory(int note_fd, int64_t limit) {
  g_note_fd = note_fd;
  g_probe_bytes = static_cast<size_t>(limit / 8);
  // Its own stack: the handler must run even when the fault was a stack overflow.
  static char alt_stack[1 << 16];
  stack_t ss = {};
  ss.ss_sp = alt_stack;
  ss.ss_size = sizeof alt_stack;
  sigaltstack(&ss, nullptr);
  struct sigaction sa = {};
  sa.sa_handler = OnFatalSignalInWorker;
  sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGABRT}) sigaction(sig, &sa, nullptr);
  std::set_new_handler(OnFailedNew);
}

void ResetAllocationWatch() {
  g_allocation_failed = 0;
  errno = 0;
}

std::string DescribeMemoryNote(char note) {
  if (note == kNoteAllocationFailed) {
    return "an allocation had failed (operator new, or malloc / mmap with ENOMEM)";
  }
  return "it could not map even 1/8 of its limit more";
}

}  // namespace dmconf
