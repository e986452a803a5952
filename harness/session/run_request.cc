#include "harness/session/run_request.h"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "harness/base/left_to_exit.h"
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

// The cases a request selects, on their way to the session.
struct Selection {
  CatalogueOptions co;
  bool catalogue = false;  // the built-in catalogue runs (not only --vectors files)
  RunCases cases;
};

// --shard, --ops and --types parsed.
absl::Status ParseRequest(RunRequest& f, Selection& sel) {
  if (f.shard_given) {  // `--shard ''` too: ParseShard refuses it (cli.shard)
    absl::StatusOr<Shard> s = ParseShard(f.shard_text);
    if (!s.ok()) return s.status();
    f.shard = *s;
  }
  sel.co.edition = f.catalogue_edition;
  sel.co.seed = f.seed;
  sel.co.sweep_count = f.count;
  sel.co.threads = f.session.jobs;
  // The sweep's tensors are made as its cases run, not held for the whole run.
  sel.co.hollow = true;
  for (absl::string_view name : absl::StrSplit(f.ops, ',', absl::SkipEmpty())) {
    absl::StatusOr<Op> op = ParseOp(name);
    if (!op.ok()) return op.status();
    sel.co.ops.push_back(*op);
  }
  for (absl::string_view name : absl::StrSplit(f.types, ',', absl::SkipEmpty())) {
    absl::StatusOr<ElementType> t = ParseElementType(name);
    if (!t.ok()) return t.status();
    sel.co.types.push_back(*t);
  }
  return absl::OkStatus();
}

// One block of the catalogue's widened shape cases into the selection, in order: those the
// filters keep and the oracle answers (a malformed case is no shape question), the widening of
// a hollow sweep case unheld (case_list.h: made again when it runs), any other held.
void SelectBlockShapes(RunRequest& f, Selection& sel, const ShapeLaneOptions& so,
                       const std::vector<OpCase>& block, const std::vector<int64_t>& hollow,
                       size_t first) {
  const CatalogueOptions& co = sel.co;
  std::vector<ShapeCase> widened;
  std::vector<size_t> position;
  WidenCatalogueCases(block, first, so, widened, &position);
  // The filters first: the oracle answers only the cases kept (a --case-id run keeps one).
  size_t kept = 0;
  for (size_t k = 0; k < widened.size(); ++k) {
    const ShapeCase& s = widened[k];
    if (!Wanted(f, co.ops, co.types, s.c.op, s.c.type, s.id)) continue;
    if (kept != k) {
      widened[kept] = std::move(widened[k]);
      position[kept] = position[k];
    }
    ++kept;
  }
  widened.resize(kept);
  position.resize(kept);
  std::vector<absl::StatusOr<PartialResult>> answers = OracleShapeAnswers(widened, f.session.jobs);
  for (size_t k = 0; k < widened.size(); ++k) {
    ShapeCase& s = widened[k];
    if (!answers[k].ok()) continue;
    const auto at = static_cast<int64_t>(position[k]);
    const int64_t sweep_index = hollow[position[k] - first];
    if (sweep_index >= 0 && sel.cases.shape.AddUnheld(s, at, sweep_index)) continue;
    PreparedShapeCase p;
    p.expectation = std::move(answers[k]);
    p.s = std::move(s);
    sel.cases.shape.Add(std::move(p));
  }
}

