// Whole-file reads with a size limit, and atomic whole-file writes (write a temporary file
// beside the target, then rename it over the target, so readers never see a partial file).
//
// Example:
//   absl::Status s = WriteFileAtomically("out/x.json", text);
//   absl::StatusOr<std::string> back = ReadFileToString("out/x.json", 1 << 20);
#ifndef DMCONF_HARNESS_IO_ATOMIC_FILE_H_
#define DMCONF_HARNESS_IO_ATOMIC_FILE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dmconf::io {

// Errors: "io.write: <path>: <reason>".
absl::Status WriteFileAtomically(const std::string& path, absl::string_view contents);

// Errors: "io.read: <path>: <reason>", and "io.read.too_large" above max_bytes.
absl::StatusOr<std::string> ReadFileToString(const std::string& path, int64_t max_bytes);

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_IO_ATOMIC_FILE_H_
