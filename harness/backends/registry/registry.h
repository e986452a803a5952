// The name -> backend registry used by `dmconf run --backend NAME`, the ctest conformance
// suite and the mutation test.
//
// Groups: `all` runs every kDefault backend (the oracle, direct, the example plugin and the
// real libraries Arm NN, XNNPACK and Eigen); `mutants` runs every deliberately wrong backend;
// kOptional backends (the Node adapters onnxruntime and tfjs, the optional C++ adapters opencv
// and torch when built, armnn-guarded) and kTest backends (plugins that crash, abort, hang or
// return garbage) run only when named.
//
// A name that is known but not available in this build (opencv, torch, or a default library
// that was not found) resolves to "backend.not_built: ..." naming the CMake option and the
// install command. The Node adapters are always registered; their factory fails with
// "backend.unavailable: ..." (naming scripts/install-optional-backends.sh node) when node or
// the npm packages are missing. dmconf's own plugins (example, fault-*) and the Node adapters
// are files found beside the binary (builtin_files.h); a missing one is
// "backend.builtin.missing: <path>: ... (<the rule>)".
//
// Example:
//   absl::StatusOr<std::vector<BackendInfo>> b = ResolveBackends("all");
//   absl::StatusOr<BackendInfo> o = ResolveBackend("onnxruntime");     // optional, by name
//   absl::StatusOr<BackendInfo> p = ResolveBackend("build/dev/libmine.so");  // a plugin
#ifndef DMCONF_HARNESS_BACKENDS_REGISTRY_REGISTRY_H_
#define DMCONF_HARNESS_BACKENDS_REGISTRY_REGISTRY_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/backend/backend.h"
#include "harness/backend/verdict.h"

namespace dmconf {

// kDefault: part of `all`; kMutant: part of `mutants`; kOptional and kTest: only by name.
enum class BackendGroup : uint8_t { kDefault, kMutant, kOptional, kTest };

struct BackendInfo {
  std::string name;
  std::string description;
  BackendFactory factory;
  BackendGroup group = BackendGroup::kDefault;
  // A plugin backend's shared library: the path given for a plugin named by its path, the file
  // of one of dmconf's own plugins (example, fault-*); empty for the others.
  std::string library;
  // Mutants: the verdicts that count as catching the mutation (its "class").
  std::vector<Verdict> expected_verdicts;
};

// Every registered backend, in a fixed order.
const std::vector<BackendInfo>& RegisteredBackends();

// A registered name, or a path to a plugin shared library (contains '/' or ends in ".so").
// Errors: "backend.not_built: ..." for a known adapter this build does not include (with the
// CMake option and install command that enable it); "backend.unknown: ..." naming the known
// backends by group.
absl::StatusOr<BackendInfo> ResolveBackend(const std::string& name);

// True when `name` is a name `--backend` accepts for a backend of dmconf's own: every
// registered backend (what `dmconf backends --all` lists), the known adapters this build lacks,
// and the groups "all" and "mutants". A plugin may not go by such a name.
bool IsBuiltinBackendName(absl::string_view name);

// "all", "mutants", or a comma-separated list of names / paths.
absl::StatusOr<std::vector<BackendInfo>> ResolveBackends(const std::string& spec);

// Path of dmconf's example plugin (C ABI): in the plugin folder of this binary's files
// (builtin_files.h: the build tree's for the build tree's binaries, PREFIX/lib/dmconf for an
// installed dmconf).
std::string ExamplePluginPath();

// Factory of a Node subprocess adapter (`node <dir>/adapter.js <which>`, dir =
// NodeAdapterFolder(), builtin_files.h).
// Before starting it, checks that `node` is on PATH, adapter.js exists and every package in
// `packages` is installed in <dir>/node_modules; then greets it. Any failure is a
// "backend.unavailable: ..." error naming how to install it (scripts/install-optional-backends.sh
// node in the source tree; `npm ci` in the installed folder for an installed dmconf).
BackendFactory NodeAdapterFactory(std::string which, std::vector<std::string> packages);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BACKENDS_REGISTRY_REGISTRY_H_
