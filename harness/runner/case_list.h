// The kernel cases of a run, in the order they run. Each is either held (a PreparedCase: the
// curated cases, the cases of vector files, sweep cases that cannot be made again) or *unheld*:
// a sweep case kept as its sweep index and the four facts the run reads of every case without
// running it (op, data element type, rank and mode, for the hang and crash budgets and the
// declared slices), 8 bytes in all. An unheld case is made whole again from its index
// (RunOptions::sweep_case, runner.h) when its lane reaches it, and held from then on only when
// it fails (MakeFailingCasesWhole). A run of 10^6 sweep cases holds 8 MB of them instead of
// about 1.1 GB (docs/performance.md).
//
// Example:
//   CaseList cases(std::move(prepared));            // every case held
//   if (!cases.AddUnheld(c, sweep_index)) cases.Add(PreparedOf(c));
//   const PreparedCase* p = cases.Held(i);          // nullptr: unheld
#ifndef DMCONF_HARNESS_RUNNER_CASE_LIST_H_
#define DMCONF_HARNESS_RUNNER_CASE_LIST_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/backend/backend.h"
#include "oracle/oracle.h"

namespace dmconf {

// A case with the oracle's expectation, computed once and shared by every backend.
struct PreparedCase {
  OpCase c;
  absl::StatusOr<Expectation> expectation = absl::UnknownError("not evaluated");
  std::string source_file;  // the vector file the case was read from (empty: catalogue)
  // A hollow case (>= 0): held without its tensors (c.data.bytes and expectation->output are
  // empty; the expectation's kind, rule and output shape are set), they are made from this
  // index when the case runs (RunOptions::hollow_data, MakeWhole). -1: held whole.
  int64_t hollow_index = -1;
};

class CaseList {
 public:
  CaseList() = default;
  // Every case of `held`, in order.
  explicit CaseList(std::vector<PreparedCase> held);

  size_t size() const { return order_.empty() ? held_.size() : order_.size(); }
  bool empty() const { return size() == 0; }

  // Adds a held case.
  void Add(PreparedCase p);
  // Adds sweep case `sweep_index`, whose selected form is `c` (its data may be left out),
  // unheld. False, and nothing added, when its facts do not fit (an index of 2^31 or more, a
  // rank above 15, a mode that is not one of the specifications'): the caller holds it instead.
  bool AddUnheld(const OpCase& c, int64_t sweep_index);
  // Whether AddUnheld would take the case.
  static bool Fits(const OpCase& c, int64_t sweep_index);

  // Case i, or nullptr when it is unheld.
  const PreparedCase* Held(size_t i) const;
  // The sweep index of unheld case i; -1 for a held case.
  int64_t SweepIndex(size_t i) const;
  // Case i's op.
  Op OpAt(size_t i) const;
  // Whether slice `s` covers case i (OpSupportCovers).
  bool InSlice(size_t i, const OpSupport& s) const;
  // Whether `c` has unheld case i's facts (op, element type, rank and mode): the check on a
  // case made again. True for a held case.
  bool Matches(size_t i, const OpCase& c) const;
  // Case i held from now on as `whole` (a hollow or unheld case that failed, made whole to be
  // saved, confirmed and shrunk). References to other held cases stay valid.
  void Hold(size_t i, PreparedCase whole);

 private:
  // Unheld: bit 63 set; the sweep index in bits 0-30, the op in 32-34, the element type in
  // 35-39, the rank in 40-43 and the mode's code (ModeCode) in 44-46. Held: held_'s index.
  static constexpr uint64_t kUnheld = uint64_t{1} << 63;
  void MakeOrder();
  std::deque<PreparedCase> held_;  // a deque: Add and Hold move no held case
  std::vector<uint64_t> order_;    // empty: case i is held_[i]
};

}  // namespace dmconf

#endif  // DMCONF_HARNESS_RUNNER_CASE_LIST_H_
