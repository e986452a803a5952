#include "harness/suites/vector_set_files.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/base/files.h"
#include "harness/base/output_paths.h"
#include "harness/io/sha256.h"
#include "harness/io/vector_file.h"
#include "harness/onnx/onnx_export.h"
#include "harness/onnx/onnx_import.h"
#include "harness/suites/vector_sets.h"

namespace dmconf::io {
namespace fs = std::filesystem;
namespace {

// Every regular file under dir, relative, '/'-separated, sorted.
absl::StatusOr<std::vector<std::string>> FilesUnder(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec)) {
      out.push_back(fs::relative(it->path(), dir, ec).generic_string());
    }
  }
  if (ec) return absl::UnavailableError(absl::StrCat("io.read: ", dir, ": ", ec.message()));
  std::sort(out.begin(), out.end());
  return out;
}

size_t FirstDifferingLine(const std::string& a, const std::string& b) {
  size_t line = 1;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] != b[i]) return line;
    if (a[i] == '\n') ++line;
  }
  return line;
}

}  // namespace

std::vector<SetFile> RenderSet(const std::vector<VectorCase>& cases, const ManifestInfo& info) {
  std::vector<SetFile> files;
  std::vector<ManifestEntry> entries;
  for (const VectorCase& v : cases) {
    SetFile f{absl::StrCat(v.c.id, ".json"), SerializeVector(v)};
    entries.push_back({f.path, f.bytes, v.classes});
    files.push_back(std::move(f));
  }
  files.push_back({kManifestName, ManifestText(info, std::move(entries))});
  return files;
}

absl::Status WriteSet(const std::string& dir, const std::vector<SetFile>& files) {
  absl::Status made = CreateDirectories(dir);
  if (!made.ok()) return made;
  std::vector<ManifestFile::File> old;
  if (fs::exists(absl::StrCat(dir, "/", kManifestName))) {
    absl::StatusOr<ManifestFile> m = ReadManifest(dir);
    if (!m.ok()) return m.status();
    old = std::move(m->files);
  } else {
    absl::StatusOr<std::vector<std::string>> present = ListVectorFiles(dir);
    if (!present.ok()) return present.status();
    if (!present->empty()) {
      return absl::FailedPreconditionError(
          absl::StrCat("vector.set.foreign: ", dir, " holds .json files but no ", kManifestName,
                       "; refusing to write a vector set there (choose an empty or new folder)"));
    }
  }
  // Every write and removal is checked before the first of them (output_paths.h): no name
  // leads out of dir through a link, and only files the earlier manifest recorded, unchanged,
  // are removed. A refusal leaves the folder as it was.
  std::set<std::string> now;
  for (const SetFile& f : files) {
    now.insert(f.path);
    if (absl::Status s = CheckInsideFolder(dir, f.path); !s.ok()) return s;
  }
  std::vector<std::string> stale;
  for (const ManifestFile::File& f : old) {
    if (now.count(f.path) != 0) continue;
    absl::Status s = CheckRemovable(dir, f.path, kMaxVectorFileBytes, [&](const std::string& b) {
      return static_cast<int64_t>(b.size()) == f.bytes && Sha256Hex(b) == f.sha256;
    });
    if (!s.ok()) return s;
    stale.push_back(f.path);
  }
  for (const SetFile& f : files) {
    const fs::path target = fs::path(dir) / f.path;
    absl::Status s = CreateParentDirectories(target.string());
    // Each file no larger than the set's reader reads (ReadManifest, the vector readers).
    const bool manifest = f.path == kManifestName;
    const WriteLimit limit{manifest ? kMaxManifestBytes : kMaxVectorFileBytes,
                           manifest ? "a set's manifest" : "a vector file"};
    if (s.ok()) s = WriteFileAtomically(target.string(), f.bytes, limit);
    if (!s.ok()) return s;
  }
  std::error_code ec;
  for (const std::string& p : stale) fs::remove(fs::path(dir) / p, ec);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> CompareSet(const std::string& dir,
                                                    const std::vector<SetFile>& expected) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return absl::NotFoundError(absl::StrCat("io.read: ", dir, ": not a directory"));
  }
  absl::StatusOr<std::vector<std::string>> present = FilesUnder(dir);
  if (!present.ok()) return present.status();
  std::set<std::string> on_disk(present->begin(), present->end());
  std::vector<std::string> diffs;
  for (const SetFile& f : expected) {
    if (on_disk.erase(f.path) == 0) {
      diffs.push_back(absl::StrCat("missing: ", f.path));
      continue;
    }
    absl::StatusOr<std::string> bytes =
        ReadFileToString((fs::path(dir) / f.path).string(), kMaxVectorFileBytes);
    if (!bytes.ok()) {
      diffs.push_back(absl::StrCat("unreadable: ", f.path, " (", bytes.status().message(), ")"));
    } else if (*bytes != f.bytes) {
      diffs.push_back(
          absl::StrCat("differs: ", f.path, " (line ", FirstDifferingLine(*bytes, f.bytes), ")"));
    }
  }
  for (const std::string& p : on_disk) {
    if (p == "README.md") continue;  // a set's folder may explain itself
    diffs.push_back(absl::StrCat("extra: ", p));
  }
  return diffs;
}

