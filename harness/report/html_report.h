// The HTML report: one self-contained page (no network, works from file://) built from a
// run (a RunReport the report reader decoded, or the run `dmconf run --html` just made). It
// shows the backend x op x verdict matrix (each failing count links to its cases), each
// backend's implementation status (op x element type, from status_matrix; rank and lane on
// hover), the new failures grouped by cause (verdict and named mistake, collapsed), filters by
// backend, op, verdict, rule, element type and named mistake, each failure with its
// invocation, expectation, outcome, diagnosis, repro and saved vector, a heat map of where a
// wrong output differs (hover: expected and actual bits), a source map of a layout bug's
// shrunk case (shrunk.source_map: the input element each output element holds), class
// coverage, the expectations that matched, and the run's metadata and options.
//
// The page is the report's data (as JSON inside <script type="application/json">, with '<',
// '>' and '&' escaped so that no string can end the element) and a hand-written script
// (html/report.js) that puts every string in the page as text, never as markup.
//
// Example:
//   absl::StatusOr<RunReport> r = LoadReport("reports/out/report.json");
//   std::string page = HtmlReport(r->Input());
#ifndef DMCONF_HARNESS_REPORT_HTML_REPORT_H_
#define DMCONF_HARNESS_REPORT_HTML_REPORT_H_

#include <string>

#include "harness/report/report.h"
#include "nlohmann/json.hpp"

namespace dmconf {

std::string HtmlReport(const ReportInput& run);

// The data the page embeds: the blocks of the JSON report (report_blocks.h) it shows, made from
// the run: format, run, options, summary, file errors, stale expectations, mutation, and per
// backend its name, startup error, totals, slices, counts and status matrix; its failing cases
// (new or known, as CaseJson writes them) are under "failures".
nlohmann::json HtmlPageData(const ReportInput& run);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_HTML_REPORT_H_
