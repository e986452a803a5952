// dmconf run: runs the built-in case catalogue (and vector files) against one or more
// backends, compares each outcome bit-exactly with the oracle, prints a summary and writes the
// reports (harness/cli/run_pipeline.h).
#include <algorithm>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "harness/cli/commands.h"
#include "harness/cli/option_checks.h"
#include "harness/cli/run_command.h"
#include "harness/cli/run_pipeline.h"
#include "harness/runner/expectations.h"
#include "harness/runner/runner.h"
#include "harness/runner/shape_lane.h"
#include "harness/runner/shard.h"
#include "harness/runner/vector_cases.h"
#include "harness/suites/catalogue.h"

namespace dmconf::cli {
namespace {

bool Wanted(const RunFlags& f, const std::vector<Op>& ops, const std::vector<ElementType>& types,
            Op op, ElementType type, const std::string& id) {
  if (!ops.empty() && std::find(ops.begin(), ops.end(), op) == ops.end()) return false;
  if (!types.empty() && std::find(types.begin(), types.end(), type) == types.end()) {
    return false;
  }
  if (!InShard(f.shard, id)) return false;
  if (f.case_ids.empty()) return true;
  for (const std::string& pattern : f.case_ids) {
    if (GlobMatch(pattern, id)) return true;
  }
  return false;
}

bool Wanted(const RunFlags& f, const std::vector<Op>& ops, const std::vector<ElementType>& types,
            const OpCase& c) {
  const int rank = static_cast<int>(c.data.shape.size());
  if (rank < f.min_rank || rank > f.max_rank) return false;
  return Wanted(f, ops, types, c.op, c.data.type, c.id);
}

}  // namespace

int RunCommand(RunFlags f, std::vector<BackendRun>* runs_out) {
  if (f.shard_given) {  // `--shard ''` too: ParseShard refuses it (cli.shard)
    absl::StatusOr<Shard> s = ParseShard(f.shard_text);
    if (!s.ok()) {
      std::cerr << f.command << ": " << s.status().message() << "\n";
      return 2;
    }
    f.shard = *s;
  }
  CatalogueOptions co;
  co.seed = f.seed;
  co.sweep_count = f.count;
  for (absl::string_view name : absl::StrSplit(f.ops, ',', absl::SkipEmpty())) {
    absl::StatusOr<Op> op = ParseOp(name);
    if (!op.ok()) {
      std::cerr << f.command << ": " << op.status().message() << "\n";
      return 2;
    }
    co.ops.push_back(*op);
  }
  for (absl::string_view name : absl::StrSplit(f.types, ',', absl::SkipEmpty())) {
    absl::StatusOr<ElementType> t = ParseElementType(name);
    if (!t.ok()) {
      std::cerr << f.command << ": " << t.status().message() << "\n";
      return 2;
    }
    co.types.push_back(*t);
  }
  if (f.no_shapes && f.no_kernels) {
    std::cerr << "dmconf run: --no-shapes and --no-kernels leave no lane to run\n";
    return 2;
  }
  if (f.no_catalogue && f.vectors.empty()) {
    std::cerr << "dmconf run: --no-catalogue needs --vectors PATH\n";
    return 2;
  }
  // With --vectors and no explicit catalogue choice, only the files run.
  const bool catalogue = !f.no_catalogue && (f.vectors.empty() || f.count_given);
  std::vector<OpCase> chosen;
  std::vector<ShapeCase> shape_cases;
  if (catalogue) {
    std::vector<OpCase> all = BuildCatalogue(co);
    if (!f.no_shapes) {
      ShapeLaneOptions so;
      so.seed = f.seed;
      so.count = f.shape_count;
      so.ops = co.ops;
      so.types = co.types;
      for (ShapeCase& s : BuildShapeCases(all, so)) {
        if (Wanted(f, co.ops, co.types, s.c.op, s.c.type, s.id))
          shape_cases.push_back(std::move(s));
      }
    }
    for (OpCase& c : all) {
      if (!f.no_kernels && Wanted(f, co.ops, co.types, c)) chosen.push_back(std::move(c));
    }
  }
  EvalOptions eval;
  eval.threads = f.threads;
  std::vector<PreparedCase> cases = PrepareCases(std::move(chosen), eval);
  f.pipeline.shape_cases = PrepareShapeCases(std::move(shape_cases));
  if (!f.vectors.empty()) {
    absl::StatusOr<LoadedVectors> v = LoadVectorCases(f.vectors);
    if (!v.ok()) {
      std::cerr << f.command << ": " << v.status().message() << "\n";
      return 2;
    }
    f.pipeline.input_paths = f.vectors;  // and each file read: no output may replace one
    for (PreparedCase& p : v->cases) {
      f.pipeline.input_paths.push_back(p.source_file);
      if (!f.no_kernels && Wanted(f, co.ops, co.types, p.c)) cases.push_back(std::move(p));
    }
    for (PreparedShapeCase& p : v->shape_cases) {
      f.pipeline.input_paths.push_back(p.source_file);
      if (!f.no_shapes && Wanted(f, co.ops, co.types, p.s.c.op, p.s.c.type, p.s.id)) {
        f.pipeline.shape_cases.push_back(std::move(p));
      }
    }
    // A file that cannot be read is listed and fails the run; the others still run.
    f.pipeline.file_errors = std::move(v->errors);
  }
  const bool nothing =
      cases.empty() && f.pipeline.shape_cases.empty() && f.pipeline.file_errors.empty();
  // A shard that no case hashes to (--shard 1/1000000 of a small run) is a legal part of the
  // whole: it writes its report with 0 cases and exits 0, so that `report merge` of all N
  // shards still sees every K.
  if (nothing && f.shard.count > 1) {
    std::cerr << "dmconf run: shard " << f.shard.index << "/" << f.shard.count
              << " holds no case of this selection; its report lists none\n";
  } else if (nothing) {
    std::cerr << "dmconf run: no case selected (--case-id, --ops and --types filter; catalogue "
                 "ids depend on --seed and --count)\n";
    return 2;
  }
  f.pipeline.directed_seed = f.seed;
  if (!catalogue || !f.case_ids.empty() || f.no_kernels) f.pipeline.directed_count = 0;
  f.pipeline.directed_filter = [ops = co.ops, types = co.types, &f](const OpCase& c) {
    return Wanted(f, ops, types, c);
  };
  f.pipeline.catalogue_repro_args = absl::StrCat(" --seed ", f.seed, " --count ", f.count);
  f.pipeline.shape_repro_args =
      absl::StrCat(" --seed ", f.seed, " --count ", f.count, " --shape-count ", f.shape_count);
  f.pipeline.options = nlohmann::ordered_json{
      {"seed", f.seed},         {"count", f.count},
      {"ops", f.ops},           {"types", f.types},
      {"catalogue", catalogue}, {"vectors", f.vectors},
      {"case_ids", f.case_ids}, {"shape_count", f.no_shapes ? -1 : f.shape_count}};
  if (f.no_kernels) f.pipeline.options["kernels"] = false;
  if (f.shard.count > 1) {
    f.pipeline.options["shard"] = absl::StrCat(f.shard.index, "/", f.shard.count);
  }
  return RunPipeline(cases, f.pipeline, f.command, runs_out);
}

void RegisterRun(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<RunFlags>();
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
  AddPipelineOptions(cmd, &f->pipeline);
  cmd->add_option("--ops", f->ops, "comma-separated ops to run (default: all)")
      ->check(NonEmptyList());
  cmd->add_option("--types", f->types, "comma-separated data element types (default: all)")
      ->check(NonEmptyList());
  cmd->add_option("--seed", f->seed, "seed of the sweep")
      ->check(Unsigned64())
      ->capture_default_str();
  CLI::Option* count = cmd->add_option("--count", f->count, "number of sweep cases")
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
    RunFlags copy = *f;
    copy.count_given = count->count() > 0;
    copy.shard_given = shard->count() > 0;
    *exit_code = RunCommand(std::move(copy));
  });
}

}  // namespace dmconf::cli
