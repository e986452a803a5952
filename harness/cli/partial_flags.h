// OpenVINO-style partial shapes on the command line, for `dmconf infer-shape`:
//   --shape 2..5,?,100..,3     dims: N exact, a..b an interval, a.. at least a, ..b at most b,
//                              ? any
//   --shape ...                an unknown rank
//   --block-shape ?            (also --pads-begin / --pads-end / crops) a non-constant input of
//                              --int-type whose values and shape are unknown
//   --block-shape '?[4]'       a non-constant input of shape [4]; also '?[2..5]' (a length in
//                              [2, 5]), '?[?]' (1-D, any length), '?[...]' (= ?, unknown rank)
//
// Example:
//   dmconf infer-shape --op d2s --shape 1,8..16,2..,? --block-size 2 --mode blocks_first
//   // expectation: valid   output_shape: [1,[2,4],[4,inf),?]
#ifndef DMCONF_HARNESS_CLI_PARTIAL_FLAGS_H_
#define DMCONF_HARNESS_CLI_PARTIAL_FLAGS_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/cli/case_flags.h"
#include "oracle/partial/partial_infer.h"

namespace dmconf::cli {

// Whether the flags use partial syntax (?, .., ...) in --shape or an integer input.
bool IsPartial(const CaseFlags& f);

// "2..5,?,100..,3" or "..." (optionally in [ ]) -> a partial shape. Errors:
// case.flags.partial_shape, naming `flag`.
absl::StatusOr<PartialShape> ParsePartialShape(const std::string& s,
                                               absl::string_view flag = "--shape");

// The partial case of the flags (a static --shape is an exact partial shape).
absl::StatusOr<PartialCase> BuildPartialCase(const CaseFlags& f);

}  // namespace dmconf::cli

#endif  // DMCONF_HARNESS_CLI_PARTIAL_FLAGS_H_
