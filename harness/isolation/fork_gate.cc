#include "harness/isolation/fork_gate.h"

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace dmconf {
namespace {

std::mutex g_mutex;
std::condition_variable g_changed;
int g_inside = 0;                     // busy threads inside (not paused)
std::atomic<int> g_forks_waiting{0};  // read without the lock by Yield
bool g_forking = false;
thread_local int t_busy = 0;  // this thread's Busy scopes (nested ones count once)
thread_local bool t_inside = false;

void Enter() {
  std::unique_lock<std::mutex> lock(g_mutex);
  g_changed.wait(lock, [] { return g_forks_waiting.load() == 0 && !g_forking; });
  ++g_inside;
  t_inside = true;
}

void Leave() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  --g_inside;
  t_inside = false;
  g_changed.notify_all();
}

}  // namespace

ForkGate::Busy::Busy() {
  if (t_busy++ == 0) Enter();
}

ForkGate::Busy::~Busy() {
  if (--t_busy == 0 && t_inside) Leave();
}

ForkGate::Pause::Pause() : stepped_out_(t_inside) {
  if (stepped_out_) Leave();
}

ForkGate::Pause::~Pause() {
  if (stepped_out_) Enter();
}

ForkGate::Fork::Fork() : was_busy_(t_inside) {
  if (was_busy_) Leave();
  std::unique_lock<std::mutex> lock(g_mutex);
  ++g_forks_waiting;
  g_changed.wait(lock, [] { return g_inside == 0 && !g_forking; });
  --g_forks_waiting;
  g_forking = true;
}

ForkGate::Fork::~Fork() {
  {
    const std::lock_guard<std::mutex> lock(g_mutex);
    g_forking = false;
    g_changed.notify_all();
  }
  if (was_busy_) Enter();
}

void ForkGate::Yield() {
  if (t_inside && g_forks_waiting.load(std::memory_order_relaxed) > 0) {
    Leave();
    Enter();
  }
}

}  // namespace dmconf
