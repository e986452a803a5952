// Chooser: the one source of entropy for every case builder.
//
// A builder asks the chooser for small integers; the chooser decides how they are produced.
// Three drivers implement it, so one set of builders serves all three:
//   SeededChooser (below)        a seeded PRNG: `dmconf run` sweeps, vector generation;
//   RcChooser (conformance/properties/rc_chooser.h)   RapidCheck, so failures shrink;
//   FuzzChooser (fuzz/fuzz_chooser.h)                 libFuzzer's FuzzedDataProvider.
// Builders order their alternatives simplest first: drivers that shrink move towards `lo`, and
// an exhausted fuzz input answers `lo`, so the smallest answers give the smallest cases.
//
// Example:
//   SeededChooser ch(42);
//   int64_t rank = ch.Int(2, 8);
//   bool flag = ch.Bool();
//   size_t k = ch.Weighted({6, 3, 1});   // 0 with weight 6, 1 with 3, 2 with 1
#ifndef DMCONF_HARNESS_GEN_CHOOSER_H_
#define DMCONF_HARNESS_GEN_CHOOSER_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "absl/types/span.h"

namespace dmconf {

class Chooser {
 public:
  virtual ~Chooser() = default;

  // An integer in [lo, hi] (inclusive). Requires lo <= hi; lo == hi answers lo without
  // consuming entropy.
  virtual int64_t Int(int64_t lo, int64_t hi) = 0;

  bool Bool() { return Int(0, 1) == 1; }
  // An index in [0, n), n >= 1.
  size_t Index(size_t n) { return static_cast<size_t>(Int(0, static_cast<int64_t>(n) - 1)); }
  // An index i in [0, weights.size()) with probability weights[i] / sum (for uniform drivers).
  size_t Weighted(std::initializer_list<int> weights);
  template <typename T>
  const T& Pick(absl::Span<const T> items) {
    return items[Index(items.size())];
  }
};

// A seeded pseudo-random chooser (SplitMix64). The same seed gives the same answers on every
// platform and compiler, so (seed, builder options) reproduces a case exactly.
class SeededChooser : public Chooser {
 public:
  explicit SeededChooser(uint64_t seed) : state_(seed) {}
  int64_t Int(int64_t lo, int64_t hi) override;
  uint64_t Next();  // the next raw 64-bit output

 private:
  uint64_t state_;
};

// Mixes a seed with an index into an independent seed (for per-case seeds of a sweep).
uint64_t MixSeed(uint64_t seed, uint64_t index);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_GEN_CHOOSER_H_
