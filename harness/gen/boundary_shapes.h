// Shape cases at the boundary of every must_reject rule that shape inference decides
// (docs/generators.md, "Boundary shape cases"): for each rule, static pairs that break it by the
// smallest margin beside a twin that just holds (a divisor's multiple and the value after it,
// a product of exactly 2^63-1 and of 2^63, crops of exactly D * B and of D * B + 1, depths
// divisible by block_size but not by block_size^K, the spec default of an absent block_size,
// products that wrap modulo 2^64 to 0 or a small value: the shape-overflow CVE class),
// each given in several forms:
//   static           the pair as written;
//   down / up        every data dim an interval [d - 1, d] / [d, d + 1];
//   unbounded        every data dim [d, inf);
//   rank_unknown     the data rank unknown, the integer inputs constant;
//   inputs_unknown   (SpaceToBatch / BatchToSpace) the integer inputs non-constant of shape [N].
// The partial oracle judges each form; a form it cannot read (a malformed case) is left out.
// The rule a static breaking case breaks is written beside it, from the specification, and a
// test (conformance/properties/boundary_shapes_test.cc) holds the oracle to it.
//
// Ids: "shape-boundary/<rule id>/<breaks|holds>.<values>.<form>", e.g.
//   "shape-boundary/b2s.crops.fit/breaks.2x2x3.B1x2x1.c0x3x0+0x2x0.down"
#ifndef DMCONF_HARNESS_GEN_BOUNDARY_SHAPES_H_
#define DMCONF_HARNESS_GEN_BOUNDARY_SHAPES_H_

#include <string>
#include <vector>

#include "harness/gen/partial.h"
#include "oracle/op_case.h"

namespace dmconf {

// One static pair member: the case, the rule whose boundary it sits on, and whether it breaks
// that rule (must_reject under exactly that rule) or just holds it (accepted).
struct BoundaryCase {
  OpCase c;
  std::string rule;
  bool breaks = false;
  std::string values;  // the id's values part ("2x2x3.B1x2x1.c0x3x0+0x2x0")
  // The rule's product is at least 2^64 and wraps modulo 2^64 to 0 or a small value, although
  // every single value fits.
  bool wraps = false;
};

// The static pairs, in a fixed order.
const std::vector<BoundaryCase>& BoundaryCases();

// Every form of every pair that the partial oracle reads, in a fixed order.
std::vector<ShapeCase> BoundaryShapeCases();

}  // namespace dmconf

#endif  // DMCONF_HARNESS_GEN_BOUNDARY_SHAPES_H_
