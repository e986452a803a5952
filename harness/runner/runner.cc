#include "harness/runner/runner.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/base/parallel_ranges.h"
#include "harness/compare/shape_judge.h"
#include "harness/isolation/worker.h"
#include "harness/runner/parallel_lanes.h"
#include "harness/runner/twin_run.h"
#include "harness/suites/catalogue.h"
#include "oracle/input_names.h"

namespace dmconf {

std::vector<PreparedCase> PrepareCases(std::vector<OpCase> cases, const EvalOptions& eval,
                                       int workers, const std::vector<int64_t>& hollow_index) {
  std::vector<PreparedCase> out(cases.size());
  EvalOptions hollow = eval;
  hollow.with_output = false;
  // Case k's expectation depends on case k alone: contiguous ranges, one per thread.
  const auto prepare = [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) {
      const bool is_hollow = k < hollow_index.size() && hollow_index[k] >= 0;
      out[k].expectation = Evaluate(cases[k], is_hollow ? hollow : eval);
      out[k].c = std::move(cases[k]);
      if (is_hollow) out[k].hollow_index = hollow_index[k];
    }
  };
  ForEachRange(cases.size(), workers, prepare);
  return out;
}

Invocation DescribeInvocation(const OpCase& c) {
  Invocation inv;
  inv.attributes = AttributesToString(c);
  inv.inputs.push_back({std::string(kDataInputName), c.data.type, c.data.shape, ""});
  const absl::Span<const absl::string_view> names = IntInputNames(c.op);
  for (size_t k = 0; k < c.int_inputs.size(); ++k) {
    inv.inputs.push_back({k < names.size() ? std::string(names[k]) : absl::StrCat("input_", k + 1),
                          c.int_inputs[k].type, c.int_inputs[k].shape, ""});
  }
  return inv;
}

std::string InvocationText(const Invocation& inv) {
  std::string out = inv.attributes;
  for (const CaseInput& i : inv.inputs) {
    absl::StrAppend(&out, out.empty() ? "" : "; ", i.name, " ", ElementTypeName(i.type), " ",
                    i.partial_shape.empty() ? absl::StrCat("[", absl::StrJoin(i.shape, ","), "]")
                                            : i.partial_shape);
  }
  return out;
}

bool MarkFailing(const std::string& backend, const RunOptions& options, CaseResult& r) {
  r.known = nullptr;
  r.failure = false;
  if (!IsFailure(r.verdict, options.strictness)) return false;
  r.known = options.expectations != nullptr
                ? options.expectations->Find(backend, r.id, r.verdict, r.rule)
                : nullptr;
  r.failure = r.known == nullptr;
  return true;
}

namespace {

// MarkFailing, and what a failing case records: its invocation and the backend's output text.
void MarkWithInvocation(const std::string& backend, const OpCase& c, const std::string& output_text,
                        const RunOptions& options, CaseResult& r) {
  if (!MarkFailing(backend, options, r)) return;
  r.invocation = DescribeInvocation(c);
  if (!output_text.empty()) r.backend_output = output_text;
}

}  // namespace

CaseResult Judge(const std::string& backend, const PreparedCase& p, const RunOutcome& outcome,
                 const RunOptions& options) {
  CaseResult r;
  r.id = p.c.id;
  r.op = p.c.op;
  r.type = p.c.data.type;
  r.rank = static_cast<int>(p.c.data.shape.size());
  if (!p.expectation.ok()) {
    r.expected = ExpectedClass::kMalformed;
    r.verdict = Verdict::kHarnessError;
    r.detail =
        absl::StrCat("the oracle cannot evaluate the case: ", p.expectation.status().message());
  } else {
    const Expectation& e = *p.expectation;
    r.expected = ExpectedClassOf(e.kind);
    if (e.rule != nullptr) r.rule = std::string(e.rule->id);
    Comparison cmp = Compare(e, outcome, options.strictness);
    r.verdict = cmp.verdict;
    r.detail = std::move(cmp.detail);
    r.mismatch = std::move(cmp.mismatch);
    const bool wrong_output = r.verdict == Verdict::kWrongValues ||
                              r.verdict == Verdict::kWrongShape ||
                              r.verdict == Verdict::kNanPayloadChanged;
    if (options.diagnose && wrong_output && e.output.has_value() && outcome.output.has_value()) {
      // Elements the backend never wrote are the bug itself, whatever else they look like.
      r.diagnosis = outcome.unwritten.empty() ? Diagnose(p.c, *e.output, *outcome.output)
                                              : UnwrittenDiagnosis(*e.output, outcome.unwritten);
    }
  }
  MarkWithInvocation(backend, p.c, outcome.output_text, options, r);
  return r;
}

