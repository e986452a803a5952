#include "harness/session/shrink_failures.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <set>

#include "absl/strings/str_cat.h"
#include "harness/isolation/worker.h"
#include "harness/report/source_map.h"
#include "harness/runner/vector_cases.h"
#include "harness/session/backend_choice.h"
#include "harness/shrink/replay.h"
#include "harness/shrink/shrink.h"
#include "harness/shrink/shrink_shape.h"

namespace dmconf {
namespace {

// The new failing cases of one backend run to shrink, in order: one failure of each kind
// (lane, op, verdict, rule, diagnosed mistake) first, then the rest, so that a budget that runs
// out leaves repeats unshrunk rather than whole kinds. Not shrunk: repeats of a shape-lane kind
// (a shape bug fails hundreds of cases alike), cases that were never run
// (skipped after hangs or crashes), repeats of a hang or of an out_of_memory (each attempt
// waits the whole timeout or fills the worker's memory limit), and cases with more than
// kMaxShrinkDataBytes of data (their candidates would hold copies of it: `dmconf shrink` takes
// those one at a time).
std::vector<size_t> FailuresToShrink(const CaseList& cases, const BackendRun& r) {
  constexpr size_t kMaxShrinkDataBytes = size_t{16} << 20;
  std::vector<size_t> todo, repeats;
  std::set<std::string> kinds;
  for (size_t i = 0; i < r.results.size(); ++i) {
    const CaseResult* held = r.results.Held(i);  // a failing result is held
    if (held == nullptr) continue;
    const CaseResult& c = *held;
    const bool kernel = !IsShapeLane(c.lane);
    if (!c.failure || !VerdictRowOf(c.verdict).shrunk ||
        (kernel && CaseOf(r, cases, i).c.data.bytes.size() > kMaxShrinkDataBytes)) {
      continue;
    }
    const std::string kind = absl::StrCat(CaseLaneName(c.lane), "/", FailureKind(c));
    if (kinds.insert(kind).second) {
      todo.push_back(i);
    } else if (kernel && VerdictRowOf(c.verdict).repeats_shrunk) {
      repeats.push_back(i);
    }
  }
  todo.insert(todo.end(), repeats.begin(), repeats.end());
  return todo;
}

// Saves a shrunk case beside the original and records it in `res`; false when it could not be
// saved.
bool RecordShrunk(const ShrunkCase& s, const std::string& failures_dir,
                  const std::string& repro_flag, const BackendInfo& b, CaseResult& res) {
  CaseResult::Shrunk info = ShrunkPart(s.minimal.c.id, s.stats, s.result);
  info.source_map = SourceMapOf(s.minimal, s.result);
  info.thresholds = s.thresholds;
  absl::StatusOr<std::string> path = SaveFailingCase(
      failures_dir, b.name, s.minimal, VerdictName(s.result.verdict), s.result.detail);
  if (path.ok()) {
    info.vector_file = *path;
    info.repro = absl::StrCat("dmconf run ", repro_flag, " --vectors ", ShellQuote(*path));
  }
  res.shrunk = std::move(info);
  return path.ok();
}

}  // namespace

// Shrinks the new failing kernel cases of one backend run (harness/shrink) through a fresh
// worker of the same backend, saves each minimal case beside the original and records it in
// the result. Each is replayed first (harness/shrink/replay.h): a failure whose replays
// disagree becomes flaky and is not shrunk. Returns how many minimal cases could not be saved.
int64_t ShrinkNewFailures(const RunCases& cases, const SessionOptions& f, RunOptions ro,
                          const std::string& failures_dir, const std::string& repro_flag,
                          const BackendInfo& b, BackendRun& r, bool tty) {
  const std::vector<size_t> todo = FailuresToShrink(cases.kernel, r);
  if (todo.empty() || !r.startup_error.empty()) return 0;
  std::unique_ptr<Backend> backend;
  if (ro.isolate) {
    backend = std::make_unique<IsolatedBackend>(b.name, b.factory, IsolationFor(ro));
  } else {
    absl::StatusOr<std::unique_ptr<Backend>> made = b.factory();
    if (!made.ok()) return 0;
    backend = *std::move(made);
  }
  ro.progress = nullptr;
  int64_t unsaved = 0;
  double left = f.shrink_total_seconds;
  size_t done = 0;
  for (size_t i : todo) {
    if (left <= 0) break;
    ++done;
    if (tty) std::fprintf(stderr, "\r  %s: shrinking %zu/%zu", b.name.c_str(), done, todo.size());
    CaseResult& res = r.results.Mutable(i);
    if (IsShapeLane(res.lane)) {  // a shape case: replayed, shrunk and saved the same way
      const ShapeShrinkInRun s = ShrinkShapeInRun(
          *backend, b.name, r.capabilities, ShapeCaseOf(r, cases.kernel, cases.shape, i), ro,
          std::max(0.0, std::min(f.shrink_seconds, left)), failures_dir,
          [&](const std::string& path) {
            return absl::StrCat("dmconf run ", repro_flag, " --vectors ", ShellQuote(path));
          },
          &res);
      left -= s.seconds;
      if (!s.saved) ++unsaved;
      continue;
    }
    // Replayed first: a failure whose replays disagree is flaky and is not shrunk (its saved
    // vector is written again, naming the verdict flaky).
    double replay_seconds = 0;
    const bool same = ConfirmFailure(*backend, b.name, r.capabilities, CaseOf(r, cases.kernel, i),
                                     ro, &res, &replay_seconds);
    left -= replay_seconds;
    if (!same) {
      if (!res.vector_file.empty()) {
        (void)SaveFailingCase(failures_dir, b.name, CaseOf(r, cases.kernel, i),
                              VerdictName(res.verdict), res.detail);
      }
      continue;
    }
    ShrinkOptions so;
    // The replay is part of the failure's budget: --shrink-seconds bounds both.
    so.budget_seconds = std::max(0.0, std::min(f.shrink_seconds - replay_seconds, left));
    const ShrunkCase s =
        ShrinkFailure(*backend, b.name, r.capabilities, CaseOf(r, cases.kernel, i), res, ro, so);
    left -= s.stats.seconds;
    if (s.stats.accepted == 0) continue;  // already minimal
    if (!RecordShrunk(s, failures_dir, repro_flag, b, res)) ++unsaved;
  }
  if (tty && done > 0) std::fprintf(stderr, "\n");
  if (done < todo.size()) {
    std::cerr << "  " << b.name << ": " << todo.size() - done
              << " failure(s) not shrunk: the shrink budget (--shrink-total-seconds "
              << f.shrink_total_seconds << ") ran out\n";
  }
  return unsaved;
}

}  // namespace dmconf
