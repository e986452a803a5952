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
// Never destroyed: what it holds is reachable from here until the process ends.
inline std::vector<std::shared_ptr<void>>& LeftToExit(std::mutex** lock) {
  static std::mutex* const mu = new std::mutex;
  static std::vector<std::shared_ptr<void>>* const held = new std::vector<std::shared_ptr<void>>;
  *lock = mu;
  return *held;
}
}  // namespace internal

template <typename T>
void LeaveToExit(T&& value) {
  static_assert(!std::is_lvalue_reference_v<T>, "LeaveToExit takes what is moved into it");
  std::shared_ptr<void> kept = std::make_shared<std::decay_t<T>>(std::move(value));
  std::mutex* mu = nullptr;
  std::vector<std::shared_ptr<void>>& held = internal::LeftToExit(&mu);
  const std::lock_guard<std::mutex> guard(*mu);
  held.push_back(std::move(kept));
}

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BASE_LEFT_TO_EXIT_H_
