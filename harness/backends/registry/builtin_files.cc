// What both definitions of LocateBuiltinFiles share (builtin_files.h).
#include "harness/backends/registry/builtin_files.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace dmconf {

std::string NodeAdapterFolder() {
  const char* dir = std::getenv("DMCONF_NODE_ADAPTER_DIR");
  return dir != nullptr && *dir != '\0' ? dir : LocateBuiltinFiles().node_dir;
}

absl::Status CheckBuiltinFile(const std::string& path) {
  struct stat st {};
  std::string why;
  if (stat(path.c_str(), &st) != 0) {
    why = std::strerror(errno);
  } else if (!S_ISREG(st.st_mode)) {
    why = "not a regular file";
  } else {
    return absl::OkStatus();
  }
  return absl::FailedPreconditionError(absl::StrCat("backend.builtin.missing: ", path, ": ", why,
                                                    " (", LocateBuiltinFiles().rule, ")"));
}

}  // namespace dmconf
