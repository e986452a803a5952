// The keeper: the process between the harness and a worker, so that nothing a worker starts
// outlives the harness, however the harness ends (kill -9 included).
//
//   harness -- keeper -- worker -- the backend's processes, and theirs
//
// - The keeper is a child subreaper: a process orphaned anywhere below it (a daemon, one that
//   called setsid()) is re-parented to it, never to init or to the harness.
// - It asks the kernel for a signal when the harness dies (PR_SET_PDEATHSIG), and checks its
//   parent every 200 ms too (the signal comes when the harness thread that forked it ends,
//   which may be before the harness does). When the harness is gone, or the worker ends, it
//   kills every process below it (SIGKILL, walking /proc, until it has no child left) and
//   ends as the worker ended: it dies of the worker's signal or exits with its status, so that
//   the harness, which waits for its child the keeper, reads the worker's own death.
// - A worker that stops (SIGSTOP, SIGTSTP, ...) is killed at once, with its tree: the keeper
//   first writes kNoteStopped and the signal's number on the note pipe.
// - Every other signal is ignored: a backend may send its keeper anything.
// The worker dies with its keeper (PR_SET_PDEATHSIG SIGKILL), and every process below the
// worker stays below the keeper.
//
// Example (in the child of the harness's fork):
//   RunKeeper(harness_pid, note_fd, {request_fd, reply_fd, output_fd}, [&] { WorkerMain(...); });
#ifndef DMCONF_HARNESS_ISOLATION_KEEPER_H_
#define DMCONF_HARNESS_ISOLATION_KEEPER_H_

#include <sys/types.h>

#include <initializer_list>

#include "absl/functional/function_ref.h"

namespace dmconf {

// Written on the note pipe by the keeper when its worker stopped, followed by the signal.
inline constexpr char kNoteStopped = 'S';

// Forks the worker, which runs `worker` (it must not return), and keeps it. `close_in_keeper`:
// the worker's descriptors, which the keeper closes (so that the worker's death closes its
// pipes). Never returns.
[[noreturn]] void RunKeeper(pid_t harness, int note_fd, std::initializer_list<int> close_in_keeper,
                            absl::FunctionRef<void()> worker);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_ISOLATION_KEEPER_H_
