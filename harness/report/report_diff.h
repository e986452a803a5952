// `dmconf report diff OLD NEW`: the regression view between two runs (two versions of a
// backend, or of dmconf): per backend and op, the new failures, the fixed failures and the
// other changed verdicts.
//
// Cases are matched by (lane, case id) within a backend (an id a run holds twice is matched
// occurrence by occurrence). Backends are matched by name; when each report has exactly one
// backend they are compared whatever their names (a plugin's path often changes between
// versions). A case fails when its verdict fails the run it is in (`failure`) or an
// expectation lists it (`known`).
// - new failure: fails in NEW, and did not fail in OLD or was not in OLD;
// - fixed: failed in OLD, is in NEW and does not fail;
// - changed: in both, another verdict, neither of the above (wrong_values -> crash, pass ->
//   unsupported, ...).
//
// Example:
//   absl::StatusOr<ReportDiff> d = DiffReportFiles("v1.json", "v2.json");
//   std::cout << DiffText(*d);  // exit status 1 when !d->new_failures.empty()
#ifndef DMCONF_HARNESS_REPORT_REPORT_DIFF_H_
#define DMCONF_HARNESS_REPORT_REPORT_DIFF_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/report/run_report.h"

namespace dmconf {

struct DiffEntry {
  std::string backend;  // "name", or "old name -> new name"
  std::string op, lane, id;
  std::string old_verdict, new_verdict;  // "" when the case was not in that run
  std::string detail;                    // NEW's detail (OLD's for a fixed case)
  std::string repro;                     // NEW's repro, when it has one
};

struct ReportDiff {
  std::vector<DiffEntry> new_failures, fixed, changed;
  int64_t in_both = 0, only_old = 0, only_new = 0;  // cases
  std::vector<std::string> backends_only_old, backends_only_new;
};

// Two report files, each read one case at a time (report_stream.h) and held as a 16-byte
// record per case (a 64-bit hash of its lane, id and occurrence, where it is, its verdict);
// the records are joined per backend pair on the hash, then the entries' text is read again.
// Errors: the report reader's (report.*), OLD's first.
absl::StatusOr<ReportDiff> DiffReportFiles(const std::string& old_path,
                                           const std::string& new_path);

// A table per backend x op (new failures, fixed, changed), then each entry on a line.
std::string DiffText(const ReportDiff& d);

// The same as one self-contained HTML page (no script; every string escaped).
std::string DiffHtml(const ReportDiff& d, const std::string& old_file, const std::string& new_file);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_REPORT_DIFF_H_
