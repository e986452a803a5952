// The name a backend goes by in a run: in the summary, the report, JUnit, the failures folder
// (failures/<name>/) and `report diff`. A registered backend keeps its registered name. A plugin
// loaded by path goes by the name it declares (dmconf_plugin.name), made safe as a file name;
// the path is kept beside it (the report's `library`) and repro lines name the path the user
// gave. Two backends of one run never share a name: the second gets "-2", and so on.
//
// Example:
//   std::set<std::string> taken = {"oracle"};
//   BackendIdentity("acme depth/v1", "./libacme.so", &taken);  // "acme_depth_v1"
//   BackendIdentity("acme depth/v1", "./old/libacme.so", &taken);  // "acme_depth_v1-2"
//   BackendIdentity("", "./libx.so", &taken);  // "./libx.so" (no declared name: the path)
#ifndef DMCONF_HARNESS_BACKEND_IDENTITY_H_
#define DMCONF_HARNESS_BACKEND_IDENTITY_H_

#include <set>
#include <string>

#include "absl/strings/string_view.h"

namespace dmconf {

// At most this many bytes of a declared name are used.
inline constexpr size_t kMaxBackendNameBytes = 64;

// `declared` with every byte outside [A-Za-z0-9._+-] replaced by '_', cut to
// kMaxBackendNameBytes, and a leading '.' replaced (no hidden or ".." folder); empty when
// nothing printable is left.
std::string SafeBackendName(absl::string_view declared);

// The run's name for a plugin (see above); records it in `taken`.
std::string BackendIdentity(absl::string_view declared, absl::string_view path,
                            std::set<std::string>* taken);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BACKEND_IDENTITY_H_
