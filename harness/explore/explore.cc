#include "harness/explore/explore.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "harness/gen/chooser.h"
#include "harness/gen/fills.h"
#include "harness/gen/generate.h"
#include "harness/runner/vector_cases.h"
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

ExploreResult Explore(Backend& backend, const std::string& name, const Capabilities& caps,
                      const ExploreOptions& o, const ExploreProgress& progress) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const auto elapsed = [&start] {
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  ExploreResult out;
  std::vector<GenerateOptions> slices;
  for (const OpSupport& s : caps.ops) {
    if (!s.element_types.empty()) slices.push_back(SliceOptions(s));
  }
  if (slices.empty()) return out;
  std::set<std::string> kinds;
  double next_progress = 1.0;
  for (uint64_t i = 0; elapsed() < o.seconds; ++i) {
    // Case i: a slice, then harness/gen's seeded driver; one valid case in four gets the
    // element type's special values.
    const uint64_t mix = MixSeed(o.seed, i);
    const GenerateOptions& g = slices[mix % slices.size()];
    GeneratedCase gc = SeededCase(o.seed, i, g);
    if (gc.lane == Lane::kValid && (mix >> 16) % 4 == 0) FillSpecial(gc.c.data, mix);
    if (gc.lane != Lane::kValid && !RunnableGeneratedCase(gc.c)) {
      ++out.skipped;
      continue;
    }
    gc.c.id = absl::StrCat("fuzz/", gc.c.id);
    std::vector<PreparedCase> p = PrepareCases({std::move(gc.c)});
    CaseResult r = RunCase(backend, name, caps, p[0], o.run);
    ++out.cases;
    if (r.verdict == Verdict::kUnsupported) ++out.unsupported;
    if (IsFailure(r.verdict, o.run.strictness)) {
      ++out.failing;
      const std::string kind = FailureKind(r);
      if (kinds.insert(kind).second) {
        Finding f;
        f.kind = kind;
        f.found_after_seconds = elapsed();
        absl::StatusOr<std::string> path =
            SaveFailingCase(o.failures_dir, name, p[0], VerdictName(r.verdict), r.detail);
        if (path.ok()) {
          f.vector_file = *path;
          f.repro = absl::StrCat("dmconf run ", o.repro_flag, " --vectors ", *path);
        }
        if (o.shrink) {
          ShrinkOptions so;
          so.budget_seconds = o.shrink_seconds;
          ShrunkCase s = ShrinkFailure(backend, name, caps, p[0], r, o.run, so);
          absl::StatusOr<std::string> min = SaveFailingCase(
              o.failures_dir, name, s.minimal, VerdictName(s.result.verdict), s.result.detail);
          if (min.ok()) {
            f.shrunk_file = *min;
            f.shrunk_repro = absl::StrCat("dmconf run ", o.repro_flag, " --vectors ", *min);
          }
          f.shrunk = std::move(s);
        }
        f.result = std::move(r);
        out.findings.push_back(std::move(f));
        if (o.max_findings > 0 && static_cast<int>(out.findings.size()) >= o.max_findings) {
          break;
        }
      }
    }
    if (progress && elapsed() >= next_progress) {
      out.seconds = elapsed();
      progress(out);
      next_progress = out.seconds + 1.0;
    }
  }
  out.seconds = elapsed();
  return out;
}

}  // namespace dmconf
