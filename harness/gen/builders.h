// Case builders: valid cases by construction, negative cases that break exactly one rule (each
// with its valid twin), and an overflow lane of huge attribute values over tiny data.
//
// Valid cases are never filtered: a builder chooses the output-side quantities first (output
// dims, blocks, pads) and multiplies up to the input, so every case it returns is valid by the
// specification (docs/generators.md lists the constructions). Data tensors hold the positional
// fill (harness/gen/fills.h: element i holds the number i + 1 where the type holds it exactly),
// so outputs show where data came from.
//
// Example:
//   SeededChooser ch(7);
//   OpCase c = BuildValidCase(ch, Op::kSpaceToBatch);            // Validate(c) is valid
//   absl::StatusOr<NegativeCase> n =
//       BuildNegativeCase(ch, *FindRule("s2b.block_shape.divides"));
//   // n->broken breaks exactly that rule; n->twin is the valid case it was derived from.
#ifndef DMCONF_HARNESS_GEN_BUILDERS_H_
#define DMCONF_HARNESS_GEN_BUILDERS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "harness/gen/chooser.h"
#include "harness/gen/fills.h"  // PositionalTensor, the builders' data
#include "oracle/element_type.h"
#include "oracle/op_case.h"
#include "oracle/rules.h"

namespace dmconf {

struct BuildOptions {
  // Upper bound on the element count of data and of the output (and of SpaceToBatch's padded
  // intermediate). Builders keep every case under it.
  int64_t max_elements = 4096;
  // Data element types to choose from; empty means every element type.
  std::vector<ElementType> data_types;
  // Data rank range; 0 means the op's own range: 2..8 (SpaceToBatch, BatchToSpace),
  // 3..8 (SpaceToDepth, DepthToSpace), 4 (ExtractImagePatches). Clamped to the op's range.
  int min_rank = 0;
  int max_rank = 0;
  // Allow dims of size 0 (data, output, pads that consume a whole dim).
  bool zero_size = true;
  // DepthToSpace/SpaceToDepth modes and ExtractImagePatches auto_pad values to choose from;
  // empty (or no value for the op) means all.
  std::vector<std::string> modes;
  // Fill data with positional bits. false leaves data.bytes empty: enough for Validate()
  // (shape inference never reads data), and much faster for shape-only fuzzing.
  bool with_data = true;
  // false (with with_data): the data's bytes are zeros instead of positional bits, the same
  // byte count and the same choices drawn, without the fill: for a case whose bytes are
  // dropped once it is built (the hollow sweep of harness/suites/catalogue.h).
  bool positional = true;
};

// A valid case of `op`: Validate() says valid (no violation at all, not even unspecified).
OpCase BuildValidCase(Chooser& ch, Op op, const BuildOptions& o = {});

struct NegativeCase {
  OpCase broken;  // breaks exactly `rule` and nothing else
  OpCase twin;    // the valid case `broken` was derived from
  const Rule* rule = nullptr;
};

// Rules a negative case can be built for: every must_reject and unspecified rule, and the
// malformed rules an OpCase can express (case.tensor.dims_nonnegative,
// case.tensor.size_representable, case.tensor.byte_size, case.inputs.count).
bool CanBreak(const Rule& rule);
const std::vector<const Rule*>& BreakableRules();

// A case that breaks exactly `rule`, plus its valid twin. Errors: kInvalidArgument when
// CanBreak(rule) is false.
absl::StatusOr<NegativeCase> BuildNegativeCase(Chooser& ch, const Rule& rule,
                                               const BuildOptions& o = {});

// Checks a negative case with the oracle: the twin is valid; the broken case's only violation
// is `rule` (must_reject / unspecified), or, for a malformed rule, Evaluate() fails with a
// message that starts with the rule id. The error says what was found instead.
absl::Status CheckNegativeCase(const NegativeCase& n);

// The overflow lane: huge block sizes, pads, crops, sizes, rates or dims whose products
// overflow int64, with tiny real data (at most a few elements). The expectation may be
// anything (mostly `*.output.representable`, some valid cases with huge outputs): the point is
// that nobody crashes, hangs or allocates the impossible.
OpCase BuildOverflowCase(Chooser& ch, Op op);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_GEN_BUILDERS_H_
