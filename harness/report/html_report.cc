#include "harness/report/html_report.h"

#include "absl/strings/str_cat.h"
#include "harness/report/html_assets.h"

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
  // The failing cases (new or known) only; as the report's text would be read back: keys in
  // sorted order.
  const json report(
      JsonReport(run, [](const CaseResult& c) { return c.failure || c.known != nullptr; }));
  json page = json::object();
  for (const char* key :
       {"format", "run", "options", "summary", "file_errors", "stale_expectations", "mutation"}) {
    if (report.contains(key)) page[key] = report[key];
  }
  json backends = json::array();
  for (const json& b : report["backends"]) {
    json out = json::object();
    for (const char* key : {"name", "startup_error", "totals", "slices", "counts"}) {
      out[key] = b[key];
    }
    // Absent from reports written before the matrix was added: the page then shows none.
    if (b.contains("status_matrix")) out["status_matrix"] = b["status_matrix"];
    out["failures"] = b["cases"];
    backends.push_back(std::move(out));
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
