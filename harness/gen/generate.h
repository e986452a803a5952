// The generator front end: the kinds of generated case (GenKind: valid / negative / overflow), the
// seeded-PRNG driver used by sweeps and vector generation, and equivalence classes counted in every
// driver.
//
// Example (a sweep: case i of seed s is independent of every other case, so any one case can
// be regenerated from (s, i) alone):
//   GenerateOptions o;
//   for (uint64_t i = 0; i < 1000; ++i) {
//     GeneratedCase g = SeededCase(/*seed=*/42, i, o);
//     // g.c.id == "gen-s2b-valid-s42-i17" ...; g.kind; g.twin and g.rule for negative cases
//   }
//   ClassCounter counts;  counts.Add(g);  std::cout << counts.Report();
#ifndef DMCONF_HARNESS_GEN_GENERATE_H_
#define DMCONF_HARNESS_GEN_GENERATE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "harness/gen/builders.h"
#include "harness/gen/chooser.h"

namespace dmconf {

enum class GenKind : uint8_t { kValid, kNegative, kOverflow };
absl::string_view GenKindName(GenKind k);  // "valid", "negative", "overflow"

struct GeneratedCase {
  GenKind kind = GenKind::kValid;
  OpCase c;                    // the case (for kNegative: the broken case)
  std::optional<OpCase> twin;  // kNegative: the valid twin
  const Rule* rule = nullptr;  // kNegative: the rule broken
};

struct GenerateOptions {
  BuildOptions build;
  std::vector<Op> ops;  // empty: all five ops
  // Relative weights of the kinds.
  int valid_weight = 8;
  int negative_weight = 3;
  int overflow_weight = 1;
};

// One case from any driver: a kind, an op, then the kind's builder.
GeneratedCase GenerateCase(Chooser& ch, const GenerateOptions& o = {});

// The seeded-PRNG driver: case `index` of the sweep `seed`, built from SeededChooser(
// MixSeed(seed, index)). Sets c.id ("gen-<op prefix>-<lane>-s<seed>-i<index>") and c.origin
// ("seeded seed=<seed> index=<index>").
GeneratedCase SeededCase(uint64_t seed, uint64_t index, const GenerateOptions& o = {});

// The one rule of which seeded cases hold their element type's special values (NaN payloads,
// infinities, -0, subnormals, the integer extremes: fills.h FillSpecial), for every sweep (the
// run catalogue's and `dmconf fuzz`'s): one valid case in four, MixSeed(seed, index) % 4 == 0,
// filled from `seed`. Returns whether case g (SeededCase(seed, index, ...)) was filled.
bool FillSpecialIfDrawn(uint64_t seed, uint64_t index, GeneratedCase& g);
// Whether it would be, without filling (a case built without its data).
bool DrawsSpecialValues(uint64_t seed, uint64_t index, GenKind kind);

// ---- Equivalence classes ----------------------------------------------------------------
//
// Class names: "<op prefix>.<class>" for valid cases (rank=r, bits=w, zero_size, batch>1,
// block=1, block>1, block_large, pads=none|begin|end|both (crops= for BatchToSpace),
// mode=..., channels~8, channels~16, auto_pad=..., stride>size, stride<=size, rate=1, rate>1,
// in<eff, nonsquare), "negative.<rule id>" and "overflow.<op prefix>". docs/generators.md
// describes each.

// The classes a generated case belongs to.
std::vector<std::string> Classify(const GeneratedCase& g);
// Every class a complete run must hit.
const std::vector<std::string>& DeclaredClasses();

class ClassCounter {
 public:
  void Add(const GeneratedCase& g);
  // Declared classes with a zero count.
  std::vector<std::string> Missing() const;
  // One line per declared class ("s2b.rank=2 17"), then undeclared ones seen, if any.
  std::string Report() const;
  int64_t total() const { return total_; }
  const std::map<std::string, int64_t>& counts() const { return counts_; }

 private:
  std::map<std::string, int64_t> counts_;
  int64_t total_ = 0;
};

}  // namespace dmconf

#endif  // DMCONF_HARNESS_GEN_GENERATE_H_
