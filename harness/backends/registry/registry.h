// The name -> backend registry used by `dmconf run --backend NAME`, the ctest conformance
// suite and the mutation test.
//
// Groups: `all` runs every kDefault backend (the oracle, direct, the example plugin and the
// real libraries); `mutants` runs every deliberately wrong backend; kTest backends (plugins
// that crash, abort, hang or return garbage) run only when named.
//
// Example:
//   absl::StatusOr<std::vector<BackendInfo>> b = ResolveBackends("all");
//   absl::StatusOr<BackendInfo> p = ResolveBackend("build/dev/libmine.so");  // a plugin
#ifndef DMCONF_HARNESS_BACKENDS_REGISTRY_REGISTRY_H_
#define DMCONF_HARNESS_BACKENDS_REGISTRY_REGISTRY_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/backend/backend.h"
#include "harness/compare/verdict.h"

namespace dmconf {

enum class BackendGroup : uint8_t { kDefault, kMutant, kTest };

struct BackendInfo {
  std::string name;
  std::string description;
  BackendFactory factory;
  BackendGroup group = BackendGroup::kDefault;
  // Mutants: the verdicts that count as catching the mutation (its "class").
  std::vector<Verdict> expected_verdicts;
};

// Every registered backend, in a fixed order.
const std::vector<BackendInfo>& RegisteredBackends();

// A registered name, or a path to a plugin shared library (contains '/' or ends in ".so").
// Errors: "backend.unknown: ..." naming the known backends.
absl::StatusOr<BackendInfo> ResolveBackend(const std::string& name);

// "all", "mutants", or a comma-separated list of names / paths.
absl::StatusOr<std::vector<BackendInfo>> ResolveBackends(const std::string& spec);

// Path of the in-tree example plugin (C ABI), as built.
std::string ExamplePluginPath();

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BACKENDS_REGISTRY_REGISTRY_H_
