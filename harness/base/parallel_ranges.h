// ForEachRange: work over indices [0, n) split into contiguous ranges, one per thread, for
// work whose item i depends on i alone (so the result is the same for any thread count).
//
// Example:
//   std::vector<Out> out(in.size());
//   ForEachRange(in.size(), jobs, [&](size_t begin, size_t end) {
//     for (size_t i = begin; i < end; ++i) out[i] = Make(in[i]);
//   });
#ifndef DMCONF_HARNESS_BASE_PARALLEL_RANGES_H_
#define DMCONF_HARNESS_BASE_PARALLEL_RANGES_H_

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace dmconf {

// Calls f(begin, end) for contiguous ranges covering [0, n): in min(threads, n / 64 + 1)
// threads (this one among them), so that fewer than 64 items take no thread of their own.
template <typename F>
void ForEachRange(size_t n, int threads, F f) {
  const size_t t_count = std::min(static_cast<size_t>(std::max(threads, 1)), n / 64 + 1);
  std::vector<std::thread> pool;
  for (size_t t = 1; t < t_count; ++t) {
    pool.emplace_back([&f, n, t, t_count] { f(n * t / t_count, n * (t + 1) / t_count); });
  }
  f(size_t{0}, n / t_count);
  for (std::thread& th : pool) th.join();
}

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BASE_PARALLEL_RANGES_H_
