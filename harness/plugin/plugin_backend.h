// Loads an out-of-tree backend through the C ABI (dmconf_plugin.h) with dlopen and wraps it
// as a C++ Backend.
//
// Example:
//   absl::StatusOr<std::unique_ptr<Backend>> b = LoadPluginBackend("./libmybackend.so");
//   // Errors: "plugin.load: ..." (dlopen), "plugin.symbol: ..." (no dmconf_plugin_get),
//   // "plugin.abi: ..." (version mismatch), "plugin.capabilities: ..." (bad op or type names)
//   BackendFactory f = PluginFactory("./libmybackend.so");  // for IsolatedBackend
#ifndef DMCONF_HARNESS_PLUGIN_PLUGIN_BACKEND_H_
#define DMCONF_HARNESS_PLUGIN_PLUGIN_BACKEND_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "harness/backend/backend.h"

namespace dmconf {

absl::StatusOr<std::unique_ptr<Backend>> LoadPluginBackend(const std::string& path);
BackendFactory PluginFactory(const std::string& path);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_PLUGIN_PLUGIN_BACKEND_H_
