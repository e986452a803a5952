// Atomic whole-file writes: the contents go to a temporary file beside the target, are flushed
// to disk, and the temporary is renamed over the target. A reader (or a run killed at any
// moment) sees either the previous file or the complete new one, never a partial file.
//
// Example:
//   absl::Status s = util::WriteFileAtomic("reports/out/report.json", json_text);
//   absl::Status d = util::MakeDirectories("reports/out/failures");
#ifndef DMCONF_HARNESS_UTIL_ATOMIC_WRITE_H_
#define DMCONF_HARNESS_UTIL_ATOMIC_WRITE_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace dmconf::util {

// Errors: "io.write: <path>: <reason>". The temporary file is removed on failure.
absl::Status WriteFileAtomic(const std::string& path, absl::string_view contents);

// mkdir -p. Errors: "io.mkdir: <path>: <reason>".
absl::Status MakeDirectories(const std::string& path);

}  // namespace dmconf::util

#endif  // DMCONF_HARNESS_UTIL_ATOMIC_WRITE_H_
