// Shrinking a failing case to a minimal repro: greedy reduction to a local minimum that keeps
// the same verdict class (the same verdict; for a case the oracle refuses or leaves
// unspecified, the same deciding rule; for wrong_values, at least one wrong element, which the
// verdict itself says).
//
// Each step tries, in turn (ShrinkCandidates): fewer dims (an axis dropped, with its entries of
// block_shape / pads / crops), smaller dims (1, half, one less, one block less), smaller block
// sizes (block_size, block_shape entries, with the dims they divide scaled along), smaller pads
// and crops, smaller sizes, strides and rates (and auto_pad valid), a simpler element type
// (u8, i32, f32), and simpler data values (the positional fill). The first candidate that
// keeps the failure and is smaller (Smaller: fewer data elements, then lower rank, smaller dims,
// smaller attributes, a simpler type, positional data) is taken and the search starts again;
// it stops when no candidate is taken (a local minimum), or when the time or attempt budget
// runs out (the smallest failing case found so far is returned). Data of a reshaped candidate
// cycles the current data's elements, so positional data stays positional (a prefix of the
// positional fill is the positional fill) and special values (NaN payloads) stay in.
//
// Example:
//   ShrinkStats stats;
//   OpCase min = ShrinkCase(failing, [&](const OpCase& c) { return StillFails(c); }, {}, &stats);
//   // stats.from_elements = 2 * 121 * 5 * 1 ... stats.to_elements = 8
#ifndef DMCONF_HARNESS_SHRINK_SHRINK_H_
#define DMCONF_HARNESS_SHRINK_SHRINK_H_

#include <functional>
#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/runner/runner.h"
#include "oracle/op_case.h"

namespace dmconf {

struct ShrinkOptions {
  double budget_seconds = 10.0;  // wall time for one failure
  int max_attempts = 5000;       // candidates judged for one failure
  // The longest one attempt may take (a hang's: the timeout): no attempt is started that could
  // end past the budget, so a shrink never runs longer than budget_seconds.
  double attempt_seconds = 0;
};

struct ShrinkStats {
  int attempts = 0;  // candidates judged
  int accepted = 0;  // reductions taken
  double seconds = 0;
  bool budget_exhausted = false;  // stopped by the budget, not at a local minimum
  // False when no smaller case kept the original's diagnosis class (SameDiagnosisClass), so
  // that the result keeps the verdict class only.
  bool diagnosis_kept = true;
  int64_t from_elements = 0;  // data elements of the original and of the result
  int64_t to_elements = 0;
};

// True when the candidate still fails in the same verdict class.
using KeepsFailure = std::function<bool(const OpCase&)>;

// The reduction loop (see above). `failing` itself is not judged again.
OpCase ShrinkCase(const OpCase& failing, const KeepsFailure& keeps, const ShrinkOptions& o,
                  ShrinkStats* stats);

// One step's candidates, in the order they are tried (all different from `c`; not all
// smaller: ShrinkCase keeps only smaller ones).
std::vector<OpCase> ShrinkCandidates(const OpCase& c);

// The order shrinking descends: data elements, rank, sum of dims, sum of attribute values,
// element type simplicity, non-positional data.
bool Smaller(const OpCase& a, const OpCase& b);

// The verdict class a shrunk case must keep: the same verdict and, where the original result
// names a deciding rule (must_reject / unspecified cases), the same rule.
bool SameFailureClass(const CaseResult& original, const CaseResult& candidate);

// The diagnosis class a shrunk case must keep: a mistake the original names exactly is named
// exactly by the candidate too (not another one, not among several); a candidate of an original
// naming several equally names some of them and no other. An original that names none
// constrains nothing.
bool SameDiagnosisClass(const CaseResult& original, const CaseResult& candidate);

struct ShrunkCase {
  PreparedCase minimal;  // id "<original id>.min", origin naming what it was shrunk from
  CaseResult result;     // the minimal case's result (same verdict class)
  ShrinkStats stats;
  // A crash's or a hang's thresholds on the minimal case (threshold.h).
  std::vector<CaseResult::Shrunk::Threshold> thresholds;
};

// Shrinks a failing kernel case through `backend` (in a run, the isolated worker: crashes and
// hangs shrink too, each attempt within the run's timeout), judging every candidate with
// RunCase and the run's options. A candidate must keep the verdict class and the diagnosis
// class; only when no smaller case keeps the diagnosis class does shrinking keep the verdict
// class alone (stats.diagnosis_kept is then false). A crash or a hang is first bisected on its
// rank, block and largest dim, and its minimal case's thresholds are named (threshold.h); a
// hang's attempts are started only while one more fits in the budget (HangAttemptSeconds).
ShrunkCase ShrinkFailure(Backend& backend, const std::string& name, const Capabilities& caps,
                         const PreparedCase& original, const CaseResult& failure,
                         const RunOptions& run_options, const ShrinkOptions& o);

// The report's `shrunk` part of a shrunk case of either lane, as far as both lanes have it:
// the minimal case's id, the statistics and its diagnosis. The kernel lane adds its source map
// and thresholds, the shape lane the minimal case as written; both add the saved file and its
// repro line.
CaseResult::Shrunk ShrunkPart(const std::string& minimal_id, const ShrinkStats& stats,
                              const CaseResult& minimal_result);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_SHRINK_SHRINK_H_
