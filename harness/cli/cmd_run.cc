// dmconf run: runs the built-in case catalogue against one or more backends, compares each
// outcome bit-exactly with the oracle, prints a summary and writes the reports.
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "harness/backends/registry/registry.h"
#include "harness/cli/commands.h"
#include "harness/report/report.h"
#include "harness/runner/catalogue.h"
#include "harness/runner/expectations.h"
#include "harness/runner/runner.h"
#include "harness/runner/summary.h"
#include "harness/util/failure_file.h"

namespace dmconf::cli {
namespace {

struct RunFlags {
  std::vector<std::string> backends;
  std::vector<std::string> backend_libs;
  std::string ops, types;
  uint64_t seed = 1;
  int count = 400;
  std::string vectors;
  std::vector<std::string> expectations;
  std::string report, junit;
  double timeout = 10.0;
  std::vector<std::string> case_ids;
  std::string failures_dir;
  bool no_isolation = false;
  std::string nan_payload = "strict";
  bool quiet = false;
  int max_listed = 30;
};

std::string Quote(const std::string& s) {
  if (s.find_first_of(" '\"$*?[]()&;|<>\\") == std::string::npos) return s;
  std::string out = "'";
  for (char ch : s) {
    if (ch == '\'') {
      out += "'\\''";
    } else {
      out += ch;
    }
  }
  return out + "'";
}

int Run(const RunFlags& f) {
  // Cases.
  CatalogueOptions co;
  co.seed = f.seed;
  co.sweep_count = f.count;
  for (absl::string_view name : absl::StrSplit(f.ops, ',', absl::SkipEmpty())) {
    absl::StatusOr<Op> op = ParseOp(name);
    if (!op.ok()) {
      std::cerr << "dmconf run: " << op.status().message() << "\n";
      return 2;
    }
    co.ops.push_back(*op);
  }
  for (absl::string_view name : absl::StrSplit(f.types, ',', absl::SkipEmpty())) {
    absl::StatusOr<ElementType> t = ParseElementType(name);
    if (!t.ok()) {
      std::cerr << "dmconf run: " << t.status().message() << "\n";
      return 2;
    }
    co.types.push_back(*t);
  }
  if (!f.vectors.empty()) {
    std::cerr << "dmconf run: --vectors is not available in this build (no vector reader)\n";
    return 2;
  }
  std::vector<OpCase> catalogue = BuildCatalogue(co);
  if (!f.case_ids.empty()) {
    std::vector<OpCase> kept;
    for (OpCase& c : catalogue) {
      for (const std::string& pattern : f.case_ids) {
        if (GlobMatch(pattern, c.id)) {
          kept.push_back(std::move(c));
          break;
        }
      }
    }
    catalogue = std::move(kept);
    if (catalogue.empty()) {
      std::cerr << "dmconf run: no case matches --case-id (ids depend on --seed and --count)\n";
      return 2;
    }
  }
  const std::vector<PreparedCase> cases = PrepareCases(std::move(catalogue));

  // Backends.
  std::vector<BackendInfo> backends;
  std::vector<std::string> specs = f.backends;
  for (const std::string& lib : f.backend_libs)
    specs.push_back(lib.find('/') == std::string::npos ? "./" + lib : lib);
  if (specs.empty()) {
    std::cerr << "dmconf run: name a backend with --backend NAME or --backend-lib PATH\n";
    return 2;
  }
  for (const std::string& s : specs) {
    absl::StatusOr<std::vector<BackendInfo>> b = ResolveBackends(s);
    if (!b.ok()) {
      std::cerr << "dmconf run: " << b.status().message() << "\n";
      return 2;
    }
    backends.insert(backends.end(), b->begin(), b->end());
  }

  // Expectations.
  Expectations expectations;
  for (const std::string& path : f.expectations) {
    absl::StatusOr<Expectations> e = LoadExpectations(path);
    if (!e.ok()) {
      std::cerr << "dmconf run: " << e.status().message() << "\n";
      return 2;
    }
    expectations.known.insert(expectations.known.end(), e->known.begin(), e->known.end());
  }

  RunOptions ro;
  ro.isolate = !f.no_isolation;
  ro.timeout_seconds = f.timeout;
  ro.strictness.nan_payload_strict = f.nan_payload != "lenient";
  ro.expectations = &expectations;
  ro.silence_worker_output = false;
  const bool tty = isatty(2) && !f.quiet;

  std::string failures_dir = f.failures_dir;
  if (failures_dir.empty()) {
    const size_t slash = f.report.rfind('/');
    failures_dir = f.report.empty()             ? "dmconf-failures"
                   : slash == std::string::npos ? "failures"
                                                : f.report.substr(0, slash) + "/failures";
  }

  std::vector<BackendRun> runs;
  std::vector<MutantExpectation> mutants;
  for (const BackendInfo& b : backends) {
    if (tty) {
      ro.progress = [&b](size_t done, size_t total, const CaseResult&) {
        if (done % 16 == 0 || done == total) {
          std::fprintf(stderr, "\r  %s: %zu/%zu cases", b.name.c_str(), done, total);
          if (done == total) std::fprintf(stderr, "\n");
        }
      };
    }
    BackendRun r = RunBackend(b.name, b.factory, cases, ro);
    for (size_t i = 0; i < r.results.size(); ++i) {
      CaseResult& res = r.results[i];
      if (!res.failure) continue;
      res.repro = absl::StrCat("dmconf run --backend ", Quote(b.name), " --case-id ", Quote(res.id),
                               " --seed ", f.seed, " --count ", f.count);
      absl::StatusOr<std::string> path = util::SaveFailure(
          failures_dir, b.name, cases[i].c, std::string(VerdictName(res.verdict)), res.detail);
      if (path.ok()) {
        res.vector_file = *path;
      } else {
        std::cerr << "dmconf run: " << path.status().message() << "\n";
      }
    }
    if (b.group == BackendGroup::kMutant) {
      mutants.push_back({b.name, b.description, b.expected_verdicts});
    }
    runs.push_back(std::move(r));
  }

  SummaryOptions so;
  so.max_failures_listed = f.max_listed;
  // Mutants are expected to fail: their summary is the mutation score, not a failure list.
  if (!mutants.empty()) so.max_failures_listed = 0;
  std::cout << SummaryText(runs, so);

  ReportInput in;
  in.runs = &runs;
  in.mutants = mutants;
  in.options = nlohmann::ordered_json{{"seed", f.seed},
                                      {"count", f.count},
                                      {"ops", f.ops},
                                      {"types", f.types},
                                      {"timeout_seconds", f.timeout},
                                      {"isolation", !f.no_isolation},
                                      {"nan_payload", f.nan_payload},
                                      {"case_ids", f.case_ids}};
  in.run_info = DefaultRunInfo("dmconf run");
  int64_t killed = 0;
  for (const MutantExpectation& m : mutants) {
    for (const BackendRun& r : runs) {
      if (r.backend != m.backend) continue;
      MutantScore s = ScoreMutant(r, m);
      killed += s.right_class;
      if (!s.right_class) {
        std::string got;
        for (const auto& [v, n] : s.failing_verdicts)
          absl::StrAppend(&got, " ", VerdictName(v), "=", n);
        std::cout << "SURVIVED " << m.backend << " (" << m.description
                  << "):" << (got.empty() ? " no failure" : got) << "\n";
      }
    }
  }
  if (!mutants.empty()) {
    std::cout << "mutation score: " << killed << "/" << mutants.size()
              << " mutants caught with the right verdict class\n";
  }
  int status = 0;
  if (!f.report.empty()) {
    absl::Status s = WriteJsonReport(f.report, in);
    if (!s.ok()) {
      std::cerr << "dmconf run: " << s.message() << "\n";
      status = 2;
    } else {
      std::cout << "report: " << f.report << "\n";
    }
  }
  if (!f.junit.empty()) {
    absl::Status s = WriteJunit(f.junit, in);
    if (!s.ok()) {
      std::cerr << "dmconf run: " << s.message() << "\n";
      status = 2;
    } else {
      std::cout << "junit: " << f.junit << "\n";
    }
  }
  if (status != 0) return status;
  // Mutants must fail (and be caught with the right class); every other backend must not.
  if (killed != static_cast<int64_t>(mutants.size())) return 1;
  for (size_t i = 0; i < runs.size(); ++i) {
    if (backends[i].group == BackendGroup::kMutant) continue;
    for (const CaseResult& c : runs[i].results) {
      if (c.failure) return 1;
    }
  }
  return 0;
}

}  // namespace

void RegisterRun(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<RunFlags>();
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Run the built-in case catalogue (spec examples, every rule's negative case and its valid\n"
      "twin, edge cases, a seeded sweep) against backends and compare bit-exactly with the\n"
      "oracle. Each backend runs in a worker process: crashes and hangs become verdicts.\n"
      "Example: dmconf run --backend all --report reports/out/report.json\n"
      "Exit status: 0 no new failure, 1 new failures (not in --expectations), 2 usage error.\n"
      "With mutant backends (--backend mutants), every mutant must also be caught with its\n"
      "verdict class.");
  cmd->add_option("--backend", f->backends,
                  "backend name, comma list, `all` (every built-in backend), `mutants`, or a "
                  "plugin path; repeatable");
  cmd->add_option("--backend-lib", f->backend_libs, "path to a plugin shared library (C ABI)");
  cmd->add_option("--ops", f->ops, "comma-separated ops to run (default: all)");
  cmd->add_option("--types", f->types, "comma-separated data element types (default: all)");
  cmd->add_option("--seed", f->seed, "seed of the sweep")->capture_default_str();
  cmd->add_option("--count", f->count, "number of sweep cases")->capture_default_str();
  cmd->add_option("--vectors", f->vectors, "also run every vector file under DIR");
  cmd->add_option("--expectations", f->expectations,
                  "known-failure file (dmconf-expectations/1); repeatable");
  cmd->add_option("--report", f->report, "write the JSON report (dmconf-report/1) here");
  cmd->add_option("--junit", f->junit, "write JUnit XML here");
  cmd->add_option("--timeout", f->timeout, "per-case timeout in seconds")->capture_default_str();
  cmd->add_option("--case-id", f->case_ids,
                  "run only cases whose id matches (glob '*'); repeatable");
  cmd->add_option("--failures", f->failures_dir,
                  "directory for failing cases (default: failures/ beside the report)");
  cmd->add_flag("--no-isolation", f->no_isolation,
                "run backends in this process (debugging only: a crash or hang ends the run)");
  cmd->add_option("--nan-payload", f->nan_payload,
                  "strict: a changed NaN payload fails; lenient: it is accepted")
      ->check(CLI::IsMember({"strict", "lenient"}))
      ->capture_default_str();
  cmd->add_flag("--quiet", f->quiet, "no progress display");
  cmd->add_option("--max-listed", f->max_listed, "failures listed per backend in the summary");
  cmd->callback([f, exit_code] { *exit_code = Run(*f); });
}

}  // namespace dmconf::cli
