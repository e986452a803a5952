// MANIFEST.json of a vector set: every file with its size and sha256, the coverage counts (how
// many files belong to each equivalence class) and how the set was made.
//
//   {"schema": "dmconf-vector-manifest/1", "generator": "dmconf vectors generate",
//    "profile": "golden", "seed": 1, "file_count": 412, "total_bytes": 1234567,
//    "coverage": {"op:DepthToSpace": 80, ...},
//    "files": [{"path": "rule.b2s.batch.divisible.json", "bytes": 812, "sha256": "..."}, ...]}
//
// Example:
//   std::string text = ManifestText(info, files);   // files: {relative path, bytes, classes}
#ifndef DMCONF_HARNESS_IO_MANIFEST_H_
#define DMCONF_HARNESS_IO_MANIFEST_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dmconf::io {

inline constexpr char kManifestName[] = "MANIFEST.json";
// Largest manifest read (ReadManifest) and so written (a set's writer checks it).
inline constexpr int64_t kMaxManifestBytes = int64_t{64} << 20;
inline constexpr char kManifestSchema[] = "dmconf-vector-manifest/1";

struct ManifestInfo {
  std::string generator;  // the command that made the set ("dmconf vectors generate", ...)
  std::string profile;    // empty for sets not made by a profile
  std::optional<uint64_t> seed;
  std::string source;  // for converted sets: where the originals came from
  // A subset (vectors generate --ops / --types): the ops and data element types kept, by their
  // canonical names; empty: all of them.
  std::vector<std::string> ops, types;
};

struct ManifestEntry {
  std::string path;   // relative to the manifest's folder, '/' separated
  std::string bytes;  // the file's contents
  std::vector<std::string> classes;
};

// Canonical manifest text; entries are sorted by path.
std::string ManifestText(const ManifestInfo& info, std::vector<ManifestEntry> entries);

struct ManifestFile {
  ManifestInfo info;
  struct File {
    std::string path;
    int64_t bytes = 0;
    std::string sha256;
  };
  std::vector<File> files;
};

// Parses manifest text; `file` is used in messages only. Errors name the file and JSON
// location after a rule id (vector.json.syntax, vector.schema.version, vector.field.*).
absl::StatusOr<ManifestFile> ParseManifest(absl::string_view text, absl::string_view file);

// Reads DIR/MANIFEST.json (io.read errors) and parses it.
absl::StatusOr<ManifestFile> ReadManifest(const std::string& dir);

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_IO_MANIFEST_H_