void JudgeShapeInference(const std::string& backend, const PreparedCase& p,
                         const ShapeOutcome& inferred, const RunOptions& options, CaseResult& r) {
  if (!p.expectation.ok() || r.verdict == Verdict::kUnsupported ||
      IsFailure(r.verdict, options.strictness)) {
    return;
  }
  // kUnsupported from InferStatic alone says nothing about Run(): not judged.
  if (inferred.kind == ShapeOutcome::Kind::kUnsupported) return;
  const PartialCase pc = PartialCase::FromStatic(p.c);
  absl::StatusOr<PartialResult> oracle = OracleShapeAnswer(pc);
  if (!oracle.ok() || oracle->kind == PartialKind::kUnspecified) return;
  const ShapeJudgement j = JudgeShapeAnswer(pc, *oracle, inferred);
  if (j.verdict == Verdict::kPass) return;
  r.verdict = j.verdict;
  r.detail = absl::StrCat("shape inference: ", j.detail);
  r.mismatch.reset();
  r.diagnosis.reset();
  MarkWithInvocation(backend, p.c, inferred.output_text, options, r);
}

CaseResult RunCase(Backend& backend, const std::string& name, const Capabilities& caps,
                   const PreparedCase& p, const RunOptions& options) {
  return RunCase(backend, name, caps, p, options, std::nullopt, std::nullopt);
}

CaseResult RunCase(Backend& backend, const std::string& name, const Capabilities& caps,
                   const PreparedCase& p, const RunOptions& options, std::optional<RunOutcome> ran,
                   std::optional<ShapeOutcome> inferred) {
  if (!ShouldRun(backend, caps, p.c)) {
    RunOutcome outcome;
    outcome.kind = RunOutcome::Kind::kUnsupported;
    outcome.message = "outside the backend's declared capabilities";
    return Judge(name, p, outcome, options);
  }
  const RunOutcome outcome = ran.has_value() ? *std::move(ran) : backend.Run(p.c);
  CaseResult r = Judge(name, p, outcome, options);
  const Verdict judged = r.verdict;
  DiagnoseByTwins(
      p, outcome, [&backend](const OpCase& t) { return backend.Run(t); }, options, r);
  if (r.verdict != judged) MarkWithInvocation(name, p.c, outcome.output_text, options, r);
  if (caps.infer_static) {
    JudgeShapeInference(name, p,
                        inferred.has_value() ? *std::move(inferred)
                                             : backend.InferStatic(PartialCase::FromStatic(p.c)),
                        options, r);
  }
  return r;
}

std::string Printable(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    const auto b = static_cast<unsigned char>(ch);
    if (b >= 0x20 && b < 0x7f) {
      out.push_back(ch);
    } else {
      absl::StrAppend(&out, "\\x", absl::Hex(b, absl::kZeroPad2));
    }
  }
  return out;
}

const PreparedCase& CaseOf(const BackendRun& run, const CaseList& cases, size_t i) {
  if (i >= cases.size()) return run.extra_cases[i - cases.size()];
  if (const PreparedCase* p = cases.Held(i)) return *p;
  static const PreparedCase* const unheld = [] {
    auto* p = new PreparedCase;
    p->expectation = absl::InternalError(
        "runner.case_of: an unheld case was read as held (make it whole: WholeCaseOf)");
    return p;
  }();
  return *unheld;
}

