// The blocks of the JSON report `dmconf-report/2` (docs/report-format.md), one function each,
// computed from the run: JsonReport (report.h) puts them together into the document, and the
// HTML page (html_report.h) takes the ones it shows from the same run, never from the JSON the
// writer made of it.
//
// Example:
//   nlohmann::ordered_json totals = BackendTotalsJson(run);
//   // {"cases":120,"run":118,"unsupported":2,"new_failures":3,"known_failures":0}
#ifndef DMCONF_HARNESS_REPORT_REPORT_BLOCKS_H_
#define DMCONF_HARNESS_REPORT_REPORT_BLOCKS_H_

#include <vector>

#include "harness/report/report.h"
#include "harness/runner/runner.h"
#include "nlohmann/json.hpp"

namespace dmconf {

// "run": in.run_info and each backend's wall time ("backend_seconds").
nlohmann::ordered_json RunBlockJson(const ReportInput& in);
// "summary": backends, cases, new and known failures, file errors, unexercised slices and
// stale expectations of the whole run.
nlohmann::ordered_json SummaryJson(const ReportInput& in);
// "file_errors" and "stale_expectations": one object per entry.
nlohmann::ordered_json FileErrorsJson(const std::vector<FileError>& errors);
nlohmann::ordered_json StaleExpectationsJson(const std::vector<StaleExpectation>& stale);
// "mutation": each mutant scored (ScoreMutant) and the mutation score.
nlohmann::ordered_json MutationJson(const ReportInput& in);

// One element of "backends" with an empty "cases" (its last key): the blocks below, in this
// order; the writer adds the cases (CasesJson, or streamed one at a time).
nlohmann::ordered_json BackendHeadJson(const BackendRun& r);
// The same from the run's figures (its results are not looked at).
nlohmann::ordered_json BackendHeadJson(const BackendRun& r, const CaseTally& t);
// backends[].totals: cases, run, unsupported, new and known failures.
nlohmann::ordered_json BackendTotalsJson(const BackendRun& r);
nlohmann::ordered_json BackendTotalsJson(const CaseTally& t);
// backends[].slices: one per declared slice, with its counts and whether it was unexercised.
nlohmann::ordered_json SlicesJson(const BackendRun& r);
// backends[].counts: op -> element type -> verdict -> number of cases.
nlohmann::ordered_json VerdictCountsJson(const BackendRun& r);
nlohmann::ordered_json VerdictCountsJson(const CaseTally& t);
// backends[].cases: CaseJson of each case `keep` keeps (every case when `keep` is empty).
nlohmann::ordered_json CasesJson(const BackendRun& r, const CaseFilter& keep);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_REPORT_BLOCKS_H_
