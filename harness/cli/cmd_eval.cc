// dmconf eval: evaluate one case with the oracle and print the expectation and output. The case
// comes from flags, or from a vector file (--case FILE, docs/vector-format.md).
#include <iostream>

#include "harness/base/shown_text.h"
#include "harness/cli/case_flags.h"
#include "harness/cli/commands.h"
#include "harness/cli/option_checks.h"
#include "harness/cli/print_tensor.h"
#include "harness/io/vector_file.h"
#include "harness/io/vector_verify.h"
#include "oracle/oracle.h"

namespace dmconf::cli {

namespace {

// The case to evaluate: from --case FILE (kept in *vector) or from the flags. Prints the
// error and returns nullopt (exit status 2) when there is none.
std::optional<OpCase> CaseToEvaluate(const CaseFlags& flags, const std::string& case_file,
                                     std::optional<io::VectorCase>* vector) {
  absl::StatusOr<OpCase> c;
  if (!case_file.empty()) {
    absl::StatusOr<io::VectorCase> v = io::ReadVectorFile(case_file);
    if (!v.ok()) {
      std::cerr << "dmconf eval: " << v.status().message() << "\n";
      return std::nullopt;
    }
    *vector = *v;
    c = v->c;
  } else if (flags.op.empty() || flags.shape.empty()) {
    std::cerr << "dmconf eval: give --case FILE, or --op and --shape\n";
    return std::nullopt;
  } else {
    c = BuildCase(flags, /*with_data=*/true);
  }
  if (!c.ok()) {
    std::cerr << "dmconf eval: " << c.status().message() << "\n";
    return std::nullopt;
  }
  return *std::move(c);
}

// Prints the case's expectation and output; returns the exit status.
int Eval(const CaseFlags& flags, const std::string& case_file, int threads) {
  std::optional<io::VectorCase> vector;
  std::optional<OpCase> c = CaseToEvaluate(flags, case_file, &vector);
  if (!c) return 2;
  EvalOptions eval;
  eval.threads = threads;
  absl::StatusOr<Expectation> e = Evaluate(*c, eval);
  if (!e.ok()) {
    std::cerr << "dmconf eval: " << e.status().message() << "\n";
    return 2;
  }
  if (vector) std::cout << "case: " << c->id << " (" << case_file << ")\n";
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
              << ShapeToString(e->output->shape) << "\n";
    WriteLines(std::cout, FormatTensor(*e->output) + "\n");  // several lines of its own
  }
  if (!vector) return 0;
  if (std::optional<std::string> why = io::OracleMismatch(*vector)) {
    std::cout << "vector file: differs from the oracle: " << *why << "\n";
    return 1;
  }
  std::cout << "vector file: its expectation agrees with the oracle\n";
  return 0;
}

}  // namespace

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
    const int status = Eval(*flags, *case_file, *threads);
    if (status != 0) *exit_code = status;
  });
}

}  // namespace dmconf::cli
