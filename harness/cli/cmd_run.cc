// dmconf run: runs the built-in case catalogue (and vector files) against one or more
// backends, compares each outcome bit-exactly with the oracle, prints a summary and writes the
// reports (harness/session/run_request.h).
#include <memory>

#include "harness/cli/commands.h"
#include "harness/cli/option_checks.h"
#include "harness/cli/pipeline_options.h"
#include "harness/session/run_request.h"

namespace dmconf::cli {
void RegisterRun(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<RunRequest>();
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Run the built-in case catalogue (spec examples, every rule's negative case and its valid\n"
      "twin, edge cases, a seeded sweep from the case generators) and/or vector files against\n"
      "backends and compare bit-exactly with the oracle (and the backend's shape inference with\n"
      "the oracle's, where it has one). Each backend runs in a worker process: crashes and hangs\n"
      "become verdicts. Every failing case is saved as a vector file and listed with a one-line\n"
      "repro command (dmconf run --backend NAME --vectors FILE).\n"
      "Shape-inference lane: a backend that declares infer_static / infer_partial (plugin ABI\n"
      "version 2) also gets shape cases without data: static ones with dims and attributes up\n"
      "to 2^63-1, and partial ones (interval dims, unknown ranks, non-constant block_shape /\n"
      "pads / crops), judged against the oracle: wrong_shape, false_accept, false_reject,\n"
      "unsound_shape, loose_shape (a failure only with --strict-shapes); a malformed answer is\n"
      "invalid_answer. Failing shape cases are\n"
      "saved as dmconf-shape-case/1 files (docs/shape-case-format.md).\n"
      "Examples:\n"
      "  dmconf run --backend all --report reports/out/report.json\n"
      "  dmconf run --backend-lib ./libmine.so --ops d2s,s2d --types f16 --count 2000\n"
      "  dmconf run --backend direct --vectors vectors/golden\n"
      "Exit status: 0 no new failure, 1 new failures (not in --expectations) or a --vectors file\n"
      "that cannot be read (listed with its rule; the other files still run), 2 usage error.\n"
      "With mutant backends (--backend mutants), every mutant must also be caught with its\n"
      "verdict class.");
  AddPipelineOptions(cmd, &f->session);
  cmd->add_option(
         "--ops", f->ops,
         "comma-separated ops to run (default: all): exactly the cases of those ops that a run "
         "without --ops has, with the same ids")
      ->check(NonEmptyList());
  cmd->add_option("--types", f->types, "comma-separated data element types (default: all)")
      ->check(NonEmptyList());
  cmd->add_option("--seed", f->seed, "seed of the sweep")
      ->check(Unsigned64())
      ->capture_default_str();
  CLI::Option* count =
      cmd->add_option("--count", f->count,
                      "number of sweep cases, drawn over every op (with --ops, the run keeps those "
                      "ops' share of them)")
          ->check(IntegerIn(0, kMaxCaseCount))
          ->capture_default_str();
  cmd->add_option("--vectors", f->vectors,
                  "run vector files (a file or a folder, searched recursively); repeatable. "
                  "Alone, only the files run; with --count the catalogue runs too")
      ->check(NonEmptyPath());
  cmd->add_flag("--no-catalogue", f->no_catalogue, "run only the --vectors files");
  cmd->add_option("--shape-count", f->shape_count,
                  "generated partial shape cases of the shape-inference lane (and half as many "
                  "static ones); every catalogue case is also widened into one. 0: only those")
      ->check(IntegerIn(0, kMaxCaseCount))
      ->capture_default_str();
  cmd->add_flag("--no-shapes", f->no_shapes,
                "no shape-inference lane (neither generated nor --vectors shape cases)");
  cmd->add_flag("--no-kernels", f->no_kernels,
                "only the shape-inference lane: no kernel cases (catalogue, sweeps or --vectors "
                "files with data)");
  cmd->add_option("--threads", f->threads,
                  "threads the oracle may use to evaluate a large case (its expectation); the "
                  "outputs are bit-identical for any count")
      ->check(IntegerIn(1, kMaxThreads))
      ->capture_default_str();
  CLI::Option* shard =
      cmd->add_option("--shard", f->shard_text,
                      "run only shard K of N (K/N, e.g. 2/4): the cases whose id hashes to it. The "
                      "N shards of one command run each of its cases exactly once; merge their "
                      "reports with `dmconf report merge`");
  cmd->add_option("--case-id", f->case_ids,
                  "run only cases whose id matches (glob '*'); repeatable");
  cmd->callback([f, exit_code, count, shard] {
    RunRequest copy = *f;
    copy.count_given = count->count() > 0;
    copy.shard_given = shard->count() > 0;
    copy.exits_next = true;  // main returns the exit code next
    *exit_code = RunRequested(std::move(copy));
  });
}

}  // namespace dmconf::cli
