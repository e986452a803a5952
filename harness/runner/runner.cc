#include "harness/runner/runner.h"

#include <chrono>

#include "absl/strings/str_cat.h"
#include "harness/isolation/worker.h"

namespace dmconf {

std::vector<PreparedCase> PrepareCases(std::vector<OpCase> cases) {
  std::vector<PreparedCase> out;
  out.reserve(cases.size());
  for (OpCase& c : cases) {
    PreparedCase p;
    p.expectation = Evaluate(c);
    p.c = std::move(c);
    out.push_back(std::move(p));
  }
  return out;
}

CaseResult Judge(const std::string& backend, const PreparedCase& p, const RunOutcome& outcome,
                 const RunOptions& options) {
  CaseResult r;
  r.id = p.c.id;
  r.op = p.c.op;
  r.type = p.c.data.type;
  if (!p.expectation.ok()) {
    r.expected = "malformed";
    r.verdict = Verdict::kHarnessError;
    r.detail =
        absl::StrCat("the oracle cannot evaluate the case: ", p.expectation.status().message());
  } else {
    const Expectation& e = *p.expectation;
    r.expected = std::string(ExpectationKindName(e.kind));
    if (e.rule != nullptr) r.rule = std::string(e.rule->id);
    Comparison cmp = Compare(e, outcome, options.strictness);
    r.verdict = cmp.verdict;
    r.detail = std::move(cmp.detail);
    r.mismatch = std::move(cmp.mismatch);
    const bool wrong_output = r.verdict == Verdict::kWrongValues ||
                              r.verdict == Verdict::kWrongShape ||
                              r.verdict == Verdict::kNanPayloadChanged;
    if (options.diagnose && wrong_output && e.output.has_value() && outcome.output.has_value()) {
      r.diagnosis = Diagnose(p.c, *e.output, *outcome.output);
    }
  }
  if (IsFailure(r.verdict, options.strictness)) {
    r.known = options.expectations != nullptr ? options.expectations->Find(backend, r.id, r.verdict)
                                              : nullptr;
    r.failure = r.known == nullptr;
  }
  return r;
}

BackendRun RunBackend(const std::string& name, const BackendFactory& factory,
                      const std::vector<PreparedCase>& cases, const RunOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  BackendRun run;
  run.backend = name;
  std::unique_ptr<Backend> backend;
  if (options.isolate) {
    IsolationOptions io;
    io.timeout_seconds = options.timeout_seconds;
    io.silence_worker_output = options.silence_worker_output;
    auto isolated = std::make_unique<IsolatedBackend>(name, factory, io);
    run.capabilities = isolated->GetCapabilities();
    run.startup_error = isolated->StartupError();
    backend = std::move(isolated);
  } else {
    absl::StatusOr<std::unique_ptr<Backend>> b = factory();
    if (b.ok()) {
      backend = *std::move(b);
      run.capabilities = backend->GetCapabilities();
    } else {
      run.startup_error = std::string(b.status().message());
    }
  }
  size_t done = 0;
  for (const PreparedCase& p : cases) {
    RunOutcome outcome;
    if (!run.startup_error.empty() || backend == nullptr) {
      outcome.kind = RunOutcome::Kind::kHarnessError;
      outcome.message = absl::StrCat("backend did not start: ", run.startup_error);
    } else if (!backend->Supports(p.c)) {
      outcome.kind = RunOutcome::Kind::kUnsupported;
      outcome.message = "outside the backend's declared capabilities";
    } else {
      outcome = backend->Run(p.c);
    }
    run.results.push_back(Judge(name, p, outcome, options));
    ++done;
    if (options.progress) options.progress(done, cases.size(), run.results.back());
  }
  if (auto* iso = dynamic_cast<IsolatedBackend*>(backend.get())) run.worker_starts = iso->starts();
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

}  // namespace dmconf
