// dmconf fuzz --backend NAME | --backend-lib PATH --time SECONDS: generator-driven random
// testing of one backend through an isolated worker, without libFuzzer (harness/explore).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/backends/registry/registry.h"
#include "harness/base/files.h"
#include "harness/cli/commands.h"
#include "harness/cli/option_checks.h"
#include "harness/cli/pipeline_options.h"
#include "harness/explore/explore.h"
#include "harness/explore/explore_shapes.h"
#include "harness/isolation/worker.h"
#include "harness/session/backend_choice.h"

namespace dmconf::cli {
namespace {

struct FuzzFlags {
  std::string memory_limit = "auto";
  std::string backend, backend_lib, failures = "dmconf-fuzz-findings";
  double time = 60, timeout = 2, shrink_seconds = 10;
  uint64_t seed = 1;
  int max_findings = 0;
  bool no_shrink = false, quiet = false;
};

void PrintFinding(const Finding& f) {
  std::cout << "FINDING " << VerdictName(f.result.verdict)
            << (IsShapeLane(f.result.lane) ? absl::StrCat(" (", CaseLaneName(f.result.lane), ")")
                                           : "")
            << " " << f.result.id << " (after " << absl::StrFormat("%.1f", f.found_after_seconds)
            << " s)\n"
            << "     " << f.result.detail << "\n";
  if (f.result.diagnosis) std::cout << "     diagnosis: " << f.result.diagnosis->summary << "\n";
  if (!f.repro.empty()) std::cout << "     repro: " << f.repro << "\n";
  if (f.result.witness) {
    std::cout << "     witness: " << f.result.witness->instance << "\n";
    if (!f.result.witness->repro.empty()) {
      std::cout << "     witness repro: " << f.result.witness->repro << "\n";
    }
  }
  if (f.shrunk && !f.shrunk_repro.empty()) {
    CaseResult::Shrunk info;
    info.from_elements = f.shrunk->stats.from_elements;
    info.to_elements = f.shrunk->stats.to_elements;
    info.thresholds = f.shrunk->thresholds;
    std::cout << "     shrunk: " << ShrunkText(info) << ", same verdict; repro: " << f.shrunk_repro
              << "\n";
  }
  if (f.shrunk_shape && !f.shrunk_repro.empty()) {
    std::cout << "     shrunk: " << ShrunkText(ShrunkShapeInfo(*f.shrunk_shape))
              << ", same verdict; repro: " << f.shrunk_repro << "\n";
  }
}

// "kernel lane: 1200 cases in 30.0 s (40/s, 3 unsupported), 0 failing".
void PrintLane(const char* name, bool has, const LaneStats& l) {
  if (!has) {
    std::cout << name << " lane: not provided by the backend\n";
    return;
  }
  std::cout << absl::StrFormat(
      "%s lane: %lld cases in %.1f s (%.0f/s, %lld unsupported), %lld "
      "failing\n",
      name, static_cast<long long>(l.cases), l.seconds, l.cases / std::max(l.seconds, 1e-9),
      static_cast<long long>(l.unsupported), static_cast<long long>(l.failing));
}

// Whether the backend declares anything to fuzz: an op with an element type (kernel lane) or
// shape inference (shape lane).
bool SomethingToFuzz(const Capabilities& caps) {
  return !ShapeLaneSlices(caps).empty() ||
         (caps.kernels && std::any_of(caps.ops.begin(), caps.ops.end(),
                                      [](const OpSupport& s) { return !s.element_types.empty(); }));
}

// The explorer's options from the flags.
ExploreOptions ExploreOptionsOf(const FuzzFlags& f, const RunOptions& ro, std::string repro_flag) {
  ExploreOptions o;
  o.seconds = f.time;
  o.seed = f.seed;
  o.failures_dir = f.failures;
  o.repro_flag = std::move(repro_flag);
  o.shrink = !f.no_shrink;
  o.shrink_seconds = f.shrink_seconds;
  o.max_findings = f.max_findings;
  o.run = ro;
  return o;
}

// The findings as they come, each once, and a progress line on a terminal; after the run, the
// throughput of each lane and the totals.
ExploreResult ExploreAndPrint(Backend& backend, const std::string& name, const Capabilities& caps,
                              const ExploreOptions& o, bool tty) {
  size_t printed = 0;
  const ExploreResult r = Explore(backend, name, caps, o, [&](const ExploreResult& now) {
    if (tty) std::fprintf(stderr, "\r\033[K");
    for (; printed < now.findings.size(); ++printed) {
      PrintFinding(now.findings[printed]);
    }
    if (tty) {
      std::fprintf(stderr,
                   "  %.0f s: %lld cases (%.0f/s), %zu "
                   "finding(s)",
                   now.seconds, static_cast<long long>(now.cases),
                   now.cases / std::max(now.seconds, 1e-9), now.findings.size());
    }
  });
  if (tty) std::fprintf(stderr, "\r\033[K");
  for (; printed < r.findings.size(); ++printed) PrintFinding(r.findings[printed]);
  for (const std::string& e : r.worker_errors) std::cout << "ERROR (no case's) " << e << "\n";
  PrintLane("kernel", r.kernel_lane, r.kernel);
  PrintLane("shape", r.shape_lane, r.shape);
  std::cout << absl::StrFormat(
      "%lld cases in %.1f s (%.0f/s, %lld unsupported), %lld failing, %zu finding(s)\n",
      static_cast<long long>(r.cases), r.seconds, r.cases / std::max(r.seconds, 1e-9),
      static_cast<long long>(r.unsupported), static_cast<long long>(r.failing), r.findings.size());
  return r;
}

int Fuzz(const FuzzFlags& f) {
  absl::StatusOr<std::string> spec = OneBackendSpec(f.backend, f.backend_lib);
  absl::StatusOr<BackendInfo> b = spec.ok() ? ResolveOneBackend(*spec) : spec.status();
  if (!b.ok()) {
    std::cerr << "dmconf fuzz: " << b.status().message() << "\n";
    return 2;
  }
  if (absl::Status s = io::CheckDirectoryTarget(f.failures); !s.ok()) {
    std::cerr << "dmconf fuzz: --failures: " << s.message() << "\n";
    return 2;
  }
  absl::StatusOr<RunOptions> ro = StartOneBackend(*b, f.memory_limit, f.timeout);
  if (!ro.ok()) {
    std::cerr << "dmconf fuzz: " << ro.status().message() << "\n";
    return 2;
  }
  IsolatedBackend backend(b->name, b->factory, IsolationFor(*ro));
  const ExploreOptions o = ExploreOptionsOf(f, *ro, ReproFlag(b->name, *spec, f.backend.empty()));
  const Capabilities caps = backend.GetCapabilities();
  if (!SomethingToFuzz(caps)) {
    std::cerr << "dmconf fuzz: " << b->name
              << " declares no op with an element type and no shape inference: nothing to "
                 "fuzz\n";
    return 2;
  }
  std::cout << "dmconf fuzz: " << b->name << ", seed " << f.seed << ", " << f.time
            << " s; findings saved under " << f.failures << "\n";
  const ExploreResult r = ExploreAndPrint(backend, b->name, caps, o, isatty(2) && !f.quiet);
  return r.findings.empty() && r.worker_errors.empty() ? 0 : 1;
}
}  // namespace

void RegisterFuzz(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<FuzzFlags>();
  CLI::App* cmd = app.add_subcommand(
      "fuzz",
      "Random testing of one backend without libFuzzer (any compiler): cases from the case\n"
      "generators' seeded driver, every lane (valid cases inside the backend's declared\n"
      "slices, one-rule-broken cases, overflow cases near 2^63, special values), each run\n"
      "through an isolated worker and judged bit-exactly against the oracle, until --time\n"
      "runs out. Each failure of a new kind (op, verdict, rule, diagnosis) is a finding:\n"
      "saved under --failures, shrunk to a minimal case of the same verdict class (saved as\n"
      "<id>.min.json) and printed with both repro lines. A backend that declares\n"
      "infer_static / infer_partial also gets the shape-inference lane, judged as `dmconf run`\n"
      "judges it; its findings are saved and shrunk as dmconf-shape-case/1 files. The lanes\n"
      "share the time; the throughput of each is printed. Progress on a terminal.\n"
      "Examples:\n"
      "  dmconf fuzz --backend-lib ./libmine.so --time 600\n"
      "  dmconf fuzz --backend xnnpack --time 60 --seed 7 --failures /tmp/xnn\n"
      "Exit status: 0 no finding, 1 a finding (or a worker error that belongs to no case:\n"
      "the worker wrote on its reply pipe with nothing asked, or stopped or died between two\n"
      "cases), 2 usage error or nothing to fuzz (no op with an element type and no shape\n"
      "inference).");
  cmd->add_option("--backend", f->backend, "built-in backend name (`dmconf backends`)");
  cmd->add_option("--backend-lib", f->backend_lib, "path to a plugin shared library (C ABI)");
  cmd->add_option("--time", f->time, "seconds to run")
      ->check(SecondsIn(kMaxTimeoutSeconds))
      ->capture_default_str();
  cmd->add_option("--seed", f->seed, "seed of the case generators")
      ->check(Unsigned64())
      ->capture_default_str();
  AddMemoryLimitOption(cmd, &f->memory_limit);
  cmd->add_option("--timeout", f->timeout,
                  "per-case timeout in seconds, from the case's request (a worker's start, a "
                  "plugin's load, has 60 s of its own)")
      ->check(SecondsIn(kMaxTimeoutSeconds))
      ->capture_default_str();
  cmd->add_option("--failures", f->failures, "folder for the findings' vector files")
      ->check(NonEmptyPath())
      ->capture_default_str();
  cmd->add_flag("--no-shrink", f->no_shrink, "do not shrink findings");
  cmd->add_option("--shrink-seconds", f->shrink_seconds, "time budget for shrinking one finding")
      ->check(SecondsIn(kMaxTimeoutSeconds))
      ->capture_default_str();
  cmd->add_option("--max-findings", f->max_findings,
                  "stop after this many findings (0: run the whole --time)")
      ->check(IntegerIn(0, INT32_MAX))
      ->capture_default_str();
  cmd->add_flag("--quiet", f->quiet, "no progress display");
  cmd->callback([f, exit_code] { *exit_code = Fuzz(*f); });
}

}  // namespace dmconf::cli
