// `dmconf vectors verify` as a session: vector files run on backends and judged against each
// file's expectation (a file the oracle contradicts is a file error, never a case), then each
// file counted once: failed when a backend failed it or it is a file error, else unsupported
// when a backend did not run it, else passed (never "passed" unrun).
//
// Example:
//   SessionOptions o;  o.backends = {"xnnpack"};
//   absl::StatusOr<VectorTally> t = VerifyVectorFiles({"vectors/golden/a.json"}, o);
//   // t->passed, t->failed, t->unsupported; t->session_status: RunSession's exit status
#ifndef DMCONF_HARNESS_SESSION_VERIFY_VECTORS_H_
#define DMCONF_HARNESS_SESSION_VERIFY_VECTORS_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/session/run_session.h"

namespace dmconf {

struct VectorTally {
  size_t passed = 0;
  size_t failed = 0;  // file errors included
  size_t unsupported = 0;
  size_t file_errors = 0;  // files that could not be read, or that the oracle contradicts
  int session_status = 0;  // RunSession's exit status (0 when no file held a case)
};

// Runs the files (default backend: oracle; no directed sweep). Errors: the files could not be
// listed or read at all (LoadVectorCases).
absl::StatusOr<VectorTally> VerifyVectorFiles(const std::vector<std::string>& files,
                                              SessionOptions options);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_SESSION_VERIFY_VECTORS_H_
