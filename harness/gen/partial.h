// Shape cases for the shape-inference lanes (docs/generators.md, "Shape cases"): static cases
// without data (the overflow lane's dims and attributes near 2^63, valid and negative cases)
// and dynamic ones, a generated case widened into a partial case: interval dims (bounded or
// not, or "?"), sometimes an unknown rank, block_shape / pads / crops sometimes non-constant
// with a known, partial or unknown shape. The generated case stays an instance of the widened
// one, so a sound answer must contain its output when the oracle accepts it.
//
// Example:
//   ShapeCase s = SeededShapeCase(/*seed=*/1, /*index=*/7, /*partial=*/true);
//   // s.id == "shape-partial-s2b-valid-s1-i7"; s.c.IsStatic() is usually false
#ifndef DMCONF_HARNESS_GEN_PARTIAL_H_
#define DMCONF_HARNESS_GEN_PARTIAL_H_

#include <cstdint>
#include <string>

#include "harness/gen/chooser.h"
#include "harness/gen/generate.h"
#include "oracle/partial/partial_infer.h"

namespace dmconf {

struct ShapeCase {
  std::string id;
  PartialCase c;
  std::string origin;  // how to regenerate it ("seeded seed=1 index=7 partial")
};

// `c` widened: every dim an interval containing it, or the rank unknown; each integer input
// of SpaceToBatch / BatchToSpace kept constant or made non-constant (its element type kept)
// with a shape that contains its length, or of unknown rank.
PartialCase WidenToPartial(Chooser& ch, const OpCase& c);

// For a case `c` that breaks a rule, and p its widened form: each data dim of c that breaks a
// divisibility rule widened into the widest interval around it whose every value breaks it,
// with the integer inputs constant as in c (an illegal case over interval dims); a case that
// breaks no divisibility rule, one time in two (`bits` & 1 == 0, bits from a stream apart
// from the case's chooser), gets an unknown data rank with the integer inputs constant as in
// c (an illegal attribute or input value under an unknown rank). c stays an instance of p.
void KeepRuleBroken(PartialCase& p, const OpCase& c, uint64_t bits);

// Case `index` of the shape sweep `seed`: a generated case of any lane (GenerateCase, without
// data), kept static (`partial` false) or widened (`partial` true). A SpaceToDepth /
// DepthToSpace case with block_size 1 goes without it one time in two (the spec default 1);
// a widened negative case keeps its rule broken (KeepRuleBroken).
ShapeCase SeededShapeCase(uint64_t seed, uint64_t index, bool partial,
                          const GenerateOptions& o = {});

}  // namespace dmconf

#endif  // DMCONF_HARNESS_GEN_PARTIAL_H_
