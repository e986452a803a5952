// The bounded child process and the one text that names a child's death
// (harness/isolation/child_process.h): lines streamed in order, the wait status of a child
// that exits or is killed, a child killed at its deadline, and $PATH lookup. Expected texts are
// written out by hand from the wait-status rules of POSIX (WIFEXITED / WIFSIGNALED).
#include "harness/isolation/child_process.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace dmconf {
namespace {

TEST(ChildProcess, StreamsLinesAndNamesAnExitStatus) {
  std::vector<std::string> lines;
  absl::StatusOr<ChildResult> r = RunChild({"sh", "-c", "echo one; echo two; printf tail; exit 3"},
                                           30, [&](const std::string& l) { lines.push_back(l); });
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->timed_out);
  EXPECT_EQ(lines, (std::vector<std::string>{"one", "two", "tail"}));
  ASSERT_TRUE(WIFEXITED(r->status));
  EXPECT_EQ(WaitStatusText(r->status), "exited with status 3");
}

TEST(ChildProcess, NamesTheSignalThatKilledIt) {
  absl::StatusOr<ChildResult> r =
      RunChild({"sh", "-c", "kill -ABRT $$"}, 30, [](const std::string&) {});
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(WIFSIGNALED(r->status));
  EXPECT_EQ(WaitStatusText(r->status), "killed by SIGABRT (signal 6)");
}

TEST(ChildProcess, KilledAtItsDeadline) {
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<ChildResult> r = RunChild({"sleep", "60"}, 1, [](const std::string&) {});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->timed_out);
  EXPECT_LT(seconds, 30.0);  // killed, not waited for
}

TEST(ChildProcess, WaitStatusTextOfHandMadeStatuses) {
  // Linux encodes an exit as (code << 8) and a death by signal as the signal number.
  EXPECT_EQ(WaitStatusText(0), "exited with status 0");
  EXPECT_EQ(WaitStatusText(1 << 8), "exited with status 1");
  EXPECT_EQ(WaitStatusText(SIGKILL), "killed by SIGKILL (signal 9)");
  EXPECT_EQ(WaitStatusText(SIGSEGV), "killed by SIGSEGV (signal 11)");
  EXPECT_EQ(SignalName(SIGTERM), "SIGTERM (signal 15)");
}

TEST(ChildProcess, OnPath) {
  EXPECT_TRUE(OnPath("sh"));
  EXPECT_FALSE(OnPath("dmconf-no-such-program-on-any-path"));
}

}  // namespace
}  // namespace dmconf
