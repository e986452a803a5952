#include "harness/base/output_paths.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"
#include "harness/base/files.h"

namespace dmconf::io {
namespace {

namespace fs = std::filesystem;

absl::Status Outside(const std::string& dir, const std::string& rel, absl::string_view why) {
  return absl::FailedPreconditionError(
      absl::StrCat("io.path.outside_folder: ", dir, "/", rel, ": ", why,
                   "; dmconf writes and removes files only inside the folder it was given"));
}

// What makes two paths the same file: device and inode when it exists, else the absolute,
// normalized path (links of existing folders resolved by weakly_canonical).
std::string Identity(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) == 0) return absl::StrCat("inode ", st.st_dev, ":", st.st_ino);
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec) p = fs::absolute(path, ec).lexically_normal();
  return absl::StrCat("path ", p.string());
}

}  // namespace

absl::Status CheckInsideFolder(const std::string& dir, const std::string& rel) {
  const fs::path r(rel);
  if (rel.empty() || r.is_absolute()) return Outside(dir, rel, "not a relative name");
  fs::path at(dir);
  for (const fs::path& part : r) {
    if (part == "." || part == ".." || part.empty()) {
      return Outside(dir, rel, absl::StrCat("'", part.string(), "' in the name"));
    }
    at /= part;
    struct stat st;
    if (lstat(at.c_str(), &st) != 0) {
      if (errno == ENOENT) return absl::OkStatus();  // the rest will be made
      return absl::UnavailableError(
          absl::StrCat("io.path: ", at.string(), ": ", std::strerror(errno)));
    }
    if (S_ISLNK(st.st_mode)) {
      return Outside(dir, rel, absl::StrCat(at.string(), " is a symbolic link"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckRemovable(const std::string& dir, const std::string& rel, int64_t max_bytes,
                            const std::function<bool(const std::string&)>& is_ours) {
  if (absl::Status inside = CheckInsideFolder(dir, rel); !inside.ok()) return inside;
  const std::string path = (fs::path(dir) / rel).string();
  struct stat st;
  if (lstat(path.c_str(), &st) != 0 && errno == ENOENT) return absl::OkStatus();
  absl::StatusOr<std::string> bytes = ReadFileToString(path, max_bytes);
  if (!bytes.ok()) return bytes.status();
  if (!is_ours(*bytes)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "io.remove.not_ours: ", path,
        ": its contents are not those the list of the earlier run records; dmconf removes only "
        "files it wrote (move it away, or remove it yourself)"));
  }
  return absl::OkStatus();
}

absl::Status CheckInputsDistinct(const std::vector<std::string>& files) {
  std::map<std::pair<dev_t, ino_t>, const std::string*> seen;
  for (const std::string& f : files) {
    struct stat st {};
    if (stat(f.c_str(), &st) != 0) continue;
    auto [it, fresh] = seen.emplace(std::make_pair(st.st_dev, st.st_ino), &f);
    if (!fresh) {
      return absl::InvalidArgumentError(absl::StrCat("io.path.same: ", *it->second, " and ", f,
                                                     " are the same file; give each input once"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckDistinctPaths(const std::vector<RolePath>& inputs,
                                const std::vector<RolePath>& outputs) {
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].path.empty()) continue;
    const std::string id = Identity(outputs[i].path);
    auto same = [&](const RolePath& other, absl::string_view what) -> absl::Status {
      if (other.path.empty() || Identity(other.path) != id) return absl::OkStatus();
      return absl::InvalidArgumentError(absl::StrCat("io.path.same: ", outputs[i].role, " ",
                                                     outputs[i].path, " and ", other.role, " ",
                                                     other.path, " are the same file; ", what));
    };
    for (const RolePath& in : inputs) {
      if (absl::Status s = same(in, "an output must not replace an input"); !s.ok()) return s;
    }
    for (size_t j = i + 1; j < outputs.size(); ++j) {
      absl::Status s = same(outputs[j], "two outputs must not be written to one file");
      if (!s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

}  // namespace dmconf::io
