// Helpers shared by the RapidCheck properties: evaluation that asserts validity, bit
// histograms, channel permutations, and failure records (repro line + saved case).
#ifndef DMCONF_CONFORMANCE_PROPERTIES_PROP_SUPPORT_H_
#define DMCONF_CONFORMANCE_PROPERTIES_PROP_SUPPORT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "oracle/oracle.h"

namespace dmconf::props {

// Records a failing case of `property`: logs its repro command through RC_LOG and writes it
// to $DMCONF_FAILURE_DIR (default "property-failures") as <property>.txt; RapidCheck's last
// failing run is the shrunk one, so the file ends up holding the minimal case.
void RecordFailure(absl::string_view property, const OpCase& c, absl::string_view what);

// Element-bits histogram of a tensor.
std::map<uint64_t, int64_t> Histogram(const Tensor& t);

// out[n, j, ...] = in[n, perm[j], ...] over axis 1.
Tensor PermuteChannels(const Tensor& in, const std::vector<int64_t>& perm);

// A 1-D i64 tensor.
Tensor I64(const std::vector<int64_t>& v);
std::vector<int64_t> IntValues(const Tensor& t);

}  // namespace dmconf::props

#endif  // DMCONF_CONFORMANCE_PROPERTIES_PROP_SUPPORT_H_
