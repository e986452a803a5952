#include "harness/runner/compact_sequence.h"

#include <algorithm>

namespace dmconf {

uint64_t CompactSequence::operator[](size_t i) const {
  if (!changed_.empty()) {
    const auto it = changed_.find(i);
    if (it != changed_.end()) return it->second;
  }
  // The last run that begins at or before i (the first run begins at 0).
  const auto after = std::upper_bound(runs_.begin(), runs_.end(), i,
                                      [](size_t at, const Run& r) { return at < r.begin; });
  const Run& r = *(after - 1);
  return r.first + static_cast<uint64_t>(i - r.begin) * r.step;
}

void CompactSequence::push_back(uint64_t v) {
  if (!runs_.empty()) {
    Run& r = runs_.back();
    const auto length = static_cast<uint64_t>(size_ - r.begin);
    if (length == 1) r.step = v - r.first;
    if (length == 1 || v == r.first + length * r.step) {
      ++size_;
      return;
    }
  }
  runs_.push_back(Run{size_, v, 0});
  ++size_;
}

}  // namespace dmconf
