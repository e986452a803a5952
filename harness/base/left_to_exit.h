// LeaveToExit: large structures a command holds to its end, handed to the operating system at
// exit instead of freed piece by piece. A `dmconf run` of 10^5 cases spent about a quarter of
// a second in the destructors of its cases, shape cases and results after its reports were
// written: work on one thread that the exit does at once (docs/performance.md, "The serial
// tail"). Only for a command whose process exits next: what is handed over stays held, and
// reachable, until then (so a leak checker does not count it), and its destructor never runs,
// so it must own nothing but memory (no file, lock or process).
//
// Example:
//   LeaveToExit(std::move(cases));  // `cases` is left empty; its memory goes at exit
#ifndef DMCONF_HARNESS_BASE_LEFT_TO_EXIT_H_
#define DMCONF_HARNESS_BASE_LEFT_TO_EXIT_H_

#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

namespace dmconf {

namespace internal {
// What is left to the exit, and its lock. Never destroyed: what it holds stays reachable from
// here until the process ends.
struct LeftToExit {
  std::mutex mu;
  std::vector<std::shared_ptr<void>> held;
};
inline LeftToExit& LeftToExitHeld() {
  static LeftToExit* const left = new LeftToExit;
  return *left;
}
}  // namespace internal

template <typename T>
void LeaveToExit(T&& value) {
  static_assert(!std::is_lvalue_reference_v<T>, "LeaveToExit takes what is moved into it");
  std::shared_ptr<void> kept = std::make_shared<std::decay_t<T>>(std::move(value));
  internal::LeftToExit& left = internal::LeftToExitHeld();
  const std::lock_guard<std::mutex> guard(left.mu);
  left.held.push_back(std::move(kept));
}

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BASE_LEFT_TO_EXIT_H_
