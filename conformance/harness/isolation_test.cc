// The worker isolation: a backend that crashes, aborts, exits, hangs or fails to start never
// takes the harness down; each becomes that case's outcome and the next case runs in a fresh
// worker.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/strings/str_cat.h"
#include "conformance/harness/isolation_support.h"
#include "gtest/gtest.h"
#include "harness/backends/oracle/oracle_backend.h"
#include "harness/isolation/process_tree.h"
#include "harness/isolation/worker.h"
#include "harness/runner/runner.h"

namespace dmconf {
namespace {

// Misbehaves when block_size is 3; otherwise answers like the oracle.
// kSlow: answers after 0.3 s.
enum class Fault { kSegv, kAbort, kExit, kHang, kFpe, kSlow };

class FaultyBackend : public Backend {
 public:
  explicit FaultyBackend(Fault f) : f_(f), oracle_(MakeOracleBackend()) {}
  std::string Name() const override { return "faulty"; }
  Capabilities GetCapabilities() const override { return SupportEverything(); }
  RunOutcome Run(const OpCase& c) override {
    if (c.block_size == 3) {
      switch (f_) {
        case Fault::kSegv:
          raise(SIGSEGV);
          break;
        case Fault::kAbort:
          std::abort();
        case Fault::kExit:
          _exit(3);
        case Fault::kHang:
          for (;;) pause();
        case Fault::kFpe:
          raise(SIGFPE);
          break;
        case Fault::kSlow:
          usleep(300'000);
          break;
      }
    }
    return oracle_->Run(c);
  }

 private:
  Fault f_;
  std::unique_ptr<Backend> oracle_;
};

BackendFactory Faulty(Fault f) {
  return [f]() -> absl::StatusOr<std::unique_ptr<Backend>> {
    return std::unique_ptr<Backend>(new FaultyBackend(f));
  };
}

struct FaultCase {
  Fault fault;
  RunOutcome::Kind kind;
  const char* message_part;
};

class IsolationFaults : public ::testing::TestWithParam<FaultCase> {};

TEST_P(IsolationFaults, BecomesVerdictAndRunGoesOn) {
  IsolatedBackend b("faulty", Faulty(GetParam().fault), Timeout(1.0));
  RunOutcome ok = b.Run(D2s(2));
  ASSERT_EQ(ok.kind, RunOutcome::Kind::kOutput) << ok.message;
  // [1,4,1,1] block 2 blocks_first: out[0,0,y,x] = in[(y % 2) * 2 + x % 2] -> 1 2 / 3 4.
  EXPECT_EQ(ok.output->shape, (Shape{1, 1, 2, 2}));
  for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(ok.output->GetBits(i), static_cast<uint64_t>(i + 1));

  const auto start = std::chrono::steady_clock::now();
  RunOutcome bad = b.Run(D2s(3));
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(bad.kind, GetParam().kind) << bad.message;
  EXPECT_NE(bad.message.find(GetParam().message_part), std::string::npos) << bad.message;
  EXPECT_LT(took, 5.0);

  RunOutcome again = b.Run(D2s(2));
  EXPECT_EQ(again.kind, RunOutcome::Kind::kOutput) << again.message;
  EXPECT_EQ(b.starts(), 2);  // restarted once, after the fault
}

INSTANTIATE_TEST_SUITE_P(
    Faults, IsolationFaults,
    ::testing::Values(FaultCase{Fault::kSegv, RunOutcome::Kind::kCrash, "SIGSEGV"},
                      FaultCase{Fault::kAbort, RunOutcome::Kind::kCrash, "SIGABRT"},
                      FaultCase{Fault::kExit, RunOutcome::Kind::kCrash, "status 3"},
                      FaultCase{Fault::kFpe, RunOutcome::Kind::kCrash, "SIGFPE"},
                      FaultCase{Fault::kHang, RunOutcome::Kind::kHang, "no answer within 1 s"}));

// A batch stops at its faulty case: the cases before it are answered as Run() answers them,
// the faulty one gets the fault's own outcome, and the cases after it are not run; sent again,
// they run in a fresh worker. The caller's own work (meanwhile) runs once, before the first
// answer, while the worker reaches the fault: the fault is still its own case's. (A batch the
// worker paused, AskAll, goes on in the next: the worker is not restarted for it.)
TEST_P(IsolationFaults, BatchStopsAtTheFaultyCaseAndTheRestRunAgain) {
  IsolatedBackend b("faulty", Faulty(GetParam().fault), Timeout(1.0));
  const std::vector<OpCase> cases = {D2s(2), D2s(2), D2s(3), D2s(2), D2s(2)};
  const std::vector<BatchItem> items = RunItems(cases);
  std::vector<RunOutcome> got;
  int meanwhile = 0;
  const size_t answered = AskAll(
      b, items,
      [&](size_t i, BatchAnswer&& a) {
        EXPECT_GE(meanwhile, 1);
        EXPECT_EQ(i, got.size());
        got.push_back(std::move(a.run));
      },
      [&] {
        if (meanwhile++ == 0) {
          EXPECT_TRUE(got.empty());
        }
        usleep(100'000);  // the worker runs on: it has met the fault before an answer is read
      });
  ASSERT_EQ(answered, 3u);
  ASSERT_EQ(got.size(), 3u);
  for (size_t i : {0u, 1u}) {
    ASSERT_EQ(got[i].kind, RunOutcome::Kind::kOutput) << got[i].message;
    // [1,4,1,1] block 2 blocks_first: 1 2 / 3 4 (as in BecomesVerdictAndRunGoesOn).
    for (int64_t e = 0; e < 4; ++e) EXPECT_EQ(got[i].output->GetBits(e), uint64_t(e + 1));
  }
  EXPECT_EQ(got[2].kind, GetParam().kind) << got[2].message;
  EXPECT_NE(got[2].message.find(GetParam().message_part), std::string::npos) << got[2].message;

  std::vector<RunOutcome> rest;
  const size_t again = AskAll(b, absl::MakeConstSpan(items).subspan(3),
                              [&](size_t, BatchAnswer&& a) { rest.push_back(std::move(a.run)); });
  ASSERT_EQ(again, 2u);
  for (const RunOutcome& o : rest) EXPECT_EQ(o.kind, RunOutcome::Kind::kOutput) << o.message;
  EXPECT_EQ(b.starts(), 2);  // restarted once, after the fault
}

// The timeout is per case inside a batch: four cases of 0.3 s each under a 0.8 s timeout all
// answer (1.2 s in all), and a hang after them is still a hang of its own case.
TEST(Isolation, BatchTimeoutIsPerCase) {
  IsolatedBackend b("faulty", Faulty(Fault::kSlow), Timeout(0.8));
  const std::vector<OpCase> slow = {D2s(3), D2s(3), D2s(3), D2s(3)};
  const std::vector<BatchItem> items = RunItems(slow);
  std::vector<RunOutcome> got;
  EXPECT_EQ(AskAll(b, items, [&](size_t, BatchAnswer&& a) { got.push_back(std::move(a.run)); }),
            4u);
  ASSERT_EQ(got.size(), 4u);
  for (const RunOutcome& o : got) EXPECT_EQ(o.kind, RunOutcome::Kind::kOutput) << o.message;
  EXPECT_EQ(b.starts(), 1);
}

// The caller's work while the worker runs a batch (meanwhile) is not the cases' time: work
// longer than the timeout, over cases that answer at once, is no hang; a case that hangs after
// it is still a hang of its own case, in a timeout counted from the end of that work.
TEST(Isolation, TheCallersWorkMeanwhileIsNotACasesTime) {
  IsolatedBackend b("faulty", Faulty(Fault::kHang), Timeout(0.5));
  const std::vector<OpCase> cases = {D2s(2), D2s(2), D2s(3), D2s(2)};
  const std::vector<BatchItem> items = RunItems(cases);
  std::vector<RunOutcome> got;
  std::chrono::steady_clock::time_point work_done;
  const size_t answered = AskAll(
      b, items, [&](size_t, BatchAnswer&& a) { got.push_back(std::move(a.run)); },
      [&] {
        usleep(1'200'000);  // more than twice the timeout
        work_done = std::chrono::steady_clock::now();
      });
  const double after_work =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - work_done).count();
  ASSERT_EQ(answered, 3u);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].kind, RunOutcome::Kind::kOutput) << got[0].message;
  EXPECT_EQ(got[1].kind, RunOutcome::Kind::kOutput) << got[1].message;
  EXPECT_EQ(got[2].kind, RunOutcome::Kind::kHang) << got[2].message;
  EXPECT_NE(got[2].message.find("no answer within 0.5 s"), std::string::npos) << got[2].message;
  // The hang's timeout started after the work: it took a full timeout more.
  EXPECT_GE(after_work, 0.5);
  EXPECT_EQ(b.starts(), 1);
}

// A backend in this process does the caller's work first, once, then answers each item.
TEST(Isolation, ABackendInProcessDoesTheWorkMeanwhileFirst) {
  std::unique_ptr<Backend> b = MakeOracleBackend();
  const OpCase c = D2s(2);
  const std::vector<BatchItem> items = {{BatchItem::Kind::kRun, &c, nullptr},
                                        {BatchItem::Kind::kRun, &c, nullptr}};
  std::vector<std::string> events;
  EXPECT_EQ(b->RunBatch(
                items, [&](size_t i, BatchAnswer&&) { events.push_back(absl::StrCat("done ", i)); },
                [&] { events.push_back("meanwhile"); }),
            2u);
  EXPECT_EQ(events, (std::vector<std::string>{"meanwhile", "done 0", "done 1"}));
}

// A backend that leaves sleeping processes behind (killed with the worker's tree): `each` on
// every run, `more` more when block_size is 3.
class LeavesProcessesBackend : public Backend {
 public:
  LeavesProcessesBackend(int each, int more)
      : each_(each), more_(more), oracle_(MakeOracleBackend()) {}
  std::string Name() const override { return "leaves_processes"; }
  Capabilities GetCapabilities() const override { return SupportEverything(); }
  RunOutcome Run(const OpCase& c) override {
    const int n = each_ + (c.block_size == 3 ? more_ : 0);
    for (int i = 0; i < n; ++i) {
      if (fork() == 0) {
        for (;;) pause();
      }
    }
    return oracle_->Run(c);
  }

