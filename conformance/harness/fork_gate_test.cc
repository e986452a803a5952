// The fork gate (harness/isolation/fork_gate.h): a fork under the gate never copies a lock
// that a busy thread holds, and a busy thread that waits (Pause) does not hold a fork back.
#include "harness/isolation/fork_gate.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

#include "gtest/gtest.h"

namespace dmconf {
namespace {

using Clock = std::chrono::steady_clock;

// A busy thread that holds `lock` nearly all the time: 200 us held, then a Yield.
class Holder {
 public:
  explicit Holder(std::mutex& lock)
      : thread_([this, &lock] {
          const ForkGate::Busy busy;
          started_ = true;
          while (!stop_) {
            {
              const std::lock_guard<std::mutex> hold(lock);
              const auto until = Clock::now() + std::chrono::microseconds(200);
              while (Clock::now() < until) {
              }
            }
            ForkGate::Yield();
          }
        }) {
    while (!started_) std::this_thread::yield();
  }
  ~Holder() {
    stop_ = true;
    thread_.join();
  }

 private:
  std::atomic<bool> started_{false};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// Forks a child that tries `lock` and exits 0 if it was free; true if so.
bool ChildFindsItFree(std::mutex& lock, bool through_gate) {
  pid_t pid;
  if (through_gate) {
    const ForkGate::Fork gate;
    pid = fork();
  } else {
    pid = fork();
  }
  if (pid == 0) _exit(lock.try_lock() ? 0 : 1);
  int status = 0;
  EXPECT_EQ(waitpid(pid, &status, 0), pid);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

TEST(ForkGate, AForkNeverCopiesALockABusyThreadHolds) {
  std::mutex lock;
  const Holder holder(lock);
  int held_without_gate = 0;
  for (int i = 0; i < 30; ++i) held_without_gate += ChildFindsItFree(lock, false) ? 0 : 1;
  // The control: without the gate the child inherits the lock held (so the check can fail).
  EXPECT_GT(held_without_gate, 0);
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(ChildFindsItFree(lock, true)) << "fork " << i << " copied the lock held";
  }
}

TEST(ForkGate, AWaitingThreadDoesNotHoldAForkBack) {
  std::atomic<bool> paused{false};
  std::thread waiter([&] {
    const ForkGate::Busy busy;
    const ForkGate::Pause pause;  // as a lane polls its worker's pipe
    paused = true;
    std::this_thread::sleep_for(std::chrono::seconds(3));
  });
  while (!paused) std::this_thread::yield();
  const auto start = Clock::now();
  { const ForkGate::Fork gate; }
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(2));
  waiter.join();
}

// A busy thread that forks steps out for its fork and back in after it; a second busy thread
// gives way at its Yield.
TEST(ForkGate, BusyThreadsForkInTurn) {
  std::mutex lock;
  const Holder holder(lock);
  int free = 0;
  std::thread forker([&] {
    const ForkGate::Busy busy;
    for (int i = 0; i < 50; ++i) free += ChildFindsItFree(lock, true) ? 1 : 0;
  });
  forker.join();
  EXPECT_EQ(free, 50);
}

}  // namespace
}  // namespace dmconf
