// dmconf backends: lists the backends `--backend NAME` accepts, by group, with what each is.
#include <iostream>

#include "absl/strings/str_format.h"
#include "harness/backends/registry/builtin_files.h"
#include "harness/backends/registry/registry.h"
#include "harness/cli/commands.h"

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

}  // namespace

void RegisterBackends(CLI::App& app, int* exit_code) {
  auto all = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand(
      "backends",
      "List the backends --backend NAME accepts (dmconf run, dmconf vectors verify), by group,\n"
      "and where this dmconf finds the files of its own plugins and Node adapters\n"
      "(docs/install.md). A plugin of your own is named by its path: --backend-lib ./libmine.so.");
  cmd->add_flag("--all", *all, "also list the mutants and the test plugins");
  cmd->callback([all, exit_code] {
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
