#include "harness/isolation/process_tree.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <initializer_list>
#include <vector>

namespace dmconf {
namespace {

// Live workers, read by the signal handler: plain slots of sig_atomic_t, no allocation.
constexpr int kMaxWorkers = 64;
volatile sig_atomic_t g_workers[kMaxWorkers] = {};
// Children the harness started itself that are not workers (RegisterOwnChild).
volatile sig_atomic_t g_own_children[kMaxWorkers] = {};
std::recursive_mutex g_table_mutex;  // HoldWorkerTable

bool IsOwnChild(pid_t pid) {
  for (int i = 0; i < kMaxWorkers; ++i) {
    if (g_own_children[i] == pid) return true;
  }
  return false;
}

bool IsLiveWorkerOrItsGroup(pid_t pid, pid_t pgid) {
  for (int i = 0; i < kMaxWorkers; ++i) {
    const pid_t w = g_workers[i];
    if (w != 0 && (w == pid || w == pgid)) return true;
  }
  return false;
}

// Calls visit(pid) for every child of a process, from <task_dir>/<tid>/children of each of its
// threads (task_dir: "/proc/self/task" or "/proc/<pid>/task", at most 40 characters), using
// only async-signal-safe system calls.
template <typename Visit>
void ForEachChildIn(const char* task_dir, Visit visit) {
  const int tasks = open(task_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (tasks < 0) return;
  alignas(8) char dents[2048];
  for (;;) {
    const ssize_t n = getdents64(tasks, dents, sizeof dents);
    if (n <= 0) break;
    for (ssize_t off = 0; off < n;) {
      const auto* d = reinterpret_cast<const dirent64*>(dents + off);
      off += d->d_reclen;
      if (d->d_name[0] < '0' || d->d_name[0] > '9') continue;
      char path[96];
      int len = 0;
      for (const char* p = task_dir; *p != '\0' && len < 40; ++p) path[len++] = *p;
      path[len++] = '/';
      for (const char* p = d->d_name; *p != '\0' && len < 80; ++p) path[len++] = *p;
      const char suffix[] = "/children";
      for (const char* p = suffix; *p != '\0'; ++p) path[len++] = *p;
      path[len] = '\0';
      const int fd = open(path, O_RDONLY | O_CLOEXEC);
      if (fd < 0) continue;
      char buf[512];
      long pid = 0;
      bool in_number = false;
      for (;;) {
        const ssize_t k = read(fd, buf, sizeof buf);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        for (ssize_t i = 0; i < k; ++i) {
          if (buf[i] >= '0' && buf[i] <= '9') {
            pid = pid * 10 + (buf[i] - '0');
            in_number = true;
          } else if (in_number) {
            visit(static_cast<pid_t>(pid));
            pid = 0;
            in_number = false;
          }
        }
      }
      if (in_number) visit(static_cast<pid_t>(pid));
      close(fd);
    }
  }
  close(tasks);
}

template <typename Visit>
void ForEachChild(Visit visit) {
  ForEachChildIn("/proc/self/task", visit);
}

// Processes in the tree below and including `root` (its children through /proc), counting
// stops past `limit`.
int CountTree(pid_t root, int limit) {
  std::vector<pid_t> todo{root};
  int n = 0;
  while (!todo.empty() && n <= limit) {
    const pid_t p = todo.back();
    todo.pop_back();
    ++n;
    char dir[40];
    snprintf(dir, sizeof dir, "/proc/%d/task", static_cast<int>(p));
    ForEachChildIn(dir, [&](pid_t child) { todo.push_back(child); });
  }
  return n;
}

// The parent of `pid` from /proc/<pid>/stat ("pid (comm) state ppid ..."; comm may hold spaces
// and parentheses, so the fields are read after its last ')'), or -1. Async-signal-safe.
pid_t ParentOf(pid_t pid) {
  char path[40] = "/proc/";
  int len = 6;
  char digits[16];
  int n = 0;
  for (unsigned v = static_cast<unsigned>(pid); n == 0 || v > 0; v /= 10)
    digits[n++] = '0' + v % 10;
  while (n > 0) path[len++] = digits[--n];
  const char stat[] = "/stat";
  for (const char* p = stat; *p != '\0'; ++p) path[len++] = *p;
  path[len] = '\0';
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char buf[512];
  ssize_t k;
  while ((k = read(fd, buf, sizeof buf - 1)) < 0 && errno == EINTR) {
  }
  close(fd);
  if (k <= 0) return -1;
  ssize_t i = k - 1;
  while (i >= 0 && buf[i] != ')') --i;
  // ") S 1234 ": skip ") ", the state and a space.
  i += 4;
  long ppid = 0;
  bool any = false;
  for (; i < k && buf[i] >= '0' && buf[i] <= '9'; ++i) {
    ppid = ppid * 10 + (buf[i] - '0');
    any = true;
  }
  return any ? static_cast<pid_t>(ppid) : -1;
}

// Kills and reaps every child that belongs to no live worker and that we did not start
// ourselves (RegisterOwnChild), whatever its group: one that joined ours is a stray too.
// Returns how many it found.
int SweepStrays() {
  // (No lock: KillAllWorkerTrees calls it in a signal handler; the other callers hold it.)
  int found = 0;
  ForEachChild([&](pid_t child) {
    const pid_t group = getpgid(child);
    if (group < 0 || IsOwnChild(child) || IsLiveWorkerOrItsGroup(child, group)) return;
    ++found;
    kill(child, SIGKILL);
    while (waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
    }
  });
  return found;
}

void KillAllWorkerTrees() {
  for (int i = 0; i < kMaxWorkers; ++i) {
    const pid_t w = g_workers[i];
    if (w == 0) continue;
    g_workers[i] = 0;
    kill(-w, SIGKILL);
    kill(w, SIGKILL);
  }
  // Strays need a moment to be re-parented once their parents are gone.
  for (int round = 0; round < 50; ++round) {
    if (SweepStrays() == 0 && round > 2) break;
    const timespec pause{0, 2'000'000};
    nanosleep(&pause, nullptr);
  }
}

// Whether `pid` is a live worker (its keeper) or below one. Async-signal-safe.
bool InAWorkerTree(pid_t pid) {
  for (int depth = 0; depth < 64 && pid > 1; ++depth) {
    for (int i = 0; i < kMaxWorkers; ++i) {
      if (g_workers[i] != 0 && g_workers[i] == pid) return true;
    }
    pid = ParentOf(pid);
  }
  return false;
}

void OnTerminatingSignal(int sig, siginfo_t* info, void*) {
  const int saved = errno;
  // A worker (a backend) may not end its harness: its signals are ignored. (The worker's
  // signal fence already refuses them; this holds where the fence could not be set.)
  if (info != nullptr && info->si_code <= 0 && info->si_pid > 0 && InAWorkerTree(info->si_pid)) {
    errno = saved;
    return;
  }
  KillAllWorkerTrees();
  signal(sig, SIG_DFL);
  errno = saved;
  raise(sig);
}

}  // namespace

void InstallProcessTreeGuards() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old = {};
    sigaction(sig, nullptr, &old);
    if (old.sa_handler == SIG_IGN) continue;  // e.g. started with nohup: keep ignoring
    struct sigaction sa = {};
    sa.sa_sigaction = OnTerminatingSignal;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, nullptr);
  }
}

