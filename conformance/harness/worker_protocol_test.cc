// The worker protocol as a hostile backend tries it: frames forged on the worker's reply pipe
// (any step byte, split over two writes, written before any request or after the last reply),
// a worker that stops itself, signals aimed at the harness, and the death of the harness
// itself. Each is the verdict of the case during which it happened, or of none: never of
// another case, never a hang of the harness.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "conformance/harness/isolation_support.h"
#include "gtest/gtest.h"
#include "harness/backends/oracle/oracle_backend.h"
#include "harness/isolation/process_tree.h"
#include "harness/isolation/worker.h"

namespace dmconf {
namespace {

// The worker's reply pipe, as every worker has it (process_tree.h BecomeWorker: the kept
// descriptors are 3, 4, ...; the reply pipe is the second).
constexpr int kReplyPipe = 4;

void Write(const std::string& bytes) {
  ssize_t ignored = write(kReplyPipe, bytes.data(), bytes.size());
  (void)ignored;
}

// The 9-byte frame of the old protocol: a length of 1, then one step byte.
std::string ForgedFrame(uint8_t step) {
  std::string f(8, '\0');
  f[0] = 1;
  f.push_back(static_cast<char>(step));
  return f;
}

// How a backend forges, on its cases whose block_size is 3 (it answers every case as the
// oracle does; a case of block_size 4 takes 300 ms).
enum class Forge {
  kFrame,      // a whole frame, in run(), before its answer
  kSplit,      // the same frame in two writes, 50 ms apart
  kAfter,      // from a thread, 100 ms after run() returned (nothing asked then)
  kStopAfter,  // a thread stops the worker (SIGSTOP) 100 ms after run() returned
  kStopSelf,   // run() stops the worker itself
  kSignalUp,   // run() signals its keeper and its harness (SIGSTOP, SIGTERM): refused
};

class ForgingBackend : public Backend {
 public:
  ForgingBackend(Forge how, uint8_t step) : how_(how), step_(step), oracle_(MakeOracleBackend()) {}
  std::string Name() const override { return "forging"; }
  Capabilities GetCapabilities() const override { return SupportEverything(); }
  RunOutcome Run(const OpCase& c) override {
    if (c.block_size == 4) usleep(300'000);
    if (c.block_size == 3) {
      const std::string frame = ForgedFrame(step_);
      switch (how_) {
        case Forge::kFrame:
          Write(frame);
          break;
        case Forge::kSplit:
          Write(frame.substr(0, 4));
          usleep(50'000);
          Write(frame.substr(4));
          break;
        case Forge::kAfter:
          std::thread([frame] {
            usleep(100'000);
            Write(frame);
          }).detach();
          break;
        case Forge::kStopAfter:
          std::thread([] {
            usleep(100'000);
            kill(getpid(), SIGSTOP);
          }).detach();
          break;
        case Forge::kStopSelf:
          kill(getpid(), SIGSTOP);
          break;
        case Forge::kSignalUp: {
          const pid_t keeper = getppid();
          const int to_keeper = kill(keeper, SIGSTOP) == 0 ? 0 : errno;
          const int to_group = kill(0, SIGTERM) == 0 ? 0 : errno;
          const int to_all = kill(-1, SIGCONT) == 0 ? 0 : errno;
          return RunOutcome::Of(
              RunOutcome::Kind::kRejected,
              absl::StrCat("keeper:", to_keeper, " group:", to_group, " all:", to_all));
        }
      }
    }
    return oracle_->Run(c);
  }

 private:
  Forge how_;
  uint8_t step_;
  std::unique_ptr<Backend> oracle_;
};

BackendFactory Forging(Forge how, uint8_t step = 1) {
  return [how, step]() -> absl::StatusOr<std::unique_ptr<Backend>> {
    return std::unique_ptr<Backend>(new ForgingBackend(how, step));
  };
}

bool Has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The verdicts of blocks {2, 2, 3, 2, 3, 2}, asked one by one and in batches: the block-3
// cases are harness errors naming worker.reply.out_of_sequence, every other case is the
// oracle's own output; and the whole takes far less than the timeout (no wait for a frame).
void ExpectOwnCaseOnly(Forge how, uint8_t step) {
  std::vector<OpCase> cases;
  for (int64_t block : {2, 2, 3, 2, 3, 2}) cases.push_back(D2s(block));
  const std::vector<BatchItem> items = RunItems(cases);
  const auto oracle = MakeOracleBackend();
  for (const bool batches : {false, true}) {
    SCOPED_TRACE(absl::StrCat(batches ? "in batches" : "one by one", ", step ", step));
    IsolatedBackend b("forging", Forging(how, step), Timeout(5.0));
    std::vector<RunOutcome> got(cases.size());
    const auto start = std::chrono::steady_clock::now();
    if (batches) {
      AskAll(b, items, [&](size_t i, BatchAnswer&& a) { got[i] = std::move(a.run); });
    } else {
      for (size_t i = 0; i < cases.size(); ++i) got[i] = b.Run(cases[i]);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 2.5);
    for (size_t i = 0; i < cases.size(); ++i) {
      if (cases[i].block_size == 3) {
        EXPECT_EQ(got[i].kind, RunOutcome::Kind::kHarnessError) << i << ": " << got[i].message;
        EXPECT_TRUE(Has(got[i].message, "worker.reply.out_of_sequence")) << got[i].message;
      } else {
        ASSERT_EQ(got[i].kind, RunOutcome::Kind::kOutput) << i << ": " << got[i].message;
        EXPECT_EQ(got[i].output->bytes, oracle->Run(cases[i]).output->bytes) << i;
      }
    }
    EXPECT_TRUE(b.TakeUnattributedErrors().empty());
  }
}

TEST(WorkerProtocol, AForgedFrameOfAnyStepIsItsOwnCasesHarnessErrorOnly) {
  for (int step : {0, 1, 2, 3, 7, 128, 255}) ExpectOwnCaseOnly(Forge::kFrame, step);
}

TEST(WorkerProtocol, AFrameSplitOverTwoWritesIsItsOwnCasesHarnessErrorOnly) {
  ExpectOwnCaseOnly(Forge::kSplit, 1);
  ExpectOwnCaseOnly(Forge::kSplit, 0);
}

// A frame written when nothing was asked (after the case's answer) belongs to no case: the
// next request finds it before it is sent, the worker is replaced, and that request is
// answered by the new one; the harness notes it.
TEST(WorkerProtocol, AFrameAfterTheLastReplyIsNoCasesVerdict) {
  IsolatedBackend b("forging", Forging(Forge::kAfter), Timeout(5.0));
  EXPECT_EQ(b.Run(D2s(3)).kind, RunOutcome::Kind::kOutput);
  usleep(300'000);
  const RunOutcome next = b.Run(D2s(2));
  EXPECT_EQ(next.kind, RunOutcome::Kind::kOutput) << next.message;
  const std::vector<std::string> noted = b.TakeUnattributedErrors();
  ASSERT_EQ(noted.size(), 1u);
  EXPECT_TRUE(Has(noted[0], "worker.reply.unsolicited")) << noted[0];
  EXPECT_EQ(b.starts(), 2);
  // After the run's last reply: found when the run ends (TakeUnattributedErrors), too.
  EXPECT_EQ(b.Run(D2s(3)).kind, RunOutcome::Kind::kOutput);
  usleep(300'000);
  const std::vector<std::string> at_end = b.TakeUnattributedErrors();
  ASSERT_EQ(at_end.size(), 1u);
  EXPECT_TRUE(Has(at_end[0], "worker.reply.unsolicited")) << at_end[0];
}

// A frame from a thread of an earlier call that lands while a later case runs is taken for that
// case's only if it recurs: asked again of a fresh worker, the case is answered, and the frame
// is noted as no case's.
TEST(WorkerProtocol, AFrameThatDoesNotRecurIsNotBlamedOnTheCaseItInterrupted) {
  for (const bool batches : {false, true}) {
    SCOPED_TRACE(batches ? "in batches" : "one by one");
    IsolatedBackend b("forging", Forging(Forge::kAfter), Timeout(5.0));
    const std::vector<OpCase> cases = {D2s(3), D2s(4)};  // the frame comes 100 ms into case 1
    std::vector<RunOutcome> got(2);
    if (batches) {
      const std::vector<BatchItem> items = RunItems(cases);
      AskAll(b, items, [&](size_t i, BatchAnswer&& a) { got[i] = std::move(a.run); });
    } else {
      for (size_t i = 0; i < 2; ++i) got[i] = b.Run(cases[i]);
    }
    for (const RunOutcome& o : got) EXPECT_EQ(o.kind, RunOutcome::Kind::kOutput) << o.message;
    const std::vector<std::string> noted = b.TakeUnattributedErrors();
    ASSERT_EQ(noted.size(), 1u);
    EXPECT_TRUE(Has(noted[0], "worker.reply.out_of_sequence: while case")) << noted[0];
    EXPECT_TRUE(Has(noted[0], "no case was judged on them")) << noted[0];
  }
}

// A frame written while the backend is built, before its ready message: that start failed,
// no case's; the next start (which does not forge: a marker file says a worker already did)
// answers the case.
TEST(WorkerProtocol, AFrameBeforeAnyRequestIsNoCasesVerdict) {
  char dir[] = "/tmp/dmconf_forge_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string marker = std::string(dir) + "/forged";
  BackendFactory factory = [marker]() -> absl::StatusOr<std::unique_ptr<Backend>> {
    const int fd = open(marker.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd >= 0) {
      close(fd);
      Write(ForgedFrame(2));
    }
    return MakeOracleBackend();
  };
  IsolatedBackend b("forging", factory, Timeout(5.0));
  const RunOutcome o = b.Run(D2s(2));
  EXPECT_EQ(o.kind, RunOutcome::Kind::kOutput) << o.message;
  const std::vector<std::string> noted = b.TakeUnattributedErrors();
  ASSERT_EQ(noted.size(), 1u);
  EXPECT_TRUE(Has(noted[0], "worker.start.failed")) << noted[0];
  EXPECT_TRUE(Has(noted[0], "worker.start.out_of_sequence")) << noted[0];
  EXPECT_EQ(b.starts(), 2);
  unlink(marker.c_str());
  rmdir(dir);
}

// A worker that stops itself after it answered: the next request, which it never read, is not
// blamed (its case passes in a new worker); the stop is noted.
TEST(WorkerProtocol, AWorkerThatStopsAfterItsAnswerIsNoLaterCasesHang) {
  IsolatedBackend b("forging", Forging(Forge::kStopAfter), Timeout(3.0));
  EXPECT_EQ(b.Run(D2s(3)).kind, RunOutcome::Kind::kOutput);
  usleep(400'000);
  const auto start = std::chrono::steady_clock::now();
  const RunOutcome next = b.Run(D2s(2));
  EXPECT_EQ(next.kind, RunOutcome::Kind::kOutput) << next.message;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0);
  const std::vector<std::string> noted = b.TakeUnattributedErrors();
  ASSERT_EQ(noted.size(), 1u);
  EXPECT_TRUE(Has(noted[0], "worker.stopped")) << noted[0];
  EXPECT_TRUE(Has(noted[0], "after its answer to case")) << noted[0];
}

// A worker that stops itself during a case: that case's hang, at once (not at the timeout).
TEST(WorkerProtocol, AWorkerThatStopsItselfIsItsCasesHangAtOnce) {
  IsolatedBackend b("forging", Forging(Forge::kStopSelf), Timeout(5.0));
  const auto start = std::chrono::steady_clock::now();
  const RunOutcome o = b.Run(D2s(3));
  EXPECT_EQ(o.kind, RunOutcome::Kind::kHang) << o.message;
  EXPECT_TRUE(Has(o.message, "worker.stopped")) << o.message;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0);
  EXPECT_EQ(b.Run(D2s(2)).kind, RunOutcome::Kind::kOutput);
}

// The worker may not signal its keeper, its own group (which holds the keeper) or every
// process: refused (EPERM) by its signal fence.
TEST(WorkerProtocol, TheWorkerCannotSignalItsKeeperOrHarness) {
  IsolatedBackend b("forging", Forging(Forge::kSignalUp), Timeout(5.0));
  const RunOutcome o = b.Run(D2s(3));
  ASSERT_EQ(o.kind, RunOutcome::Kind::kRejected) << o.message;
  EXPECT_EQ(o.message, absl::StrCat("keeper:", EPERM, " group:", EPERM, " all:", EPERM));
  EXPECT_EQ(b.Run(D2s(2)).kind, RunOutcome::Kind::kOutput);
}

// What the backend writes on its standard output and error while it answers is that answer's,
// kept up to 64 KiB with a note of the rest; the harness's own streams see none of it.
class ChattyBackend : public Backend {
 public:
  std::string Name() const override { return "chatty"; }
  Capabilities GetCapabilities() const override { return SupportEverything(); }
  RunOutcome Run(const OpCase& c) override {
    const std::string line = absl::StrCat("case with block ", *c.block_size, "\n");
    for (int64_t i = 0; i < (c.block_size == 3 ? 20000 : 1); ++i) {
      ssize_t ignored = write(2, line.data(), line.size());
      (void)ignored;
    }
    return RunOutcome::Of(RunOutcome::Kind::kRejected, "no");
  }
};

TEST(WorkerProtocol, TheBackendsOutputIsCapturedPerCaseAndCapped) {
  IsolatedBackend b(
      "chatty",
      []() -> absl::StatusOr<std::unique_ptr<Backend>> {
        return std::unique_ptr<Backend>(new ChattyBackend());
      },
      Timeout(5.0));
  EXPECT_EQ(b.Run(D2s(2)).output_text, "case with block 2\n");
  const RunOutcome big = b.Run(D2s(3));
  // 20000 lines of 18 bytes: 360000 bytes, 65536 kept.
  EXPECT_TRUE(Has(big.output_text, absl::StrCat("[dmconf: ", 360000 - 65536, " more bytes")))
      << big.output_text.substr(big.output_text.size() - 100);
  EXPECT_EQ(big.output_text.rfind("case with block 3\n", 0), 0u);
  EXPECT_EQ(b.Run(D2s(2)).output_text, "case with block 2\n");
}

// The harness killed with SIGKILL: its workers, and every process they started, end within a
// second (their keepers kill them). The "harness" is a child process of this test running an
// IsolatedBackend whose cases each leave a sleeping process, each of which records its pid.
// A worker's process count is its keeper's tree alone: the harness's own stray children (the
// leftovers of another lane's replaced worker) are never charged to it. Before, each of them
// counted against every worker, and with --jobs 3 a case that started one process was blamed
// with worker.process_cap.
TEST(WorkerProtocol, AWorkersProcessCountIsItsKeepersTreeAlone) {
  int go[2];
  ASSERT_EQ(pipe(go), 0);
  // The stand-in keeper and one child of it: a tree of 2, held until `go` closes.
  const pid_t keeper = fork();
  ASSERT_GE(keeper, 0);
  if (keeper == 0) {
    close(go[1]);
    if (fork() == 0) {
      char c;
      (void)!read(go[0], &c, 1);
      _exit(0);
    }
    char c;
    (void)!read(go[0], &c, 1);
    _exit(0);
  }
  // Five strays: children of this process (the harness), outside the keeper's tree.
  std::vector<pid_t> strays;
  for (int i = 0; i < 5; ++i) {
    const pid_t p = fork();
    ASSERT_GE(p, 0);
    if (p == 0) {
      close(go[1]);
      char c;
      (void)!read(go[0], &c, 1);
      _exit(0);
    }
    strays.push_back(p);
  }
  close(go[0]);
  int n = 0;
  for (int tries = 0; tries < 200 && (n = CountWorkerProcesses(keeper, 100)) < 2; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  close(go[1]);
  waitpid(keeper, nullptr, 0);
  for (pid_t p : strays) waitpid(p, nullptr, 0);
  EXPECT_EQ(n, 2) << "the keeper and its child, none of the 5 strays";
}

TEST(WorkerProtocol, NothingOutlivesAHarnessKilledWithSigkill) {
  char dir[] = "/tmp/dmconf_orphans_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string pids = dir;
  const pid_t harness = fork();
  ASSERT_GE(harness, 0);
  if (harness == 0) {
    BackendFactory leaves = [pids]() -> absl::StatusOr<std::unique_ptr<Backend>> {
      class Leaves : public Backend {
       public:
        explicit Leaves(std::string d) : dir_(std::move(d)) {}
        std::string Name() const override { return "leaves"; }
        Capabilities GetCapabilities() const override { return SupportEverything(); }
        RunOutcome Run(const OpCase&) override {
          if (fork() == 0) {
            setsid();  // out of the worker's group: only the keeper's walk finds it
            const std::string mine = absl::StrCat(dir_, "/", getpid());
            close(open(mine.c_str(), O_WRONLY | O_CREAT, 0600));
            for (;;) pause();
          }
          return RunOutcome::Of(RunOutcome::Kind::kRejected, "left one");
        }

       private:
        std::string dir_;
      };
      return std::unique_ptr<Backend>(new Leaves(pids));
    };
    IsolatedBackend b("leaves", leaves, Timeout(5.0));
    for (int i = 0; i < 5; ++i) b.Run(D2s(2));
    // Stand still with the worker and its five sleepers alive, until killed.
    close(open((pids + "/ready").c_str(), O_WRONLY | O_CREAT, 0600));
    for (;;) pause();
  }
  const std::string ready = pids + "/ready";
  for (int i = 0; i < 500 && access(ready.c_str(), F_OK) != 0; ++i) usleep(10'000);
  ASSERT_EQ(access(ready.c_str(), F_OK), 0);
  usleep(100'000);  // the fifth sleeper records itself
  kill(harness, SIGKILL);
  waitpid(harness, nullptr, 0);
  usleep(1'000'000);
  std::vector<pid_t> recorded;
  for (const auto& entry : std::filesystem::directory_iterator(pids)) {
    const long pid = std::strtol(entry.path().filename().c_str(), nullptr, 10);
    if (pid > 0) recorded.push_back(static_cast<pid_t>(pid));
  }
  EXPECT_EQ(recorded.size(), 5u);
  for (pid_t p : recorded) {
    // Gone (ESRCH), not a zombie either: its keeper reaped it, or init did.
    const bool alive = kill(p, 0) == 0;
    EXPECT_FALSE(alive) << "process " << p << " outlived its harness";
    if (alive) kill(p, SIGKILL);
  }
  std::filesystem::remove_all(pids);
}

}  // namespace
}  // namespace dmconf