absl::StatusOr<std::vector<VectorCase>> ImportOnnxSet(const std::string& source_dir) {
  std::vector<std::string> names = OnnxNodeTestNames();
  std::error_code ec;
  if (fs::exists(absl::StrCat(source_dir, "/", kOnnxExportListName), ec)) {
    // An export-onnx folder: every test folder in it, in name order.
    names.clear();
    for (fs::directory_iterator it(source_dir, ec), end; !ec && it != end; it.increment(ec)) {
      if (fs::is_regular_file(it->path() / "model.onnx", ec)) {
        names.push_back(it->path().filename().string());
      }
    }
    if (ec)
      return absl::UnavailableError(absl::StrCat("io.read: ", source_dir, ": ", ec.message()));
    std::sort(names.begin(), names.end());
  }
  std::vector<VectorCase> cases;
  for (const std::string& name : names) {
    absl::StatusOr<VectorCase> v = ImportOnnxNodeTest(absl::StrCat(source_dir, "/", name));
    if (!v.ok()) return v.status();
    cases.push_back(*std::move(v));
  }
  return cases;
}

absl::StatusOr<std::vector<SetFile>> RegenerateSet(const std::string& dir) {
  absl::StatusOr<ManifestFile> m = ReadManifest(dir);
  if (!m.ok()) return m.status();
  if (m->info.generator == kGeneratorName) {
    absl::StatusOr<std::vector<VectorCase>> cases =
        BuildProfile(m->info.profile, m->info.seed.value_or(kDefaultSeed));
    if (!cases.ok()) return cases.status();
    std::vector<std::string> ops = m->info.ops, types = m->info.types;
    if (absl::Status s = CanonicalSubset(&ops, &types); !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("vector.manifest.subset: ", dir, "/", kManifestName, ": ", s.message()));
    }
    return RenderSet(SelectSubset(std::move(*cases), ops, types), m->info);
  }
  if (m->info.generator == kOnnxImportGenerator) {
    std::error_code ec;
    if (!fs::is_directory(m->info.source, ec)) {
      return absl::NotFoundError(absl::StrCat("vector.check.source: ", dir, ": the originals (",
                                              m->info.source, ") are not installed"));
    }
    absl::StatusOr<std::vector<VectorCase>> cases = ImportOnnxSet(m->info.source);
    if (!cases.ok()) return cases.status();
    return RenderSet(*cases, m->info);
  }
  return absl::InvalidArgumentError(absl::StrCat("vector.check.generator: ", dir, "/",
                                                 kManifestName, ": unknown generator '",
                                                 m->info.generator, "'"));
}

absl::StatusOr<std::vector<std::string>> CheckSetIntegrity(const std::string& dir) {
  absl::StatusOr<ManifestFile> m = ReadManifest(dir);
  if (!m.ok()) return m.status();
  std::vector<std::string> diffs;
  std::set<std::string> listed;
  for (const ManifestFile::File& f : m->files) {
    listed.insert(f.path);
    const std::string path = (fs::path(dir) / f.path).string();
    absl::StatusOr<std::string> bytes = ReadFileToString(path, kMaxVectorFileBytes);
    if (!bytes.ok()) {
      diffs.push_back(absl::StrCat("missing: ", f.path));
      continue;
    }
    if (static_cast<int64_t>(bytes->size()) != f.bytes || Sha256Hex(*bytes) != f.sha256) {
      diffs.push_back(absl::StrCat("differs: ", f.path, " (size or sha256)"));
      continue;
    }
    absl::StatusOr<VectorCase> v = ParseVector(*bytes, path);
    if (!v.ok()) diffs.push_back(absl::StrCat("invalid: ", v.status().message()));
  }
  absl::StatusOr<std::vector<std::string>> present = ListVectorFiles(dir);
  if (!present.ok()) return present.status();
  for (const std::string& p : *present) {
    const std::string rel = fs::relative(p, dir).generic_string();
    if (listed.count(rel) == 0) diffs.push_back(absl::StrCat("extra: ", rel));
  }
  return diffs;
}

}  // namespace dmconf::io