void BecomeWorker(int* keep, int n) {
  setpgid(0, 0);
  // The handlers belong to the harness; a worker dies of these signals.
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) signal(sig, SIG_DFL);
  prctl(PR_SET_CHILD_SUBREAPER, 0);
  // The kept descriptors go to 3, 4, ..., out of the way of the rest.
  int moved[4];
  n = n < 4 ? n : 4;
  for (int i = 0; i < n; ++i) moved[i] = fcntl(keep[i], F_DUPFD_CLOEXEC, 10);
  for (int i = 0; i < n; ++i) {
    dup3(moved[i], 3 + i, O_CLOEXEC);
    keep[i] = 3 + i;
  }
  const int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd >= 0 && null_fd != 0) {
    dup2(null_fd, 0);
    close(null_fd);
  }
  const unsigned first_closed = 3 + static_cast<unsigned>(n);
  if (close_range(first_closed, ~0U, 0) != 0) {
    const long max = sysconf(_SC_OPEN_MAX);
    for (long fd = first_closed; fd < (max > 0 && max < 65536 ? max : 65536); ++fd) {
      close(static_cast<int>(fd));
    }
  }
}

std::unique_lock<std::recursive_mutex> HoldWorkerTable() {
  return std::unique_lock<std::recursive_mutex>(g_table_mutex);
}

void RegisterWorker(pid_t pid) {
  const auto hold = HoldWorkerTable();
  // Both sides call setpgid, so the group exists whichever runs first.
  setpgid(pid, pid);
  for (int i = 0; i < kMaxWorkers; ++i) {
    if (g_workers[i] == 0) {
      g_workers[i] = pid;
      return;
    }
  }
}

