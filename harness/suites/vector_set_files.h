// A vector set on disk: one file per case (<id>.json) plus MANIFEST.json, written and checked
// byte for byte.
//
// Example:
//   std::vector<SetFile> files = RenderSet(cases, info);
//   absl::Status s = WriteSet("vectors/golden", files);
//   absl::StatusOr<std::vector<std::string>> diffs = CompareSet("vectors/golden", files);
#ifndef DMCONF_HARNESS_SUITES_VECTOR_SET_FILES_H_
#define DMCONF_HARNESS_SUITES_VECTOR_SET_FILES_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "harness/io/manifest.h"
#include "harness/io/vector_case.h"

namespace dmconf::io {

struct SetFile {
  std::string path;  // relative to the set's folder
  std::string bytes;
};

// The files of a set: <id>.json per case and MANIFEST.json.
std::vector<SetFile> RenderSet(const std::vector<VectorCase>& cases, const ManifestInfo& info);

// Writes the files into dir (created if missing). Files a previous manifest listed that are no
// longer in the set are removed; a folder that holds .json files but no MANIFEST.json is
// refused (vector.set.foreign), so a wrong --out never deletes anything.
absl::Status WriteSet(const std::string& dir, const std::vector<SetFile>& files);

// Differences between dir and the expected files, one line each: "missing: x.json",
// "extra: y.json", "differs: z.json (line 12)". Empty when identical.
absl::StatusOr<std::vector<std::string>> CompareSet(const std::string& dir,
                                                    const std::vector<SetFile>& expected);

// Rebuilds the files of the set in dir from its manifest: a generated profile (profile and
// seed) or an ONNX import (from the manifest's source folder). Errors: vector.check.source when
// the originals are not installed, vector.check.generator for an unknown generator.
absl::StatusOr<std::vector<SetFile>> RegenerateSet(const std::string& dir);

// Checks every file the manifest lists against its size and sha256, that no other vector file
// is present, and that every vector parses. Differences as in CompareSet.
absl::StatusOr<std::vector<std::string>> CheckSetIntegrity(const std::string& dir);

// The ONNX import as a set: every OnnxNodeTestNames() folder under source_dir, or, when
// source_dir is an export-onnx folder (it holds dmconf-onnx-export.json), every test folder in
// it, in name order.
absl::StatusOr<std::vector<VectorCase>> ImportOnnxSet(const std::string& source_dir);
inline constexpr char kOnnxImportGenerator[] = "dmconf vectors import-onnx";

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_SUITES_VECTOR_SET_FILES_H_
