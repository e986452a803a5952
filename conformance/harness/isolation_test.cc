// The worker isolation: a backend that crashes, aborts, exits, hangs or fails to start never
// takes the harness down; each becomes that case's outcome and the next case runs in a fresh
// worker.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>

#include "gtest/gtest.h"
#include "harness/backends/oracle/oracle_backend.h"
#include "harness/isolation/worker.h"

namespace dmconf {
namespace {

IsolationOptions Timeout(double s) {
  IsolationOptions o;
  o.timeout_seconds = s;
  return o;
}

// Misbehaves when block_size is 3; otherwise answers like the oracle.
enum class Fault { kSegv, kAbort, kExit, kHang, kFpe };

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

OpCase D2s(int64_t block) {
  OpCase c;
  c.op = Op::kDepthToSpace;
  c.data =
      *MakeTensor(ElementType::kF32, {1, block * block, 1, 1}, [](int64_t i) { return i + 1; });
  c.block_size = block;
  c.mode = "blocks_first";
  return c;
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
