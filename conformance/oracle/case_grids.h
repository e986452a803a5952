// Deterministic grids of valid cases, built by construction (output dims and blocks first,
// input dims multiplied up), for the agreement and round-trip tests.
//
// Example:
//   for (const OpCase& c : ValidGrid(Op::kDepthToSpace, ElementType::kU4)) Check(c);
#ifndef DMCONF_CONFORMANCE_ORACLE_CASE_GRIDS_H_
#define DMCONF_CONFORMANCE_ORACLE_CASE_GRIDS_H_

#include <vector>

#include "oracle/op_case.h"

namespace dmconf::testing {

// About `count` valid cases of op with data of type t (a fixed pattern). Includes zero-sized
// dims, size-1 axes, blocks of 1 and padding / crops wider than a block.
std::vector<OpCase> ValidGrid(Op op, ElementType t, int count = 40);

// A few larger valid cases per op (whole planes of 32 x 32 and more, blocks up to 5).
std::vector<OpCase> LargerCases(Op op, ElementType t);

}  // namespace dmconf::testing

#endif  // DMCONF_CONFORMANCE_ORACLE_CASE_GRIDS_H_
