#include "harness/session/run_session.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>

#include "absl/strings/str_cat.h"
#include "harness/backend/identity.h"
#include "harness/backends/registry/registry.h"
#include "harness/base/atomic_file.h"
#include "harness/base/output_lock.h"
#include "harness/base/output_paths.h"
#include "harness/isolation/worker.h"
#include "harness/report/html_report.h"
#include "harness/report/report.h"
#include "harness/report/source_map.h"
#include "harness/runner/expectations.h"
#include "harness/runner/expectations_update.h"
#include "harness/runner/summary.h"
#include "harness/runner/vector_cases.h"
#include "harness/shrink/replay.h"
#include "harness/shrink/shrink.h"

namespace dmconf {

namespace {

struct Selected {
  BackendInfo info;
  std::string repro_flag;  // "--backend name" or "--backend-lib path"
  bool plugin = false;     // a plugin path: checked to load before the run
  std::string library;     // its path, as given (the report's `library`)
};

// The new failing kernel cases of one backend run to shrink, in order: one failure of each kind
// (op, verdict, rule, diagnosed mistake) first, then the rest, so that a budget that runs out
// leaves repeats unshrunk rather than whole kinds. Not shrunk: cases that were never run
// (skipped after hangs or crashes), repeats of a hang or of an out_of_memory (each attempt
// waits the whole timeout or fills the worker's memory limit), and cases with more than
// kMaxShrinkDataBytes of data (their candidates would hold copies of it: `dmconf shrink` takes
// those one at a time).
std::vector<size_t> FailuresToShrink(const std::vector<PreparedCase>& cases, const BackendRun& r) {
  constexpr size_t kMaxShrinkDataBytes = size_t{16} << 20;
  std::vector<size_t> todo, repeats;
  std::set<std::string> kinds;
  for (size_t i = 0; i < r.results.size(); ++i) {
    const CaseResult& c = r.results[i];
    if (!c.failure || !c.lane.empty() || c.verdict == Verdict::kSkippedAfterHangs ||
        c.verdict == Verdict::kSkippedAfterCrashes ||
        CaseOf(r, cases, i).c.data.bytes.size() > kMaxShrinkDataBytes) {
      continue;
    }
    const std::string kind = FailureKind(c);
    if (kinds.insert(kind).second) {
      todo.push_back(i);
    } else if (c.verdict != Verdict::kHang && c.verdict != Verdict::kOutOfMemory) {
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
  CaseResult::Shrunk info;
  info.id = s.minimal.c.id;
  info.from_elements = s.stats.from_elements;
  info.to_elements = s.stats.to_elements;
  info.attempts = s.stats.attempts;
  info.seconds = s.stats.seconds;
  info.budget_exhausted = s.stats.budget_exhausted;
  info.diagnosis = s.result.diagnosis;
  info.source_map = SourceMapOf(s.minimal, s.result);
  absl::StatusOr<std::string> path = SaveFailingCase(
      failures_dir, b.name, s.minimal, VerdictName(s.result.verdict), s.result.detail);
  if (path.ok()) {
    info.vector_file = *path;
    info.repro = absl::StrCat("dmconf run ", repro_flag, " --vectors ", ShellQuote(*path));
  }
  res.shrunk = std::move(info);
  return path.ok();
}

// Shrinks the new failing kernel cases of one backend run (harness/shrink) through a fresh
// worker of the same backend, saves each minimal case beside the original and records it in
// the result. Each is replayed first (harness/shrink/replay.h): a failure whose replays
// disagree becomes flaky and is not shrunk. Returns how many minimal cases could not be saved.
int64_t ShrinkNewFailures(const std::vector<PreparedCase>& cases, const SessionOptions& f,
                          RunOptions ro, const std::string& failures_dir,
                          const std::string& repro_flag, const BackendInfo& b, BackendRun& r,
                          bool tty) {
  const std::vector<size_t> todo = FailuresToShrink(cases, r);
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
    CaseResult& res = r.results[i];
    // Replayed first: a failure whose replays disagree is flaky and is not shrunk (its saved
    // vector is written again, naming the verdict flaky).
    double replay_seconds = 0;
    const bool same = ConfirmFailure(*backend, b.name, r.capabilities, CaseOf(r, cases, i), ro,
                                     &res, &replay_seconds);
    left -= replay_seconds;
    if (!same) {
      if (!res.vector_file.empty()) {
        (void)SaveFailingCase(failures_dir, b.name, CaseOf(r, cases, i), VerdictName(res.verdict),
                              res.detail);
      }
      continue;
    }
    ShrinkOptions so;
    so.budget_seconds = std::max(0.0, std::min(f.shrink_seconds, left));
    const ShrunkCase s =
        ShrinkFailure(*backend, b.name, r.capabilities, CaseOf(r, cases, i), res, ro, so);
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

}  // namespace

namespace {

// Writes --report, --junit and --html as one set: under one lock on their folders
// (io::OutputLock), so concurrent runs on the same paths never leave a mix of their outputs.
// 0, or 2 when one could not be written (each error printed).
int WriteRunOutputs(const SessionOptions& f, const ReportInput& in, const std::string& command) {
  int status = 0;
  auto failed = [&](const absl::Status& s) {
    std::cerr << command << ": " << s.message() << "\n";
    status = 2;
  };
  for (const std::string* path : {&f.report, &f.junit, &f.html}) {
    if (path->empty()) continue;
    absl::Status s = io::CreateParentDirectories(*path);
    if (!s.ok()) failed(s);
  }
  if (status != 0) return status;
  absl::StatusOr<io::OutputLock> lock = io::OutputLock::Take({f.report, f.junit, f.html});
  if (!lock.ok()) {
    failed(lock.status());
    return status;
  }
  if (!f.report.empty()) {
    absl::Status s = WriteJsonReport(f.report, in);
    if (!s.ok()) {
      failed(s);
    } else {
      std::cout << "report: " << f.report << "\n";
    }
  }
  if (!f.junit.empty()) {
    absl::Status s = WriteJunit(f.junit, in);
    if (!s.ok()) {
      failed(s);
    } else {
      std::cout << "junit: " << f.junit << "\n";
    }
  }
  if (!f.html.empty()) {
    absl::Status s = io::WriteFileAtomically(f.html, HtmlReport(nlohmann::json(JsonReport(in))));
    if (!s.ok()) {
      failed(s);
    } else {
      std::cout << "html report: " << f.html << "\n";
    }
  }
  return status;
}

}  // namespace

int RunSession(const std::vector<PreparedCase>& cases, const SessionOptions& f,
               const std::string& command, std::vector<BackendRun>* runs_out) {
  // Backends.
  std::vector<Selected> backends;
  std::vector<std::pair<std::string, bool>> specs;  // spec, is a library path
  for (const std::string& b : f.backends) specs.push_back({b, false});
  for (const std::string& lib : f.backend_libs)
    specs.push_back({lib.find('/') == std::string::npos ? "./" + lib : lib, true});
  if (specs.empty()) {
    std::cerr << command << ": name a backend with --backend NAME or --backend-lib PATH\n";
    return 2;
  }
  for (const auto& [spec, is_lib] : specs) {
    absl::StatusOr<std::vector<BackendInfo>> b = ResolveBackends(spec);
    if (!b.ok()) {
      std::cerr << command << ": " << b.status().message() << "\n";
      return 2;
    }
    const bool path = is_lib || spec.find('/') != std::string::npos;
    for (BackendInfo& info : *b) {
      std::string flag = path ? absl::StrCat("--backend-lib ", ShellQuote(spec))
                              : absl::StrCat("--backend ", ShellQuote(info.name));
      backends.push_back({std::move(info), std::move(flag), path, path ? spec : ""});
    }
  }

  // Expectations.
  // Shared with the runs handed out (BackendRun::expectations): their results point into it.
  auto shared_expectations = std::make_shared<Expectations>();
  Expectations& expectations = *shared_expectations;
  std::vector<std::string> expectation_paths;  // --update-expectations FILE last, read once
  for (const std::string& path : f.expectations) {
    if (!f.update_expectations.empty() &&
        !io::CheckDistinctPaths({{"", path}}, {{"", f.update_expectations}}).ok()) {
      continue;
    }
    expectation_paths.push_back(path);
  }
  std::error_code no_throw;
  const bool update_exists =
      !f.update_expectations.empty() && std::filesystem::exists(f.update_expectations, no_throw);
  if (update_exists) expectation_paths.push_back(f.update_expectations);
  size_t update_begin = 0;  // the entries of --update-expectations FILE: [update_begin, end)
  for (const std::string& path : expectation_paths) {
    absl::StatusOr<Expectations> e = LoadExpectations(path);
    if (!e.ok()) {
      std::cerr << command << ": " << e.status().message() << "\n";
      return 2;
    }
    expectations.known.insert(expectations.known.end(), e->known.begin(), e->known.end());
    // Every file but the update file (read last) precedes its entries.
    if (!update_exists || &path != &expectation_paths.back()) {
      update_begin = expectations.known.size();
    }
  }
  if (!f.update_expectations.empty() && f.options.contains("shard")) {
    std::cerr << command
              << ": cli.update_expectations.shard: --update-expectations needs the whole run; "
                 "a shard sees only part of the cases an entry names (run it unsharded)\n";
    return 2;
  }

  // Output paths are checked before the run, so that a bad one (a device, a FIFO, a folder)
  // costs no run time and is never replaced.
  for (const std::string* out : {&f.report, &f.junit, &f.html, &f.update_expectations}) {
    if (out->empty()) continue;
    absl::Status s = io::CheckWriteTarget(*out);
    if (!s.ok()) {
      std::cerr << command << ": " << s.message() << "\n";
      return 2;
    }
  }

  std::vector<io::RolePath> inputs;
  for (const std::string& p : f.input_paths) inputs.push_back({"input", p});
  for (const std::string& p : expectation_paths) {
    if (p != f.update_expectations) inputs.push_back({"--expectations", p});
  }
  if (absl::Status s =
          io::CheckDistinctPaths(inputs, {{"--report", f.report},
                                          {"--junit", f.junit},
                                          {"--html", f.html},
                                          {"--update-expectations", f.update_expectations}});
      !s.ok()) {
    std::cerr << command << ": " << s.message() << "\n";
    return 2;
  }

  absl::StatusOr<int64_t> memory_limit = ParseMemoryLimit(f.memory_limit);
  if (!memory_limit.ok()) {
    std::cerr << command << ": " << memory_limit.status().message() << "\n";
    return 2;
  }

  RunOptions ro;
  ro.isolate = !f.no_isolation;
  ro.memory_limit_bytes = *memory_limit;
  ro.timeout_seconds = f.timeout;
  ro.max_consecutive_hangs = f.max_consecutive_hangs;
  ro.max_consecutive_crashes = f.max_consecutive_crashes;
  ro.strictness.nan_payload_strict = f.nan_payload != "lenient";
  ro.strictness.unsupported_fails = f.fail_unsupported;
  ro.strictness.strict_shapes = f.strict_shapes;
  ro.shape_cases = f.shape_cases.empty() ? nullptr : &f.shape_cases;
  ro.expectations = &expectations;
  ro.directed_count = f.directed_count;
  ro.directed_seed = f.directed_seed;
  ro.directed_filter = f.directed_filter;
  const bool tty = isatty(2) && !f.quiet;

  std::string failures_dir = f.failures_dir;
  if (failures_dir.empty()) {
    const size_t slash = f.report.rfind('/');
    failures_dir = f.report.empty()             ? "dmconf-failures"
                   : slash == std::string::npos ? "failures"
                                                : f.report.substr(0, slash) + "/failures";
  }
  // The failures folder is made only when a case fails, but whether it can be made is known
  // now: one error up front, not one per failing case after a long run.
  if (absl::Status s = io::CheckDirectoryTarget(failures_dir); !s.ok()) {
    std::cerr << command << ": --failures: " << s.message() << "\n";
    return 2;
  }
  // A plugin that cannot be loaded (a mistyped --backend-lib) ends the command here, before
  // any case runs or any file is written (built-in adapters that cannot start are reported
  // per backend, docs/backends.md).
  // A plugin goes by the name it declares (harness/backend/identity.h); registered backends
  // keep theirs, and no two backends of the run share one.
  std::set<std::string> taken;
  for (const Selected& s : backends) {
    if (!s.plugin) taken.insert(s.info.name);
  }
  for (Selected& s : backends) {
    if (!s.plugin) continue;
    std::string declared;
    if (absl::Status started = CheckBackendStarts(s.info.name, s.info.factory, ro, &declared);
        !started.ok()) {
      std::cerr << command << ": " << started.message() << "\n";
      return 2;
    }
    s.info.name = BackendIdentity(declared, s.info.name, &taken);
  }
  int64_t unsaved = 0;  // failing cases that could not be saved (the disk filled up, ...)

  std::vector<BackendRun> runs;
  std::vector<MutantExpectation> mutants;
  for (const Selected& s : backends) {
    const BackendInfo& b = s.info;
    if (tty) {
      ro.progress = [&b](size_t done, size_t total, const CaseResult&) {
        if (done % 16 == 0 || done == total) {
          std::fprintf(stderr, "\r  %s: %zu/%zu cases", b.name.c_str(), done, total);
          if (done == total) std::fprintf(stderr, "\n");
        }
      };
    }
    BackendRun r = RunBackend(b.name, b.factory, cases, ro);
    r.library = s.library;
    r.expectations = shared_expectations;
    for (size_t i = 0; i < r.results.size(); ++i) {
      CaseResult& res = r.results[i];
      if (!res.failure) continue;
      if (!res.lane.empty()) {
        const PreparedShapeCase& p = ShapeCaseOf(r, cases, f.shape_cases, i);
        absl::StatusOr<std::string> path =
            SaveFailingShapeCase(failures_dir, b.name, p, VerdictName(res.verdict), res.detail);
        if (path.ok()) {
          res.vector_file = *path;
          res.repro = absl::StrCat("dmconf run ", s.repro_flag, " --vectors ", ShellQuote(*path));
        } else {
          if (unsaved++ == 0) std::cerr << command << ": " << path.status().message() << "\n";
          res.repro = p.source_file.empty()
                          ? absl::StrCat("dmconf run ", s.repro_flag, " --case-id ",
                                         ShellQuote(res.id), f.shape_repro_args)
                          : absl::StrCat("dmconf run ", s.repro_flag, " --vectors ",
                                         ShellQuote(p.source_file));
        }
        continue;
      }
      const PreparedCase& p = CaseOf(r, cases, i);
      absl::StatusOr<std::string> path =
          SaveFailingCase(failures_dir, b.name, p, VerdictName(res.verdict), res.detail);
      if (path.ok()) {
        res.vector_file = *path;
        res.repro = absl::StrCat("dmconf run ", s.repro_flag, " --vectors ", ShellQuote(*path));
      } else {
        // The first error is shown; the rest are counted after the run.
        if (unsaved++ == 0) std::cerr << command << ": " << path.status().message() << "\n";
        res.repro = p.source_file.empty() ? absl::StrCat("dmconf run ", s.repro_flag, " --case-id ",
                                                         ShellQuote(res.id), f.catalogue_repro_args)
                                          : absl::StrCat("dmconf run ", s.repro_flag, " --vectors ",
                                                         ShellQuote(p.source_file));
      }
    }
    if (b.group == BackendGroup::kMutant) {
      mutants.push_back({b.name, b.description, b.expected_verdicts});
    } else if (!f.no_shrink) {
      unsaved += ShrinkNewFailures(cases, f, ro, failures_dir, s.repro_flag, b, r, tty);
    }
    runs.push_back(std::move(r));
  }

  if (unsaved > 1) {
    std::cerr << command << ": " << unsaved - 1
              << " more failing case(s) could not be saved either; their repro lines name "
                 "the case id or source file instead\n";
  }
  for (const FileError& e : f.file_errors) std::cerr << "ERROR " << e.message << "\n";
  SummaryOptions so;
  so.max_failures_listed = f.max_listed;
  so.file_errors = &f.file_errors;
  so.strict_coverage = f.strict_coverage;
  const std::vector<StaleExpectation> stale = StaleExpectations(expectations, runs);
  so.stale = &stale;
  so.strict_expectations = f.strict_expectations;
  // Mutants are expected to fail: their summary is the mutation score, not a failure list.
  if (!mutants.empty()) so.max_failures_listed = 0;

  ReportInput in;
  in.runs = &runs;
  in.mutants = mutants;
  in.file_errors = f.file_errors;
  in.stale = stale;
  nlohmann::ordered_json options = f.options;
  options["timeout_seconds"] = f.timeout;
  options["memory_limit_bytes"] = *memory_limit;
  options["max_consecutive_hangs"] = f.max_consecutive_hangs;
  options["max_consecutive_crashes"] = f.max_consecutive_crashes;
  options["isolation"] = !f.no_isolation;
  options["nan_payload"] = f.nan_payload;
  options["strict_coverage"] = f.strict_coverage;
  options["fail_unsupported"] = f.fail_unsupported;
  options["strict_shapes"] = f.strict_shapes;
  options["strict_expectations"] = f.strict_expectations;
  options["shrink"] = !f.no_shrink;
  options["shrink_seconds"] = f.shrink_seconds;
  options["shrink_total_seconds"] = f.shrink_total_seconds;
  in.options = std::move(options);
  in.run_info = DefaultRunInfo(command);
  // The one rule (run_verdict.h), as `dmconf report merge` applies it to the written report.
  const RunVerdict verdict = JudgeReportedRun(in);
  so.verdict = &verdict;
  std::cout << SummaryText(runs, so);
  int64_t killed = 0;
  for (const MutantExpectation& m : mutants) {
    for (const BackendRun& r : runs) {
      if (r.backend != m.backend) continue;
      MutantScore score = ScoreMutant(r, m);
      killed += score.right_class;
      if (!score.right_class) {
        std::string got;
        for (const auto& [v, n] : score.failing_verdicts)
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
  int status = WriteRunOutputs(f, in, command);
  if (!f.update_expectations.empty()) {
    std::vector<const KnownFailure*> file_entries;
    for (size_t i = update_begin; i < expectations.known.size(); ++i) {
      file_entries.push_back(&expectations.known[i]);
    }
    std::set<std::string> mutant_names;
    for (const MutantExpectation& m : mutants) mutant_names.insert(m.backend);
    absl::StatusOr<ExpectationsChange> change =
        UpdateExpectationsFile(f.update_expectations, file_entries, stale, runs, mutant_names);
    if (!change.ok()) {
      std::cerr << command << ": " << change.status().message() << "\n";
      status = 2;
    } else {
      std::cout << ExpectationsChangeText(f.update_expectations, *change);
    }
  }
  if (status == 0 && verdict.fails) status = 1;
  if (runs_out != nullptr) *runs_out = std::move(runs);
  return status;
}

}  // namespace dmconf
