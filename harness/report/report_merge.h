// `dmconf report merge`: the reports of several runs (typically the shards of one command,
// `dmconf run --shard K/N`) as one report. The reports, decoded by the report reader
// (report_reader.h: the runner's own types), are merged into one RunReport that the same
// writers (report.h) write, so totals, pass rates, counts, coverage, the summary and JUnit come
// out exactly as one run would give them.
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
//   std::vector<RunReport> parts;  // *LoadReport("s1.json"), ...
//   absl::StatusOr<RunReport> m = MergeReports(std::move(parts), {"s1.json", ...}, cmd);
//   WriteFileAtomically("all.json", JsonReportText(m->Input()));
#ifndef DMCONF_HARNESS_REPORT_REPORT_MERGE_H_
#define DMCONF_HARNESS_REPORT_REPORT_MERGE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/report/run_report.h"

namespace dmconf {

// `reports` are taken apart (their cases move into the merged report); `files` name them in
// errors.
absl::StatusOr<RunReport> MergeReports(std::vector<RunReport> reports,
                                       const std::vector<std::string>& files,
                                       const std::string& command);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_REPORT_MERGE_H_
