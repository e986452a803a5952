#include "harness/backends/registry/registry.h"

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "harness/backends/mutants/mutants.h"
#include "harness/backends/oracle/oracle_backend.h"
#include "harness/plugin/plugin_backend.h"
#ifdef DMCONF_HAVE_DIRECT
#include "harness/backends/direct/direct_backend.h"
#endif
#ifdef DMCONF_HAVE_ARMNN
#include "harness/backends/armnn/armnn_backend.h"
#endif
#ifdef DMCONF_HAVE_XNNPACK
#include "harness/backends/xnnpack/xnnpack_backend.h"
#endif
#ifdef DMCONF_HAVE_EIGEN
#include "harness/backends/eigen/eigen_backend.h"
#endif

namespace dmconf {
namespace {

template <std::unique_ptr<Backend> (*Make)()>
BackendFactory Factory() {
  return []() -> absl::StatusOr<std::unique_ptr<Backend>> { return Make(); };
}

std::string PluginDir() {
  const std::string p = DMCONF_EXAMPLE_PLUGIN_PATH;
  const size_t slash = p.rfind('/');
  return slash == std::string::npos ? "." : p.substr(0, slash);
}

std::vector<BackendInfo> Build() {
  std::vector<BackendInfo> r;
  auto add = [&](std::string name, std::string description, BackendFactory f,
                 BackendGroup g = BackendGroup::kDefault) {
    BackendInfo b;
    b.name = std::move(name);
    b.description = std::move(description);
    b.factory = std::move(f);
    b.group = g;
    r.push_back(std::move(b));
  };
  add("oracle", "the specification oracle itself", Factory<MakeOracleBackend>());
#ifdef DMCONF_HAVE_DIRECT
  add("direct", "independent direct-index formulas (oracle/direct)", Factory<MakeDirectBackend>());
#endif
  add("example", "example C-ABI plugin (DepthToSpace, SpaceToDepth)",
      PluginFactory(ExamplePluginPath()));
  // Real third-party libraries: one line each, guarded by their build option.
  // (harness/backends/<library>/ provides Make<Library>Backend; registry/CMakeLists.txt defines
  // DMCONF_HAVE_<LIBRARY> when the adapter is built.)
#ifdef DMCONF_HAVE_ARMNN
  add("armnn", "Arm NN CpuRef (S2B, B2S, S2D, D2S; 4-D)", Factory<MakeArmnnBackend>());
#endif
#ifdef DMCONF_HAVE_XNNPACK
  add("xnnpack", "XNNPACK (DepthToSpace blocks_first, 32-bit)", Factory<MakeXnnpackBackend>());
#endif
#ifdef DMCONF_HAVE_EIGEN
  add("eigen", "Eigen Tensor (ExtractImagePatches)", Factory<MakeEigenBackend>());
#endif

  // Test-only plugins that misbehave on purpose (isolation tests); never part of `all`.
  for (const char* fault : {"crash", "abort", "hang", "garbage"}) {
    add(absl::StrCat("fault-", fault),
        absl::StrCat("example plugin that misbehaves (", fault, ") when block_size is 3"),
        PluginFactory(absl::StrCat(PluginDir(), "/libdmconf_plugin_fault_", fault, ".so")),
        BackendGroup::kTest);
  }
  for (const MutantInfo& m : AllMutants()) {
    BackendInfo b;
    b.name = absl::StrCat("mutant.", m.name);
    b.description = m.description;
    b.factory = MutantFactory(m);
    b.group = BackendGroup::kMutant;
    b.expected_verdicts = m.expected_verdicts;
    r.push_back(std::move(b));
  }
  return r;
}

}  // namespace

std::string ExamplePluginPath() { return DMCONF_EXAMPLE_PLUGIN_PATH; }

const std::vector<BackendInfo>& RegisteredBackends() {
  static const std::vector<BackendInfo>* const kAll = new std::vector<BackendInfo>(Build());
  return *kAll;
}

absl::StatusOr<BackendInfo> ResolveBackend(const std::string& name) {
  for (const BackendInfo& b : RegisteredBackends()) {
    if (b.name == name) return b;
  }
  if (absl::StrContains(name, "/") || absl::EndsWith(name, ".so")) {
    BackendInfo b;
    b.name = name;
    b.description = "plugin loaded through the C ABI";
    b.factory = PluginFactory(name);
    return b;
  }
  std::vector<std::string> names;
  for (const BackendInfo& b : RegisteredBackends()) {
    if (b.group != BackendGroup::kMutant) names.push_back(b.name);
  }
  return absl::NotFoundError(absl::StrCat("backend.unknown: '", name, "'; known: all, mutants, ",
                                          absl::StrJoin(names, ", "),
                                          ", mutant.<name>, or a path to a plugin .so"));
}

absl::StatusOr<std::vector<BackendInfo>> ResolveBackends(const std::string& spec) {
  std::vector<BackendInfo> out;
  for (absl::string_view part : absl::StrSplit(spec, ',', absl::SkipEmpty())) {
    if (part == "all" || part == "mutants") {
      const BackendGroup g = part == "all" ? BackendGroup::kDefault : BackendGroup::kMutant;
      for (const BackendInfo& b : RegisteredBackends()) {
        if (b.group == g) out.push_back(b);
      }
      continue;
    }
    absl::StatusOr<BackendInfo> b = ResolveBackend(std::string(part));
    if (!b.ok()) return b.status();
    out.push_back(*std::move(b));
  }
  if (out.empty()) return absl::InvalidArgumentError("backend.unknown: no backend named");
  return out;
}

}  // namespace dmconf
