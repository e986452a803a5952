// Splitting one primitive's work between threads (EvalOptions::threads).
//
// Example (two halves of a copy, the second on a thread of its own):
//   ParallelFor(2, [&](int part) { CopyHalf(part); });
#ifndef DMCONF_ORACLE_PRIMITIVES_PARALLEL_H_
#define DMCONF_ORACLE_PRIMITIVES_PARALLEL_H_

#include <cstdint>
#include <system_error>
#include <thread>
#include <vector>

namespace dmconf {

// Outputs of at least this many bytes are split between threads; below it a thread's start
// costs more than it saves.
inline constexpr int64_t kParallelBytes = int64_t{1} << 20;

// Runs body(part) for every part in [0, parts): part 0 on the calling thread, the others on
// threads started here, and returns when all are done. The parts must write disjoint memory.
// A thread that cannot be started (std::system_error) has its part run on the calling thread,
// so the result never depends on how many threads actually ran.
template <typename Body>
void ParallelFor(int parts, const Body& body) {
  std::vector<std::thread> pool;
  std::vector<int> inline_parts;
  for (int part = 1; part < parts; ++part) {
    try {
      pool.emplace_back([&body, part] { body(part); });
    } catch (const std::system_error&) {
      inline_parts.push_back(part);
    }
  }
  if (parts > 0) body(0);
  for (int part : inline_parts) body(part);
  for (std::thread& t : pool) t.join();
}

}  // namespace dmconf

#endif  // DMCONF_ORACLE_PRIMITIVES_PARALLEL_H_
