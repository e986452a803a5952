#include "harness/explore/explore.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "harness/explore/explore_shapes.h"
#include "harness/gen/chooser.h"
#include "harness/gen/fills.h"
#include "harness/gen/generate.h"
#include "harness/runner/run_ahead.h"
#include "harness/runner/shape_lane.h"
#include "harness/runner/vector_cases.h"
#include "harness/shrink/replay.h"
#include "harness/suites/catalogue.h"

namespace dmconf {

GenerateOptions SliceOptions(const OpSupport& s) {
  GenerateOptions g;
  g.ops = {s.op};
  g.build.data_types.assign(s.element_types.begin(), s.element_types.end());
  g.build.min_rank = std::max(s.min_rank, 1);
  g.build.max_rank = std::min(s.max_rank, 8);
  g.build.modes.assign(s.modes.begin(), s.modes.end());
  g.build.max_elements = 1024;
  return g;
}

namespace {

// What both lanes' steps share.
struct Session {
  Session(Backend& b, const std::string& n, const Capabilities& c, const ExploreOptions& opts)
      : backend(b), name(n), caps(c), o(opts), start(std::chrono::steady_clock::now()) {}
  double elapsed() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  Backend& backend;
  const std::string& name;
  const Capabilities& caps;
  const ExploreOptions& o;
  std::chrono::steady_clock::time_point start;
  std::set<std::string> kinds;  // failure kinds found so far
  int64_t skipped = 0;
  std::vector<PreparedCase> batch;  // the kernel cases of the step under way
  // The kernel cases of the next step, made while the worker runs this step's batch, with the
  // generated cases it skipped (counted when the step takes them).
  std::vector<PreparedCase> next;
  int64_t next_skipped = 0;
  bool next_made = false;
};

void Count(const CaseResult& r, const StrictnessOptions& strictness, LaneStats& lane) {
  ++lane.cases;
  if (r.verdict == Verdict::kUnsupported) ++lane.unsupported;
  if (IsFailure(r.verdict, strictness)) ++lane.failing;
}

// A failure of a kind not found before, saved by `save` (a vector or shape-case file) with its
// repro line; nullopt for a kind already found (nothing is saved then).
template <typename Save>
std::optional<Finding> NewFinding(Session& s, std::string kind, Save save) {
  if (!s.kinds.insert(kind).second) return std::nullopt;
  Finding f;
  f.kind = std::move(kind);
  f.found_after_seconds = s.elapsed();
  absl::StatusOr<std::string> path = save();
  if (path.ok()) {
    f.vector_file = *path;
    f.repro = absl::StrCat("dmconf run ", s.o.repro_flag, " --vectors ", *path);
  }
  return f;
}

// Kernel case i: a slice, then harness/gen's seeded driver; one valid case in four gets the
// element type's special values. nullopt for a generated case that cannot run (skipped).
std::optional<PreparedCase> KernelCase(Session& s, const std::vector<GenerateOptions>& slices,
                                       uint64_t i, int64_t* skipped) {
  const ExploreOptions& o = s.o;
  const uint64_t mix = MixSeed(o.seed, i);
  GeneratedCase gc = SeededCase(o.seed, i, slices[mix % slices.size()]);
  FillSpecialIfDrawn(o.seed, i, gc);
  // An optional attribute absent, so that the spec default applies: a valid SpaceToDepth /
  // DepthToSpace case with block_size 1 runs, one time in two, without it ("Default value: 1").
  if (gc.kind == GenKind::kValid && gc.c.block_size == 1 && (mix >> 24) % 2 == 0) {
    gc.c.block_size.reset();
    gc.c.id = absl::StrReplaceAll(gc.c.id, {{".b1.", ".bnone."}});
  }
  if (gc.kind != GenKind::kValid && !RunnableGeneratedCase(gc.c)) {
    ++*skipped;
    return std::nullopt;
  }
  gc.c.id = absl::StrCat("fuzz/", gc.c.id);
  std::vector<PreparedCase> p = PrepareCases({std::move(gc.c)});
  return std::move(p[0]);
}

// A kernel case's result: counted; a failure of a new kind is saved and shrunk.
std::optional<Finding> KernelJudged(Session& s, const PreparedCase& p, CaseResult r,
                                    LaneStats& lane) {
  const ExploreOptions& o = s.o;
  Count(r, o.run.strictness, lane);
  if (!IsFailure(r.verdict, o.run.strictness)) return std::nullopt;
  // A failure of a new kind is replayed before it is saved and shrunk (harness/shrink/replay.h):
  // one whose replays disagree is a finding of the kind flaky, and is not shrunk.
  if (s.kinds.count(FailureKind(r)) > 0) return std::nullopt;
  double replay_seconds = 0;
  const bool flaky = !ConfirmFailure(s.backend, s.name, s.caps, p, o.run, &r, &replay_seconds);
  std::optional<Finding> found = NewFinding(s, FailureKind(r), [&] {
    return SaveFailingCase(o.failures_dir, s.name, p, VerdictName(r.verdict), r.detail);
  });
  if (!found) return std::nullopt;
  Finding& f = *found;
  if (o.shrink && !flaky) {
    ShrinkOptions so;
    so.budget_seconds = std::max(0.0, o.shrink_seconds - replay_seconds);
    ShrunkCase shrunk = ShrinkFailure(s.backend, s.name, s.caps, p, r, o.run, so);
    absl::StatusOr<std::string> min =
        SaveFailingCase(o.failures_dir, s.name, shrunk.minimal, VerdictName(shrunk.result.verdict),
                        shrunk.result.detail);
    if (min.ok()) {
      f.shrunk_file = *min;
      f.shrunk_repro = absl::StrCat("dmconf run ", o.repro_flag, " --vectors ", *min);
    }
    f.shrunk = std::move(shrunk);
  }
  f.result = std::move(r);
  return found;
}

// The kernel cases of the next step into s.next: `want` of them from indices *i, *i + 1, ...
// (at most 4 * want indices), or one index when want is 1 (not isolated).
void MakeKernelBatch(Session& s, const std::vector<GenerateOptions>& slices, uint64_t* i,
                     size_t want) {
  s.next.clear();
  s.next_skipped = 0;
  for (size_t tries = 0; s.next.size() < want && tries < 4 * want; ++tries) {
    std::optional<PreparedCase> p = KernelCase(s, slices, (*i)++, &s.next_skipped);
    if (p.has_value()) s.next.push_back(*std::move(p));
    if (want == 1) break;  // not isolated: one index per step
  }
  s.next_made = true;
}

// Kernel cases *i, *i + 1, ...: through an isolated worker, one batch of them (run_ahead.h),
// judged in order, the next step's cases made while the worker runs them; through another
// backend, one case. New findings are appended until there are `max_findings` (0: no limit).
void KernelSteps(Session& s, const std::vector<GenerateOptions>& slices, uint64_t* i,
                 LaneStats& lane, std::vector<Finding>& findings, int max_findings) {
  KernelBatches batches(&s.backend);
  const size_t want = batches.BatchCases(s.caps);
  if (!s.next_made) MakeKernelBatch(s, slices, i, want);
  std::vector<PreparedCase>& batch = s.batch;
  std::swap(batch, s.next);
  s.skipped += s.next_skipped;
  s.next_made = false;
  const auto make_next = [&] {
    if (!s.next_made) MakeKernelBatch(s, slices, i, want);
  };
  const auto would_run = [&](size_t j) -> const OpCase* {
    return ShouldRun(s.backend, s.caps, batch[j].c) ? &batch[j].c : nullptr;
  };
  for (size_t k = 0; k < batch.size(); ++k) {
    const std::optional<size_t> slot = batches.Slot(k, batch.size(), would_run, s.caps, make_next);
    CaseResult r = slot.has_value() ? RunCase(s.backend, s.name, s.caps, batch[k], s.o.run,
                                              batches.ahead().TakeRun(*slot),
                                              batches.ahead().TakeInferred(*slot))
                                    : RunCase(s.backend, s.name, s.caps, batch[k], s.o.run);
    std::optional<Finding> f = KernelJudged(s, batch[k], std::move(r), lane);
    if (f.has_value()) {
      findings.push_back(*std::move(f));
      if (max_findings > 0 && static_cast<int>(findings.size()) >= max_findings) return;
    }
  }
}

// A judged shape case (explore_shapes.h), judged as `dmconf run` judges it (RunShapeCase),
// counted in its lane. A failure of a new kind is replayed, saved as a dmconf-shape-case/1 file
// and shrunk.
std::optional<Finding> ShapeJudged(Session& s, const PreparedShapeCase& p, CaseResult r,
                                   LaneStats& lane) {
  const ExploreOptions& o = s.o;
  Count(r, o.run.strictness, lane);
  if (!IsFailure(r.verdict, o.run.strictness)) return std::nullopt;
  const std::string kind = absl::StrCat(CaseLaneName(r.lane), "/", FailureKind(r));
  if (s.kinds.count(kind) > 0) return std::nullopt;
  const bool flaky = !ConfirmShapeFailure(s.backend, s.name, s.caps, p, o.run, &r);
  std::optional<Finding> f = NewFinding(s, kind, [&] {
    return SaveFailingShapeCase(o.failures_dir, s.name, p, VerdictName(r.verdict), r.detail);
  });
  if (!f) return std::nullopt;
  if (r.witness.has_value()) {
    absl::StatusOr<std::string> w = SaveWitnessCase(o.failures_dir, s.name, p, r);
    if (w.ok()) {
      r.witness->case_file = *w;
      r.witness->repro = absl::StrCat("dmconf run ", o.repro_flag, " --vectors ", *w);
    }
  }
  if (o.shrink && !flaky) {
    ShrinkOptions so;
    so.budget_seconds = o.shrink_seconds;
    ShrunkShapeCase shrunk = ShrinkShapeFailure(s.backend, s.name, s.caps, p, r, o.run, so);
    absl::StatusOr<std::string> min =
        SaveFailingShapeCase(o.failures_dir, s.name, shrunk.minimal,
                             VerdictName(shrunk.result.verdict), shrunk.result.detail);
    if (min.ok()) {
      f->shrunk_file = *min;
      f->shrunk_repro = absl::StrCat("dmconf run ", o.repro_flag, " --vectors ", *min);
    }
    f->shrunk_shape = std::move(shrunk);
  }
  f->result = std::move(r);
  return f;
}

// Shape cases *i, *i + 1, ...: through a batching backend, one batch of them (run_ahead.h
// ShapeBatches), judged in order; through another backend, one case. A case the oracle calls
// malformed (case.*) asks no question and counts as skipped. New findings are appended until
// there are `max_findings` (0: no limit).
void ShapeSteps(Session& s, const std::vector<GenerateOptions>& slices, uint64_t* i,
                LaneStats& lane, std::vector<Finding>& findings, int max_findings) {
  ShapeBatches batches(&s.backend);
  const size_t want = batches.BatchCases();
  std::vector<ShapeCase> generated;
  for (size_t k = 0; k < want; ++k) {
    generated.push_back(ExploreShapeCase(slices, s.caps, s.o.seed, (*i)++));
  }
  const size_t asked = generated.size();
  // Every item of a batch points into `batch`: it is not changed while the batch is judged.
  const std::vector<PreparedShapeCase> batch = PrepareShapeCases(std::move(generated));
  s.skipped += static_cast<int64_t>(asked - batch.size());
  const auto would_ask = [&](size_t j) { return ShapeQuestion(s.caps, batch[j]); };
  for (size_t k = 0; k < batch.size(); ++k) {
    CaseResult r = RunShapeCase(s.backend, s.name, s.caps, batch[k], s.o.run,
                                batches.Answer(k, batch.size(), would_ask));
    std::optional<Finding> f = ShapeJudged(s, batch[k], std::move(r), lane);
    if (f.has_value()) {
      findings.push_back(*std::move(f));
      if (max_findings > 0 && static_cast<int>(findings.size()) >= max_findings) return;
    }
  }
}

}  // namespace

ExploreResult Explore(Backend& backend, const std::string& name, const Capabilities& caps,
                      const ExploreOptions& o, const ExploreProgress& progress) {
  Session s(backend, name, caps, o);
  ExploreResult out;
  std::vector<GenerateOptions> kernel_slices;
  for (const OpSupport& op : caps.ops) {
    if (caps.kernels && !op.element_types.empty()) kernel_slices.push_back(SliceOptions(op));
  }
  const std::vector<GenerateOptions> shape_slices = ShapeLaneSlices(caps);
  out.kernel_lane = !kernel_slices.empty();
  out.shape_lane = !shape_slices.empty();
  uint64_t kernel_i = 0, shape_i = 0;
  double next_progress = 1.0;
  while ((out.kernel_lane || out.shape_lane) && s.elapsed() < o.seconds) {
    // The lane that has had less time so far.
    const bool shape =
        out.shape_lane && (!out.kernel_lane || out.shape.seconds < out.kernel.seconds);
    LaneStats& lane = shape ? out.shape : out.kernel;
    const double t0 = s.elapsed();
    if (shape) {
      ShapeSteps(s, shape_slices, &shape_i, lane, out.findings, o.max_findings);
    } else {
      KernelSteps(s, kernel_slices, &kernel_i, lane, out.findings, o.max_findings);
    }
    lane.seconds += s.elapsed() - t0;
    out.cases = out.kernel.cases + out.shape.cases;
    out.unsupported = out.kernel.unsupported + out.shape.unsupported;
    out.failing = out.kernel.failing + out.shape.failing;
    out.skipped = s.skipped;
    if (o.max_findings > 0 && static_cast<int>(out.findings.size()) >= o.max_findings) break;
    if (progress && s.elapsed() >= next_progress) {
      out.seconds = s.elapsed();
      progress(out);
      next_progress = out.seconds + 1.0;
    }
  }
  out.seconds = s.elapsed();
  out.worker_errors = backend.TakeUnattributedErrors();
  return out;
}

}  // namespace dmconf
