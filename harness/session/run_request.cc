#include "harness/session/run_request.h"

#include <algorithm>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "harness/runner/expectations.h"
#include "harness/runner/runner.h"
#include "harness/runner/shape_lane.h"
#include "harness/runner/shard.h"
#include "harness/runner/vector_cases.h"
#include "harness/suites/catalogue.h"

namespace dmconf {
namespace {

bool Wanted(const RunRequest& f, const std::vector<Op>& ops, const std::vector<ElementType>& types,
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

bool Wanted(const RunRequest& f, const std::vector<Op>& ops, const std::vector<ElementType>& types,
            const OpCase& c) {
  const int rank = static_cast<int>(c.data.shape.size());
  if (rank < f.min_rank || rank > f.max_rank) return false;
  return Wanted(f, ops, types, c.op, c.data.type, c.id);
}

}  // namespace

int RunRequested(RunRequest f, std::vector<BackendRun>* runs_out) {
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
  f.session.shape_cases = PrepareShapeCases(std::move(shape_cases));
  if (!f.vectors.empty()) {
    absl::StatusOr<LoadedVectors> v = LoadVectorCases(f.vectors);
    if (!v.ok()) {
      std::cerr << f.command << ": " << v.status().message() << "\n";
      return 2;
    }
    f.session.input_paths = f.vectors;  // and each file read: no output may replace one
    for (PreparedCase& p : v->cases) {
      f.session.input_paths.push_back(p.source_file);
      if (!f.no_kernels && Wanted(f, co.ops, co.types, p.c)) cases.push_back(std::move(p));
    }
    for (PreparedShapeCase& p : v->shape_cases) {
      f.session.input_paths.push_back(p.source_file);
      if (!f.no_shapes && Wanted(f, co.ops, co.types, p.s.c.op, p.s.c.type, p.s.id)) {
        f.session.shape_cases.push_back(std::move(p));
      }
    }
    // A file that cannot be read is listed and fails the run; the others still run.
    f.session.file_errors = std::move(v->errors);
  }
  const bool nothing =
      cases.empty() && f.session.shape_cases.empty() && f.session.file_errors.empty();
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
  f.session.directed_seed = f.seed;
  if (!catalogue || !f.case_ids.empty() || f.no_kernels) f.session.directed_count = 0;
  f.session.directed_filter = [ops = co.ops, types = co.types, &f](const OpCase& c) {
    return Wanted(f, ops, types, c);
  };
  f.session.catalogue_repro_args = absl::StrCat(" --seed ", f.seed, " --count ", f.count);
  f.session.shape_repro_args =
      absl::StrCat(" --seed ", f.seed, " --count ", f.count, " --shape-count ", f.shape_count);
  f.session.options = nlohmann::ordered_json{
      {"seed", f.seed},         {"count", f.count},
      {"ops", f.ops},           {"types", f.types},
      {"catalogue", catalogue}, {"vectors", f.vectors},
      {"case_ids", f.case_ids}, {"shape_count", f.no_shapes ? -1 : f.shape_count}};
  if (f.no_kernels) f.session.options["kernels"] = false;
  if (f.shard.count > 1) {
    f.session.options["shard"] = absl::StrCat(f.shard.index, "/", f.shard.count);
  }
  return RunSession(cases, f.session, f.command, runs_out);
}

}  // namespace dmconf
