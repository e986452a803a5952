// `dmconf report merge`: the reports of several runs (typically the shards of one command,
// `dmconf run --shard K/N`) as one report. The reports are read back into the runner's own
// types and written again by the same writers (report.h), so totals, pass rates, counts,
// coverage, the summary and JUnit come out exactly as one run would give them.
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
//
// Example:
//   absl::StatusOr<MergedReport> m = MergeReports({*LoadReport("s1.json"), ...}, {"s1.json", ...},
//   cmd); WriteFileAtomically("all.json", JsonReport(m->Input()).dump(1) + "\n");
#ifndef DMCONF_HARNESS_REPORT_REPORT_MERGE_H_
#define DMCONF_HARNESS_REPORT_REPORT_MERGE_H_

#include <deque>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/report/report.h"
#include "nlohmann/json.hpp"

namespace dmconf {

struct MergedReport {
  std::vector<BackendRun> runs;
  std::deque<KnownFailure> known;  // what the cases' `known` and the stale entries point to
  ReportInput input;               // points into runs and known: do not copy a MergedReport
  MergedReport() = default;
  MergedReport(const MergedReport&) = delete;
  MergedReport& operator=(const MergedReport&) = delete;
};

// `reports` must have passed ParseReport; `files` name them in errors.
absl::StatusOr<std::unique_ptr<MergedReport>> MergeReports(
    const std::vector<nlohmann::json>& reports, const std::vector<std::string>& files,
    const std::string& command);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_REPORT_MERGE_H_