 private:
  int each_, more_;
  std::unique_ptr<Backend> oracle_;
};

BackendFactory LeavesProcesses(int each, int more) {
  return [each, more]() -> absl::StatusOr<std::unique_ptr<Backend>> {
    return std::unique_ptr<Backend>(new LeavesProcessesBackend(each, more));
  };
}

// The index of the first outcome that is not an output (got.size() if none).
size_t FirstNotOutput(const std::vector<RunOutcome>& got) {
  for (size_t k = 0; k < got.size(); ++k) {
    if (got[k].kind != RunOutcome::Kind::kOutput) return k;
  }
  return got.size();
}

// The process cap is counted per request: a backend that leaves one process behind per case
// never has a case past the cap, so no case fails, asked one by one or in batches; its tree
// grows past the cap only across cases, and the worker is then replaced (with every process
// it left) before the next case: a second worker start after about cap cases, not a verdict.
TEST(Isolation, AProcessLeftBehindPerCaseIsNoCasesFailureAndTheTreeIsBounded) {
  const OpCase c = D2s(2);
  for (const bool batches : {false, true}) {
    SCOPED_TRACE(batches ? "in batches" : "one by one");
    IsolatedBackend b("leaves_processes", LeavesProcesses(1, 0), Timeout(10.0));
    std::vector<RunOutcome> got;
    const std::vector<BatchItem> items(kMaxBatchItems, {BatchItem::Kind::kRun, &c, nullptr});
    const size_t want = 2 * kMaxWorkerProcesses + 16;
    while (got.size() < want) {
      if (batches) {
        AskAll(b, items, [&](size_t, BatchAnswer&& a) { got.push_back(std::move(a.run)); });
      } else {
        got.push_back(b.Run(c));
      }
    }
    const size_t first = FirstNotOutput(got);
    EXPECT_EQ(first, got.size()) << got[first].message;
    // Replaced each time its tree passed the cap: after cap + 1 cases, twice in 2 cap + 16.
    EXPECT_EQ(b.starts(), 3);
    EXPECT_TRUE(b.TakeUnattributedErrors().empty());
  }
}

// A batch pauses after a case that started a process: the cases after it are not answered
// by that batch (the worker awaits the next, and is not restarted), and go again.
TEST(Isolation, ABatchPausesAfterACaseThatStartedAProcess) {
  IsolatedBackend b("leaves_processes", LeavesProcesses(0, 1), Timeout(10.0));
  const std::vector<OpCase> cases = {D2s(2), D2s(2), D2s(3), D2s(2), D2s(2)};
  const std::vector<BatchItem> items = RunItems(cases);
  std::vector<RunOutcome> got;
  const auto keep = [&](size_t, BatchAnswer&& a) { got.push_back(std::move(a.run)); };
  // At case 2 at the latest (a process elsewhere on this machine may pause it sooner).
  EXPECT_LE(b.RunBatch(items, keep), 3u);
  const size_t first = got.size();
  EXPECT_EQ(AskAll(b, absl::MakeConstSpan(items).subspan(first), keep), 5 - first);
  ASSERT_EQ(got.size(), 5u);
  for (const RunOutcome& o : got) EXPECT_EQ(o.kind, RunOutcome::Kind::kOutput) << o.message;
  EXPECT_EQ(b.starts(), 1);
}

// A case that starts more processes than the cap, in a batch whose replies are read late (the
// caller's work meanwhile lets the worker run ahead): the cap is that case's crash, and the
// cases before it keep their outputs, as asked one by one.
TEST(Isolation, ACaseOverTheCapInABatchIsItsOwnCrashThoughItsRepliesAreReadLate) {
  IsolatedBackend b("leaves_processes", LeavesProcesses(0, kMaxWorkerProcesses + 20),
                    Timeout(10.0));
  const std::vector<OpCase> cases = {D2s(2), D2s(2), D2s(2), D2s(3), D2s(2)};
  const std::vector<BatchItem> items = RunItems(cases);
  std::vector<RunOutcome> got;
  const size_t answered = AskAll(
      b, items, [&](size_t, BatchAnswer&& a) { got.push_back(std::move(a.run)); },
      [] { usleep(500'000); });  // the worker has run case 3 before reply 0 is read
  ASSERT_EQ(answered, 4u);
  ASSERT_EQ(got.size(), 4u);
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(got[k].kind, RunOutcome::Kind::kOutput) << k << ": " << got[k].message;
  }
  EXPECT_EQ(got[3].kind, RunOutcome::Kind::kCrash);
  EXPECT_NE(got[3].message.find("worker.process_cap"), std::string::npos) << got[3].message;
}

// The last PID allocated is the number /proc/loadavg ends with (read here on its own), and a
// new process moves it.
TEST(Isolation, LastPidAllocatedIsTheKernelsAndMovesWithAFork) {
  const auto from_loadavg = [] {
    std::ifstream in("/proc/loadavg");
    std::string a, b, c, tasks;
    long last = -1;
    in >> a >> b >> c >> tasks >> last;
    return last;
  };
  bool agreed = false;
  // Another process may start between two reads: a read of /proc/loadavg between two equal
  // reads of ours is compared.
  for (int attempt = 0; attempt < 100 && !agreed; ++attempt) {
    const long before = LastPidAllocated();
    const long theirs = from_loadavg();
    if (LastPidAllocated() != before) continue;
    ASSERT_GT(before, 0);
    EXPECT_EQ(theirs, before);
    agreed = true;
  }
  EXPECT_TRUE(agreed);
  const long before = LastPidAllocated();
  const pid_t child = fork();
  if (child == 0) _exit(0);
  ASSERT_GT(child, 0);
  waitpid(child, nullptr, 0);
  EXPECT_NE(LastPidAllocated(), before);
}

// Shape questions ride in a batch too, answered as InferStatic() answers them.
TEST(Isolation, BatchCarriesShapeQuestions) {
  IsolatedBackend b(
      "oracle", []() -> absl::StatusOr<std::unique_ptr<Backend>> { return MakeOracleBackend(); },
      Timeout(5.0));
  const OpCase c = D2s(2);
  const PartialCase pc = PartialCase::FromStatic(c);
  const std::vector<BatchItem> items = {{BatchItem::Kind::kRun, &c, nullptr},
                                        {BatchItem::Kind::kInferStatic, nullptr, &pc}};
  BatchAnswer last;
  EXPECT_EQ(AskAll(b, items, [&](size_t, BatchAnswer&& a) { last = std::move(a); }), 2u);
  const ShapeOutcome single = b.InferStatic(pc);
  ASSERT_EQ(last.shape.kind, RunOutcome::Kind::kOutput) << last.shape.message;
  // [1,4,1,1] block 2 -> [1,1,2,2] (DepthToSpace: C / 4, H * 2, W * 2).
  EXPECT_EQ(last.shape.shape.ToString(), "[1,1,2,2]");
  EXPECT_EQ(single.shape.ToString(), "[1,1,2,2]");
}

// Through the runner (batches of the kernel lane): a crash in the middle of a batch is the
// verdict of its own case alone; the cases after it run in a fresh worker and pass.
TEST(Isolation, CrashInABatchIsItsOwnCaseVerdict) {
  std::vector<OpCase> cases = {D2s(2), D2s(2), D2s(3), D2s(2), D2s(2)};
  for (size_t i = 0; i < cases.size(); ++i) cases[i].id = "case" + std::to_string(i);
  RunOptions o;
  o.timeout_seconds = 2.0;
  const BackendRun run = RunBackend("faulty", Faulty(Fault::kSegv), PrepareCases(cases), o);
  ASSERT_EQ(run.results.size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(run.results[i].verdict, i == 2 ? Verdict::kCrash : Verdict::kPass)
        << i << ": " << run.results[i].detail;
  }
  EXPECT_EQ(run.worker_starts, 2);
}

// Crashes in InferStatic when block_size is 3; otherwise answers like the oracle. Declares the
// shape lane only (no kernels).
class CrashingShapes : public Backend {
 public:
  std::string Name() const override { return "crashing_shapes"; }
  Capabilities GetCapabilities() const override {
    Capabilities caps = SupportEverything();
    caps.kernels = false;
    caps.infer_static = true;
    return caps;
  }
  RunOutcome Run(const OpCase&) override { return RunOutcome::Of(RunOutcome::Kind::kRejected, ""); }
  ShapeOutcome InferStatic(const PartialCase& c) override {
    if (c.block_size == 3) raise(SIGSEGV);
    return OracleShapeOutcome(c);
  }
};

// Through the runner (batches of the shape lane): a crash in the middle of a batch is the
// verdict of its own shape case alone; the questions after it go to a fresh worker and pass.
TEST(Isolation, ShapeLaneCrashInABatchIsItsOwnCaseVerdict) {
  std::vector<ShapeCase> shapes;
  for (int64_t block : {2, 2, 3, 2, 2}) {
    ShapeCase s;
    s.id = "shape" + std::to_string(shapes.size());
    s.c = PartialCase::FromStatic(D2s(block));
    shapes.push_back(s);
  }
  const std::vector<PreparedShapeCase> prepared = PrepareShapeCases(shapes);
  ASSERT_EQ(prepared.size(), 5u);
  RunOptions o;
  o.timeout_seconds = 2.0;
  const ShapeCaseList shape_list(prepared);
  o.shape_cases = &shape_list;
  const BackendRun run = RunBackend(
      "crashing_shapes",
      []() -> absl::StatusOr<std::unique_ptr<Backend>> {
        return std::unique_ptr<Backend>(new CrashingShapes());
      },
      CaseList{}, o);
  ASSERT_EQ(run.results.size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(run.results[i].lane, CaseLane::kShapeStatic);
    EXPECT_EQ(run.results[i].verdict, i == 2 ? Verdict::kCrash : Verdict::kPass)
        << i << ": " << run.results[i].detail;
  }
  EXPECT_EQ(run.worker_starts, 2);
}

TEST(Isolation, FactoryFailureIsReportedNotFatal) {
  IsolatedBackend b(
      "broken",
      []() -> absl::StatusOr<std::unique_ptr<Backend>> {
        return absl::NotFoundError("plugin.load: nothing here");
      },
      Timeout(2.0));
  EXPECT_TRUE(b.GetCapabilities().ops.empty());
  EXPECT_NE(b.StartupError().find("plugin.load"), std::string::npos) << b.StartupError();
  RunOutcome o = b.Run(D2s(2));
  EXPECT_EQ(o.kind, RunOutcome::Kind::kHarnessError);
}

TEST(Isolation, CrashInConstructorIsACrash) {
  IsolatedBackend b(
      "ctor",
      []() -> absl::StatusOr<std::unique_ptr<Backend>> {
        raise(SIGSEGV);
        return absl::InternalError("unreachable");
      },
      Timeout(2.0));
  RunOutcome o = b.Run(D2s(2));
  EXPECT_EQ(o.kind, RunOutcome::Kind::kCrash) << o.message;
}

// A backend slow to build (a plugin's load) is not a hang: the case's timeout counts from its
// request, once the worker said it is ready; each fresh worker starts the same way.
TEST(Isolation, SlowStartIsNotTheFirstCasesTime) {
  IsolationOptions o = Timeout(0.2);
  o.startup_timeout_seconds = 10;
  IsolatedBackend b(
      "slow_start",
      []() -> absl::StatusOr<std::unique_ptr<Backend>> {
        usleep(600'000);  // three times the case timeout
        return std::unique_ptr<Backend>(new FaultyBackend(Fault::kSegv));
      },
      o);
  RunOutcome first = b.Run(D2s(2));
  EXPECT_EQ(first.kind, RunOutcome::Kind::kOutput) << first.message;
  EXPECT_EQ(b.Run(D2s(3)).kind, RunOutcome::Kind::kCrash);
  // After the crash: a fresh worker, slow to start again, in a batch this time.
  const OpCase again = D2s(2);
  const BatchItem item{BatchItem::Kind::kRun, &again, nullptr};
  std::vector<RunOutcome::Kind> kinds;
  b.RunBatch({item}, [&](size_t, BatchAnswer&& a) { kinds.push_back(a.run.kind); });
  EXPECT_EQ(kinds, std::vector<RunOutcome::Kind>{RunOutcome::Kind::kOutput});
  EXPECT_EQ(b.starts(), 2);
}

// A backend that never finishes building is the first case's hang, named as a start, after
// the startup timeout (never less than the case timeout).
TEST(Isolation, StartPastItsTimeoutIsAHangNamedAsAStart) {
  IsolationOptions o = Timeout(0.2);
  o.startup_timeout_seconds = 0.5;
  IsolatedBackend b(
      "never_starts",
      []() -> absl::StatusOr<std::unique_ptr<Backend>> {
        for (;;) pause();
      },
      o);
  const auto start = std::chrono::steady_clock::now();
  RunOutcome first = b.Run(D2s(2));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(first.kind, RunOutcome::Kind::kHang) << first.message;
  EXPECT_NE(first.message.find("worker.start: the backend did not start within 0.5 s"),
            std::string::npos)
      << first.message;
  EXPECT_GE(seconds, 0.5);
}

TEST(Isolation, CapabilitiesAndUnsupportedComeFromTheWorker) {
  IsolatedBackend b(
      "oracle", []() -> absl::StatusOr<std::unique_ptr<Backend>> { return MakeOracleBackend(); },
      {});
  EXPECT_EQ(b.GetCapabilities().ops.size(), 5u);
  // A large output crosses the pipe intact (more than a pipe buffer).
  OpCase big = D2s(2);
  big.data = *MakeTensor(ElementType::kF32, {4, 4, 64, 64}, [](int64_t i) { return i * 7 + 1; });
  RunOutcome o = b.Run(big);
  ASSERT_EQ(o.kind, RunOutcome::Kind::kOutput) << o.message;
  EXPECT_EQ(o.output->shape, (Shape{4, 1, 128, 128}));
  EXPECT_EQ(o.output->bytes.size(), 4u * 128 * 128 * 4);
}

}  // namespace
}  // namespace dmconf
