// A fresh, private folder for one test (mkdtemp under the test's temporary folder), removed
// when the test process exits. Test processes run in parallel under ctest, so fixed names would
// collide.
//
// Example:
//   const std::string dir = ScratchDir("export");   // .../dmconf_export_AbC123, empty
#ifndef DMCONF_CONFORMANCE_VECTORS_SCRATCH_DIR_H_
#define DMCONF_CONFORMANCE_VECTORS_SCRATCH_DIR_H_

#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace dmconf::testing {

inline std::vector<std::string>& ScratchDirsToRemove() {
  static auto* dirs = new std::vector<std::string>;
  return *dirs;
}

inline std::string ScratchDir(const std::string& name) {
  std::string path = ::testing::TempDir() + "dmconf_" + name + "_XXXXXX";
  if (mkdtemp(path.data()) == nullptr) {
    ADD_FAILURE() << "mkdtemp " << path;
    return path;
  }
  if (ScratchDirsToRemove().empty()) {
    std::atexit([] {
      std::error_code ec;
      for (const std::string& d : ScratchDirsToRemove()) std::filesystem::remove_all(d, ec);
    });
  }
  ScratchDirsToRemove().push_back(path);
  return path;
}

}  // namespace dmconf::testing

#endif  // DMCONF_CONFORMANCE_VECTORS_SCRATCH_DIR_H_
