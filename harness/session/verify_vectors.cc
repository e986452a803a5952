#include "harness/session/verify_vectors.h"

#include <set>
#include <utility>

#include "harness/runner/vector_cases.h"

namespace dmconf {

absl::StatusOr<VectorTally> VerifyVectorFiles(const std::vector<std::string>& files,
                                              SessionOptions options) {
  // Each file's expectation is checked against the oracle first: a file the oracle
  // contradicts is a file error (vector.expectation.contradicts_oracle), never a case.
  absl::StatusOr<LoadedVectors> loaded = LoadVectorCases(files);
  if (!loaded.ok()) return loaded.status();
  const size_t n_files = loaded->cases.size() + loaded->shape_cases.size();
  RunCases cases{CaseList(std::move(loaded->cases)), ShapeCaseList(std::move(loaded->shape_cases))};
  VectorTally t;
  t.file_errors = loaded->errors.size();
  std::set<std::string> failed;       // ids
  std::set<std::string> unsupported;  // ids not run by some backend (and failed by none)
  if (n_files > 0 || t.file_errors > 0) {
    options.file_errors = std::move(loaded->errors);  // listed by the session
    if (options.backends.empty() && options.backend_libs.empty()) options.backends = {"oracle"};
    options.input_paths = files;
    options.directed_count = 0;  // only the files
    std::vector<BackendRun> runs;
    t.session_status = RunSession(cases, options, "dmconf vectors verify", &runs);
    for (const BackendRun& r : runs) {
      for (const CaseResult& c : r.results) {
        if (c.failure) failed.insert(c.id);
        if (c.verdict == Verdict::kUnsupported && !c.failure) unsupported.insert(c.id);
      }
    }
  }
  for (const std::string& id : failed) unsupported.erase(id);
  t.failed = failed.size() + t.file_errors;
  t.unsupported = unsupported.size();
  t.passed = n_files - failed.size() - unsupported.size();
  return t;
}

}  // namespace dmconf
