// The benchmark's cases: the five data-movement ops on 64 MiB inputs, for the element widths
// f32, u1, u4, u8, f16 and f64 (docs/performance.md).
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
  std::string name;  // "DepthToSpace/blocks_first" (f32), "DepthToSpace/blocks_first/u1", ...
  OpCase op_case;    // input data filled with a position-dependent pattern
};

// Ten f32 cases, each with a 64 MiB input:
//   DepthToSpace [1,64,512,512] block 2 (both modes), SpaceToDepth [1,16,1024,1024] block 2
//   (both modes), SpaceToBatch [4,256,256,64] block [1,2,2,1] pads 0, SpaceToBatch/pads
//   [4,254,254,64] pads [0,1,1,0] both ends, BatchToSpace (input [16,128,128,64], crops 0),
//   BatchToSpace/crops (crops [0,1,1,0] both ends), ExtractImagePatches [1,16,512,512] sizes
//   3x3 strides 1 rates 1 valid, ExtractImagePatches/same_upper (the same, same_upper);
// then the same ten for each type of `widths` (named "<case>/<type>"), the innermost axis
// scaled by 32 / bits so that every input stays 64 MiB (u1: [1,64,512,16384] for
// DepthToSpace). `widths` defaults to u1, u4, u8, f16, f64; {} gives the f32 cases alone.
std::vector<BenchCase> MakeBenchCases();
std::vector<BenchCase> MakeBenchCases(const std::vector<ElementType>& widths);

}  // namespace dmconf::bench

#endif  // DMCONF_BENCH_BENCH_CASES_H_
