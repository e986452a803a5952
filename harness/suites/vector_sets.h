// The generated vector sets ("profiles"): deterministic lists of cases whose expectations come
// from the oracle. `dmconf vectors generate` writes them; `dmconf vectors check` rebuilds them
// and compares bytes. The cases themselves, their data fills and the shared id forms come from
// harness/gen (curated.h, fills.h, case_ids.h, generate.h); a profile selects and names them.
//
// Profiles:
//   golden  the checked-in set (vectors/golden): spec examples, every op x mode x auto_pad x
//           element type, ranks from each op's minimum to 7, special values, zero-sized
//           tensors, for every must_reject / unspecified rule a case and its valid twin, and
//           160 draws of the case generators' seeded driver (harness/gen SeededCase(1, i):
//           valid, one-rule-broken and refused overflow cases, "gen.<lane>.<op>.<i>"), and the
//           copy-tail cases one past each multiple (harness/suites/copy_tail.h: rows of 5, 9, 17
//           and 33 elements in every element size, "tail.<form>.<type>.L<length>").
//   smoke   the spec examples only (a few files; for trying a backend quickly).
// Data hold harness/gen's positional fill (element i holds the number i + 1 where the type
// holds it exactly). The seed changes the order of the special values in the special-value
// cases (and is recorded in every file's provenance); the same profile and seed give the same
// files.
//
// Example:
//   absl::StatusOr<std::vector<VectorCase>> set = BuildProfile("golden", 1);
#ifndef DMCONF_HARNESS_SUITES_VECTOR_SETS_H_
#define DMCONF_HARNESS_SUITES_VECTOR_SETS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/io/vector_case.h"

namespace dmconf::io {

inline constexpr uint64_t kDefaultSeed = 1;
inline constexpr absl::string_view kGeneratorName = "dmconf vectors generate";

std::vector<std::string> ProfileNames();

// Every case of the profile, ids unique, in a fixed order. Errors: unknown profile
// (vector.profile.known), or a generator bug (a case whose oracle verdict is not the intended
// one: vector.generate.intent).
// `eval` is passed to Evaluate (threads); the files do not depend on it.
absl::StatusOr<std::vector<VectorCase>> BuildProfile(absl::string_view profile, uint64_t seed,
                                                     const EvalOptions& eval = {});
// The same cases, named by their vector ids, without the oracle's expectations (the run
// catalogue's "vector/" cases, harness/suites/catalogue.h). Errors as BuildProfile's, but for
// vector.generate.intent, which needs the oracle.
absl::StatusOr<std::vector<OpCase>> ProfileCases(absl::string_view profile, uint64_t seed);

// A subset of a set (vectors generate --ops / --types): names of ops (any form ParseOp takes)
// and of data element types; empty lists keep everything. On success the lists hold the
// canonical names, sorted and unique, as the manifest records them. Errors: an unknown name
// (`case.op.known`, `case.type.known`).
absl::Status CanonicalSubset(std::vector<std::string>* ops, std::vector<std::string>* types);

// Keeps the cases whose op is in `ops` and whose data type is in `types` (canonical names;
// an empty list keeps all).
std::vector<VectorCase> SelectSubset(std::vector<VectorCase> cases,
                                     const std::vector<std::string>& ops,
                                     const std::vector<std::string>& types);

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_SUITES_VECTOR_SETS_H_
