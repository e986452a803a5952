// `dmconf run --update-expectations FILE`: after a run, the expectations file is brought in line
// with what the run saw. Entries of FILE that matched no failing case of a backend they apply to
// (StaleExpectations) are removed; each new failure (a failing verdict no entry lists) is added
// as a known failure of its backend and exact case id, with its verdict and deciding rule and a
// reason placeholder to fill in. An idle entry, none of whose cases ran (its pattern names no
// case the run had for its backends: a run of other ops or types), is not stale and is kept.
// Nothing changes silently: every removed and added entry is printed. The run's exit status is
// judged against FILE as it was read, so a run that met new failures still fails once; the next
// run, with the updated FILE, does not.
//
// Example:
//   absl::StatusOr<ExpectationsChange> c =
//       UpdateExpectationsFile("known.json", entries_of_file, stale, runs, {"mutant-x"});
//   std::cout << ExpectationsChangeText("known.json", *c);
#ifndef DMCONF_HARNESS_RUNNER_EXPECTATIONS_UPDATE_H_
#define DMCONF_HARNESS_RUNNER_EXPECTATIONS_UPDATE_H_

#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/runner/expectations.h"
#include "harness/runner/runner.h"

namespace dmconf {

// The reason given to an entry added by the update, for the user to replace.
inline constexpr char kReasonPlaceholder[] =
    "unexplained: added by dmconf --update-expectations; replace with why this failure is "
    "expected (and a link)";

struct ExpectationsChange {
  std::vector<std::string> removed;      // "/known_failures/5: armnn, case *s2b.*, crash (reason)"
  std::vector<std::string> added;        // "armnn, case sweep/..., crash, rule s2b.pads"
  int64_t harness_errors_not_added = 0;  // dmconf's own faults are never made "known"
  int64_t idle_kept = 0;                 // idle entries kept: no case they name ran
};

// Rewrites `path` (created when missing, with its folder) atomically. `file_entries` are the
// run's entries read from `path` when the run started; they are found again in the file as it
// is now by what they say (backend, case, rule, verdict), not by position, and when the file's
// entries are no longer those (one changed, removed or added by another writer during the
// run) nothing is written: "expectations.update.changed: known.json: the entry
// known.json: /known_failures/0 (armnn, case x, crash (reason)) changed or was removed while
// the run went on; the file is kept as it is, not updated". The file keeps its layout (a
// compact file stays on one line; an indented one keeps its indent) and is never written
// above the size its reader accepts (io.write.too_large, kMaxExpectationsFileBytes).
// `skip_backends` are backends whose failures are not to be listed (mutants, which are meant
// to fail). Errors: "expectations.read: ...", "expectations.update.changed: ...", "io.write...".
absl::StatusOr<ExpectationsChange> UpdateExpectationsFile(
    const std::string& path, const std::vector<const KnownFailure*>& file_entries,
    const std::vector<StaleExpectation>& stale, const std::vector<BackendRun>& runs,
    const std::set<std::string>& skip_backends);

// What changed, one line per entry, for the terminal.
std::string ExpectationsChangeText(const std::string& path, const ExpectationsChange& c);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_RUNNER_EXPECTATIONS_UPDATE_H_
