#include "harness/shrink/replay.h"

#include <chrono>
#include <functional>
#include <optional>

#include "absl/strings/str_cat.h"

namespace dmconf {
namespace {

// Verdicts whose detail is not the backend's answer: they agree by verdict and rule alone.
bool OutcomeOnly(Verdict v) {
  return v == Verdict::kCrash || v == Verdict::kHang || v == Verdict::kOutOfMemory;
}

std::string Described(const CaseResult& r) {
  std::string d = r.detail.size() > 300 ? absl::StrCat(r.detail.substr(0, 300), " ...") : r.detail;
  return d.empty() ? std::string(VerdictName(r.verdict))
                   : absl::StrCat(VerdictName(r.verdict), " (", d, ")");
}

}  // namespace

bool SameReplay(const CaseResult& failure, const CaseResult& replay) {
  if (failure.verdict != replay.verdict || failure.rule != replay.rule) return false;
  if (OutcomeOnly(failure.verdict)) return true;
  const int64_t a = failure.mismatch ? failure.mismatch->differing : -1;
  const int64_t b = replay.mismatch ? replay.mismatch->differing : -1;
  return failure.detail == replay.detail && a == b;
}

namespace {

// Replays a failure by `run` (see ConfirmFailure).
bool Confirm(const std::function<CaseResult(const RunOptions&)>& run, const std::string& name,
             const RunOptions& run_options, CaseResult* failure, double* seconds) {
  const auto start = std::chrono::steady_clock::now();
  const int count =
      OutcomeOnly(failure->verdict) && failure->verdict != Verdict::kCrash ? 1 : kFailureReplays;
  RunOptions ro = run_options;
  ro.progress = nullptr;
  int failed = 0;
  std::optional<CaseResult> other;  // the first replay that disagreed
  for (int i = 0; i < count; ++i) {
    CaseResult r = run(ro);
    if (IsFailure(r.verdict, ro.strictness)) ++failed;
    if (!other && !SameReplay(*failure, r)) other = std::move(r);
  }
  if (seconds != nullptr) {
    *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  if (!other) return true;
  MarkFlaky(name, run_options, count, failed, *other, failure);
  return false;
}

}  // namespace

bool ConfirmFailure(Backend& backend, const std::string& name, const Capabilities& caps,
                    const PreparedCase& original, const RunOptions& run_options,
                    CaseResult* failure, double* seconds) {
  return Confirm([&](const RunOptions& ro) { return RunCase(backend, name, caps, original, ro); },
                 name, run_options, failure, seconds);
}

bool ConfirmShapeFailure(Backend& backend, const std::string& name, const Capabilities& caps,
                         const PreparedShapeCase& original, const RunOptions& run_options,
                         CaseResult* failure, double* seconds) {
  return Confirm(
      [&](const RunOptions& ro) { return RunShapeCase(backend, name, caps, original, ro); }, name,
      run_options, failure, seconds);
}

void MarkFlaky(const std::string& name, const RunOptions& run_options, int count, int failed,
               const CaseResult& other, CaseResult* failure) {
  CaseResult& r = *failure;
  r.replays = CaseResult::Replays{count, failed, r.verdict};
  r.detail = absl::StrCat("flaky: ", Described(r), " at first, then ", failed, " of ", count,
                          " replays failed; another replay gave ", Described(other),
                          ". The backend does not answer this case the same way twice: not "
                          "shrunk");
  r.verdict = Verdict::kFlaky;
  r.diagnosis.reset();
  r.shrunk.reset();
  MarkFailing(name, run_options, r);
}

}  // namespace dmconf
