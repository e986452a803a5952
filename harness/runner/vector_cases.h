// Vector files as runner cases, and failing cases saved as vector files.
//
// `dmconf run --vectors PATH`, `dmconf vectors verify` and the per-file ctest run
// dmconf-vector/1 files (docs/vector-format.md) through the same runner as the built-in
// catalogue: the expectation recorded in the file is the one the backend is judged against.
// Every failing case of a run is saved as a dmconf-vector/1 file (provenance "regression",
// found_by "backend:<name>"), so `dmconf run --backend <name> --vectors <file>` reproduces it.
//
// Example:
//   absl::StatusOr<std::vector<PreparedCase>> cases = LoadVectorCases({"vectors/golden"});
//   absl::StatusOr<std::string> path =
//       SaveFailingCase("out/failures", "mylib", (*cases)[0], "wrong_values", "...");
#ifndef DMCONF_HARNESS_RUNNER_VECTOR_CASES_H_
#define DMCONF_HARNESS_RUNNER_VECTOR_CASES_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/io/shape_case_file.h"
#include "harness/io/vector_case.h"
#include "harness/runner/runner.h"

namespace dmconf {

// What LoadVectorCases read: the cases, and every file it could not read or parse.
struct LoadedVectors {
  std::vector<PreparedCase> cases;
  // Shape-case files (dmconf-shape-case/1) among them: run in the shape-inference lane.
  std::vector<PreparedShapeCase> shape_cases;
  std::vector<FileError> errors;
};

// Reads every vector file among `paths` (files, or folders searched recursively), in path
// order. The case keeps the vector's id; its expectation is the file's. A file that cannot be
// read or parsed is listed in `errors` (rule, file, JSON location) and the others are read.
// Errors: a path that does not exist or a folder that cannot be listed.
absl::StatusOr<LoadedVectors> LoadVectorCases(const std::vector<std::string>& paths);

// Whether the file is a shape case (dmconf-shape-case/1): its first 4 KiB name the schema.
bool IsShapeCaseFile(const std::string& path);

// The FileError for a reader's error about `file` (its rule is the message's prefix).
FileError MakeFileError(const std::string& file, const absl::Status& status);

// A vector id (1-200 characters of [A-Za-z0-9._+-]) for a case id: '/' becomes "__", other
// characters outside the set become '_'; ids longer than 200 keep 183 characters and a
// 16-digit hash of the whole id.
std::string VectorIdFor(absl::string_view case_id);

// Saves the case as <dir>/<backend>/<VectorIdFor(id)>.json (dmconf-vector/1, written
// atomically, with the oracle's expectation) and returns the path. The note records the
// verdict and detail. Errors: the oracle cannot evaluate the case, or the file cannot be
// written.
// A failing shape case saved as <dir>/<backend>/<VectorIdFor(id)>.json (dmconf-shape-case/1,
// with the oracle's answer and the failure's backend, verdict and detail), so that
// `dmconf run --backend <name> --vectors <file>` reproduces it.
// The file SaveFailingShapeCase writes, without writing it (`dmconf shrink` writes it where
// its --out says).
absl::StatusOr<io::ShapeCaseFile> FailingShapeCaseFile(const std::string& backend,
                                                       const PreparedShapeCase& p,
                                                       absl::string_view verdict,
                                                       absl::string_view detail);
absl::StatusOr<std::string> SaveFailingShapeCase(const std::string& dir, const std::string& backend,
                                                 const PreparedShapeCase& p,
                                                 absl::string_view verdict,
                                                 absl::string_view detail);

// The witness of an unsound_shape result (r.witness, from its partial case p) saved as a static
// shape case <dir>/<backend>/<VectorIdFor(id)>.witness.json (dmconf-shape-case/1, the oracle's
// answer filled in, its origin naming the case and the backend's answer it proves unsound).
// Run by `dmconf run --backend <name> --vectors <file>`, it asks the backend the instance
// itself; `dmconf infer-shape` on it gives the output the partial answer leaves out.
absl::StatusOr<std::string> SaveWitnessCase(const std::string& dir, const std::string& backend,
                                            const PreparedShapeCase& p, const CaseResult& r);

// The vector SaveFailingCase writes (provenance "regression", found_by "backend:<name>", a
// note with the verdict, the case id, its source and, for a shrunk case, what it was shrunk
// from), without writing it.
absl::StatusOr<io::VectorCase> FailingCaseVector(const std::string& backend, const PreparedCase& p,
                                                 absl::string_view verdict,
                                                 absl::string_view detail);

absl::StatusOr<std::string> SaveFailingCase(const std::string& dir, const std::string& backend,
                                            const PreparedCase& p, absl::string_view verdict,
                                            absl::string_view detail);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_RUNNER_VECTOR_CASES_H_
