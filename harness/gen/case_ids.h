// Case ids: the id schemes of generated and curated cases, formed here only.
//
//   ParamId           the parameters of a case: "<op>.<type>.<dims>" and the op's attributes
//                     ("d2s.f32.5x28x2x3.b2.blocks_first",
//                      "s2b.f32.2x4x6.B1x2x3.pb0x1x0.pe0x0x3.i64",
//                      "eip.u4.1x2x7x5.k2x3.s1x2.r2x1.same_upper");
//   CatalogueId       `dmconf run`'s catalogue: "<group>/<ParamId>.<fill><suffix>", the fill
//                     "pos" (positional) or "special", the suffix ".s<seed>i<index>" for sweep
//                     cases (SweepSuffix): "rule/s2b.data.rank/neg/s2b.f32.4.B2.pb0.pe0.i64.pos";
//   SeededCaseId      the seeded driver: "gen-<op>-<lane>-s<seed>-i<index>";
//   ShapeCaseId       the shape sweep: "shape-<static|partial>-<op>-<lane>-s<seed>-i<index>";
//   vector set ids    the golden files: "spec.<example>", "rule.<rule id>",
//                     "rule.<rule id>.twin", "gen.<lane>.<op>.<index, 3 digits>" (the
//                     golden profile's hand-picked sections name their own files,
//                     "types.s2b.f32", in harness/io/vector_sets.cc).
// The parameters of a case are visible in the catalogue's ids so that expectation files can
// select cases by pattern ("*d2s.*x0x*": DepthToSpace with a zero dim).
//
// Example:
//   CatalogueId("sweep/valid", c, /*special=*/false, SweepSuffix(1, 17))
//   // "sweep/valid/eip.u4.1x2x7x5.k2x3.s1x2.r2x1.same_upper.pos.s1i17"
#ifndef DMCONF_HARNESS_GEN_CASE_IDS_H_
#define DMCONF_HARNESS_GEN_CASE_IDS_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "oracle/op_case.h"

namespace dmconf {

std::string ParamId(const OpCase& c);

std::string CatalogueId(absl::string_view group, const OpCase& c, bool special,
                        absl::string_view suffix = "");
std::string SweepSuffix(uint64_t seed, uint64_t index);

std::string SeededCaseId(Op op, absl::string_view lane, uint64_t seed, uint64_t index);
std::string ShapeCaseId(bool partial, Op op, absl::string_view lane, uint64_t seed, uint64_t index);

// The seed and index a generated case's id ends in (SweepSuffix ".s<seed>i<index>", or
// SeededCaseId / ShapeCaseId "-s<seed>-i<index>"), a shrunk case's ".min" after them allowed:
// the inverse of the three. None for any other id.
//   SeedAndIndexOf("sweep/valid/d2s.f32.1x8x1x1.b2.blocks_first.pos.s1i17") == {1, 17}
//   SeedAndIndexOf("gen-s2d-valid-s7-i3.min") == {7, 3};  SeedAndIndexOf("spec.d2s") == none
struct SeedAndIndex {
  uint64_t seed = 0;
  uint64_t index = 0;
  bool operator==(const SeedAndIndex&) const = default;
};
std::optional<SeedAndIndex> SeedAndIndexOf(absl::string_view id);

std::string SpecExampleVectorId(absl::string_view example);
std::string RuleVectorId(absl::string_view rule, bool twin);
std::string GeneratedVectorId(absl::string_view lane, Op op, uint64_t index);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_GEN_CASE_IDS_H_