const PreparedCase& CaseOf(const BackendRun& run, const std::vector<PreparedCase>& cases,
                           size_t i) {
  return i < cases.size() ? cases[i] : run.extra_cases[i - cases.size()];
}

const PreparedShapeCase& ShapeCaseOf(const BackendRun& run, const CaseList&,
                                     const ShapeCaseList& shape_cases, size_t i) {
  // The shape results are the last ones (after the kernel results, if the backend has kernels).
  const size_t k = run.shape_case_index[i - (run.results.size() - run.shape_case_index.size())];
  if (const PreparedShapeCase* p = shape_cases.Held(k)) return *p;
  static const PreparedShapeCase* const unheld = [] {
    auto* p = new PreparedShapeCase;
    p->expectation = absl::InternalError(
        "runner.case_of: an unheld shape case was read as held (make it whole: "
        "WholeShapeCaseOf)");
    return p;
  }();
  return *unheld;
}

Op KernelOpOf(const BackendRun& run, const CaseList& cases, size_t i) {
  return i < cases.size() ? cases.OpAt(i) : run.extra_cases[i - cases.size()].c.op;
}

PreparedCase MakeWhole(const PreparedCase& p, const RunOptions& options) {
  if (p.hollow_index < 0) return p;
  PreparedCase whole;
  whole.c = p.c;
  whole.source_file = p.source_file;
  if (!options.hollow_data) {
    whole.expectation = absl::FailedPreconditionError(
        "runner.hollow_data: a hollow case ran without the function that makes its data");
    return whole;
  }
  whole.c.data = options.hollow_data(p.hollow_index);
  if (whole.c.data.type != p.c.data.type || whole.c.data.shape != p.c.data.shape) {
    whole.expectation = absl::InternalError(absl::StrCat(
        "runner.hollow_data: the data made again for case ", p.c.id, " is not the case's own"));
    return whole;
  }
  whole.expectation = Evaluate(whole.c);
  return whole;
}

namespace {

// Unheld case i made again from its sweep index and prepared.
PreparedCase MadeAgain(const CaseList& cases, size_t i, const RunOptions& options) {
  const int64_t index = cases.SweepIndex(i);
  PreparedCase whole;
  std::optional<OpCase> c;
  if (options.sweep_case) c = options.sweep_case(index);
  if (!c.has_value()) {
    whole.c.id = absl::StrCat("sweep index ", index);
    whole.c.op = cases.OpAt(i);
    whole.expectation = absl::FailedPreconditionError(absl::StrCat(
        "runner.sweep_case: the case of sweep index ", index, " could not be made again",
        options.sweep_case ? "" : " (the run has no function that makes it)"));
    return whole;
  }
  whole.c = *std::move(c);
  if (!cases.Matches(i, whole.c)) {
    whole.expectation = absl::InternalError(
        absl::StrCat("runner.sweep_case: the case made again from sweep index ", index, " (",
                     whole.c.id, ") is not the case selected: its op, type, rank or mode differ"));
    return whole;
  }
  whole.expectation = Evaluate(whole.c);
  return whole;
}

}  // namespace

PreparedShapeCase WholeShapeCaseOf(const ShapeCaseList& shapes, size_t k,
                                   const RunOptions& options) {
  if (const PreparedShapeCase* p = shapes.Held(k)) return *p;
  const int64_t position = shapes.Position(k), index = shapes.SweepIndex(k);
  PreparedShapeCase whole;
  std::optional<ShapeCase> s;
  if (options.shape_case) s = options.shape_case(position, index);
  if (!s.has_value()) {
    whole.s.id = absl::StrCat("shape case of catalogue position ", position);
    whole.s.c.op = shapes.OpAt(k);
    whole.expectation = absl::FailedPreconditionError(
        absl::StrCat("runner.shape_case: the shape case of catalogue position ", position,
                     " (sweep index ", index, ") could not be made again",
                     options.shape_case ? "" : " (the run has no function that makes it)"));
    return whole;
  }
  whole.s = *std::move(s);
  if (!shapes.Matches(k, whole.s)) {
    whole.expectation = absl::InternalError(absl::StrCat(
        "runner.shape_case: the shape case made again from catalogue position ", position, " (",
        whole.s.id, ") is not the case selected: its op or staticness differ"));
    return whole;
  }
  whole.expectation = OracleShapeAnswer(whole.s.c);
  return whole;
}

