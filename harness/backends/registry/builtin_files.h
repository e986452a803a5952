// Where dmconf finds the files of its built-in backends that are not compiled into it: the
// example plugin and the test plugins (shared libraries, C ABI) and the Node adapters
// (adapter.js, run_onnx_tests.js and their node_modules).
//
// The rule (docs/install.md, "Where dmconf finds its own files"): no absolute path of the tree
// dmconf was built in is compiled into the dmconf binary, which `cmake --install` and the Debian
// package ship. The binary finds its files relative to itself (/proc/self/exe, links resolved):
// - The build tree's own binary (<build>/harness/cli/dmconf) is known by the link
//   `dmconf-build-tree` beside it, which the build makes (harness/cli/CMakeLists.txt) and which
//   points to the source tree: it uses the build tree's plugins (<build>/harness/plugin/) and
//   the source tree's Node adapters (<source>/harness/backends/subprocess/node), never an
//   installed copy.
// - Any other copy (PREFIX/bin/dmconf, installed) uses PREFIX/lib/dmconf/ and
//   PREFIX/share/dmconf/node/, never the build tree's.
// The link can only be planted by someone who can write the binary's own folder (who could as
// well replace the binary). $DMCONF_NODE_ADAPTER_DIR, when set, names the Node adapter folder
// for either.
// Test binaries of the build tree (conformance/, fuzz/, bench/: never installed) link another
// definition of LocateBuiltinFiles (builtin_files_build_tree.cc) that names the build tree's
// files by their absolute paths; which one a target links is chosen in
// harness/backends/registry/CMakeLists.txt (the target property DMCONF_SHIPPED).
//
// Example:
//   const BuiltinFiles& f = LocateBuiltinFiles();
//   std::string so = f.plugin_dir + "/libdmconf_plugin_example.so";
//   absl::Status s = CheckBuiltinFile(so);   // "backend.builtin.missing: ... (<f.rule>)"
#ifndef DMCONF_HARNESS_BACKENDS_REGISTRY_BUILTIN_FILES_H_
#define DMCONF_HARNESS_BACKENDS_REGISTRY_BUILTIN_FILES_H_

#include <string>

#include "absl/status/status.h"

namespace dmconf {

struct BuiltinFiles {
  std::string plugin_dir;  // libdmconf_plugin_example.so, libdmconf_plugin_fault_*.so
  std::string node_dir;    // adapter.js, run_onnx_tests.js, node_modules/
  // The rule that chose them, for messages: "the build tree's dmconf (...) uses ...".
  std::string rule;
  bool build_tree = false;  // the build tree's files, not an installed copy
};

// The files of this binary (computed once).
const BuiltinFiles& LocateBuiltinFiles();

// The Node adapter folder: $DMCONF_NODE_ADAPTER_DIR when set and not empty, else
// LocateBuiltinFiles().node_dir.
std::string NodeAdapterFolder();

// OK when `path` is a regular file (links followed); else "backend.builtin.missing: <path>:
// <why> (<the rule>)".
absl::Status CheckBuiltinFile(const std::string& path);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BACKENDS_REGISTRY_BUILTIN_FILES_H_
