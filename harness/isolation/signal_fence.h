// The worker's signal fence: a seccomp filter, set in the worker before its backend is built
// and inherited by every process the backend starts, that refuses (EPERM) the system calls by
// which a backend could stop or end its harness or its keeper (keeper.h):
//   kill and rt_sigqueueinfo aimed at either process, at either's process group, at the
//   worker's own group (kill(0, ...), which holds the keeper) or at every process (-1);
//   tgkill and rt_tgsigqueueinfo into either process; tkill, which names a thread of any
//   process; pidfd_send_signal, whose target the filter cannot see; ptrace of either.
// Signals between the backend's own processes, and to itself, pass. The filter needs
// PR_SET_NO_NEW_PRIVS: a program the backend runs cannot gain privileges (setuid) there.
// Where the kernel has no seccomp, or on an architecture the filter does not know, nothing is
// fenced, and the harness's own check of a signal's sender (process_tree.h) still holds for
// SIGINT, SIGTERM and SIGHUP.
//
// Example (in the worker):
//   FenceSignals(harness_pid, getpgid(harness_pid), getppid());
#ifndef DMCONF_HARNESS_ISOLATION_SIGNAL_FENCE_H_
#define DMCONF_HARNESS_ISOLATION_SIGNAL_FENCE_H_

#include <sys/types.h>

namespace dmconf {

// True when the fence is set.
bool FenceSignals(pid_t harness, pid_t harness_group, pid_t keeper);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_ISOLATION_SIGNAL_FENCE_H_