// One block of the catalogue (ForEachCatalogueBlock) into the selection: its shape cases
// (SelectBlockShapes), and its kernel cases that the filters keep, in order, a hollow sweep
// case unheld (made again when it runs), any other prepared and held.
void SelectBlock(RunRequest& f, Selection& sel, const ShapeLaneOptions& so,
                 std::vector<OpCase>& block, const std::vector<int64_t>& hollow, size_t first) {
  const CatalogueOptions& co = sel.co;
  if (!f.no_shapes) SelectBlockShapes(f, sel, so, block, hollow, first);
  if (f.no_kernels) return;
  std::vector<char> keep(block.size(), 0);       // 1: held, 2: unheld
  std::vector<uint16_t> facts(block.size(), 0);  // of an unheld case
  std::vector<OpCase> held;
  std::vector<int64_t> held_hollow;
  for (size_t k = 0; k < block.size(); ++k) {
    if (!Wanted(f, co.ops, co.types, block[k])) continue;
    // (A hollow case whose facts do not fit an unheld entry is held hollow.)
    std::optional<uint16_t> unheld;
    if (hollow[k] >= 0) unheld = sel.cases.kernel.UnheldFacts(block[k], hollow[k]);
    keep[k] = unheld.has_value() ? 2 : 1;
    if (unheld.has_value()) facts[k] = *unheld;
  }
  for (size_t k = 0; k < block.size(); ++k) {
    if (keep[k] != 1) continue;
    held_hollow.push_back(hollow[k]);
    held.push_back(std::move(block[k]));
  }
  EvalOptions eval;
  eval.threads = f.threads;
  std::vector<PreparedCase> prepared =
      PrepareCases(std::move(held), eval, f.session.jobs, held_hollow);
  size_t next = 0;
  for (size_t k = 0; k < block.size(); ++k) {
    if (keep[k] == 1) sel.cases.kernel.Add(std::move(prepared[next++]));
    if (keep[k] == 2) sel.cases.kernel.AddUnheld(hollow[k], facts[k]);
  }
}

// The catalogue's kernel cases and the shape lane's generated cases that the filters keep,
// selected a block of the catalogue at a time: the whole catalogue is never held.
void SelectCatalogue(RunRequest& f, Selection& sel) {
  const CatalogueOptions co = sel.co;
  f.session.hollow_data = [co](int64_t index) {
    return SweepData(co, static_cast<uint64_t>(index));
  };
  f.session.sweep_case = [co](int64_t index) {
    return WholeSweepCase(co, static_cast<uint64_t>(index));
  };
  ShapeLaneOptions so;
  so.seed = f.seed;
  so.count = f.shape_count;
  so.threads = f.session.jobs;
  so.ops = co.ops;
  so.types = co.types;
  // An unheld shape case: its kernel case made again as the selection saw it (hollow), then
  // widened with the seed of its id.
  f.session.shape_case = [co, so](int64_t /*position*/, int64_t index) -> std::optional<ShapeCase> {
    std::optional<OpCase> c = HollowSweepCase(co, static_cast<uint64_t>(index));
    if (!c.has_value()) return std::nullopt;
    return WidenCatalogueCase(*c, so);
  };
  if (!sel.catalogue) return;
  ForEachCatalogueBlock(co, [&](std::vector<OpCase>& block, const std::vector<int64_t>& hollow,
                                size_t first) { SelectBlock(f, sel, so, block, hollow, first); });
  if (f.no_shapes) return;
  // The shape cases after every widened one: the wrap cases and the generated ones, held.
  std::vector<ShapeCase> generated = GeneratedShapeCases(so);
  std::erase_if(generated, [&](const ShapeCase& s) {
    return !Wanted(f, co.ops, co.types, s.c.op, s.c.type, s.id);
  });
  for (PreparedShapeCase& p : PrepareShapeCases(std::move(generated), f.session.jobs)) {
    sel.cases.shape.Add(std::move(p));
  }
}

// The --vectors files read; the cases the filters keep join the selection. A file that cannot
// be read is listed and fails the run; the others still run.
absl::Status LoadRequestedVectors(RunRequest& f, Selection& sel) {
  if (f.vectors.empty()) return absl::OkStatus();
  const CatalogueOptions& co = sel.co;
  absl::StatusOr<LoadedVectors> v = LoadVectorCases(f.vectors);
  if (!v.ok()) return v.status();
  f.session.input_paths = f.vectors;  // and each file read: no output may replace one
  for (PreparedCase& p : v->cases) {
    f.session.input_paths.push_back(p.source_file);
    if (!f.no_kernels && Wanted(f, co.ops, co.types, p.c)) sel.cases.kernel.Add(std::move(p));
  }
  for (PreparedShapeCase& p : v->shape_cases) {
    f.session.input_paths.push_back(p.source_file);
    if (!f.no_shapes && Wanted(f, co.ops, co.types, p.s.c.op, p.s.c.type, p.s.id)) {
      sel.cases.shape.Add(std::move(p));
    }
  }
  f.session.file_errors = std::move(v->errors);
  return absl::OkStatus();
}