PreparedCase WholeCaseOf(const BackendRun& run, const CaseList& cases, size_t i,
                         const RunOptions& options) {
  if (i < cases.size() && cases.Held(i) == nullptr) return MadeAgain(cases, i, options);
  return MakeWhole(CaseOf(run, cases, i), options);
}

void MakeFailingCasesWhole(CaseList& cases, const BackendRun& run, const RunOptions& options,
                           ShapeCaseList* shapes) {
  const size_t first_shape = run.results.size() - run.shape_case_index.size();
  for (size_t i = 0; i < run.results.size(); ++i) {
    const CaseResult* held = run.results.Held(i);  // a spooled result passes
    if (held == nullptr) continue;
    const CaseResult& r = *held;
    if (!IsFailure(r.verdict, options.strictness)) continue;
    if (IsShapeLane(r.lane)) {
      if (shapes == nullptr || i < first_shape) continue;
      const size_t k = run.shape_case_index[i - first_shape];
      if (shapes->Held(k) == nullptr) shapes->Hold(k, WholeShapeCaseOf(*shapes, k, options));
      continue;
    }
    if (i >= cases.size()) continue;
    const PreparedCase* p = cases.Held(i);
    if (p == nullptr || p->hollow_index >= 0) cases.Hold(i, WholeCaseOf(run, cases, i, options));
  }
}

IsolationOptions IsolationFor(const RunOptions& options) {
  IsolationOptions io;
  io.timeout_seconds = options.timeout_seconds;
  io.silence_worker_output = options.silence_worker_output;
  io.memory_limit_bytes = options.memory_limit_bytes;
  return io;
}

std::string ShrunkText(const CaseResult::Shrunk& s) {
  std::string out = s.case_text.empty()
                        ? absl::StrCat(s.from_elements, " -> ", s.to_elements, " data elements")
                        : absl::StrCat("to ", s.case_text);
  for (const CaseResult::Shrunk::Threshold& t : s.thresholds) {
    // "fails from block_size 5", "fails from dim 1 = 5".
    absl::StrAppend(&out, "; fails from ", t.what, absl::StartsWith(t.what, "dim ") ? " = " : " ",
                    t.fails_from, "; passes at ", t.passes_at);
  }
  return out;
}

std::string FailureKind(const CaseResult& r) {
  return absl::StrCat(OpName(r.op), "/", VerdictName(r.verdict), "/", r.rule, "/",
                      r.diagnosis ? r.diagnosis->mistake : std::string());
}

