// Loads an out-of-tree backend through the C ABI (dmconf_plugin.h) with dlopen and wraps it
// as a C++ Backend. WrapPluginTable wraps a table already in memory (no dlopen) with the same
// checks and adapter: the in-process fuzz target of the ABI boundary uses it.
//
// Example:
//   absl::StatusOr<std::unique_ptr<Backend>> b = LoadPluginBackend("./libmybackend.so");
//   // Errors: "plugin.load: ..." (dlopen), "plugin.symbol: ..." (no dmconf_plugin_get),
//   // "plugin.abi: ..." (version mismatch), "plugin.capabilities: ..." (bad op or type names)
//   BackendFactory f = PluginFactory("./libmybackend.so");  // for IsolatedBackend
//
// Every plugin answer is untrusted: a run() result that is not a well-formed tensor (unknown
// type, rank out of range, negative dims, byte size not that of its shape and type) becomes a
// kInvalidAnswer outcome "plugin.result: ..." (verdict invalid_answer: the backend's failure),
// never a kOutput; likewise a malformed infer_static / infer_partial answer.
#ifndef DMCONF_HARNESS_PLUGIN_PLUGIN_BACKEND_H_
#define DMCONF_HARNESS_PLUGIN_PLUGIN_BACKEND_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/backend/backend.h"
#include "harness/plugin/dmconf_plugin.h"

namespace dmconf {

absl::StatusOr<std::unique_ptr<Backend>> LoadPluginBackend(const std::string& path);
BackendFactory PluginFactory(const std::string& path);

// The table as LoadPluginBackend checks it (plugin.abi, plugin.capabilities errors, `what`
// names it in messages). The table must outlive the backend.
absl::StatusOr<std::unique_ptr<Backend>> WrapPluginTable(const dmconf_plugin* plugin,
                                                         absl::string_view what);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_PLUGIN_PLUGIN_BACKEND_H_
