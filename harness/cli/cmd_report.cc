// dmconf report html: a JSON report as one self-contained HTML page.
#include <iostream>
#include <memory>

#include "harness/cli/commands.h"
#include "harness/io/atomic_file.h"
#include "harness/report/html_report.h"
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

}  // namespace

void RegisterReport(CLI::App& app, int* exit_code) {
  CLI::App* report = app.add_subcommand(
      "report", "Work with JSON reports written by `dmconf run --report`: html.");
  report->require_subcommand(1);
  RegisterHtml(report, exit_code);
}

}  // namespace dmconf::cli
