// The write layer's path rules (harness/base/output_paths.h, files.h): an empty path is
// refused by every writer and folder maker, names below a folder never lead out of it through
// a link or "..", a file is removable only when it is what the command recorded, and an output
// is never the same file as an input or another output. Each node is made in a fresh folder.
#include "harness/base/output_paths.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/base/files.h"

namespace dmconf::io {
namespace {

namespace fs = std::filesystem;

class OutputPaths : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = absl::StrCat(::testing::TempDir(), "/output_paths_", getpid(), "_",
                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void Write(const std::string& rel, const std::string& text) {
    std::ofstream(absl::StrCat(dir_, "/", rel)) << text;
  }
  std::string dir_;
};

void ExpectRule(const absl::Status& s, absl::string_view rule) {
  EXPECT_FALSE(s.ok()) << "expected " << rule;
  EXPECT_TRUE(absl::StartsWith(s.message(), rule)) << s.message();
}

TEST_F(OutputPaths, EmptyPathIsRefusedByEveryWriter) {
  ExpectRule(CreateDirectories(""), "io.path.empty");
  ExpectRule(CreateParentDirectories(""), "io.path.empty");
  ExpectRule(WriteFileAtomically("", "x"), "io.path.empty");
  ExpectRule(CheckWriteTarget(""), "io.path.empty");
  ExpectRule(CheckDirectoryTarget(""), "io.path.empty");
  // A name in the current folder has no parent to make: fine.
  EXPECT_TRUE(CreateParentDirectories("report.json").ok());
}

TEST_F(OutputPaths, NamesBelowAFolderNeverLeadOutOfIt) {
  fs::create_directories(dir_ + "/set/sub");
  fs::create_directories(dir_ + "/victim");
  fs::create_directory_symlink("../victim", dir_ + "/set/link");
  fs::create_symlink("../victim/file.json", dir_ + "/set/file-link.json");
  const std::string set = dir_ + "/set";
  EXPECT_TRUE(CheckInsideFolder(set, "a.json").ok());
  EXPECT_TRUE(CheckInsideFolder(set, "sub/a.json").ok());
  EXPECT_TRUE(CheckInsideFolder(set, "new/deeper/a.json").ok());  // made by the write
  ExpectRule(CheckInsideFolder(set, "link/victim.json"), "io.path.outside_folder");
  ExpectRule(CheckInsideFolder(set, "file-link.json"), "io.path.outside_folder");
  ExpectRule(CheckInsideFolder(set, "../victim/x.json"), "io.path.outside_folder");
  ExpectRule(CheckInsideFolder(set, "sub/../../victim/x.json"), "io.path.outside_folder");
  ExpectRule(CheckInsideFolder(set, "/etc/passwd"), "io.path.outside_folder");
  ExpectRule(CheckInsideFolder(set, ""), "io.path.outside_folder");
  // The folder the user named may itself be a link: it is taken as given.
  fs::create_directory_symlink("set", dir_ + "/set-link");
  EXPECT_TRUE(CheckInsideFolder(dir_ + "/set-link", "a.json").ok());
}

TEST_F(OutputPaths, OnlyWhatTheCommandRecordedIsRemovable) {
  Write("ours.json", "recorded");
  Write("edited.json", "changed by hand");
  auto recorded = [](const std::string& bytes) { return bytes == "recorded"; };
  EXPECT_TRUE(CheckRemovable(dir_, "ours.json", 1 << 20, recorded).ok());
  EXPECT_TRUE(CheckRemovable(dir_, "missing.json", 1 << 20, recorded).ok());
  ExpectRule(CheckRemovable(dir_, "edited.json", 1 << 20, recorded), "io.remove.not_ours");
  fs::create_symlink("ours.json", dir_ + "/link.json");
  ExpectRule(CheckRemovable(dir_, "link.json", 1 << 20, recorded), "io.path.outside_folder");
}

TEST_F(OutputPaths, AnOutputIsNeverAnInputOrAnotherOutput) {
  Write("r.json", "{}");
  fs::create_directories(dir_ + "/sub");
  fs::create_symlink("r.json", dir_ + "/link.json");
  const std::string r = dir_ + "/r.json";
  // Existing files: the same device and inode, however they are named.
  ExpectRule(CheckDistinctPaths({{"report", r}}, {{"-o", r}}), "io.path.same");
  ExpectRule(CheckDistinctPaths({{"report", dir_ + "/link.json"}}, {{"-o", r}}), "io.path.same");
  ExpectRule(CheckDistinctPaths({{"report", dir_ + "/sub/../r.json"}}, {{"-o", r}}),
             "io.path.same");
  // Files not yet written: the same normalized absolute path.
  const std::string x = dir_ + "/x.json";
  ExpectRule(CheckDistinctPaths({}, {{"--report", x}, {"--junit", dir_ + "/./sub/../x.json"}}),
             "io.path.same");
  absl::Status s = CheckDistinctPaths({}, {{"--report", x}, {"--junit", x}});
  EXPECT_TRUE(absl::StrContains(s.message(), "--report")) << s.message();
  EXPECT_TRUE(absl::StrContains(s.message(), "--junit")) << s.message();
  // Different files, and options not given (empty), are fine.
  EXPECT_TRUE(CheckDistinctPaths({{"report", r}}, {{"-o", x}, {"--junit", ""}}).ok());
  EXPECT_TRUE(CheckDistinctPaths({{"a", ""}}, {{"-o", ""}, {"--junit", ""}}).ok());
}

}  // namespace
}  // namespace dmconf::io
