// Conformance profiles: named, versioned sets of ops, element types, ranks and lanes, with the
// cases that must pass (the catalogue of one edition at a fixed seed and counts, so the same
// profile version always sends the same cases). `dmconf certify --profile NAME` runs one and
// writes a conformance statement (harness/report/certificate.h). A profile version's cases
// change only with a new profile version; an older version stays reproducible, marked as
// superseded.
//
// Example:
//   const ConformanceProfile* p = FindProfile("nchw-core");  // the current version; nullptr
//   p->Id();                                                 // "nchw-core/2"
//   FindProfile("nchw-core/1")->superseded_by;               // "nchw-core/2"
//   ProfileRules(*p);  // its ops' rules, each within its ranks or not
#ifndef DMCONF_HARNESS_SUITES_CONFORMANCE_PROFILES_H_
#define DMCONF_HARNESS_SUITES_CONFORMANCE_PROFILES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "harness/suites/catalogue.h"
#include "oracle/element_type.h"
#include "oracle/op_case.h"

namespace dmconf {

struct ConformanceProfile {
  std::string name;
  int version = 1;
  std::string description;
  std::vector<Op> ops;              // every op the profile covers
  std::vector<ElementType> types;   // data element types of the kernel lane (empty: all)
  int min_rank = 0, max_rank = 64;  // data ranks of the kernel lane
  bool kernels = true;              // the kernel lane
  bool shapes = false;              // the shape-inference lane
  // The cases: the catalogue of this edition and its sweeps at this seed and these counts.
  int catalogue_edition = kLatestCatalogueEdition;
  uint64_t seed = 1;
  int count = 400;
  int shape_count = 400;
  int directed_count = 100;
  // From version 2: a statement is conformant only when every rule that the profile's ranks
  // can break (ProfileRules) had a negative case and its valid twin in the run.
  bool rules_required = true;
  std::string superseded_by;  // the id of the version that replaces this one; empty: current

  std::string Id() const;  // "name/version"
};

// Every profile, in a fixed order: the current versions, then the superseded ones.
const std::vector<ConformanceProfile>& ConformanceProfiles();
// By name ("nchw-core": its current version) or id ("nchw-core/1"); nullptr when there is none.
const ConformanceProfile* FindProfile(const std::string& name_or_id);

// One must_reject or unspecified rule of one of a profile's ops.
struct ProfileRule {
  Op op = Op::kSpaceToBatch;
  std::string rule;
  // Whether a case of the profile's ranks can break it: the catalogue has a rule pair for it
  // whose data has a rank within [min_rank, max_rank] (harness/suites/curated.h). A rule
  // outside them (SpaceToBatch's data.rank, broken only below rank 2, in a profile of rank 4)
  // is named in the statement as such, never counted as tested.
  bool within_ranks = false;
};
// The rules of p's ops, in rule-table order.
std::vector<ProfileRule> ProfileRules(const ConformanceProfile& p);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_SUITES_CONFORMANCE_PROFILES_H_
