// io::WriteFileAtomically never destroys what is not its own: non-regular targets are refused
// and left as they were, symbolic links are followed and kept, failed writes (a full disk, a
// file-size limit, no permission) leave no temporary behind, and temporaries of killed writers
// are removed by the next write; a replaced file keeps its owner and mode, a read-only one is
// refused, nothing above its reader's limit is written, and a link into a missing folder is
// refused beforehand. Each node these tests need is made in a fresh temp folder.
#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gtest/gtest.h"
#include "harness/base/files.h"

namespace dmconf {
namespace {

namespace fs = std::filesystem;

class WriteSafety : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = absl::StrCat(::testing::TempDir(), "/write_safety_", getpid(), "_",
                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir_, fs::perms::owner_all, ec);
    fs::remove_all(dir_, ec);
  }
  // Names in the folder other than `keep`: leftovers of a write.
  std::vector<std::string> Others(const std::vector<std::string>& keep) const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) {
      const std::string name = e.path().filename().string();
      if (std::find(keep.begin(), keep.end(), name) == keep.end()) out.push_back(name);
    }
    return out;
  }
  static std::string Slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  static mode_t TypeOf(const std::string& path) {
    struct stat st;
    return lstat(path.c_str(), &st) == 0 ? (st.st_mode & S_IFMT) : 0;
  }
  std::string dir_;
};

void ExpectRefused(const std::string& path, mode_t type) {
  absl::Status check = io::CheckWriteTarget(path);
  EXPECT_TRUE(absl::StartsWith(check.message(), "io.write.not_regular: ")) << check;
  absl::Status s = io::WriteFileAtomically(path, "data");
  EXPECT_FALSE(s.ok());
  EXPECT_TRUE(absl::StartsWith(s.message(), "io.write.not_regular: ")) << s;
  struct stat st;
  ASSERT_EQ(lstat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & S_IFMT, type) << path << " was replaced";
}

