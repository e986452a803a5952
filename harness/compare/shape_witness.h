// Concrete instances of a partial case, for the shape judge: an `unsound_shape` verdict names
// an accepted instance (its data dims, and the values it gives a non-constant input) whose
// output lies outside the backend's answer.
//
// An instance has every data dim in its interval, an unbounded one up to 2^63-1 (no tensor
// has a larger dim), a rank its partial case allows, and each non-constant SpaceToBatch /
// BatchToSpace input of length N (the data rank). It is accepted when the static oracle gives it an
// output shape (valid or unspecified; outputs above 2^63-1 elements are must_reject, ERRATA D4).
//
// The search: per rank, every data dim at its smallest value the op can divide (a base, with
// and without zero dims), and for each dim the largest such value that keeps the instance
// accepted (a binary search over the dim's admissible values: outputs grow with each data
// dim, ERRATA E8). Non-constant inputs take the neutral values, and for SpaceToBatch also
// values chosen for the dims (a pad that makes D + pads divisible by the block, a block that
// makes the output 1), for BatchToSpace a block_shape of one divisor of the batch on one axis
// (the batch itself, the small divisors and their cofactors), or a block chosen so that each
// axis holds its crops (D_j * B_j >= crops, every D_j of a short interval tried) with the
// batch a multiple of its product. It is not exhaustive.
//
// Example:
//   std::optional<ShapeInstance> w =
//       FindInstance(c, [&](const Shape& out) { return !answer.Contains(out); });
//   if (w) std::cout << DescribeInstance(c, *w);   // "data [1,8,6]: output [1,2,12]"
#ifndef DMCONF_HARNESS_COMPARE_SHAPE_WITNESS_H_
#define DMCONF_HARNESS_COMPARE_SHAPE_WITNESS_H_

#include <functional>
#include <optional>
#include <string>

#include "oracle/op_case.h"
#include "oracle/partial/partial_infer.h"

namespace dmconf {

struct ShapeInstance {
  OpCase c;      // shape only: data has its shape and no bytes
  Shape output;  // the static oracle's output shape
};

// The first accepted instance (in the order above) whose output satisfies `wanted`;
// std::nullopt when the search finds none.
std::optional<ShapeInstance> FindInstance(const PartialCase& c,
                                          const std::function<bool(const Shape&)>& wanted);

// "data [1,8,6], block_shape [1,1] (not constant): output [1,2,12]".
std::string DescribeInstance(const PartialCase& c, const ShapeInstance& w);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_COMPARE_SHAPE_WITNESS_H_
