#include "harness/report/html_report.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/backend/verdict.h"
#include "harness/report/html_assets.h"
#include "harness/report/html_failures.h"
#include "harness/report/report_blocks.h"
#include "harness/report/report_stream.h"
#include "harness/report/status_matrix.h"
#include "oracle/element_type.h"
#include "oracle/op_table.h"

namespace dmconf {
namespace {

using nlohmann::json;

// JSON text that is safe inside <script>: no '<' (so no "</script>" or "<!--"), and no '>'
// or '&' either, written as JSON escapes that JSON.parse turns back into the same characters.
// DEL, which JSON leaves raw and HTML counts as a control character, likewise.
std::string ScriptSafeText(absl::string_view text) {
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

std::string ScriptSafeJson(const json& j) {
  return ScriptSafeText(j.dump(-1, ' ', false, json::error_handler_t::replace));
}

// The first part of the page's data: the blocks of the JSON report (report_blocks.h) it shows,
// made from the run's figures: format, run, options, summary, file errors, stale
// expectations, mutation, per backend its name, startup error, totals, slices, counts and
// status matrix, and the tallies over every case of html_failures.h (failing_counts, causes,
// known_reasons); "vocabulary" (HtmlVocabulary); and "embedded": {failing, embedded, cap, report}
// (failing cases of the run, those the page embeds, the cap, options.report_path).
json HtmlPageData(const ReportInput& run, const HtmlFailures& f, const HtmlOptions& options) {
  // As the report's text would be read back: keys in sorted order.
  json page{{"format", std::string(kReportFormat)},
            {"run", json(RunBlockJson(run))},
            {"options", json(run.options)},
            {"summary", json(SummaryJson(run))}};
  if (!run.file_errors.empty()) page["file_errors"] = json(FileErrorsJson(run.file_errors));
  if (!run.stale.empty()) page["stale_expectations"] = json(StaleExpectationsJson(run.stale));
  if (!run.mutants.empty()) page["mutation"] = json(MutationJson(run));
  // Of each backend, what is counted over every case; its failing cases come apart.
  json backends = json::array();
  for (size_t k = 0; k < run.runs->size(); ++k) {
    const BackendRun& b = (*run.runs)[k];
    const CaseTally t = RunTally(run, k);
    backends.push_back(json{{"name", b.backend},
                            {"startup_error", b.startup_error},
                            {"worker_errors", b.worker_errors},
                            {"totals", json(BackendTotalsJson(t))},
                            {"slices", json(SlicesJson(b))},
                            {"counts", json(VerdictCountsJson(t))},
                            {"status_matrix", json(StatusMatrixJson(t.cells))},
                            {"failing_counts", json(f.FailingCountsJson(k))},
                            {"causes", json(f.CausesJson(k))},
                            {"known_reasons", json(f.KnownReasonsJson(k))}});
  }
  page["backends"] = std::move(backends);
  page["vocabulary"] = HtmlVocabulary();
  // HtmlFailures fills the cap whenever there are more failing cases than it.
  page["embedded"] = json{{"failing", f.failing()},
                          {"embedded", std::min(f.failing(), options.max_failures)},
                          {"cap", options.max_failures},
                          {"report", options.report_path}};
  return page;
}

}  // namespace

json HtmlVocabulary() {
  json ops = json::array(), verdicts = json::array(), types = json::array();
  for (const OpRow& row : OpTable()) ops.push_back(std::string(row.name));
  for (Verdict v : VerdictsInColumnOrder()) verdicts.push_back(std::string(VerdictName(v)));
  for (ElementType t : AllElementTypes()) types.push_back(std::string(ElementTypeName(t)));
  return json{{"ops", std::move(ops)},
              {"verdicts", std::move(verdicts)},
              {"element_types", std::move(types)}};
}

namespace {

// The page, from the run's figures (run.tallies, or its cases) and its failing cases, both
// passes of `f` done.
std::string HtmlPage(const ReportInput& run, const HtmlFailures& f, const HtmlOptions& options) {
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
      ScriptSafeJson(HtmlPageData(run, f, options)), "</script>\n<script>\n", html::kReportJs,
      // After the script: the summary and the matrices are drawn before the parser reads the
      // failing cases, which the script lists once the document is read.
      "</script>\n<script type=\"application/json\" id=\"report-failures\">",
      ScriptSafeText(f.EmbeddedText(run.runs->size())), "</script>\n</body>\n</html>\n");
}

}  // namespace

std::string HtmlReport(const ReportInput& run, const HtmlOptions& options) {
  HtmlFailures f(options.max_failures);
  for (size_t k = 0; k < run.runs->size(); ++k) {
    ForEachCase(run, k, [&](const CaseResult& c) { f.Count(k, c); });
  }
  for (size_t k = 0; k < run.runs->size(); ++k) {
    ForEachCase(run, k, [&](const CaseResult& c) { f.Keep(k, c); });
  }
  return HtmlPage(run, f, options);
}

absl::StatusOr<std::string> HtmlReportOfFile(const std::string& path, const HtmlOptions& options) {
  HtmlFailures f(options.max_failures);
  std::vector<CaseTally> tallies;
  absl::StatusOr<RunReport> head = StreamReport(path, [&](size_t b, size_t, const CaseResult& c) {
    if (tallies.size() <= b) tallies.resize(b + 1);
    tallies[b].Add(c);
    f.Count(b, c);
  });
  if (!head.ok()) return head.status();
  tallies.resize(head->backends.size());
  absl::StatusOr<RunReport> again =
      StreamReport(path, [&](size_t b, size_t, const CaseResult& c) { f.Keep(b, c); });
  if (!again.ok()) return again.status();
  if (!f.SameCases()) {
    return absl::DataLossError(
        absl::StrCat("report.html.changed: ", path, ": the file changed while it was read"));
  }
  ReportInput in = head->Input();
  in.tallies = &tallies;  // its figures; the cases are not held (and no writer asks for them)
  return HtmlPage(in, f, options);
}

}  // namespace dmconf
