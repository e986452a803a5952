// How many cases of each declared slice (one OpSupport of a backend's capabilities: an op,
// element types, a rank range, modes) a run actually ran. A backend may answer UNSUPPORTED
// inside what it declares, but a declared slice in which nothing ran is a hole in the test
// that a "0 new failure(s)" would hide: the summary and report show every slice's counts and
// flag an unexercised one (a warning, a failure with --strict-coverage).
//
// Example:
//   for (const SliceCoverage& s : run.slices)
//     if (s.Unexercised()) std::cout << SliceLabel(s.slice) << ": nothing ran\n";
#ifndef DMCONF_HARNESS_RUNNER_SLICE_COVERAGE_H_
#define DMCONF_HARNESS_RUNNER_SLICE_COVERAGE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "harness/backend/backend.h"
#include "harness/backend/verdict.h"
#include "oracle/op_case.h"

namespace dmconf {

struct SliceCoverage {
  OpSupport slice;          // as the backend declared it
  int64_t in_slice = 0;     // cases of the run inside the slice
  int64_t ran = 0;          // of those, run by the backend (not unsupported, not skipped)
  int64_t unsupported = 0;  // of those, answered UNSUPPORTED

  // Cases of the slice were in the run and none of them ran. (A slice with no case in the
  // run, because --ops or --types left its op or types out, is not flagged.)
  bool Unexercised() const { return in_slice > 0 && ran == 0; }
};

// Counts one case into every declared slice that covers it (OpSupportCovers).
void CountIntoSlices(const OpCase& c, Verdict v, std::vector<SliceCoverage>& slices);
// The same for a case known by whether each slice covers it.
void CountIntoSlices(absl::FunctionRef<bool(const OpSupport&)> covers, Verdict v,
                     std::vector<SliceCoverage>& slices);

// One empty SliceCoverage per declared slice of `caps`.
std::vector<SliceCoverage> DeclaredSlices(const Capabilities& caps);

// "DepthToSpace f32 rank 4 modes blocks_first": the slice in a line.
std::string SliceLabel(const OpSupport& slice);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_RUNNER_SLICE_COVERAGE_H_