TEST_F(WriteSafety, RefusesFifoDirectoryAndSocket) {
  const std::string fifo = dir_ + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  ExpectRefused(fifo, S_IFIFO);

  const std::string sub = dir_ + "/folder";
  fs::create_directories(sub);
  ExpectRefused(sub, S_IFDIR);

  const std::string sock_path = dir_ + "/sock";
  const int sock = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(sock, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(sock_path.size(), sizeof(addr.sun_path));
  std::strncpy(addr.sun_path, sock_path.c_str(), sizeof(addr.sun_path) - 1);
  ASSERT_EQ(bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ExpectRefused(sock_path, S_IFSOCK);
  close(sock);
  EXPECT_EQ(Others({"fifo", "folder", "sock"}), std::vector<std::string>{});
}

// /dev/full's own numbers (1, 7), made here: the test never touches the real /dev.
TEST_F(WriteSafety, RefusesCharacterDevice) {
  const std::string dev = dir_ + "/full";
  if (mknod(dev.c_str(), S_IFCHR | 0600, makedev(1, 7)) != 0) {
    GTEST_SKIP() << "mknod needs CAP_MKNOD (run as root): " << strerror(errno);
  }
  ExpectRefused(dev, S_IFCHR);
  // Through a symbolic link too.
  const std::string link = dir_ + "/link";
  ASSERT_EQ(symlink("full", link.c_str()), 0);
  ExpectRefused(link, S_IFLNK);
  EXPECT_EQ(TypeOf(dev), S_IFCHR);
}

TEST_F(WriteSafety, SymlinkIsFollowedAndKept) {
  const std::string real = dir_ + "/real.json";
  const std::string link = dir_ + "/link.json";
  ASSERT_TRUE(io::WriteFileAtomically(real, "old").ok());
  ASSERT_EQ(symlink("real.json", link.c_str()), 0);
  ASSERT_TRUE(io::WriteFileAtomically(link, "new").ok());
  EXPECT_EQ(TypeOf(link), S_IFLNK);
  EXPECT_EQ(Slurp(real), "new");

  // A dangling link: the file it names is created, the link stays.
  const std::string dangling = dir_ + "/dangling.json";
  ASSERT_EQ(symlink("made.json", dangling.c_str()), 0);
  ASSERT_TRUE(io::WriteFileAtomically(dangling, "made").ok());
  EXPECT_EQ(TypeOf(dangling), S_IFLNK);
  EXPECT_EQ(Slurp(dir_ + "/made.json"), "made");

  // A loop.
  const std::string a = dir_ + "/a", b = dir_ + "/b";
  ASSERT_EQ(symlink("b", a.c_str()), 0);
  ASSERT_EQ(symlink("a", b.c_str()), 0);
  absl::Status loop = io::WriteFileAtomically(a, "x");
  EXPECT_TRUE(absl::StartsWith(loop.message(), "io.write.symlink_loop: ")) << loop;
  EXPECT_EQ(Others({"real.json", "link.json", "dangling.json", "made.json", "a", "b"}),
            std::vector<std::string>{});
}

// Runs `body` in a child process and returns its exit code (for limits and identities that
// must not leak into the test process).
template <typename F>
int InChild(F body) {
  const pid_t pid = fork();
  if (pid == 0) _exit(body());
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A disk that fills while writing, simulated with a file-size limit (EFBIG): no privileges.
TEST_F(WriteSafety, FailedWriteLeavesOldFileAndNoTemporary) {
  const std::string path = dir_ + "/report.json";
  ASSERT_TRUE(io::WriteFileAtomically(path, "previous").ok());
  const int code = InChild([&] {
    signal(SIGXFSZ, SIG_IGN);
    rlimit lim{4096, 4096};
    if (setrlimit(RLIMIT_FSIZE, &lim) != 0) return 3;
    absl::Status s = io::WriteFileAtomically(path, std::string(1 << 20, 'x'));
    if (s.ok()) return 1;
    return absl::StartsWith(s.message(), "io.write: ") ? 0 : 2;
  });
  EXPECT_EQ(code, 0);
  EXPECT_EQ(Slurp(path), "previous");
  EXPECT_EQ(Others({"report.json"}), std::vector<std::string>{});
}

// A real full disk: a 64 KiB tmpfs mounted in a private mount namespace of a child process.
TEST_F(WriteSafety, FullDiskIsAnErrorWithNoTemporary) {
  const int code = InChild([&] {
    if (unshare(CLONE_NEWNS) != 0) return 77;
    if (mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return 77;
    if (mount("tmpfs", dir_.c_str(), "tmpfs", 0, "size=64k") != 0) return 77;
    absl::Status s = io::WriteFileAtomically(dir_ + "/r.json", std::string(1 << 20, 'x'));
    if (s.ok()) return 1;
    if (!absl::StrContains(s.message(), strerror(ENOSPC))) return 2;
    return fs::is_empty(dir_) ? 0 : 4;
  });
  if (code == 77) GTEST_SKIP() << "no private mount namespace here (needs CAP_SYS_ADMIN)";
  EXPECT_EQ(code, 0);
}

TEST_F(WriteSafety, NoPermissionIsAnErrorWithNoTemporary) {
  fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                            fs::perms::group_exec | fs::perms::others_read |
                            fs::perms::others_exec);
  const int code = InChild([&] {
    // Root ignores permission bits: write as 'nobody' then.
    if (geteuid() == 0 && setuid(65534) != 0) return 3;
    absl::Status s = io::WriteFileAtomically(dir_ + "/r.json", "x");
    if (s.ok()) return 1;
    return absl::StrContains(s.message(), strerror(EACCES)) ? 0 : 2;
  });
  EXPECT_EQ(code, 0);
  EXPECT_EQ(Others({}), std::vector<std::string>{});
}

TEST_F(WriteSafety, StaleTemporaryOfADeadWriterIsRemoved) {
  const pid_t dead = fork();
  if (dead == 0) _exit(0);
  waitpid(dead, nullptr, 0);  // reaped: the pid names no process now
  const std::string stale = absl::StrCat(dir_, "/.r.json.dmconf-tmp.", dead, ".0");
  const std::string live = absl::StrCat(dir_, "/.r.json.dmconf-tmp.", getppid(), ".0");
  const std::string other = absl::StrCat(dir_, "/.q.json.dmconf-tmp.", dead, ".0");
  for (const std::string& p : {stale, live, other}) std::ofstream(p) << "partial";
  ASSERT_TRUE(io::WriteFileAtomically(dir_ + "/r.json", "complete").ok());
  EXPECT_FALSE(fs::exists(stale)) << "a dead writer's temporary stayed";
  EXPECT_TRUE(fs::exists(live)) << "a live writer's temporary was removed";
  EXPECT_TRUE(fs::exists(other)) << "another target's temporary was removed";
}

// kill -9 during the write, many times: afterwards the target holds the old or the new
// contents whole, and once a next write has run no temporary of the killed writers is left.
TEST_F(WriteSafety, KilledWritersLeaveNoPartialFile) {
  const std::string path = dir_ + "/r.json";
  const size_t size = 2 << 20;
  ASSERT_TRUE(io::WriteFileAtomically(path, std::string(size, 'a')).ok());
  for (int round = 0; round < 6; ++round) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      for (char ch = 'b';; ch = ch == 'z' ? 'b' : static_cast<char>(ch + 1)) {
        (void)io::WriteFileAtomically(path, std::string(size, ch));
      }
    }
    usleep(static_cast<useconds_t>(3000 + round * 2300));
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    const std::string s = Slurp(path);
    ASSERT_EQ(s.size(), size) << "round " << round;
    EXPECT_EQ(s.find_first_not_of(s[0]), std::string::npos) << "mixed contents, round " << round;
  }
  ASSERT_TRUE(io::WriteFileAtomically(path, "final").ok());
  EXPECT_EQ(Others({"r.json"}), std::vector<std::string>{});
}

static mode_t ModeOf(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0;
}

// A replaced file keeps its mode (and, as root, its owner), whole or streamed; a new file
// gets 0644 less the umask.
TEST_F(WriteSafety, ReplacedFileKeepsItsOwnerAndMode) {
  const mode_t old_umask = umask(022);
  for (const mode_t mode : {0600, 0640, 0755, 0604}) {
    const std::string path = absl::StrCat(dir_, "/m", mode);
    ASSERT_TRUE(io::WriteFileAtomically(path, "old").ok());
    ASSERT_EQ(chmod(path.c_str(), mode), 0);
    ASSERT_TRUE(io::WriteFileAtomically(path, "new").ok());
    EXPECT_EQ(ModeOf(path), mode) << "whole write";
    absl::StatusOr<io::AtomicFileWriter> w = io::AtomicFileWriter::Open(path);
    ASSERT_TRUE(w.ok()) << w.status();
    w->Append("streamed");
    ASSERT_TRUE(w->Commit().ok());
    EXPECT_EQ(ModeOf(path), mode) << "streamed write";
    EXPECT_EQ(Slurp(path), "streamed");
  }
  ASSERT_TRUE(io::WriteFileAtomically(dir_ + "/fresh", "x").ok());
  EXPECT_EQ(ModeOf(dir_ + "/fresh"), 0644);
  umask(old_umask);
  if (geteuid() != 0) GTEST_SKIP() << "the owner part needs root (chown)";
  const std::string owned = dir_ + "/owned";
  ASSERT_TRUE(io::WriteFileAtomically(owned, "old").ok());
  ASSERT_EQ(chown(owned.c_str(), 65534, 65534), 0);
  ASSERT_TRUE(io::WriteFileAtomically(owned, "new").ok());
  struct stat st;
  ASSERT_EQ(stat(owned.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 65534u);
  EXPECT_EQ(st.st_gid, 65534u);
  EXPECT_EQ(Slurp(owned), "new");
}

// No write bit for the writer (0444, 0400): refused by rule, before and at the write, and left
// as it was. Root too: the mode bits are checked, not access(), which lets root write anything.
TEST_F(WriteSafety, ReadOnlyTargetIsRefusedNotReplaced) {
  for (const mode_t mode : {0444, 0400, 0555}) {
    const std::string path = absl::StrCat(dir_, "/ro", mode);
    ASSERT_TRUE(io::WriteFileAtomically(path, "kept").ok());
    ASSERT_EQ(chmod(path.c_str(), mode), 0);
    absl::Status check = io::CheckWriteTarget(path);
    EXPECT_TRUE(absl::StartsWith(check.message(), "io.write.read_only: ")) << check;
    absl::Status s = io::WriteFileAtomically(path, "new");
    EXPECT_TRUE(absl::StartsWith(s.message(), "io.write.read_only: ")) << s;
    EXPECT_TRUE(absl::StrContains(s.message(), absl::StrFormat("%04o", mode))) << s;
    absl::StatusOr<io::AtomicFileWriter> w = io::AtomicFileWriter::Open(path);
    EXPECT_FALSE(w.ok());
    EXPECT_EQ(Slurp(path), "kept");
    EXPECT_EQ(ModeOf(path), mode);
  }
  // Through a link: the target's mode decides.
  ASSERT_EQ(symlink("ro292", (dir_ + "/link").c_str()), 0);  // 0444 == 292
  EXPECT_TRUE(
      absl::StartsWith(io::CheckWriteTarget(dir_ + "/link").message(), "io.write.read_only: "));
  EXPECT_EQ(Others({"ro292", "ro256", "ro365", "link"}), std::vector<std::string>{});
}

// A write given its reader's limit refuses to publish more, whole or streamed: the old file is
// kept and no temporary is left.
TEST_F(WriteSafety, NothingAboveItsReadersLimitIsWritten) {
  const std::string path = dir_ + "/limited.json";
  ASSERT_TRUE(io::WriteFileAtomically(path, "old").ok());
  const io::WriteLimit limit{10, "a test file"};
  EXPECT_TRUE(io::WriteFileAtomically(path, "0123456789", limit).ok());  // at the limit
  absl::Status s = io::WriteFileAtomically(path, "0123456789A", limit);
  EXPECT_EQ(s.message(),
            absl::StrCat("io.write.too_large: ", path,
                         ": 11 bytes, above the 10 bytes a test file may have (read back, it "
                         "would be refused: io.read.too_large); not written, the file on disk "
                         "is kept"));
  absl::StatusOr<io::AtomicFileWriter> w = io::AtomicFileWriter::Open(path, limit);
  ASSERT_TRUE(w.ok());
  w->Append("012345");
  w->Append("6789AB");
  absl::Status c = w->Commit();
  EXPECT_TRUE(absl::StartsWith(c.message(), "io.write.too_large: ")) << c;
  EXPECT_TRUE(absl::StrContains(c.message(), ": 12 bytes, above the 10 bytes")) << c;
  EXPECT_EQ(Slurp(path), "0123456789");
  EXPECT_EQ(Others({"limited.json"}), std::vector<std::string>{});
}

// A link into a folder that does not exist is refused before anything runs: dmconf makes the
// folders of the paths it is given, never those of a link's target. A missing folder of a
// plain path is fine (it will be made), unless it cannot be made.
TEST_F(WriteSafety, DanglingLinkIntoAMissingFolderIsRefusedBeforehand) {
  const std::string link = dir_ + "/link.json";
  ASSERT_EQ(symlink("missing/dir/known.json", link.c_str()), 0);
  absl::Status check = io::CheckWriteTarget(link);
  EXPECT_TRUE(absl::StartsWith(check.message(), "io.write.dangling_link: ")) << check;
  EXPECT_TRUE(absl::StrContains(check.message(), "missing/dir")) << check;
  EXPECT_TRUE(
      absl::StartsWith(io::WriteFileAtomically(link, "x").message(), "io.write.dangling_link: "));
  EXPECT_TRUE(io::CheckWriteTarget(dir_ + "/new/dir/r.json").ok());
  // A folder on the path that is a link to a missing folder.
  ASSERT_EQ(symlink("nowhere", (dir_ + "/dirlink").c_str()), 0);
  absl::Status through = io::CheckWriteTarget(dir_ + "/dirlink/r.json");
  EXPECT_TRUE(absl::StartsWith(through.message(), "io.mkdir: ")) << through;
  EXPECT_TRUE(absl::StrContains(through.message(), "symbolic link to a missing folder")) << through;
  EXPECT_EQ(Others({"link.json", "dirlink"}), std::vector<std::string>{});
}

TEST(ReadFile, RefusesBySizeBeforeReadingAndNonRegularFiles) {
  const std::string dir = absl::StrCat(::testing::TempDir(), "/read_limits_", getpid());
  fs::create_directories(dir);
  const std::string big = dir + "/big";
  {
    std::ofstream out(big, std::ios::binary);
    out.seekp((int64_t{1} << 30) - 1);  // a sparse 1 GiB file: nothing to read, all to stat
    out.put('x');
  }
  absl::StatusOr<std::string> r = io::ReadFileToString(big, 1 << 20);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StartsWith(r.status().message(), "io.read.too_large: ")) << r.status();
  EXPECT_TRUE(absl::StrContains(r.status().message(), "1073741824 bytes")) << r.status();

  const std::string fifo = dir + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  absl::StatusOr<std::string> f = io::ReadFileToString(fifo, 1 << 20);  // must not block
  ASSERT_FALSE(f.ok());
  EXPECT_TRUE(absl::StrContains(f.status().message(), "a FIFO")) << f.status();
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dmconf