namespace {

// The backend, started in a worker process (options.isolate) or in this one, or nullptr;
// run.capabilities and run.startup_error say what it declared or why it did not start.
std::unique_ptr<Backend> StartBackend(const std::string& name, const BackendFactory& factory,
                                      const RunOptions& options, BackendRun& run) {
  if (options.isolate) {
    auto isolated = std::make_unique<IsolatedBackend>(name, factory, IsolationFor(options));
    run.capabilities = isolated->GetCapabilities();
    run.startup_error = isolated->StartupError();
    return isolated;
  }
  absl::StatusOr<std::unique_ptr<Backend>> b = factory();
  if (!b.ok()) {
    run.startup_error = std::string(b.status().message());
    return nullptr;
  }
  run.capabilities = (*b)->GetCapabilities();
  return *std::move(b);
}

// The directed sweep: valid cases generated inside the backend's declared slice.
std::vector<PreparedCase> DirectedCases(const Capabilities& caps, const RunOptions& options) {
  std::vector<OpCase> directed = DirectedSweep(caps, options.directed_seed, options.directed_count);
  if (options.directed_filter) {
    std::erase_if(directed, [&](const OpCase& c) { return !options.directed_filter(c); });
  }
  return PrepareCases(std::move(directed));
}

// A backend that did not start: each of the first `total` cases is a harness error naming why.
void JudgeWithoutBackend(const std::string& name, const CaseList& cases, size_t total,
                         const RunOptions& options, BackendRun& run) {
  RunOutcome outcome;
  outcome.kind = RunOutcome::Kind::kHarnessError;
  outcome.message = absl::StrCat("backend did not start: ", run.startup_error);
  for (size_t i = 0; i < total; ++i) {
    // An unheld case is made again for its id, kind and rule.
    run.results.push_back(WithKernelCase(run, cases, i, options, [&](const PreparedCase& p) {
      return Judge(name, p, outcome, options);
    }));
    if (options.progress) options.progress(i + 1, total, run.results.back());
  }
}

// The indices of the shape cases in a lane the backend declares (BackendRun::shape_case_index).
CompactSequence ShapeCasesAsked(const Capabilities& caps, const ShapeCaseList& shapes) {
  CompactSequence asked;
  for (size_t k = 0; k < shapes.size(); ++k) {
    if (ShapeLaneOf(caps, shapes.IsStatic(k)).has_value()) asked.push_back(k);
  }
  return asked;
}

}  // namespace

BackendRun RunBackend(const std::string& name, const BackendFactory& factory,
                      const std::vector<PreparedCase>& cases, const RunOptions& options) {
  return RunBackend(name, factory, CaseList::ViewOf(cases), options);
}

BackendRun RunBackend(const std::string& name, const BackendFactory& factory, const CaseList& cases,
                      const RunOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  BackendRun run;
  run.backend = name;
  if (options.spool_results) run.results = ResultList::Spooling();
  std::unique_ptr<Backend> backend = StartBackend(name, factory, options, run);
  // A backend with shape inference only: its kernel lane is not provided (no kernel case).
  const bool kernels = run.capabilities.kernels || !run.startup_error.empty();
  if (options.directed_count > 0 && run.startup_error.empty() && kernels) {
    run.extra_cases = DirectedCases(run.capabilities, options);
  }
  const size_t total = kernels ? cases.size() + run.extra_cases.size() : 0;
  // The results of a large run are much of its memory: never twice (a growing vector's slack
  // and, while it moves, its old copy). At most every shape case joins them.
  const bool infers = run.capabilities.infer_static || run.capabilities.infer_partial;
  run.results.reserve(total +
                      (options.shape_cases != nullptr && infers ? options.shape_cases->size() : 0));
  const bool shape_lane =
      options.shape_cases != nullptr && backend != nullptr && run.startup_error.empty() && infers;
  if (shape_lane) run.shape_case_index = ShapeCasesAsked(run.capabilities, *options.shape_cases);
  if (backend == nullptr || !run.startup_error.empty()) {
    JudgeWithoutBackend(name, cases, total, options, run);
  } else {
    // The kernel lane, then the shape lane; several isolated workers side by side with --jobs
    // (a backend in this process need not be thread-safe: one), with the results of one.
    RunLanes(*backend, name, factory, cases, total, options.isolate ? options.jobs : 1, options,
             run);
  }
  if (kernels) run.slices = DeclaredSlices(run.capabilities);
  for (size_t i = 0; i < run.results.size() && i < total; ++i) {
    if (i < cases.size()) {
      CountIntoSlices([&](const OpSupport& s) { return cases.InSlice(i, s); },
                      run.results.VerdictAt(i), run.slices);
    } else {
      CountIntoSlices(CaseOf(run, cases, i).c, run.results.VerdictAt(i), run.slices);
    }
  }
  if (auto* iso = dynamic_cast<IsolatedBackend*>(backend.get())) run.worker_starts += iso->starts();
  if (backend != nullptr) {
    for (std::string& e : backend->TakeUnattributedErrors())
      run.worker_errors.push_back(std::move(e));
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

}  // namespace dmconf
