// A plugin's bytes as a file nobody can change: an anonymous memory file (memfd_create) sealed
// against writes, growth and shrinking (F_ADD_SEALS), for dlopen as /proc/self/fd/N
// (plugin_backend.h, LoadPluginCopy). And whether a shared library's RUNPATH or RPATH names
// $ORIGIN, which such a copy cannot honour (its folder is /proc/self/fd).
//
// Example:
//   absl::StatusOr<int> fd = SealedCopy(bytes);   // write(fd, ...) now fails with EPERM
//   dlopen(absl::StrCat("/proc/self/fd/", *fd).c_str(), RTLD_NOW);
//   bool origin = RunpathNamesOrigin(bytes);       // DT_RUNPATH "$ORIGIN/../lib": true
#ifndef DMCONF_HARNESS_PLUGIN_SEALED_COPY_H_
#define DMCONF_HARNESS_PLUGIN_SEALED_COPY_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dmconf {

// The descriptor of a sealed memfd holding `bytes` (close-on-exec). The caller owns it.
// Errors: "memfd_create: <reason>", "write: ...", "seal: ...".
absl::StatusOr<int> SealedCopy(absl::string_view bytes);

// Whether `bytes` is a 64-bit little-endian ELF file whose dynamic section has a DT_RUNPATH or
// DT_RPATH naming $ORIGIN (or ${ORIGIN}). False for anything else, malformed files included:
// it only decides whether a load failure gets a note.
bool RunpathNamesOrigin(absl::string_view bytes);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_PLUGIN_SEALED_COPY_H_
