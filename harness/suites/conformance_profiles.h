// Conformance profiles: named, versioned sets of ops, element types, ranks and lanes, with the
// cases that must pass (the catalogue at a fixed seed and counts, so the same dmconf version
// always sends the same cases). `dmconf certify --profile NAME` runs one and writes a
// conformance statement (harness/report/certificate.h). A profile is pinned to the dmconf
// version that defines it: its cases change only with a new profile version.
//
// Example:
//   const ConformanceProfile* p = FindProfile("nchw-core");  // nullptr when unknown
//   p->Id();  // "nchw-core/1"
#ifndef DMCONF_HARNESS_SUITES_CONFORMANCE_PROFILES_H_
#define DMCONF_HARNESS_SUITES_CONFORMANCE_PROFILES_H_

#include <cstdint>
#include <string>
#include <vector>

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
  // The cases: the catalogue and sweeps at this seed and these counts.
  uint64_t seed = 1;
  int count = 400;
  int shape_count = 400;
  int directed_count = 100;

  std::string Id() const;  // "name/version"
};

// Every profile, in a fixed order.
const std::vector<ConformanceProfile>& ConformanceProfiles();
// By name ("nchw-core") or id ("nchw-core/1"); nullptr when there is none.
const ConformanceProfile* FindProfile(const std::string& name_or_id);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_SUITES_CONFORMANCE_PROFILES_H_
