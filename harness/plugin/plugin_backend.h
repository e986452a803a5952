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
// LoadPluginCopy loads the plugin from bytes read once, not from its path: they go into a
// sealed anonymous file (harness/plugin/sealed_copy.h) that is dlopen'ed as /proc/self/fd/N,
// so what runs is exactly those bytes, whatever happens to the file meanwhile (dmconf certify:
// the statement's SHA-256 is of what ran, in every worker). A worker is forked from the
// harness, so PluginCopyFactory's bytes are the harness's, copied on write: nothing the plugin
// does in one worker reaches them. `name` (the user's path) is the plugin in every message.
// $ORIGIN in the plugin's RUNPATH or RPATH then names /proc/self/fd: a dependency found next to
// the plugin's file is not found next to its copy, and the load fails with the loader's
// message and a note saying so.
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
absl::StatusOr<std::unique_ptr<Backend>> LoadPluginCopy(const std::string& bytes,
                                                        const std::string& name);
BackendFactory PluginCopyFactory(std::shared_ptr<const std::string> bytes, const std::string& name);

// The table as LoadPluginBackend checks it (plugin.abi, plugin.capabilities errors, `what`
// names it in messages). The table must outlive the backend.
absl::StatusOr<std::unique_ptr<Backend>> WrapPluginTable(const dmconf_plugin* plugin,
                                                         absl::string_view what);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_PLUGIN_PLUGIN_BACKEND_H_
