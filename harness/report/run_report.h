// A `dmconf-report/2` document as the runner's own types: what the report reader decodes
// (report_stream.h) and what `dmconf report merge`, `report diff` and `report html` work on.
// The writers (report.h) take its Input(), so a report decoded and written again is the same
// document (totals, pass rates, counts, the summary and the mutation score are computed again
// from the cases, as the run computed them).
//
// Not kept: what the writer computes (above), members the format does not define, and of the
// `run` block anything but RunInfo and `backend_seconds` (kept as each BackendRun's seconds).
//
// Example:
//   absl::StatusOr<RunReport> r = LoadReport("reports/out/report.json");
//   for (const BackendRun& b : r->backends) ...;
//   std::string again = JsonReportText(r->Input());
#ifndef DMCONF_HARNESS_REPORT_RUN_REPORT_H_
#define DMCONF_HARNESS_REPORT_RUN_REPORT_H_

#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "harness/report/report.h"
#include "harness/runner/expectations.h"
#include "harness/runner/runner.h"
#include "harness/runner/shard.h"
#include "nlohmann/json.hpp"

namespace dmconf {

// The report's "run" block (DefaultRunInfo), apart from backend_seconds.
struct RunInfo {
  std::string time;  // UTC, ISO 8601
  std::string host;
  std::string dmconf_version;
  std::string compiler;
  std::string command;
};

struct RunReport {
  RunInfo run;
  // The run's options as recorded: a record of its command line, written back as read, apart
  // from "shard" (decoded below). Keys in sorted order.
  nlohmann::json options = nlohmann::json::object();
  std::optional<Shard> shard;  // options.shard ("K/N"), when the run was one shard
  // options.strict_coverage and options.strict_expectations (absent or not a boolean: off),
  // which stay in `options` as read.
  RunRules rules;
  // options.shards: the shards a merged report was made of ("1/3", ...), sorted as text.
  std::vector<std::string> shards;
  std::vector<BackendRun> backends;
  std::vector<MutantExpectation> mutants;
  std::vector<FileError> file_errors;
  std::vector<StaleExpectation> stale;  // point into `known`
  std::deque<KnownFailure> known;       // what the cases' `known` and `stale` point to

  RunReport() = default;
  RunReport(RunReport&&) = default;  // a deque's elements stay where they are
  RunReport& operator=(RunReport&&) = default;
  RunReport(const RunReport&) = delete;
  RunReport& operator=(const RunReport&) = delete;

  // A view for the writers and JudgeReportedRun; it points into this report.
  ReportInput Input() const;
};

// The report's "run" block without backend_seconds (which the writer adds).
nlohmann::ordered_json RunInfoJson(const RunInfo& info);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_RUN_REPORT_H_
