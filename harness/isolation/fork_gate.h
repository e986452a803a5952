// The fork gate: no thread of the harness holds a lock of the process (malloc's, a sanitizer
// allocator's, stdio's) while another thread forks a worker.
//
// fork() copies only the thread that calls it. A lock that another thread held at that moment
// stays held for ever in the child, and the worker hangs at its first use of it: with --jobs
// (several lane threads, each forking its workers) a worker forked while another lane was in
// the AddressSanitizer allocator hung at its first request, and the case was a false hang.
// So the threads that work beside forks stand still, at known points, while one forks:
//   ForkGate::Busy   held by a thread for the work it does beside forks (a lane: runner/
//                    parallel_lanes.cc); a thread that holds none is not waited for;
//   ForkGate::Pause  a busy thread steps out while it waits (poll on a worker's pipe);
//   ForkGate::Yield  a busy thread steps out and back in if a fork waits (once per reply);
//   ForkGate::Fork   held around fork(): it waits until no busy thread is inside, and keeps
//                    them out until it is done (a busy thread that forks steps out first).
// Forks take their turn; a thread waiting to come in lets a waiting fork go first.
//
// Example (a lane thread):
//   ForkGate::Busy busy;
//   ...   // allocates, judges; worker.cc forks under ForkGate::Fork and polls under Pause
#ifndef DMCONF_HARNESS_ISOLATION_FORK_GATE_H_
#define DMCONF_HARNESS_ISOLATION_FORK_GATE_H_

namespace dmconf {

class ForkGate {
 public:
  class Busy {
   public:
    Busy();
    ~Busy();
    Busy(const Busy&) = delete;
    Busy& operator=(const Busy&) = delete;
  };
  // Steps out for its lifetime if this thread is busy; nothing otherwise.
  class Pause {
   public:
    Pause();
    ~Pause();
    Pause(const Pause&) = delete;
    Pause& operator=(const Pause&) = delete;

   private:
    bool stepped_out_;
  };
  class Fork {
   public:
    Fork();
    ~Fork();
    Fork(const Fork&) = delete;
    Fork& operator=(const Fork&) = delete;

   private:
    bool was_busy_;
  };
  // If this thread is busy and a fork waits: steps out until it is done.
  static void Yield();
};

}  // namespace dmconf

#endif  // DMCONF_HARNESS_ISOLATION_FORK_GATE_H_
