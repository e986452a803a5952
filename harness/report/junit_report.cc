// The JUnit XML writer of report.h (StreamJunit, JunitXml) and the markup escaping it shares
// with the HTML pages (MarkupEscape).
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "harness/report/report.h"

namespace dmconf {

namespace {

// One <testcase> element.
std::string TestcaseXml(const std::string& suite, const CaseResult& c) {
  std::string out = absl::StrCat("    <testcase classname=\"", MarkupEscape(suite), "\" name=\"",
                                 MarkupEscape(c.id), "\"");
  if (c.failure) {
    std::string body = c.detail;
    if (c.invocation.has_value() && IsShapeLane(c.lane)) {
      absl::StrAppend(&body, "\ncase: ", InvocationText(*c.invocation));
    }
    if (c.diagnosis.has_value()) absl::StrAppend(&body, "\ndiagnosis: ", c.diagnosis->summary);
    if (!c.repro.empty()) absl::StrAppend(&body, "\nrepro: ", c.repro);
    if (c.shrunk && !c.shrunk->repro.empty()) {
      absl::StrAppend(&body, "\nshrunk (", ShrunkText(*c.shrunk), "): ", c.shrunk->repro);
      if (c.shrunk->diagnosis.has_value())
        absl::StrAppend(&body, "\nshrunk diagnosis: ", c.shrunk->diagnosis->summary);
    }
    absl::StrAppend(&out, ">\n      <failure type=\"", VerdictName(c.verdict), "\" message=\"",
                    MarkupEscape(c.detail), "\">", MarkupEscape(body), "</failure>\n");
    if (c.backend_output) {
      absl::StrAppend(&out, "      <system-err>", MarkupEscape(*c.backend_output),
                      "</system-err>\n");
    }
    absl::StrAppend(&out, "    </testcase>\n");
  } else if (c.verdict == Verdict::kUnsupported) {
    absl::StrAppend(&out, ">\n      <skipped message=\"unsupported\"/>\n    </testcase>\n");
  } else if (c.known != nullptr) {
    absl::StrAppend(&out, ">\n      <skipped message=\"known failure (", VerdictName(c.verdict),
                    "): ", MarkupEscape(c.known->reason), "\"/>\n    </testcase>\n");
  } else {
    absl::StrAppend(&out, "/>\n");
  }
  return out;
}

// runs[k]'s testsuites, one per op in Op order: the counts from its tally, then one pass over
// its cases per op (no list of the cases is held).
void StreamBackendSuites(const ReportInput& in, size_t k, const TextSink& out) {
  const BackendRun& r = (*in.runs)[k];
  for (const auto& [op, n] : RunTally(in, k).suites) {
    const std::string suite = absl::StrCat(r.backend, ".", OpName(op));
    out(absl::StrCat("  <testsuite name=\"", MarkupEscape(suite), "\" tests=\"", n.tests,
                     "\" failures=\"", n.failures, "\" errors=\"0\" skipped=\"", n.skipped,
                     "\">\n"));
    ForEachCase(in, k, [&, op = op](const CaseResult& c) {
      if (c.op == op) out(TestcaseXml(suite, c));
    });
    out("  </testsuite>\n");
  }
  // The harness errors that belong to no case: one testcase with an error each.
  if (!r.worker_errors.empty()) {
    const std::string suite = absl::StrCat(r.backend, ".worker");
    out(absl::StrCat("  <testsuite name=\"", MarkupEscape(suite), "\" tests=\"",
                     r.worker_errors.size(), "\" failures=\"0\" errors=\"", r.worker_errors.size(),
                     "\" skipped=\"0\">\n"));
    for (size_t i = 0; i < r.worker_errors.size(); ++i) {
      const std::string& e = r.worker_errors[i];
      out(absl::StrCat("    <testcase classname=\"", MarkupEscape(suite), "\" name=\"error ", i + 1,
                       "\">\n      <error type=\"", MarkupEscape(e.substr(0, e.find(':'))),
                       "\" message=\"", MarkupEscape(e), "\"/>\n    </testcase>\n"));
    }
    out("  </testsuite>\n");
  }
}

}  // namespace

void StreamJunit(const ReportInput& in, const TextSink& out) {
  out("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"dmconf\">\n");
  for (size_t k = 0; k < in.runs->size(); ++k) StreamBackendSuites(in, k, out);
  if (!in.file_errors.empty()) {
    out(absl::StrCat("  <testsuite name=\"vector-files\" tests=\"", in.file_errors.size(),
                     "\" failures=\"0\" errors=\"", in.file_errors.size(), "\" skipped=\"0\">\n"));
    for (const FileError& e : in.file_errors) {
      out(absl::StrCat("    <testcase classname=\"vector-files\" name=\"", MarkupEscape(e.file),
                       "\">\n      <error type=\"", MarkupEscape(e.rule), "\" message=\"",
                       MarkupEscape(e.message), "\"/>\n    </testcase>\n"));
    }
    out("  </testsuite>\n");
  }
  out("</testsuites>\n");
}

std::string JunitXml(const ReportInput& in) {
  std::string text;
  StreamJunit(in, [&text](absl::string_view piece) { text.append(piece.data(), piece.size()); });
  return text;
}

namespace {

// The length of the well-formed UTF-8 sequence at s[i] that XML 1.0 allows (not a surrogate,
// not U+FFFE / U+FFFF), or 0.
size_t XmlCharLength(absl::string_view s, size_t i) {
  const auto b = [&s](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xc0) != 0x80) return 0;
  }
  if (n == 3 && c == 0xe0 && b(i + 1) < 0xa0) return 0;                       // overlong
  if (n == 3 && c == 0xed && b(i + 1) >= 0xa0) return 0;                      // a surrogate
  if (n == 3 && c == 0xef && b(i + 1) == 0xbf && b(i + 2) >= 0xbe) return 0;  // U+FFFE, U+FFFF
  if (n == 4 && c == 0xf0 && b(i + 1) < 0x90) return 0;                       // overlong
  if (n == 4 && c == 0xf4 && b(i + 1) >= 0x90) return 0;                      // above U+10FFFF
  return n;
}

}  // namespace

std::string MarkupEscape(absl::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const char ch = s[i];
    const unsigned char u = static_cast<unsigned char>(ch);
    const size_t n = XmlCharLength(s, i);
    if (ch == '&') {
      out += "&amp;";
    } else if (ch == '<') {
      out += "&lt;";
    } else if (ch == '>') {
      out += "&gt;";
    } else if (ch == '"') {
      out += "&quot;";
    } else if (ch == '\'') {
      out += "&apos;";
    } else if (n == 0 || (u < 0x20 && ch != '\n' && ch != '\t') || u == 0x7f) {
      // XML 1.0 forbids most control bytes even as character references, a parser turns CR
      // into a newline, and a byte that is not UTF-8 breaks the whole file: each is shown as
      // the terminal shows it (harness/cli/terminal_text.h), `\x1b`.
      absl::StrAppend(&out, "\\x", absl::Hex(u, absl::kZeroPad2));
      i += 1;
      continue;
    } else {
      out.append(s.data() + i, n);
      i += n;
      continue;
    }
    i += 1;
  }
  return out;
}

}  // namespace dmconf
