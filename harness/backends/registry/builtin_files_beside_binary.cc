// LocateBuiltinFiles for the shipped dmconf binary (builtin_files.h): its files found relative
// to the binary itself, with no path of the build tree compiled in.
#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "harness/backends/registry/builtin_files.h"

// Relative paths only, set by harness/backends/registry/CMakeLists.txt:
// DMCONF_BUILD_TREE_PLUGIN_REL  the build tree's plugin folder from the binary's ("../plugin")
// DMCONF_INSTALLED_PLUGIN_REL   PREFIX/lib/dmconf from PREFIX/bin ("../lib/dmconf")
// DMCONF_INSTALLED_NODE_REL     PREFIX/share/dmconf/node from PREFIX/bin
namespace dmconf {
namespace {

namespace fs = std::filesystem;

// The link beside the build tree's binary; it points to the source tree.
constexpr char kBuildTreeLink[] = "dmconf-build-tree";

BuiltinFiles Locate() {
  BuiltinFiles f;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    // No /proc: nothing can be found beside the binary; every built-in file is then missing,
    // and the messages say why.
    f.plugin_dir = f.node_dir = "/proc/self/exe-is-unreadable";
    f.rule = absl::StrCat(
        "dmconf finds its built-in files beside its own binary, and "
        "/proc/self/exe cannot be read: ",
        ec.message());
    return f;
  }
  const fs::path dir = exe.parent_path();
  const fs::path link = dir / kBuildTreeLink;
  struct stat st {};
  if (lstat(link.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    const fs::path source = fs::read_symlink(link, ec);
    f.build_tree = true;
    f.plugin_dir = (dir / DMCONF_BUILD_TREE_PLUGIN_REL).lexically_normal().string();
    f.node_dir = (source / "harness" / "backends" / "subprocess" / "node").string();
    f.rule = absl::StrCat("the build tree's dmconf (", exe.string(), ", beside the link ",
                          link.string(), ") uses the build tree's plugins in ", f.plugin_dir,
                          " and the source tree's Node adapters in ", f.node_dir,
                          ", never an installed copy");
    return f;
  }
  f.plugin_dir = (dir / DMCONF_INSTALLED_PLUGIN_REL).lexically_normal().string();
  f.node_dir = (dir / DMCONF_INSTALLED_NODE_REL).lexically_normal().string();
  f.rule =
      absl::StrCat("an installed dmconf (", exe.string(),
                   ") uses the files installed beside it: plugins in ", f.plugin_dir,
                   ", Node adapters in ", f.node_dir, "; never the build tree's (docs/install.md)");
  return f;
}

}  // namespace

const BuiltinFiles& LocateBuiltinFiles() {
  static const BuiltinFiles* const kFiles = new BuiltinFiles(Locate());
  return *kFiles;
}

}  // namespace dmconf
