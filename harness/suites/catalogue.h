// The built-in case catalogue of `dmconf run` and of the ctest conformance suite. It selects
// and names what harness/gen provides:
//   model/<name>/  op instances of published models, as the models run them
//             (harness/suites/model_cases.h; the golden vectors hold them as model.<name>);
//   example/  the specifications' own examples (harness/suites/curated.h, shared with the golden
//             vectors);
//   rule/     for every must_reject and unspecified rule, one case that breaks exactly that rule
//             ("<rule id>/neg") beside its valid twin ("<rule id>/twin") (curated.h as well;
//             the *.output.representable pairs are left to the sweep's overflow lane);
//   edge/     hand-picked corners (zero-sized dims, block 1, sub-byte types, 5-D, NaN and -0
//             payloads, images smaller than the patch, odd same_* padding);
//   tail/     rows around the multiples of 4 to 32 elements in every element size (edition 2,
//             harness/suites/copy_tail.h);
//   vector/   the golden vectors' cases no other source holds (edition 3, after the sweep,
//             "vector/<vector id>", e.g. "vector/types.s2b.f16");
//   sweep/    harness/gen's seeded driver (SeededCase(seed, i)): valid cases by construction
//             over ranks 2..8, modes, auto_pad values, element types and special values
//             ("sweep/valid/"), cases breaking exactly one rule ("sweep/negative/") and huge
//             attribute values over tiny data ("sweep/overflow/").
// Inputs hold harness/gen's positional fill (element i holds the number i + 1 where the type
// holds it exactly, harness/gen/fills.h) unless the case is about special values, so a wrong
// output can be traced back (harness/compare/diagnosis.h).
//
// Case ids (harness/gen/case_ids.h CatalogueId) are stable and encode the parameters, e.g.
//   "example/d2s.f32.5x28x2x3.b2.blocks_first.pos"
//   "rule/s2b.block_shape.divides/neg/s2b.f32.1x3.B1x2.pb0x0.pe0x0.i64.pos"
//   "sweep/valid/eip.u4.1x2x7x5.k2x3.s1x2.r2x1.same_upper.pos.s1i17"
//
// Example:
//   std::vector<OpCase> cases = BuildCatalogue({.seed = 1, .sweep_count = 200});
#ifndef DMCONF_HARNESS_SUITES_CATALOGUE_H_
#define DMCONF_HARNESS_SUITES_CATALOGUE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "oracle/op_case.h"

namespace dmconf {

// The catalogue's editions. A profile names the edition it was defined with, so that its cases
// stay the same when a later edition adds some:
//   1  the catalogue of the profiles of version 1 (nchw-core/1, ...);
//   2  adds, after the sweep (so that no earlier case moves), the rule pairs at rank 4
//      (RulePairs(4), their *.output.representable pairs included) and the block ops at rank 4
//      in every element type ("edge/"): a profile that keeps rank 4 has a pair for every rule
//      its ranks can break, and BatchToSpace and SpaceToBatch in each of its types; and the
//      copy-tail cases ("tail/", harness/suites/copy_tail.h): rows of lengths around the
//      multiples of 4, 8, 16 and 32 elements in every element size;
//   3  adds, last, every case of the golden vectors (vectors/golden, the vector profile
//      "golden" at its default seed) that no earlier case holds, as "vector/<vector id>": the
//      golden vectors are then cases of `dmconf run` (a golden case held already, such as a
//      spec example, a rule pair or a copy tail, is not run twice).
inline constexpr int kLatestCatalogueEdition = 3;

struct CatalogueOptions {
  int edition = kLatestCatalogueEdition;
  uint64_t seed = 1;
  int sweep_count = 400;
  std::vector<Op> ops;             // empty: all
  std::vector<ElementType> types;  // empty: all (filters data element types)
  // The sweep's cases are made in this many threads (`dmconf run --jobs`); the cases are the
  // same for any count.
  int threads = 1;
  // The sweep's cases are kept hollow: their data bytes are left out (each is made again by
  // SweepData when the case runs), so that a run of 10^6 cases does not hold 10^6 tensors. Only
  // well-formed data is left out.
  bool hollow = false;
};

// The catalogue's cases. With o.hollow, `hollow_index` (required then) receives, per case, the
// sweep index its data is made from again (SweepData), or -1 for a case held whole.
std::vector<OpCase> BuildCatalogue(const CatalogueOptions& o,
                                   std::vector<int64_t>* hollow_index = nullptr);

// The catalogue's cases, the same and in the same order as BuildCatalogue's, handed over a
// block at a time (the curated and edge cases, then each block of the sweep) so that a large
// run never holds them all: `block` holds the next cases (the callee may move them out),
// `hollow_index` their hollow indices (as BuildCatalogue's, with o.hollow) and `first` the
// catalogue position of block[0].
using CatalogueBlockFn = std::function<void(
    std::vector<OpCase>& block, const std::vector<int64_t>& hollow_index, size_t first)>;
void ForEachCatalogueBlock(const CatalogueOptions& o, const CatalogueBlockFn& take);

// Sweep case `index` of the catalogue of `o` made alone and whole (its data bytes included,
// named): the case BuildCatalogue holds whole at that index, or nullopt when the catalogue
// has none there (o.ops and o.types filter it out, or it cannot run).
std::optional<OpCase> WholeSweepCase(const CatalogueOptions& o, uint64_t index);
// The same as the hollow catalogue holds it (o.hollow: its data bytes left out when they can
// be): the case the selection of `dmconf run` widens into a shape case.
std::optional<OpCase> HollowSweepCase(const CatalogueOptions& o, uint64_t index);

// The data of sweep case `index` of the catalogue of `o` (its bytes included): the same tensor
// the whole catalogue's case holds.
Tensor SweepData(const CatalogueOptions& o, uint64_t index);

// Whether a generated case of the negative or overflow lane is a conformance case to run: not
// malformed (no case.* rule), and when valid, an output of at most 2^22 elements that the
// oracle can evaluate (the sweep and `dmconf fuzz` keep only these).
bool RunnableGeneratedCase(const OpCase& c);

// A sweep aimed at one backend's declared capabilities: for every op it declares,
// `count_per_op` valid cases (harness/gen's SeededCase with the op's element types, rank range
// and modes; one in four with special values, one in four with zero-sized dims allowed), so
// a backend that supports a narrow slice (say
// 4-D f32 DepthToSpace) is still exercised with many cases. Ids:
// "directed/<ParamId>.<fill>.s<seed>i<index>". Empty when the backend declares every element
// type of every op (the catalogue's sweep already covers it).
std::vector<OpCase> DirectedSweep(const Capabilities& caps, uint64_t seed, int count_per_op);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_SUITES_CATALOGUE_H_
