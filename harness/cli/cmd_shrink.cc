// dmconf shrink FILE --backend NAME | --backend-lib PATH: a failing vector file (or shape-case
// file) reduced to a minimal case of the same verdict class (harness/shrink), through an
// isolated worker, saved beside the file as <name>.min.json with its repro line. The options
// are parsed here; the session is harness/session/shrink_file.h.
#include <iostream>
#include <memory>

#include "harness/cli/commands.h"
#include "harness/cli/option_checks.h"
#include "harness/cli/pipeline_options.h"
#include "harness/session/shrink_file.h"

namespace dmconf::cli {

void RegisterShrink(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<ShrinkFileRequest>();
  CLI::App* cmd = app.add_subcommand(
      "shrink",
      "Shrink a failing vector file (dmconf-vector/1) or shape-case file (dmconf-shape-case/1)\n"
      "to a minimal case with the same verdict class: the same\n"
      "verdict, the same deciding rule for a case that must be refused, at least one wrong\n"
      "element for wrong values. Tries fewer dims, smaller dims, smaller block sizes, pads,\n"
      "crops, sizes, strides and rates, a simpler element type and simpler data, each\n"
      "candidate run through an isolated worker (crashes and hangs shrink too, each attempt\n"
      "within --timeout), until no smaller candidate keeps the failure or the budget runs out.\n"
      "The minimal case is written beside FILE as <name>.min.json (or --out), its provenance\n"
      "naming the original and the verdict kept, and printed with its repro line.\n"
      "Examples:\n"
      "  dmconf shrink failures/xnnpack/directed__d2s...json --backend xnnpack\n"
      "  dmconf shrink bug.json --backend-lib ./libmine.so --seconds 300\n"
      "Before shrinking, the case is replayed 3 times: when the replays disagree (some pass, or\n"
      "fail otherwise), the failure is flaky and nothing is shrunk or written.\n"
      "Exit status: 0 a minimal case was written, 1 the case does not fail on that backend or\n"
      "fails flakily, 2 usage error (bad file, backend or option, or a file whose expectation\n"
      "the oracle contradicts: vector.expectation.contradicts_oracle).");
  cmd->add_option("FILE", f->file,
                  "a dmconf-vector/1 or dmconf-shape-case/1 file that fails on the backend")
      ->required()
      ->check(NonEmptyPath());
  cmd->add_option("--backend", f->backend, "built-in backend name (`dmconf backends`)");
  cmd->add_option("--backend-lib", f->backend_lib, "path to a plugin shared library (C ABI)");
  cmd->add_option("--out", f->out, "where to write the minimal case (default: beside FILE)")
      ->check(NonEmptyPath());
  AddMemoryLimitOption(cmd, &f->memory_limit);
  cmd->add_option("--timeout", f->timeout, "per-attempt timeout in seconds")
      ->check(SecondsIn(kMaxTimeoutSeconds))
      ->capture_default_str();
  cmd->add_option("--seconds", f->seconds, "time budget of the whole shrink")
      ->check(SecondsIn(kMaxTimeoutSeconds))
      ->capture_default_str();
  cmd->add_option("--attempts", f->attempts, "most candidates judged")
      ->check(IntegerIn(1, 1000000))
      ->capture_default_str();
  cmd->callback([f, exit_code] { *exit_code = ShrinkFile(*f, std::cout, std::cerr); });
}

}  // namespace dmconf::cli
