// Where a crash or a hang starts: shrinking a crash or a hang also names its threshold, the
// smallest rank, block or dim that still fails and the largest below it that passes.
//
// A *knob* is one quantity of a case that a threshold can be about: the rank (SpaceToBatch /
// BatchToSpace from 1, SpaceToDepth / DepthToSpace from 3; trailing axes dropped), the
// block_size (SpaceToDepth / DepthToSpace), the largest block_shape entry (SpaceToBatch /
// BatchToSpace) and the largest data dim, each changed with the dims it divides scaled along
// (as the shrink candidates are, shrink.h), so that the divisibility rules hold for every value
// tried. A dim moves by its divisibility unit (block_shape[i], prod(block_shape), block_size or
// block_size^K). A value whose case breaks another rule (crops larger than a smaller block's
// output) does not keep the failure (it is judged, as every candidate is) and is passed over.
// ExtractImagePatches has no rank knob (its rank is 4).
//
// Before the greedy reduction, BisectKnobs binary-searches each knob between its lowest value
// and the failing one (a hang at block_size 3658 gets to 5 in about 12 attempts, where the
// greedy steps of one less would need thousands). After it, Thresholds checks each knob of the
// minimal case one unit lower: where that case passes (verdict pass, not another failure), the
// knob is a threshold, "fails from block_size 5; passes at 4".
//
// A hang's attempts each wait the whole timeout: within the shrink budget (--shrink-seconds),
// which bounds the shrink of a hang as of any failure, no attempt is started that could end
// past it (HangAttemptSeconds; ShrinkOptions::attempt_seconds). A budget of fewer than a few
// timeouts leaves a hang unshrunk; raise --shrink-seconds to shrink hangs.
//
// Example:
//   OpCase c = BisectKnobs(failing, keeps, deadline, &stats);
//   std::vector<CaseResult::Shrunk::Threshold> t = Thresholds(min, verdict_of);
//   // t = {{"block_size", 5, 4}}
#ifndef DMCONF_HARNESS_SHRINK_THRESHOLD_H_
#define DMCONF_HARNESS_SHRINK_THRESHOLD_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/backend/verdict.h"
#include "harness/runner/runner.h"
#include "harness/shrink/shrink.h"
#include "oracle/op_case.h"

namespace dmconf {

struct Knob {
  std::string what;   // "rank", "block_size", "block_shape[i]", "dim i"
  int64_t value = 0;  // in the case
  int64_t floor = 0;  // the lowest value tried
  int64_t unit = 1;   // values tried are floor + j * unit
};

// The case's knobs (see above).
std::vector<Knob> KnobsOf(const OpCase& c);

// `c` with knob `k` at value v (floor <= v <= k.value, v - floor a multiple of unit), dims
// scaled along; nullopt when no valid case has it.
std::optional<OpCase> WithKnob(const OpCase& c, const Knob& k, int64_t v);

// Whether a verdict's failures get a threshold: crash and hang.
bool ThresholdVerdict(Verdict v);

// The longest one shrink attempt of a failure of verdict v may take: the timeout for a hang
// (each attempt that still hangs waits it whole), else 0.
double HangAttemptSeconds(Verdict v, double timeout_seconds);

// Binary search of each knob of `failing` (see above); returns the case at the smallest failing
// values found. `out_of_budget` is asked before each attempt; stats->attempts counts them.
OpCase BisectKnobs(const OpCase& failing, const KeepsFailure& keeps,
                   const std::function<bool()>& out_of_budget, ShrinkStats* stats);

// The thresholds of a minimal case: each knob whose value one unit lower gives `pass`, as long
// as `out_of_budget` (asked before each attempt) says there is time for another.
std::vector<CaseResult::Shrunk::Threshold> Thresholds(
    const OpCase& minimal, const std::function<Verdict(const OpCase&)>& verdict_of,
    const std::function<bool()>& out_of_budget = [] { return false; });

}  // namespace dmconf

#endif  // DMCONF_HARNESS_SHRINK_THRESHOLD_H_
