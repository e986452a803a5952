// The cases of a run, in the order they run: its kernel cases (CaseList) and its shape cases
// (ShapeCaseList). Each case is either held (a PreparedCase / PreparedShapeCase: the curated
// cases, the cases of vector files, sweep cases that cannot be made again) or *unheld*: kept as
// the indices it is made from and the facts the run reads of every case without running it,
// and made whole again (RunOptions::sweep_case and shape_case, runner.h) when its lane reaches
// it; it is held from then on only when it fails (MakeFailingCasesWhole).
// - An unheld kernel case is a sweep case: its sweep index and its op, data element type, rank
//   and mode (the hang and crash budgets go by op, the declared slices by all four). A mode no
//   specification names (a negative case's misspelt one, which a backend may still declare) is
//   coded by the list itself: it keeps up to 10 such strings.
// - An unheld shape case is the widening of such a sweep case (shape_lane.h): its catalogue
//   position (the widening's seed), the sweep index, its op and whether it is static (which
//   entry a backend is asked).
// The indices of consecutive sweep cases count up together and are kept as runs
// (compact_sequence.h); the facts take 2 bytes a kernel case and 1 a shape case. A run of 10^7
// sweep cases holds about 30 MB of them (docs/performance.md).
//
// Example:
//   CaseList cases(std::move(prepared));            // every case held
//   CaseList view = CaseList::ViewOf(prepared);      // every case read where it is
//   if (!cases.AddUnheld(c, sweep_index)) cases.Add(PreparedOf(c));
//   std::optional<uint16_t> f = cases.UnheldFacts(c, sweep_index);  // decide now, add later
//   if (f.has_value()) cases.AddUnheld(sweep_index, *f);
//   const PreparedCase* p = cases.Held(i);          // nullptr: unheld
#ifndef DMCONF_HARNESS_RUNNER_CASE_LIST_H_
#define DMCONF_HARNESS_RUNNER_CASE_LIST_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/backend/backend.h"
#include "harness/runner/compact_sequence.h"
#include "harness/runner/shape_lane.h"
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

namespace internal {

// What both lists share: the held cases and, once any case is unheld, the order of all of
// them and the facts of each. An entry of order_ with bit 63 set is an unheld case (the other
// bits are the list's: consecutive sweep cases count up, so the entries of a sweep are a few
// runs, compact_sequence.h); any other is the index of a held case. The facts are the list's
// too (Facts{} for a held case).
template <typename Prepared, typename Facts>
class HeldOrUnheld {
 public:
  size_t size() const {
    if (view_ != nullptr) return view_->size();
    return ordered_ ? order_.size() : held_.size();
  }
  bool empty() const { return size() == 0; }
  // Adds a held case.
  void Add(Prepared p) {
    Own();
    held_.push_back(std::move(p));
    if (ordered_) {
      order_.push_back(held_.size() - 1);
      facts_.push_back(Facts{});
    }
  }
  // Case i, or nullptr when it is unheld.
  const Prepared* Held(size_t i) const {
    if (view_ != nullptr) return &(*view_)[i];
    if (!ordered_) return &held_[i];
    const uint64_t e = order_[i];
    return (e & kUnheld) != 0 ? nullptr : &held_[e];
  }
  // Case i held from now on as `whole` (a case that failed, made whole to be saved, confirmed
  // and shrunk). References to other held cases stay valid (held_ is a deque).
  void Hold(size_t i, Prepared whole) {
    Own();
    if (!IsUnheld(i)) {
      held_[ordered_ ? order_[i] : i] = std::move(whole);
      return;
    }
    held_.push_back(std::move(whole));
    order_.Set(i, held_.size() - 1);
  }

 protected:
  HeldOrUnheld() = default;
  explicit HeldOrUnheld(std::vector<Prepared> held) {
    for (Prepared& p : held) held_.push_back(std::move(p));
  }
  // A view: every case of `*view`, held by the caller, which outlives the list. The first
  // change (Add, Hold, AddEntry) copies them in.
  explicit HeldOrUnheld(const std::vector<Prepared>* view) : view_(view) {}
  static constexpr uint64_t kUnheld = uint64_t{1} << 63;
  bool IsUnheld(size_t i) const { return ordered_ && (order_[i] & kUnheld) != 0; }
  // Unheld case i's entry, bit 63 cleared, and its facts.
  uint64_t Entry(size_t i) const { return order_[i] & ~kUnheld; }
  Facts FactsAt(size_t i) const { return facts_[i]; }
  void AddEntry(uint64_t entry, Facts facts) {
    Own();
    if (!ordered_) {
      for (size_t k = 0; k < held_.size(); ++k) {
        order_.push_back(k);
        facts_.push_back(Facts{});
      }
      ordered_ = true;
    }
    order_.push_back(kUnheld | entry);
    facts_.push_back(facts);
  }

