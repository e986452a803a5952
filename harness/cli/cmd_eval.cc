// dmconf eval: evaluate one case with the oracle and print the expectation and output.
#include <iostream>

#include "harness/cli/case_flags.h"
#include "harness/cli/commands.h"
#include "harness/cli/print_tensor.h"
#include "oracle/oracle.h"

namespace dmconf::cli {

void RegisterEval(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<CaseFlags>();
  CLI::App* cmd = app.add_subcommand(
      "eval",
      "Evaluate one case with the oracle: prints the expectation (valid, must_reject or\n"
      "unspecified, with the rule id) and, for valid cases, the output tensor.\n"
      "Example: dmconf eval --op SpaceToDepth --shape 1,1,4,4 --block-size 2 --mode blocks_first\n"
      "Exit status: 0 when the oracle answered (whatever the expectation), 2 for a malformed\n"
      "case.");
  AddCaseFlags(cmd, flags.get(), /*with_data=*/true);
  cmd->callback([flags, exit_code] {
    absl::StatusOr<OpCase> c = BuildCase(*flags, /*with_data=*/true);
    if (!c.ok()) {
      std::cerr << "dmconf eval: " << c.status().message() << "\n";
      *exit_code = 2;
      return;
    }
    absl::StatusOr<Expectation> e = Evaluate(*c);
    if (!e.ok()) {
      std::cerr << "dmconf eval: " << e.status().message() << "\n";
      *exit_code = 2;
      return;
    }
    std::cout << "op: " << OpName(c->op) << "-" << OpVersion(c->op) << "\n"
              << "data: " << ElementTypeName(c->data.type) << " " << ShapeToString(c->data.shape)
              << "\n"
              << "attributes: " << AttributesToString(*c) << "\n"
              << "expectation: " << ExpectationKindName(e->kind) << "\n";
    if (e->rule != nullptr) {
      std::cout << "rule: " << e->rule->id << "\n" << "message: " << e->message << "\n";
    } else {
      std::cout << "output: " << ElementTypeName(e->output->type) << " "
                << ShapeToString(e->output->shape) << "\n"
                << FormatTensor(*e->output) << "\n";
    }
  });
}

}  // namespace dmconf::cli