// False (the reason printed) when nothing is selected. A shard that no case hashes to
// (--shard 1/1000000 of a small run) is a legal part of the whole: it writes its report with
// 0 cases and exits 0, so that `report merge` of all N shards still sees every K.
bool SomethingSelected(const RunRequest& f, const Selection& sel) {
  const bool nothing =
      sel.cases.kernel.empty() && sel.cases.shape.empty() && f.session.file_errors.empty();
  if (nothing && f.shard.count > 1) {
    std::cerr << "dmconf run: shard " << f.shard.index << "/" << f.shard.count
              << " holds no case of this selection; its report lists none\n";
  } else if (nothing) {
    std::cerr << "dmconf run: no case selected (--case-id, --ops and --types filter; catalogue "
                 "ids depend on --seed and --count)\n";
    return false;
  }
  return true;
}

// What the session needs to know of the selection: the directed sweep, the repro lines'
// arguments and the report's options block.
void DescribeSelection(RunRequest& f, const Selection& sel) {
  f.session.directed_seed = f.seed;
  if (!sel.catalogue || !f.case_ids.empty() || f.no_kernels) f.session.directed_count = 0;
  f.session.directed_filter = [ops = sel.co.ops, types = sel.co.types, &f](const OpCase& c) {
    return Wanted(f, ops, types, c);
  };
  f.session.catalogue_repro_args = absl::StrCat(" --seed ", f.seed, " --count ", f.count);
  f.session.shape_repro_args =
      absl::StrCat(" --seed ", f.seed, " --count ", f.count, " --shape-count ", f.shape_count);
  // The caller's own entries (dmconf certify's `certificate`) follow the selection's.
  const nlohmann::ordered_json callers = f.session.options;
  f.session.options = nlohmann::ordered_json{{"seed", f.seed},
                                             {"count", f.count},
                                             {"ops", f.ops},
                                             {"types", f.types},
                                             {"catalogue", sel.catalogue},
                                             {"vectors", f.vectors},
                                             {"case_ids", f.case_ids},
                                             {"shape_count", f.no_shapes ? -1 : f.shape_count}};
  if (f.no_kernels) f.session.options["kernels"] = false;
  // An earlier edition (a superseded profile's): its cases are a part of the latest's, with
  // the same ids, so the repro lines, run without it, still find them.
  if (f.catalogue_edition != kLatestCatalogueEdition) {
    f.session.options["catalogue_edition"] = f.catalogue_edition;
  }
  if (f.shard.count > 1) {
    f.session.options["shard"] = absl::StrCat(f.shard.index, "/", f.shard.count);
  }
  if (callers.is_object()) {
    for (const auto& [key, value] : callers.items()) f.session.options[key] = value;
  }
}

}  // namespace

int RunRequested(RunRequest f, std::vector<BackendRun>* runs_out) {
  Selection sel;
  if (absl::Status s = ParseRequest(f, sel); !s.ok()) {
    std::cerr << f.command << ": " << s.message() << "\n";
    return 2;
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
  sel.catalogue = !f.no_catalogue && (f.vectors.empty() || f.count_given);
  SelectCatalogue(f, sel);
  if (absl::Status s = LoadRequestedVectors(f, sel); !s.ok()) {
    std::cerr << f.command << ": " << s.message() << "\n";
    return 2;
  }
  if (!SomethingSelected(f, sel)) return 2;
  DescribeSelection(f, sel);
  std::vector<BackendRun> runs;  // what the run leaves to the exit (f.exits_next)
  if (f.exits_next && runs_out == nullptr) runs_out = &runs;
  const int status = RunSession(sel.cases, f.session, f.command, runs_out);
  if (f.exits_next) {
    LeaveToExit(std::move(runs));
    LeaveToExit(std::move(sel.cases));
  }
  return status;
}

}  // namespace dmconf
