#include "harness/gen/chooser.h"

namespace dmconf {

size_t Chooser::Weighted(std::initializer_list<int> weights) {
  int64_t total = 0;
  for (int w : weights) total += w;
  int64_t r = Int(0, total - 1);
  size_t i = 0;
  for (int w : weights) {
    if (r < w) return i;
    r -= w;
    ++i;
  }
  return weights.size() - 1;
}

uint64_t SeededChooser::Next() {
  // SplitMix64 (Steele, Lea, Flood 2014): a full-period 64-bit generator, good enough for
  // test-case selection and identical everywhere.
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

int64_t SeededChooser::Int(int64_t lo, int64_t hi) {
  if (lo >= hi) return lo;
  // Width of the range minus one, in unsigned arithmetic (the full int64 range fits).
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  uint64_t r = Next();
  if (span != UINT64_MAX) {
    // Rejection sampling keeps the draw unbiased.
    const uint64_t n = span + 1;
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    while (r >= limit) r = Next();
    r %= n;
  }
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + r);
}

uint64_t MixSeed(uint64_t seed, uint64_t index) {
  SeededChooser c(seed ^ (index * 0xD1B54A32D192ED03ull));
  c.Next();
  return c.Next();
}

}  // namespace dmconf
