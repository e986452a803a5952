// The rules of the write layer for paths, beyond one file's atomic write (files.h):
// writes and deletions inside a folder a command fills stay inside it, a command deletes only
// what it wrote, and no output is the same file as an input or as another output.
//
// Policy (docs/bad-input.md, "Files dmconf writes"):
// - The folder a user names (--out set) is taken as given, links included. Below it, dmconf
//   makes its own names (<id>.json, test_dmconf_<id>/model.onnx, ...) or reads them from a
//   list it wrote (MANIFEST.json, dmconf-onnx-export.json). No such name may lead out of the
//   folder: an absolute name, a ".." or a symbolic link at any level below the folder is
//   refused (`io.path.outside_folder`) before anything is written or removed.
// - A file is removed only when it is the one the command's own list recorded (its size and
//   sha256 match), so a hand-edited or foreign file listed by a forged manifest is kept and the
//   command refused (`io.remove.not_ours`).
// - Two paths are the same file when they have the same device and inode (existing files,
//   links followed), else when their absolute, normalized paths (links in existing folders
//   followed) are equal.
//
// Example:
//   absl::Status s = CheckInsideFolder("vectors/golden", "link/victim.json");  // a link: refused
//   absl::Status t = CheckDistinctPaths({{"FILE", "f.json"}}, {{"--out", "f.json"}});  // refused
#ifndef DMCONF_HARNESS_BASE_OUTPUT_PATHS_H_
#define DMCONF_HARNESS_BASE_OUTPUT_PATHS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace dmconf::io {

// `rel` names a place inside `dir` reached without following a link: not empty, not absolute,
// no "." or ".." component, and no component below `dir` that exists as a symbolic link (the
// last one included: a write would replace the link's target). Missing components are fine
// (they will be made). Errors: "io.path.outside_folder: <dir>/<rel>: <why>; ...".
absl::Status CheckInsideFolder(const std::string& dir, const std::string& rel);

// Whether dir/rel may be removed: it is missing, or it is a regular file inside dir
// (CheckInsideFolder) of at most `max_bytes` whose contents `is_ours` recognises as what the
// command recorded when it wrote it (a manifest's size and sha256). Errors:
// io.path.outside_folder, "io.remove.not_ours: <path>: ...", "io.read..." (unreadable).
absl::Status CheckRemovable(const std::string& dir, const std::string& rel, int64_t max_bytes,
                            const std::function<bool(const std::string&)>& is_ours);

// One path of a command with its role, for messages: {"--report", "r.json"}, {"FILE", "f"}.
struct RolePath {
  std::string role;
  std::string path;
};

// Refuses an output that is the same file (see the policy) as an input or as another output:
// "io.path.same: <role> <path> and <role> <path> are the same file; ...". Empty paths are
// skipped (options not given).
absl::Status CheckDistinctPaths(const std::vector<RolePath>& inputs,
                                const std::vector<RolePath>& outputs);

// Refuses an input file listed twice (`vectors verify a.json a.json`, a folder and a file in
// it, a link and its target): each would run, and be reported, twice under one case id, and
// such a report cannot be merged. Files are compared by device and inode; a file that cannot
// be stat'ed is left to its reader. "io.path.same: <a> and <b> are the same file; give each
// input once".
absl::Status CheckInputsDistinct(const std::vector<std::string>& files);

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_BASE_OUTPUT_PATHS_H_
