// `dmconf report merge`: the reports of several runs (typically the shards of one command,
// `dmconf run --shard K/N`) as one report, written by the same streamed writer (report.h) as a
// run's, so totals, pass rates, counts, coverage, the summary and JUnit come out exactly as one
// run would give them.
//
// Streamed: memory does not grow with the number of cases. Each file is read one case at a
// time (report_stream.h) twice: once to check it and take its figures (CaseTally) and a 64-bit
// hash of each case's (backend, lane, id), once more, when the merged report is written, for
// its cases (once per backend, and once per backend and op for JUnit). Only the hashes (8
// bytes a case) are held across files; two equal hashes are confirmed on the cases' ids by a
// third reading before a duplicate is reported.
//
// - A backend present in several reports gets their cases one after the other (in the order
//   the reports are given), its declared slices' counts added, its seconds added. Its
//   capabilities must be the same everywhere (report.merge.capabilities_differ).
// - A (backend, lane, case id) in two reports is refused (report.merge.duplicate_case): the
//   same shard given twice, or overlapping runs.
// - The reports must be one run's parts (shard_set.h CheckShardSet): options equal apart from
//   "shard" (report.merge.options_differ), one dmconf version, and either no shard or every
//   shard K/N of one N exactly once (report.merge.shards_mixed, shards_repeated,
//   shards_missing). The merged options list the shards merged ("shards").
// - An expectation entry is stale only if it is stale in every report; vector files that could
//   not be read are listed once.
// - "run": the earliest time, the first report's host, version and compiler; `command`.
// - A file that changes between its readings is report.merge.changed (nothing is written).
//
// Example:
//   absl::StatusOr<std::unique_ptr<MergedReport>> m = MergeReportFiles({"s1.json", ...}, cmd);
//   WriteJsonReport("all.json", (*m)->Input());
#ifndef DMCONF_HARNESS_REPORT_REPORT_MERGE_H_
#define DMCONF_HARNESS_REPORT_REPORT_MERGE_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/report/report.h"
#include "harness/report/run_report.h"
#include "harness/runner/case_tally.h"

namespace dmconf {

// backends[backend] of files[file], one part of a merged backend; `cases` of them.
struct MergedPart {
  size_t file = 0, backend = 0;
  int64_t cases = 0;
};

// The merged report: its head and figures in memory, its cases read again from the files
// whenever a writer asks for them.
class MergedReport : public CaseSource {
 public:
  // For the writers and JudgeReportedRun; it points into this object.
  ReportInput Input();
  void ForEach(size_t run, const std::function<void(const CaseResult&)>& each) override;
  absl::Status status() const override { return status_; }

 private:
  friend class MergeBuilder;
  std::vector<std::string> files_;
  std::vector<RunReport> heads_;  // each file's report without its cases
  RunReport merged_;              // without cases
  std::vector<CaseTally> tallies_;
  std::vector<std::vector<MergedPart>> parts_;  // per merged backend, in order
  absl::Status status_;
};

// `files` are the reports, also named in errors.
absl::StatusOr<std::unique_ptr<MergedReport>> MergeReportFiles(
    const std::vector<std::string>& files, const std::string& command);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_REPORT_MERGE_H_
