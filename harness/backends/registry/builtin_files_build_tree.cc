// LocateBuiltinFiles for the test binaries of the build tree (builtin_files.h): the build
// tree's files by their absolute paths. Never linked into anything installed
// (harness/backends/registry/CMakeLists.txt; the test package_install_paths checks it).
#include <string>

#include "absl/strings/str_cat.h"
#include "harness/backends/registry/builtin_files.h"

// Set by harness/backends/registry/CMakeLists.txt:
// DMCONF_BUILD_TREE_PLUGIN_DIR  the folder the example and test plugins are built in
// DMCONF_SOURCE_NODE_DIR        harness/backends/subprocess/node of the source tree
namespace dmconf {

const BuiltinFiles& LocateBuiltinFiles() {
  static const BuiltinFiles* const kFiles = [] {
    auto* f = new BuiltinFiles;
    f->plugin_dir = DMCONF_BUILD_TREE_PLUGIN_DIR;
    f->node_dir = DMCONF_SOURCE_NODE_DIR;
    f->rule = absl::StrCat("a test binary of the build tree uses the build tree's plugins in ",
                           f->plugin_dir, " and the source tree's Node adapters in ", f->node_dir);
    f->build_tree = true;
    return f;
  }();
  return *kFiles;
}

}  // namespace dmconf
