// Shrinking a failing shape case (dmconf-shape-case/1, the shape lane of `dmconf run` and
// `dmconf fuzz`) to a minimal repro: the same greedy loop as for kernel cases (shrink.h), over
// candidates of a PartialCase. A shape case holds no data; "smaller" is, in this order: a known
// rank below an unknown one (an unknown rank counts as 9), fewer unknowns (a dim that is not
// exact, an input that is not a constant, an input shape not known), a smaller sum of dim
// bounds (lo + hi of each data dim, lo for an unbounded one), smaller attributes (block sizes,
// constant block_shape / pads / crops, sizes / strides / rates, auto_pad other than valid), a
// simpler element type.
//
// Each step tries, in turn (ShapeShrinkCandidates):
//   1. an unknown rank made known (rank 1 to 8, every dim "?");
//   2. fewer dims: an axis dropped, with its entries of constant block_shape / pads / crops
//      and the length of a non-constant one's known shape;
//   3. smaller dims: an exact dim lowered (0, 1, half, one less, one block less); an interval
//      made exact (lo, hi) or narrower, or "?"; an unbounded dim made exact or lower;
//   4. smaller block sizes (block_size, constant block_shape entries), exact dims they divide
//      scaled along as for kernel cases;
//   5. smaller constant pads and crops;
//   6. a non-constant block_shape / pads / crops given a known shape [rank], or made a
//      constant (block_shape ones, pads / crops zeros) when the data rank is known;
//   7. smaller sizes, strides and rates, auto_pad valid (ExtractImagePatches);
//   8. a simpler element type (u8, i32, f32).
// A candidate the oracle calls malformed (`case.*`) is never judged: candidates are valid
// cases by construction or dropped. A candidate keeps the failure when it runs in the same
// lane (shape_static / shape_partial), with the same verdict, the same expected class (valid,
// must_reject, unspecified) and, for a case that must be refused or is unspecified, the same
// deciding rule: a negative case stays negative for the same broken rule (the property
// harness/gen/partial.cc KeepRuleBroken gives the generated ones).
//
// Example:
//   ShrunkShapeCase s = ShrinkShapeFailure(backend, "mine", caps, failing, result, ro, {});
//   // s.minimal.s.id == failing.s.id + ".min"; s.result.verdict == result.verdict
#ifndef DMCONF_HARNESS_SHRINK_SHRINK_SHAPE_H_
#define DMCONF_HARNESS_SHRINK_SHRINK_SHAPE_H_

#include <functional>
#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/runner/runner.h"
#include "harness/runner/shape_lane.h"
#include "harness/shrink/shrink.h"
#include "oracle/partial/partial_infer.h"

namespace dmconf {

// One step's candidates, in the order they are tried (not all smaller, not all well formed:
// ShrinkShapeFailure keeps only smaller ones the oracle can answer).
std::vector<PartialCase> ShapeShrinkCandidates(const PartialCase& c);

// The order shape-case shrinking descends (see above).
bool ShapeSmaller(const PartialCase& a, const PartialCase& b);

struct ShrunkShapeCase {
  PreparedShapeCase minimal;  // id "<original id>.min", origin naming what it was shrunk from
  CaseResult result;          // the minimal case's result (same verdict class)
  ShrinkStats stats;          // from_elements / to_elements stay 0 (no data)
};

// Shrinks a failing shape case through `backend` (in a run, the isolated worker), judging
// every candidate with RunShapeCase and the run's options (see above). The result's
// `invocation` is the minimal case's (DescribeShapeInvocation).
ShrunkShapeCase ShrinkShapeFailure(Backend& backend, const std::string& name,
                                   const Capabilities& caps, const PreparedShapeCase& original,
                                   const CaseResult& failure, const RunOptions& run_options,
                                   const ShrinkOptions& o);

// The report's `shrunk` part of a shrunk shape case, without its file and repro line: the
// id, the attempts, the budget and the minimal case as written (`case`).
CaseResult::Shrunk ShrunkShapeInfo(const ShrunkShapeCase& s);

struct ShapeShrinkInRun {
  double seconds = 0;  // replays and shrinking
  bool saved = true;   // false: the minimal case could not be saved
};

// What `dmconf run` does with a new failing shape case: replays it (ConfirmShapeFailure; a
// flaky one is saved again under its new verdict and not shrunk), shrinks it within
// `budget_seconds`, saves the minimal case beside the original (SaveFailingShapeCase under
// `failures_dir`) and records it in `*res` (ShrunkShapeInfo, its file and `repro_of(file)`).
// An original that is already minimal gets no `shrunk` part.
ShapeShrinkInRun ShrinkShapeInRun(Backend& backend, const std::string& name,
                                  const Capabilities& caps, const PreparedShapeCase& p,
                                  const RunOptions& run_options, double budget_seconds,
                                  const std::string& failures_dir,
                                  const std::function<std::string(const std::string&)>& repro_of,
                                  CaseResult* res);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_SHRINK_SHRINK_SHAPE_H_
