// Keeps every process a worker starts inside the harness's reach, and kills them all.
//
// Mechanism (Linux):
// - The harness is a child subreaper (PR_SET_CHILD_SUBREAPER): a process orphaned anywhere
//   below it, even one that called setsid() to leave its session, is re-parented to the
//   harness, not to init, so the harness can still find it (/proc/self/task/*/children).
// - Each worker leads its own process group, so one kill(-pgid) reaches the worker and
//   everything it started that did not leave the group.
// - KillWorkerTree(pid) kills that group, then, until nothing is left, every child of the
//   harness that is neither a live worker, a member of a live worker's group, nor a child the
//   harness started itself and registered (RegisterOwnChild: a subprocess adapter run without
//   isolation). A stray that joined the harness's own process group (setpgid to dmconf's
//   group, out of reach of the worker's kill(-pgid)) is a stray like any other.
// - SIGINT, SIGTERM and SIGHUP to the harness kill every live worker tree the same way (with
//   async-signal-safe calls only) before the harness dies of the signal; sent by a process of a
//   worker's tree (si_pid), they are ignored: a backend may not end its harness.
// - A "worker" here is the process the harness forked: a keeper (keeper.h), which holds the
//   worker proper and, as a child subreaper itself, everything below it, and kills all of it
//   when the harness dies, kill -9 included.
// A PID namespace would contain a tree without this bookkeeping but needs privileges; cgroups
// need a delegated hierarchy. Both are unavailable to an ordinary user, this is not.
//
// Example:
//   InstallProcessTreeGuards();             // once, before the first fork
//   pid_t pid = fork();  if (pid == 0) { int fds[2] = {in, out}; BecomeWorker(fds, 2); ... }
//   RegisterWorker(pid);
//   ...
//   KillWorkerTree(pid);                    // the worker and all it started are gone, reaped
#ifndef DMCONF_HARNESS_ISOLATION_PROCESS_TREE_H_
#define DMCONF_HARNESS_ISOLATION_PROCESS_TREE_H_

#include <sys/types.h>

#include <mutex>

namespace dmconf {

// Makes this process a child subreaper and installs the SIGINT/SIGTERM/SIGHUP handlers.
// Idempotent.
void InstallProcessTreeGuards();

// In the forked worker, before anything else: own process group, stdin from /dev/null, and
// every descriptor other than 0, 1, 2 and the `n` descriptors in `keep` closed (a worker must
// not write to descriptors its harness inherited, such as a wrapper's output file). Moves the
// kept descriptors to 3, 4, ... (n <= 4) and updates `keep` to say where they are.
void BecomeWorker(int* keep, int n);

// The table of live workers, held by a thread that forks a worker from before fork() until
// RegisterWorker: harness threads that run workers side by side (`dmconf run --jobs`) then
// never take another thread's worker, forked but not yet recorded, for a stray. The table's
// own functions (RegisterWorker, UnregisterWorker, KillWorkerTree, KillStrayChildren) take it
// too (it is recursive); the signal handlers do not.
std::unique_lock<std::recursive_mutex> HoldWorkerTable();

// In a child just forked, before exec or any work: asks the kernel for `sig` when the parent
// dies (PR_SET_PDEATHSIG), so that the child ends with dmconf, kill -9 included. False when
// the parent (`parent`, getpid() before the fork) is already gone, so the signal will never
// come: the child should _exit. The signal follows the parent *thread* that forked: fork from
// a thread that lives as long as the child should (the main thread). Async-signal-safe.
bool AskParentDeathSignal(pid_t parent, int sig);

// Records a live worker (its pid is its process group id) / forgets it.
void RegisterWorker(pid_t pid);
void UnregisterWorker(pid_t pid);

// Records a child the harness started itself that is not a worker (a subprocess adapter run in
// process) / forgets it: the sweeps leave it alone. At most 64 at once; beyond, it is not
// recorded (and a sweep during its life would take it for a stray).
void RegisterOwnChild(pid_t pid);
void UnregisterOwnChild(pid_t pid);

// How many processes the tree of a worker's keeper holds: the keeper, the worker and every
// descendant; counting stops past `limit`. For the per-worker process cap. The keeper is the
// subreaper of its worker's tree (keeper.h), so an orphan of that tree is re-parented into it
// and counted. The harness's own stray children are never counted: they come from a keeper
// already gone, not from the running worker, and charging them to it blamed, with workers side
// by side, a case of one lane for the leftovers of another's replaced worker.
int CountWorkerProcesses(pid_t pid, int limit);

// The last PID the kernel allocated in this PID namespace (/proc/sys/kernel/ns_last_pid, or
// where that is missing the 5th field of /proc/loadavg), or -1 if it cannot be read. Every new
// process and thread takes a new PID: while it stays the same, no process tree can have grown,
// and CountWorkerProcesses would count no more than before. Reads one small file through a
// descriptor it opens once and keeps.
class LastPidReader {
 public:
  LastPidReader();
  ~LastPidReader();
  LastPidReader(const LastPidReader&) = delete;
  LastPidReader& operator=(const LastPidReader&) = delete;
  long Read() const;

 private:
  int fd_ = -1;
};

// The harness's reader (a worker, whose descriptors BecomeWorker closed, makes its own).
long LastPidAllocated();

// SIGKILLs the worker's process group and every stray descendant (see above), reaps them, and
// unregisters the worker. Returns the worker's wait status if this call reaped the worker, or
// -1 if it was reaped before.
int KillWorkerTree(pid_t pid);

// SIGKILLs every process below `root` (its children through /proc, theirs, ...), root itself
// spared; returns how many it signalled. For the keeper, which then reaps them.
int KillDescendants(pid_t root);

// Kills and reaps every child of this process that is neither a live worker (with its group)
// nor registered with RegisterOwnChild, until none is left: for a process that runs a backend
// in itself (the in-process fuzz drivers), at exit. Returns how many it killed.
int KillStrayChildren();

}  // namespace dmconf

#endif  // DMCONF_HARNESS_ISOLATION_PROCESS_TREE_H_
