// A sequence of uint64_t values held as runs of arithmetic progressions (a run: where it
// starts, its first value and its step), for the values a run keeps of each of its cases
// (case_list.h, BackendRun::shape_case_index), which mostly count up a case at a time: the
// entries of 10^7 consecutive sweep cases are one run of 24 bytes instead of 80 MB. Values
// with no progression in them take 12 bytes each (runs of two). A value changed afterwards
// (Set: a case held once it failed) is kept beside the runs, in a map: for a few values.
//
// Example:
//   CompactSequence s;
//   for (uint64_t v = 7; v < 1007; ++v) s.push_back(v);  // one run: 7, 8, ... 1006
//   s.push_back(3);                                      // a second run
//   s.Set(10, 99);                                       // s[10] == 99, the run as it was
#ifndef DMCONF_HARNESS_RUNNER_COMPACT_SEQUENCE_H_
#define DMCONF_HARNESS_RUNNER_COMPACT_SEQUENCE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace dmconf {

class CompactSequence {
 public:
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Value i (i < size()).
  uint64_t operator[](size_t i) const;
  // Appends v: to the last run when it continues its progression (any step, wrapping modulo
  // 2^64; a run of one takes any second value), else as a new run.
  void push_back(uint64_t v);
  // Value i (i < size()) is v from now on.
  void Set(size_t i, uint64_t v) { changed_[i] = v; }
  // The runs held (what the sequence costs: 24 bytes each).
  size_t runs() const { return runs_.size(); }

 private:
  struct Run {
    size_t begin;    // the position of its first value
    uint64_t first;  // its first value
    uint64_t step;   // value begin + k is first + k * step
  };
  std::vector<Run> runs_;
  std::map<size_t, uint64_t> changed_;
  size_t size_ = 0;
};

}  // namespace dmconf

#endif  // DMCONF_HARNESS_RUNNER_COMPACT_SEQUENCE_H_
