// The curated cases, typed in once: the specifications' own examples, and for every
// must_reject and unspecified rule a case that breaks exactly that rule beside its valid twin.
// `dmconf run`'s catalogue (harness/runner/catalogue.cc: "example/...", "rule/<id>/neg/...",
// "rule/<id>/twin/...") and the golden vectors (harness/io/vector_sets.cc: "spec.<name>",
// "rule.<id>", "rule.<id>.twin") both take them from here, so both test the same cases.
// Data hold the positional fill from 1 (harness/gen/fills.h): the ExtractImagePatches worked
// examples' 10 x 10 image holds 1..100 as the spec text does.
//
// Example:
//   for (const RulePair& p : RulePairs()) {
//     // Evaluate(p.negative)->rule->id == p.rule; Evaluate(p.twin) is valid
//   }
#ifndef DMCONF_HARNESS_SUITES_CURATED_H_
#define DMCONF_HARNESS_SUITES_CURATED_H_

#include <string>
#include <vector>

#include "oracle/op_case.h"

namespace dmconf {

struct SpecExample {
  std::string name;    // "eip.example3", "s2d.ir_layer.depth_first"
  std::string source;  // "ExtractImagePatches-3, Examples, example 3"
  OpCase c;
};

// The IR-layer example of every spec page (SpaceToDepth and DepthToSpace in both modes) and
// ExtractImagePatches' five worked examples.
std::vector<SpecExample> SpecExamples();

struct RulePair {
  std::string rule;  // the rule id
  OpCase negative;   // breaks `rule` and nothing else
  OpCase twin;       // valid, and as close to `negative` as the rule allows
};

// One pair per must_reject and unspecified rule of the rule table, in table order by op, each
// at the smallest rank its rule allows (rank 0, the curated pairs). With a rank of 2 or more,
// the pairs whose negative and twin both have data of that rank: the block ops' at any such
// rank (their 2-D pairs with dims appended), the other ops' at rank 4, and no data.rank pair
// (no data of that rank breaks it). So a profile that keeps rank 4 still holds a pair for
// every rule its ranks can break (harness/suites/conformance_profiles.h).
std::vector<RulePair> RulePairs(int rank = 0);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_SUITES_CURATED_H_
