// Helpers shared by the RapidCheck properties: evaluation that asserts validity, bit
// histograms, channel permutations, and failure records (repro line + saved case).
#ifndef DMCONF_CONFORMANCE_PROPERTIES_PROP_SUPPORT_H_
#define DMCONF_CONFORMANCE_PROPERTIES_PROP_SUPPORT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "oracle/oracle.h"

namespace dmconf::props {

// Where failing cases are saved: $DMCONF_PROPERTY_FAILURES, default "property-failures"
// (relative to the working directory; ctest runs the tests in the build directory).
std::string PropertyFailureDir();

// Saves c as a dmconf-vector/1 file <dir>/<property>.json: id = property, provenance
// regression / found_by "property" / note = property, expectation from the oracle. Creates
// dir. Returns the path; errors are the oracle's (a malformed case cannot be a vector; its
// repro line is still logged) or io.write.
absl::StatusOr<std::string> SaveFailureVector(absl::string_view property, const OpCase& c,
                                              const std::string& dir);

// Records a failing case of `property`: logs its repro command through RC_LOG, writes it to
// <dir>/<property>.txt and saves the case as <dir>/<property>.json (SaveFailureVector),
// logging the paths; dir is PropertyFailureDir(). RapidCheck's last failing run is the shrunk
// one, so the files end up holding the minimal case, and RapidCheck prints the log of that
// run with its RC_PARAMS="reproduce=..." line.
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
