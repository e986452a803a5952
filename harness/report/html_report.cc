#include "harness/report/html_report.h"

#include "absl/strings/str_cat.h"
#include "harness/report/html_assets.h"
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

json HtmlPageData(const ReportInput& run) {
  // The blocks of the JSON report the page shows (report_blocks.h), made from the run as the
  // writer makes them; as the report's text would be read back: keys in sorted order.
  json page{{"format", std::string(kReportFormat)},
            {"run", json(RunBlockJson(run))},
            {"options", json(run.options)},
            {"summary", json(SummaryJson(run))}};
  if (!run.file_errors.empty()) page["file_errors"] = json(FileErrorsJson(run.file_errors));
  if (!run.stale.empty()) page["stale_expectations"] = json(StaleExpectationsJson(run.stale));
  if (!run.mutants.empty()) page["mutation"] = json(MutationJson(run));
  // Of each backend, the failing cases only (new or known); the matrix comes from "counts".
  const CaseFilter failing = [](const CaseResult& c) { return c.failure || c.known != nullptr; };
  json backends = json::array();
  for (const BackendRun& b : *run.runs) {
    backends.push_back(json{{"name", b.backend},
                            {"startup_error", b.startup_error},
                            {"totals", json(BackendTotalsJson(b))},
                            {"slices", json(SlicesJson(b))},
                            {"counts", json(VerdictCountsJson(b))},
                            {"status_matrix", json(StatusMatrixJson(b))},
                            {"failures", json(CasesJson(b, failing))}});
  }
  page["backends"] = std::move(backends);
  return page;
}

std::string HtmlReport(const ReportInput& run) {
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
      ScriptSafeJson(HtmlPageData(run)), "</script>\n<script>\n", html::kReportJs,
      "</script>\n</body>\n</html>\n");
}

}  // namespace dmconf
