#include "harness/report/html_report.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/report/html_assets.h"
#include "harness/report/html_failures.h"
#include "harness/report/report_blocks.h"
#include "harness/report/status_matrix.h"

namespace dmconf {
namespace {

using nlohmann::json;

// JSON text that is safe inside <script>: no '<' (so no "</script>" or "<!--"), and no '>'
// or '&' either, written as JSON escapes that JSON.parse turns back into the same characters.
// DEL, which JSON leaves raw and HTML counts as a control character, likewise.
std::string ScriptSafeJson(const json& j) {
  const std::string text = j.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    switch (ch) {
      case '<':
        out += "\\u003c";
        break;
      case '>':
        out += "\\u003e";
        break;
      case '&':
        out += "\\u0026";
        break;
      case '\x7f':
        out += "\\u007f";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

}  // namespace

json HtmlPageData(const ReportInput& run, const HtmlOptions& options) {
  // The blocks of the JSON report the page shows (report_blocks.h), made from the run as the
  // writer makes them; as the report's text would be read back: keys in sorted order.
  json page{{"format", std::string(kReportFormat)},
            {"run", json(RunBlockJson(run))},
            {"options", json(run.options)},
            {"summary", json(SummaryJson(run))}};
  if (!run.file_errors.empty()) page["file_errors"] = json(FileErrorsJson(run.file_errors));
  if (!run.stale.empty()) page["stale_expectations"] = json(StaleExpectationsJson(run.stale));
  if (!run.mutants.empty()) page["mutation"] = json(MutationJson(run));
  // Of each backend, what is counted over every case; its failing cases come apart.
  json backends = json::array();
  int64_t failing = 0;
  for (const BackendRun& b : *run.runs) {
    for (const CaseResult& c : b.results) failing += c.failure || c.known != nullptr;
    backends.push_back(json{{"name", b.backend},
                            {"startup_error", b.startup_error},
                            {"totals", json(BackendTotalsJson(b))},
                            {"slices", json(SlicesJson(b))},
                            {"counts", json(VerdictCountsJson(b))},
                            {"status_matrix", json(StatusMatrixJson(b))},
                            {"failing_counts", json(FailingCountsJson(b))},
                            {"causes", json(CausesJson(b))},
                            {"known_reasons", json(KnownReasonsJson(b))}});
  }
  page["backends"] = std::move(backends);
  // EmbeddedFailures fills the cap whenever there are more failing cases than it.
  page["embedded"] = json{{"failing", failing},
                          {"embedded", std::min(failing, options.max_failures)},
                          {"cap", options.max_failures},
                          {"report", options.report_path}};
  return page;
}

json HtmlFailuresData(const ReportInput& run, const HtmlOptions& options) {
  const std::vector<std::vector<bool>> keep = EmbeddedFailures(*run.runs, options.max_failures);
  json out = json::array();
  for (size_t b = 0; b < run.runs->size(); ++b) {
    json cases = json::array();
    const std::vector<CaseResult>& results = (*run.runs)[b].results;
    for (size_t i = 0; i < results.size(); ++i) {
      if (keep[b][i]) cases.push_back(json(CaseJson(results[i])));
    }
    out.push_back(std::move(cases));
  }
  return out;
}

std::string HtmlReport(const ReportInput& run, const HtmlOptions& options) {
  return absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      // No network: nothing may be fetched, whatever a string in the report says.
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
      "<title>dmconf report</title>\n<style>\n",
      html::kReportCss,
      "</style>\n</head>\n<body>\n<div id=\"js-errors\"></div>\n"
      // First, so that an error anywhere in the page's script is recorded in the page.
      "<script>\nwindow.addEventListener('error', function (e) {\n"
      "  var d = document.getElementById('js-errors');\n"
      "  d.textContent += (e.message || 'error') + '\\n';\n"
      "  document.documentElement.setAttribute('data-js-errors',\n"
      "      String(d.textContent.split('\\n').length - 1));\n});\n</script>\n"
      "<h1>dmconf conformance report</h1>\n<div id=\"main\"></div>\n"
      "<script type=\"application/json\" id=\"report-data\">",
      ScriptSafeJson(HtmlPageData(run, options)), "</script>\n<script>\n", html::kReportJs,
      // After the script: the summary and the matrices are drawn before the parser reads the
      // failing cases, which the script lists once the document is read.
      "</script>\n<script type=\"application/json\" id=\"report-failures\">",
      ScriptSafeJson(HtmlFailuresData(run, options)), "</script>\n</body>\n</html>\n");
}

}  // namespace dmconf