 private:
  void Own() {
    if (view_ == nullptr) return;
    held_.assign(view_->begin(), view_->end());
    view_ = nullptr;
  }

  const std::vector<Prepared>* view_ = nullptr;  // set: the cases are *view_, all held
  std::deque<Prepared> held_;
  bool ordered_ = false;   // false: case i is held_[i]
  CompactSequence order_;  // case i's entry
  // Case i's facts: a deque, so that a list of 10^7 grows without a vector's slack or copy.
  std::deque<Facts> facts_;
};

}  // namespace internal

class CaseList : public internal::HeldOrUnheld<PreparedCase, uint16_t> {
 public:
  CaseList() = default;
  // Every case of `held`, in order.
  explicit CaseList(std::vector<PreparedCase> held) : HeldOrUnheld(std::move(held)) {}
  // Every case of `cases`, in order, read where they are (not copied): `cases` must outlive
  // the list. What a caller with its own vector passes to RunBackend.
  static CaseList ViewOf(const std::vector<PreparedCase>& cases) { return CaseList(&cases); }

  // Adds sweep case `sweep_index`, whose selected form is `c` (its data may be left out),
  // unheld. False, and nothing added, when its facts do not fit (UnheldFacts): the caller
  // holds it.
  bool AddUnheld(const OpCase& c, int64_t sweep_index);
  // The facts sweep case `sweep_index` (selected form `c`) is kept unheld with in this list, or
  // nullopt when they do not fit and the caller must hold it: an index below 2^31, a rank up to
  // 15, and no mode, one of the specifications', or one of at most 10 others. A mode of the
  // others that the list has not seen is given the next free code from now on (whether the
  // case is added or not).
  std::optional<uint16_t> UnheldFacts(const OpCase& c, int64_t sweep_index);
  // Adds sweep case `sweep_index` unheld with `facts` (this list's UnheldFacts of it).
  void AddUnheld(int64_t sweep_index, uint16_t facts);
  // The most modes no specification names that a list codes.
  static constexpr size_t kOtherModes = 10;

  // The sweep index of unheld case i; -1 for a held case.
  int64_t SweepIndex(size_t i) const;
  // Case i's op.
  Op OpAt(size_t i) const;
  // Whether slice `s` covers case i (OpSupportCovers).
  bool InSlice(size_t i, const OpSupport& s) const;
  // Whether `c` has unheld case i's facts (op, element type, rank and mode): the check on a
  // case made again. True for a held case.
  bool Matches(size_t i, const OpCase& c) const;

 private:
  explicit CaseList(const std::vector<PreparedCase>* view) : HeldOrUnheld(view) {}
  // The mode of mode code `code` (nullptr: none).
  const std::string* ModeOfCode(unsigned code) const;
  // The code of mode `m` (0: none; a mode of the others not seen yet takes the next free code),
  // or nullopt when it needs a code and none is left.
  std::optional<unsigned> ModeCode(const std::optional<std::string>& m);

  // The modes no specification names, coded 6, 7, ... in the order first seen.
  std::array<std::string, kOtherModes> other_modes_;
  size_t other_mode_count_ = 0;
};

class ShapeCaseList : public internal::HeldOrUnheld<PreparedShapeCase, uint8_t> {
 public:
  ShapeCaseList() = default;
  explicit ShapeCaseList(std::vector<PreparedShapeCase> held) : HeldOrUnheld(std::move(held)) {}

  // Adds `s`, the widening of catalogue position `position` whose kernel case is sweep case
  // `sweep_index`, unheld. False, and nothing added, when it does not fit (Fits).
  bool AddUnheld(const ShapeCase& s, int64_t position, int64_t sweep_index);
  // Whether AddUnheld takes it: a position and a sweep index below 2^29.
  static bool Fits(int64_t position, int64_t sweep_index);

  // Unheld case i's catalogue position and sweep index; -1 for a held case.
  int64_t Position(size_t i) const;
  int64_t SweepIndex(size_t i) const;
  Op OpAt(size_t i) const;
  // Whether case i is static (PartialCase::IsStatic).
  bool IsStatic(size_t i) const;
  // Whether `s` has unheld case i's op and staticness: the check on a case made again. True
  // for a held case.
  bool Matches(size_t i, const ShapeCase& s) const;
};

// The cases of a run: the kernel lane's and the shape lane's (shape_lane.h; run by every backend
// that declares infer_static / infer_partial, after its kernel cases).
struct RunCases {
  CaseList kernel;
  ShapeCaseList shape;
};

}  // namespace dmconf

#endif  // DMCONF_HARNESS_RUNNER_CASE_LIST_H_
