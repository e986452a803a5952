// dmconf report html | merge: a JSON report as one self-contained HTML page; several reports
// (shards) as one.
#include <iostream>
#include <memory>

#include "harness/cli/commands.h"
#include "harness/io/atomic_file.h"
#include "harness/report/html_report.h"
#include "harness/report/report_merge.h"
#include "harness/report/report_reader.h"

namespace dmconf::cli {
namespace {

void RegisterHtml(CLI::App* report, int* exit_code) {
  auto input = std::make_shared<std::string>();
  auto output = std::make_shared<std::string>();
  CLI::App* cmd = report->add_subcommand(
      "html",
      "Write a dmconf-report/2 JSON report as one self-contained HTML page (no network, opens\n"
      "from file://): the backend x op x verdict matrix, filters, each failure with its case,\n"
      "diagnosis, repro and a heat map of wrong elements, coverage, expectations, run metadata.\n"
      "Example: dmconf report html reports/out/report.json -o reports/out/report.html");
  cmd->add_option("report", *input, "the JSON report (dmconf run --report)")->required();
  cmd->add_option("-o,--output", *output, "where to write the page")->required();
  cmd->callback([input, output, exit_code] {
    absl::StatusOr<nlohmann::json> r = LoadReport(*input);
    if (!r.ok()) {
      std::cerr << "dmconf report html: " << r.status().message() << "\n";
      *exit_code = 2;
      return;
    }
    absl::Status s = io::CreateParentDirectories(*output);
    if (s.ok()) s = io::WriteFileAtomically(*output, HtmlReport(*r));
    if (!s.ok()) {
      std::cerr << "dmconf report html: " << s.message() << "\n";
      *exit_code = 2;
      return;
    }
    std::cout << *output << "\n";
  });
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
  cmd->add_option("reports", *inputs, "the JSON reports")->required();
  cmd->add_option("-o,--output", *output, "where to write the merged JSON report")->required();
  cmd->add_option("--junit", *junit, "also write JUnit XML here");
  cmd->callback([inputs, output, junit, exit_code] {
    std::vector<nlohmann::json> reports;
    for (const std::string& path : *inputs) {
      absl::StatusOr<nlohmann::json> r = LoadReport(path);
      if (!r.ok()) {
        std::cerr << "dmconf report merge: " << r.status().message() << "\n";
        *exit_code = 2;
        return;
      }
      reports.push_back(*std::move(r));
    }
    std::string command = "dmconf report merge";
    for (const std::string& path : *inputs) command += " " + path;
    absl::StatusOr<std::unique_ptr<MergedReport>> m = MergeReports(reports, *inputs, command);
    if (!m.ok()) {
      std::cerr << "dmconf report merge: " << m.status().message() << "\n";
      *exit_code = 2;
      return;
    }
    for (const std::string* out : {output.get(), junit.get()}) {
      if (out->empty()) continue;
      const ReportInput& in = (*m)->input;
      absl::Status s = io::CreateParentDirectories(*out);
      if (s.ok()) {
        s = io::WriteFileAtomically(
            *out, out == output.get() ? JsonReport(in).dump(1) + "\n" : JunitXml(in));
      }
      if (!s.ok()) {
        std::cerr << "dmconf report merge: " << s.message() << "\n";
        *exit_code = 2;
        return;
      }
      std::cout << (out == output.get() ? "report: " : "junit: ") << *out << "\n";
    }
    *exit_code = MergedRunFails(**m) ? 1 : 0;
  });
}

}  // namespace

void RegisterReport(CLI::App& app, int* exit_code) {
  CLI::App* report = app.add_subcommand(
      "report", "Work with JSON reports written by `dmconf run --report`: html, merge.");
  report->require_subcommand(1);
  RegisterHtml(report, exit_code);
  RegisterMerge(report, exit_code);
}

}  // namespace dmconf::cli