void RegisterOwnChild(pid_t pid) {
  for (int i = 0; i < kMaxWorkers; ++i) {
    if (g_own_children[i] == 0) {
      g_own_children[i] = pid;
      return;
    }
  }
}

void UnregisterOwnChild(pid_t pid) {
  for (int i = 0; i < kMaxWorkers; ++i) {
    if (g_own_children[i] == pid) g_own_children[i] = 0;
  }
}

void UnregisterWorker(pid_t pid) {
  const auto hold = HoldWorkerTable();
  for (int i = 0; i < kMaxWorkers; ++i) {
    if (g_workers[i] == pid) g_workers[i] = 0;
  }
}

int KillDescendants(pid_t root) {
  std::vector<pid_t> todo{root};
  int signalled = 0;
  while (!todo.empty()) {
    const pid_t p = todo.back();
    todo.pop_back();
    if (p != root) {
      kill(p, SIGKILL);
      ++signalled;
    }
    char dir[40];
    snprintf(dir, sizeof dir, "/proc/%d/task", static_cast<int>(p));
    ForEachChildIn(dir, [&](pid_t child) { todo.push_back(child); });
  }
  return signalled;
}

int CountWorkerProcesses(pid_t pid, int limit) { return CountTree(pid, limit); }

bool AskParentDeathSignal(pid_t parent, int sig) {
  prctl(PR_SET_PDEATHSIG, sig);
  return getppid() == parent;
}

namespace {

// The digits at the end of buf[0..n) ("17030\n" or a /proc/loadavg line), as a number; -1
// when there are none, or they are not a field of their own.
long LastNumber(const char* buf, ssize_t n) {
  const char* p = buf + n;
  while (p > buf && (p[-1] < '0' || p[-1] > '9')) --p;  // the trailing newline
  const char* end = p;
  while (p > buf && p[-1] >= '0' && p[-1] <= '9') --p;
  if (p == end || end - p > 18 || (p != buf && p[-1] != ' ')) return -1;
  long pid = 0;
  for (; p < end; ++p) pid = pid * 10 + (*p - '0');
  return pid;
}

}  // namespace

LastPidReader::LastPidReader() {
  // "17030": the namespace's last PID alone (a kernel with checkpoint/restore, the usual one).
  // Else "0.20 0.18 0.12 1/80 11206": load averages, runnable/total, last PID. The same number
  // either way; the first is a third cheaper to read.
  fd_ = open("/proc/sys/kernel/ns_last_pid", O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) fd_ = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
}

LastPidReader::~LastPidReader() {
  if (fd_ >= 0) close(fd_);
}

long LastPidReader::Read() const {
  if (fd_ < 0) return -1;
  char buf[128];
  const ssize_t n = pread(fd_, buf, sizeof buf - 1, 0);
  if (n <= 0) return -1;
  return LastNumber(buf, n);
}

long LastPidAllocated() {
  static const LastPidReader* const reader = new LastPidReader();
  return reader->Read();
}

int KillStrayChildren() {
  int killed = 0;
  for (int round = 0; round < 50; ++round) {
    const int found = [] {
      const auto hold = HoldWorkerTable();
      return SweepStrays();
    }();
    killed += found;
    if (found == 0 && round > 2) break;
    const timespec pause{0, 2'000'000};
    nanosleep(&pause, nullptr);
  }
  return killed;
}

int KillWorkerTree(pid_t pid) {
  kill(-pid, SIGKILL);
  kill(pid, SIGKILL);
  int status = 0;
  pid_t w;
  while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
  }
  // Unregistered only once reaped: until then another thread's sweep of strays (--jobs) takes
  // it for a live worker and leaves it, so its exit status (the signal it died of) is ours.
  UnregisterWorker(pid);
  // The group's members and anything that left it are re-parented to us as their parents die:
  // sweep until the group is empty and a few passes find nothing more.
  int quiet = 0;
  for (int round = 0; round < 500 && quiet < 3; ++round) {
    const int found = [] {
      const auto hold = HoldWorkerTable();
      return SweepStrays();
    }();
    const bool group_left = kill(-pid, 0) == 0;
    quiet = found == 0 && !group_left ? quiet + 1 : 0;
    if (quiet < 3) {
      const timespec pause{0, 1'000'000};
      nanosleep(&pause, nullptr);
    }
  }
  return w == pid ? status : -1;
}

}  // namespace dmconf
