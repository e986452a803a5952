// dmconf eval: evaluate one case with the oracle and print the expectation and output. The case
// comes from flags, or from a vector file (--case FILE, docs/vector-format.md).
#include <iostream>

#include "harness/cli/case_flags.h"
#include "harness/cli/commands.h"
#include "harness/cli/option_checks.h"
#include "harness/cli/print_tensor.h"
#include "harness/io/vector_file.h"
#include "harness/io/vector_verify.h"
#include "oracle/oracle.h"

namespace dmconf::cli {

void RegisterEval(CLI::App& app, int* exit_code) {
  auto flags = std::make_shared<CaseFlags>();
  auto case_file = std::make_shared<std::string>();
  auto threads = std::make_shared<int>(1);
  CLI::App* cmd = app.add_subcommand(
      "eval",
      "Evaluate one case with the oracle: prints the expectation (valid, must_reject or\n"
      "unspecified, with the rule id) and, for valid cases, the output tensor.\n"
      "Example: dmconf eval --op SpaceToDepth --shape 1,1,4,4 --block-size 2 --mode blocks_first\n"
      "         dmconf eval --case vectors/golden/spec.eip.example1.json\n"
      "Exit status: 0 when the oracle answered (whatever the expectation), 2 for a malformed\n"
      "case or vector file, 1 when a vector file's expectation differs from the oracle's.");
  AddCaseFlags(cmd, flags.get(), /*with_data=*/true);
  // With --case the flags describing a case are not needed.
  cmd->get_option("--op")->required(false);
  cmd->get_option("--shape")->required(false);
  cmd->add_option("--case", *case_file,
                  "a dmconf-vector/1 file: evaluate its case and compare with its expectation")
      ->excludes("--op")
      ->excludes("--shape");
  cmd->add_option("--threads", *threads,
                  "threads the oracle may use for a large case; the output is bit-identical for "
                  "any count")
      ->check(IntegerIn(1, kMaxThreads))
      ->capture_default_str();
  cmd->callback([flags, case_file, threads, exit_code] {
    absl::StatusOr<OpCase> c;
    std::optional<io::VectorCase> vector;
    if (!case_file->empty()) {
      absl::StatusOr<io::VectorCase> v = io::ReadVectorFile(*case_file);
      if (!v.ok()) {
        std::cerr << "dmconf eval: " << v.status().message() << "\n";
        *exit_code = 2;
        return;
      }
      vector = *v;
      c = v->c;
    } else if (flags->op.empty() || flags->shape.empty()) {
      std::cerr << "dmconf eval: give --case FILE, or --op and --shape\n";
      *exit_code = 2;
      return;
    } else {
      c = BuildCase(*flags, /*with_data=*/true);
    }
    if (!c.ok()) {
      std::cerr << "dmconf eval: " << c.status().message() << "\n";
      *exit_code = 2;
      return;
    }
    EvalOptions eval;
    eval.threads = *threads;
    absl::StatusOr<Expectation> e = Evaluate(*c, eval);
    if (!e.ok()) {
      std::cerr << "dmconf eval: " << e.status().message() << "\n";
      *exit_code = 2;
      return;
    }
    if (vector) std::cout << "case: " << c->id << " (" << *case_file << ")\n";
    std::cout << "op: " << OpName(c->op) << "-" << OpVersion(c->op) << "\n"
              << "data: " << ElementTypeName(c->data.type) << " " << ShapeToString(c->data.shape)
              << "\n"
              << "attributes: " << AttributesToString(*c) << "\n"
              << "expectation: " << ExpectationKindName(e->kind) << "\n";
    if (e->rule != nullptr) {
      std::cout << "rule: " << e->rule->id << "\n"
                << "message: " << e->message << "\n";
    } else {
      std::cout << "output: " << ElementTypeName(e->output->type) << " "
                << ShapeToString(e->output->shape) << "\n"
                << FormatTensor(*e->output) << "\n";
    }
    if (vector) {
      std::optional<std::string> why = io::OracleMismatch(*vector);
      if (why) {
        std::cout << "vector file: differs from the oracle: " << *why << "\n";
        *exit_code = 1;
      } else {
        std::cout << "vector file: its expectation agrees with the oracle\n";
      }
    }
  });
}

}  // namespace dmconf::cli
