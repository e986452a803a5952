// Saves a failing case as a self-contained JSON file (inputs as hex bytes, attributes, the
// oracle's expectation and the backend's verdict), written atomically.
//
// Once the dmconf-vector/1 writer (harness/io) is part of the tree, failing cases are saved in
// that format instead; this minimal writer is the fallback format "dmconf-failure/0".
//
// Example:
//   absl::StatusOr<std::string> path = SaveFailure("out/failures", "oracle", c, "wrong_values",
//   "...");
#ifndef DMCONF_HARNESS_UTIL_FAILURE_FILE_H_
#define DMCONF_HARNESS_UTIL_FAILURE_FILE_H_

#include <string>

#include "absl/status/statusor.h"
#include "oracle/op_case.h"

namespace dmconf::util {

// A file name for a case id: '/' becomes "__", anything outside [A-Za-z0-9._-] becomes '_'.
std::string SafeFileName(const std::string& id);

// Writes <dir>/<backend>/<SafeFileName(id)>.json; returns its path.
absl::StatusOr<std::string> SaveFailure(const std::string& dir, const std::string& backend,
                                        const OpCase& c, const std::string& verdict,
                                        const std::string& detail);

}  // namespace dmconf::util

#endif  // DMCONF_HARNESS_UTIL_FAILURE_FILE_H_
