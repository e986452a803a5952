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
// (html/report.js) that puts every string in the page as text, never as markup. The data
// comes in two parts: first what the summary, the matrices and the tallies need (small
// whatever the run's size), then the script, which shows them at once, and last the failing
// cases, at most HtmlOptions::max_failures of them (html_failures.h says which), paged.
// Above the cap the page says how many failing cases it leaves out and where they are.
//
// `dmconf report html` reads its report one case at a time, twice (report_stream.h): once for
// the counts (CaseTally, HtmlFailures) and once for the failing cases the page embeds; its
// memory holds those cases and the counts, never the passing cases.
//
// Example:
//   absl::StatusOr<std::string> page = HtmlReportOfFile(
//       "reports/out/report.json", {.max_failures = 5000, .report_path =
//       "reports/out/report.json"});
//   std::string same = HtmlReport(run_input, {...});  // a run whose cases are in memory
#ifndef DMCONF_HARNESS_REPORT_HTML_REPORT_H_
#define DMCONF_HARNESS_REPORT_HTML_REPORT_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "harness/report/html_failures.h"
#include "harness/report/report.h"
#include "nlohmann/json.hpp"

namespace dmconf {

struct HtmlOptions {
  // At most this many failing cases (new or known) are embedded; >= 0.
  int64_t max_failures = kDefaultHtmlMaxFailures;
  // The JSON report holding every case, named in the note above the cap; empty: none written.
  std::string report_path;
};

// The page of a run: its cases come from ForEachCase (report.h), each read twice.
std::string HtmlReport(const ReportInput& run, const HtmlOptions& options = {});

// The page of the dmconf-report/2 report at `path`, streamed: the same bytes as HtmlReport of
// the report decoded whole. Errors: those of StreamReport; report.html.changed when the file
// changes between its two readings.
absl::StatusOr<std::string> HtmlReportOfFile(const std::string& path,
                                             const HtmlOptions& options = {});

// The page data's "vocabulary": the names the page orders its rows and columns by, from the
// tables that hold them, so that html/report.js keeps no list of its own:
//   {"ops": [op table order], "verdicts": [VerdictsInColumnOrder()],
//    "element_types": [AllElementTypes() order]}
nlohmann::json HtmlVocabulary();

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_HTML_REPORT_H_
