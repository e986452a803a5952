// The benchmark's cases: five data-movement ops on 64 MiB f32 inputs (docs/performance.md).
//
// Example:
//   std::vector<BenchCase> cases = MakeBenchCases();
//   absl::StatusOr<Expectation> e = Evaluate(cases[0].op_case);
#ifndef DMCONF_BENCH_BENCH_CASES_H_
#define DMCONF_BENCH_BENCH_CASES_H_

#include <string>
#include <vector>

#include "oracle/op_case.h"

namespace dmconf::bench {

struct BenchCase {
  std::string name;  // "DepthToSpace/blocks_first", ...
  OpCase op_case;    // input data filled with a position-dependent pattern
};

// DepthToSpace [1,64,512,512] block 2 (both modes), SpaceToDepth [1,16,1024,1024] block 2
// (both modes), SpaceToBatch [4,256,256,64] block [1,2,2,1] pads 0, BatchToSpace (its inverse,
// input [16,128,128,64]), ExtractImagePatches [1,16,512,512] sizes 3x3 strides 1 rates 1 valid.
std::vector<BenchCase> MakeBenchCases();

}  // namespace dmconf::bench

#endif  // DMCONF_BENCH_BENCH_CASES_H_
