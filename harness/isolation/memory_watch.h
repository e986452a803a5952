#ifndef DMCONF_HARNESS_ISOLATION_MEMORY_WATCH_H_
#define DMCONF_HARNESS_ISOLATION_MEMORY_WATCH_H_

#include <cstdint>
#include <string>

namespace dmconf {

// The address-space limit a worker really runs under, and how it came to be.
struct EffectiveMemoryLimit {
  int64_t bytes = 0;       // 0: none
  int64_t asked = 0;       // --memory-limit in bytes; 0: none asked
  bool inherited = false;  // the caller's own limit (ulimit -v) was lower and is kept
  // "N bytes (--memory-limit)" or "N bytes (the limit inherited from the caller, lower than
  // --memory-limit M)".
  std::string Describe() const;
};

// The limit a worker started now would run under: the lower of `asked` (0: none) and this
// process's own RLIMIT_AS (soft and hard), which the worker inherits. A lower inherited limit
// is kept, never raised: the caller who set it meant to bound everything below it.
// `applies` false (AddressSanitizer builds): none.
EffectiveMemoryLimit ComputeEffectiveMemoryLimit(int64_t asked, bool applies);

// Why a worker that died is judged out of memory; written by the worker on its note pipe
// just before it dies of a fatal signal (SIGSEGV, SIGBUS, SIGABRT).
enum MemoryNote : char {
  kNoteNearLimit = 'M',        // it could not map even 1/8 of its limit more
  kNoteAllocationFailed = 'A'  // an allocation of the current request failed: operator new
                               // (the worker's new_handler), or malloc / mmap (errno ENOMEM
                               // when the signal came)
};

// In the worker, after its limit is set: installs the handlers that write a MemoryNote on
// `note_fd` (a fatal-signal handler on its own stack, and a new_handler).
void WatchForOutOfMemory(int note_fd, int64_t limit);
// In the worker, before each request: forgets failed allocations of earlier requests.
void ResetAllocationWatch();

// The words for a note: "the worker could not map even 1/8 of its limit more" or "an
// allocation had failed (...)".
std::string DescribeMemoryNote(char note);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_ISOLATION_MEMORY_WATCH_H_
