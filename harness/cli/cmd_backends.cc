// dmconf backends: lists the backends `--backend NAME` accepts, by group, with what each is;
// with --backend-lib PATH --lanes, the lanes a plugin declares per op (what
// dmconf_add_backend_tests registers tests for, cmake/DmconfBackendTests.cmake).
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "harness/backends/registry/builtin_files.h"
#include "harness/backends/registry/registry.h"
#include "harness/cli/commands.h"
#include "harness/session/backend_choice.h"

namespace dmconf::cli {
namespace {

const char* GroupTitle(BackendGroup g) {
  switch (g) {
    case BackendGroup::kDefault:
      return "default (--backend all runs these)";
    case BackendGroup::kOptional:
      return "optional (by name only; docs/backends.md says how to install each)";
    case BackendGroup::kMutant:
      return "mutants (deliberately wrong; --backend mutants runs them and scores them)";
    case BackendGroup::kTest:
      return "test plugins (misbehave on purpose, for the isolation tests)";
  }
  return "";
}

// "SpaceToBatch kernel shape" per op dmconf knows, "-" for an op the backend does not declare:
// kernel when it runs the op, shape when it has shape inference (infer_static / infer_partial)
// and declares the op (its declared ops are where its shape inference applies). One line per
// element, each printed as its own operand (terminal_text.h escapes inner newlines).
std::vector<std::string> DeclaredLanes(const Capabilities& caps) {
  std::vector<std::string> out;
  for (Op op : AllOps()) {
    bool declared = false;
    for (const OpSupport& s : caps.ops) declared |= s.op == op;
    std::string lanes;
    if (declared && caps.kernels) lanes += " kernel";
    if (declared && (caps.infer_static || caps.infer_partial)) lanes += " shape";
    out.push_back(std::string(OpName(op)) + (lanes.empty() ? " -" : lanes) + "\n");
  }
  return out;
}

// --backend-lib PATH --lanes: 0 with the lines above, 2 with the error when it does not start.
int PrintDeclaredLanes(const std::string& lib) {
  absl::StatusOr<BackendInfo> b = ResolveOneBackend(BackendLibSpec(lib));
  absl::StatusOr<Capabilities> caps =
      b.ok() ? DeclaredCapabilities(*b, RunOptions{}) : absl::StatusOr<Capabilities>(b.status());
  if (!caps.ok()) {
    std::cerr << "dmconf backends: " << caps.status().message() << "\n";
    return 2;
  }
  for (const std::string& line : DeclaredLanes(*caps)) std::cout << line;
  return 0;
}

}  // namespace

void RegisterBackends(CLI::App& app, int* exit_code) {
  auto all = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand(
      "backends",
      "List the backends --backend NAME accepts (dmconf run, dmconf vectors verify), by group,\n"
      "and where this dmconf finds the files of its own plugins and Node adapters\n"
      "(docs/install.md). A plugin of your own is named by its path: --backend-lib ./libmine.so.");
  auto lib = std::make_shared<std::string>();
  auto lanes = std::make_shared<bool>(false);
  cmd->add_flag("--all", *all, "also list the mutants and the test plugins");
  cmd->add_option("--backend-lib", *lib,
                  "with --lanes: the plugin to ask (loaded in an isolated worker, as a run "
                  "loads it)");
  cmd->add_flag("--lanes", *lanes,
                "print, one line per op dmconf knows, the op and the lanes the --backend-lib "
                "plugin declares for it: 'kernel' (it runs the op), 'shape' (it has shape "
                "inference for the op), or '-' (it does not declare the op). "
                "dmconf_add_backend_tests reads it to register tests only for what the plugin "
                "declares");
  cmd->callback([all, lib, lanes, exit_code] {
    if (*lanes != !lib->empty()) {
      std::cerr << "dmconf backends: --lanes and --backend-lib PATH go together\n";
      *exit_code = 2;
      return;
    }
    if (*lanes) {
      *exit_code = PrintDeclaredLanes(*lib);
      return;
    }
    for (BackendGroup g : {BackendGroup::kDefault, BackendGroup::kOptional, BackendGroup::kMutant,
                           BackendGroup::kTest}) {
      if (!*all && (g == BackendGroup::kMutant || g == BackendGroup::kTest)) continue;
      bool any = false;
      for (const BackendInfo& b : RegisteredBackends()) {
        if (b.group != g) continue;
        if (!any) std::cout << GroupTitle(g) << ":\n";
        any = true;
        std::cout << absl::StrFormat("  %-28s %s\n", b.name, b.description);
      }
    }
    std::cout << "files: " << LocateBuiltinFiles().rule << "\n";
    *exit_code = 0;
  });
}

}  // namespace dmconf::cli
