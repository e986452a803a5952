// dmconf report html | merge | diff: a JSON report as one self-contained HTML page; several
// reports (shards) as one; two reports compared.
#include <functional>
#include <iostream>
#include <memory>
#include <new>

#include "absl/strings/str_join.h"
#include "harness/base/files.h"
#include "harness/base/output_lock.h"
#include "harness/base/output_paths.h"
#include "harness/base/shown_text.h"
#include "harness/cli/commands.h"
#include "harness/cli/option_checks.h"
#include "harness/report/html_report.h"
#include "harness/report/report_diff.h"
#include "harness/report/report_merge.h"

namespace dmconf::cli {
namespace {

// A report command's body, with running out of memory (a report too big for this machine or
// the process's limit) turned into a usage error naming it instead of an abort.
std::function<void()> Guarded(const char* name, int* exit_code, std::function<void()> body) {
  return [name, exit_code, body = std::move(body)] {
    try {
      body();
    } catch (const std::bad_alloc&) {
      std::cerr << "dmconf report " << name
                << ": report.memory: out of memory while reading or writing the reports "
                   "(too big for this machine or the process's memory limit)\n";
      *exit_code = 2;
    }
  };
}

void RegisterHtml(CLI::App* report, int* exit_code) {
  auto input = std::make_shared<std::string>();
  auto output = std::make_shared<std::string>();
  CLI::App* cmd = report->add_subcommand(
      "html",
      "Write a dmconf-report/2 JSON report as one self-contained HTML page (no network, opens\n"
      "from file://): the backend x op x verdict matrix, filters, each failure with its case,\n"
      "diagnosis, repro and a heat map of wrong elements, coverage, expectations, run metadata.\n"
      "Failing cases are listed 100 a page; at most --max-failures of them are embedded.\n"
      "The report is read one case at a time, twice: memory holds the embedded cases and the\n"
      "counts, not the report, whatever its size.\n"
      "Example: dmconf report html reports/out/report.json -o reports/out/report.html");
  cmd->add_option("report", *input, "the JSON report (dmconf run --report)")
      ->required()
      ->check(NonEmptyPath());
  cmd->add_option("-o,--output", *output, "where to write the page")->required();
  auto max_failures = std::make_shared<int64_t>(kDefaultHtmlMaxFailures);
  cmd->add_option("--max-failures", *max_failures,
                  "at most this many failing cases are embedded in the page (the counts still "
                  "count every case; the page says how many it leaves out)")
      ->check(IntegerIn(0, INT32_MAX))
      ->capture_default_str();
  cmd->callback(Guarded("html", exit_code, [input, output, max_failures, exit_code] {
    if (absl::Status s = io::CheckDistinctPaths({{"report", *input}}, {{"-o", *output}}); !s.ok()) {
      std::cerr << "dmconf report html: " << s.message() << "\n";
      *exit_code = 2;
      return;
    }
    // Streamed (html_report.h): the report is read one case at a time, twice.
    absl::StatusOr<std::string> page =
        HtmlReportOfFile(*input, {.max_failures = *max_failures, .report_path = *input});
    if (!page.ok()) {
      std::cerr << "dmconf report html: " << page.status().message() << "\n";
      *exit_code = 2;
      return;
    }
    absl::Status s = io::CreateParentDirectories(*output);
    if (s.ok()) s = io::WriteFileAtomically(*output, *page);
    if (!s.ok()) {
      std::cerr << "dmconf report html: " << s.message() << "\n";
      *exit_code = 2;
      return;
    }
    std::cout << *output << "\n";
  }));
}

void RegisterMerge(CLI::App* report, int* exit_code) {
  auto inputs = std::make_shared<std::vector<std::string>>();
  auto output = std::make_shared<std::string>();
  auto junit = std::make_shared<std::string>();
  CLI::App* cmd = report->add_subcommand(
      "merge",
      "Merge reports (the shards of one `dmconf run --shard K/N` command, or runs of different\n"
      "backends with the same options) into one report, and optionally JUnit XML. Totals, pass\n"
      "rates, counts, coverage and the mutation score are computed again from the cases.\n"
      "Refused: a case in two reports, options that differ apart from --shard, a backend\n"
      "declaring other capabilities in another report.\n"
      "Example: dmconf report merge s1.json s2.json s3.json -o all.json --junit all.xml\n"
      "Exit status: 0 written, no new failure; 1 written, with new failures (as `dmconf run`);\n"
      "2 usage error or a bad report.");
  cmd->add_option("reports", *inputs, "the JSON reports")->required()->check(NonEmptyPath());
  cmd->add_option("-o,--output", *output, "where to write the merged JSON report")->required();
  CLI::Option* junit_opt = cmd->add_option("--junit", *junit, "also write JUnit XML here");
  cmd->callback(Guarded("merge", exit_code, [inputs, output, junit, junit_opt, exit_code] {
    std::vector<io::RolePath> ins;
    for (const std::string& path : *inputs) ins.push_back({"report", path});
    if (absl::Status s = io::CheckDistinctPaths(ins, {{"-o", *output}, {"--junit", *junit}});
        !s.ok()) {
      std::cerr << "dmconf report merge: " << s.message() << "\n";
      *exit_code = 2;
      return;
    }
    std::string command = "dmconf report merge";
    for (const std::string& path : *inputs) command += " " + path;
    // Streamed (report_merge.h): the cases are read from the files again as they are written.
    absl::StatusOr<std::unique_ptr<MergedReport>> m = MergeReportFiles(*inputs, command);
    if (!m.ok()) {
      std::cerr << "dmconf report merge: " << m.status().message() << "\n";
      *exit_code = 2;
      return;
    }
    // Both outputs under one lock (io::OutputLock): concurrent merges never mix them.
    const bool with_junit = junit_opt->count() > 0;
    absl::Status made = io::CreateParentDirectories(*output);
    if (made.ok() && with_junit) made = io::CreateParentDirectories(*junit);
    absl::StatusOr<io::OutputLock> lock = io::OutputLock::Take({*output, with_junit ? *junit : ""});
    for (const std::string* out : {output.get(), junit.get()}) {
      // A --junit given as "" goes to the write layer, which refuses it (io.path.empty).
      if (out == junit.get() && !with_junit) continue;
      const ReportInput in = (*m)->Input();
      absl::Status s = made.ok() ? lock.status() : made;
      if (s.ok()) {
        s = out == output.get() ? WriteJsonReport(*out, in) : WriteJunit(*out, in);
      }
      if (!s.ok()) {
        std::cerr << "dmconf report merge: " << s.message() << "\n";
        *exit_code = 2;
        return;
      }
      std::cout << (out == output.get() ? "report: " : "junit: ") << *out << "\n";
    }
    // The rule of `dmconf run` (run_verdict.h), with the strict flags the shards recorded.
    const RunVerdict verdict = JudgeReportedRun((*m)->Input());
    std::cout << (verdict.fails ? "FAILED: " + absl::StrJoin(verdict.reasons, ", ")
                                : std::string("OK: no new failure"))
              << "\n";
    *exit_code = verdict.fails ? 1 : 0;
  }));
}

void RegisterDiff(CLI::App* report, int* exit_code) {
  auto old_path = std::make_shared<std::string>();
  auto new_path = std::make_shared<std::string>();
  auto html = std::make_shared<std::string>();
  CLI::App* cmd = report->add_subcommand(
      "diff",
      "Compare two reports (OLD, NEW): per backend and op, the new failures, the fixed\n"
      "failures and the other changed verdicts, matched by case id. Backends are matched by\n"
      "name, or paired when each report has exactly one.\n"
      "Example: dmconf report diff v1.json v2.json --html diff.html\n"
      "Exit status: 0 no new failure, 1 new failures, 2 usage error or a bad report.");
  cmd->add_option("old", *old_path, "the earlier JSON report")->required()->check(NonEmptyPath());
  cmd->add_option("new", *new_path, "the later JSON report")->required()->check(NonEmptyPath());
  CLI::Option* html_opt =
      cmd->add_option("--html", *html, "also write the comparison as one HTML page here");
  cmd->callback(Guarded("diff", exit_code, [old_path, new_path, html, html_opt, exit_code] {
    if (absl::Status s =
            io::CheckDistinctPaths({{"old", *old_path}, {"new", *new_path}}, {{"--html", *html}});
        !s.ok()) {
      std::cerr << "dmconf report diff: " << s.message() << "\n";
      *exit_code = 2;
      return;
    }
    // Streamed (report_diff.h): a compact record per case, never a whole document.
    absl::StatusOr<ReportDiff> diff = DiffReportFiles(*old_path, *new_path);
    if (!diff.ok()) {
      std::cerr << "dmconf report diff: " << diff.status().message() << "\n";
      *exit_code = 2;
      return;
    }
    const ReportDiff& d = *diff;
    // A --html given as "" goes to the write layer, which refuses it (io.path.empty).
    const bool want_html = html_opt->count() > 0;
    if (want_html) {
      absl::Status s = io::CreateParentDirectories(*html);
      if (s.ok()) s = io::WriteFileAtomically(*html, DiffHtml(d, *old_path, *new_path));
      if (!s.ok()) {
        std::cerr << "dmconf report diff: " << s.message() << "\n";
        *exit_code = 2;
        return;
      }
    }
    WriteLines(std::cout, DiffText(d));
    if (want_html) std::cout << "html: " << *html << "\n";
    *exit_code = d.new_failures.empty() ? 0 : 1;
  }));
}

}  // namespace

void RegisterReport(CLI::App& app, int* exit_code) {
  CLI::App* report = app.add_subcommand(
      "report", "Work with JSON reports written by `dmconf run --report`: html, merge, diff.");
  report->require_subcommand(1);
  RegisterHtml(report, exit_code);
  RegisterMerge(report, exit_code);
  RegisterDiff(report, exit_code);
}

}  // namespace dmconf::cli
