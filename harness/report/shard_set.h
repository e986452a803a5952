// What `dmconf report merge` checks before it merges: that the reports are one run's parts.
//
//   - Their options are equal apart from "shard" (report.merge.options_differ).
//   - They were written by the same dmconf version (report.merge.shards_mixed).
//   - Either none is a shard (runs of different backends with the same options), or every one
//     is, all of one N (report.merge.shards_mixed), each K from 1 to N exactly once
//     (report.merge.shards_repeated, report.merge.shards_missing).
// A sharded run whose set is incomplete would otherwise merge into a report that looks like
// the whole run's and passes where the whole run fails.
//
// Example:
//   CheckShardSet({s1, s2, s3}, {"s1.json", "s2.json", "s3.json"})  // each shard K/4, K=1..3
//   // report.merge.shards_missing: shard 4/4 is missing (given: 1/4, 2/4, 3/4)
#ifndef DMCONF_HARNESS_REPORT_SHARD_SET_H_
#define DMCONF_HARNESS_REPORT_SHARD_SET_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "harness/report/run_report.h"

namespace dmconf {

// `files` name the reports in errors.
absl::Status CheckShardSet(const std::vector<RunReport>& reports,
                           const std::vector<std::string>& files);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_SHARD_SET_H_
