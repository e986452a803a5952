#include "harness/session/run_session.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <set>

#include "absl/strings/str_cat.h"
#include "harness/backend/identity.h"
#include "harness/backends/registry/registry.h"
#include "harness/base/files.h"
#include "harness/base/output_lock.h"
#include "harness/base/output_paths.h"
#include "harness/base/shown_text.h"
#include "harness/isolation/worker.h"
#include "harness/report/html_report.h"
#include "harness/report/report.h"
#include "harness/report/summary_text.h"
#include "harness/runner/expectations.h"
#include "harness/runner/expectations_update.h"
#include "harness/runner/vector_cases.h"
#include "harness/session/shrink_failures.h"

namespace dmconf {

namespace {

struct Selected {
  BackendInfo info;
  std::string repro_flag;  // "--backend name" or "--backend-lib path"
  bool plugin = false;     // a plugin path: checked to load before the run
  std::string library;     // its path, as given (the report's `library`)
  // Harness errors of its startup check that belong to no case (CheckBackendStarts).
  std::vector<std::string> start_errors;
};

// Removes the files of an output set this run did not write (SessionOptions::companion_paths:
// the set is written whole or not at all).
void RemoveUnwritten(const std::vector<std::string>& paths, const std::set<std::string>& written,
                     const std::string& command) {
  for (const std::string& p : paths) {
    if (p.empty() || written.count(p)) continue;
    if (absl::Status s = io::RemoveFileIfPresent(p); !s.ok()) {
      std::cerr << command << ": " << s.message() << "\n";
    }
  }
}

// Writes --report, --junit and --html as one set, then the companions: under one lock on their
// folders (io::OutputLock), so concurrent runs on the same paths never leave a mix of their
// outputs. 0, or 2 when one could not be written (each error printed).
int WriteRunOutputs(const SessionOptions& f, const ReportInput& in, const std::string& command) {
  int status = 0;
  auto failed = [&](const absl::Status& s) {
    std::cerr << command << ": " << s.message() << "\n";
    status = 2;
  };
  std::vector<std::string> set = {f.report, f.junit, f.html};
  set.insert(set.end(), f.companion_paths.begin(), f.companion_paths.end());
  const bool whole_set = !f.companion_paths.empty();
  for (const std::string& path : set) {
    if (path.empty()) continue;
    absl::Status s = io::CreateParentDirectories(path);
    if (!s.ok()) failed(s);
  }
  if (status != 0) {
    if (whole_set) RemoveUnwritten(set, {}, command);
    return status;
  }
  absl::StatusOr<io::OutputLock> lock = io::OutputLock::Take(set);
  if (!lock.ok()) {
    failed(lock.status());
    if (whole_set) RemoveUnwritten(set, {}, command);
    return status;
  }
  // The old companions go first: from here on they can only be this run's.
  RemoveUnwritten(f.companion_paths, {}, command);
  // Each output: its path, the word the summary prints, and its writer.
  const struct {
    const std::string& path;
    const char* label;
    std::function<absl::Status()> write;
  } outputs[] = {
      {f.report, "report", [&] { return WriteJsonReport(f.report, in); }},
      {f.junit, "junit", [&] { return WriteJunit(f.junit, in); }},
      {f.html, "html report",
       [&] {
         return io::WriteFileAtomically(f.html, HtmlReport(in, {.max_failures = f.html_max_failures,
                                                                .report_path = f.report}));
       }},
  };
  std::set<std::string> written;
  for (const auto& o : outputs) {
    if (o.path.empty()) continue;
    if (absl::Status s = o.write(); !s.ok()) {
      failed(s);
    } else {
      written.insert(o.path);
      std::cout << o.label << ": " << o.path << "\n";
    }
  }
  if (status == 0 && whole_set) {
    if (absl::Status s = f.write_companions(*in.runs); !s.ok()) failed(s);
  }
  if (status != 0 && whole_set) RemoveUnwritten(set, written, command);
  return status;
}

// The state a session carries from one phase to the next.
struct Session {
  Session(RunCases& c, const SessionOptions& o, const std::string& cmd)
      : cases(c), f(o), command(cmd) {}
  RunCases& cases;
  const SessionOptions& f;
  const std::string& command;
  std::vector<Selected> backends;
  // Shared with the runs handed out (BackendRun::expectations): their results point into it.
  std::shared_ptr<Expectations> expectations = std::make_shared<Expectations>();
  std::vector<std::string> expectation_paths;  // --update-expectations FILE last, read once
  size_t update_begin = 0;  // the entries of --update-expectations FILE: [update_begin, end)
  int64_t memory_limit = 0;
  RunOptions ro;
  bool tty = false;
  std::string failures_dir;
  int64_t unsaved = 0;  // failing cases that could not be saved (the disk filled up, ...)
  std::vector<BackendRun> runs;
  std::vector<MutantExpectation> mutants;
  std::vector<StaleExpectation> stale;
  std::vector<CaseTally> tallies;  // runs[k]'s figures, gathered once for every writer
  ReportInput report;
  RunVerdict verdict;
};

// Phase 1: --backend and --backend-lib resolved to backends, each with its repro flag.
absl::Status ResolveSessionBackends(Session& s) {
  const SessionOptions& f = s.f;
  struct Spec {
    std::string spec;
    bool is_lib;        // a --backend-lib path
    std::string given;  // the --backend-lib entry as given
  };
  std::vector<Spec> specs;
  for (const std::string& b : f.backends) specs.push_back({b, false, ""});
  for (const std::string& lib : f.backend_libs) specs.push_back({BackendLibSpec(lib), true, lib});
  if (specs.empty()) {
    return absl::InvalidArgumentError("name a backend with --backend NAME or --backend-lib PATH");
  }
  for (const auto& [spec, is_lib, given] : specs) {
    absl::StatusOr<std::vector<BackendInfo>> b = ResolveBackends(spec);
    if (!b.ok()) return b.status();
    const bool path = is_lib || spec.find('/') != std::string::npos;
    if (is_lib) {
      const auto pinned = f.backend_lib_factories.find(given);
      if (pinned != f.backend_lib_factories.end()) (*b)[0].factory = pinned->second;
    }
    for (BackendInfo& info : *b) {
      std::string flag = ReproFlag(info.name, spec, path);
      s.backends.push_back({std::move(info), std::move(flag), path, path ? spec : "", {}});
    }
  }
  // One library is one backend: given twice (p.so and sub/../p.so, a link, the example plugin
  // by its path beside --backend example), it would run twice under two names.
  std::vector<std::string> libraries;
  for (const Selected& b : s.backends) {
    if (!b.info.library.empty()) libraries.push_back(b.info.library);
  }
  return io::CheckInputsDistinct(libraries);
}

// Phase 2: the --expectations files read, and --update-expectations FILE last (once, when it
// is also an --expectations file).
absl::Status ReadSessionExpectations(Session& s) {
  const SessionOptions& f = s.f;
  for (const std::string& path : f.expectations) {
    if (!f.update_expectations.empty() &&
        !io::CheckDistinctPaths({{"", path}}, {{"", f.update_expectations}}).ok()) {
      continue;
    }
    s.expectation_paths.push_back(path);
  }
  std::error_code no_throw;
  const bool update_exists =
      !f.update_expectations.empty() && std::filesystem::exists(f.update_expectations, no_throw);
  if (update_exists) s.expectation_paths.push_back(f.update_expectations);
  Expectations& expectations = *s.expectations;
  for (const std::string& path : s.expectation_paths) {
    absl::StatusOr<Expectations> e = LoadExpectations(path);
    if (!e.ok()) return e.status();
    expectations.known.insert(expectations.known.end(), e->known.begin(), e->known.end());
    // Every file but the update file (read last) precedes its entries.
    if (!update_exists || &path != &s.expectation_paths.back()) {
      s.update_begin = expectations.known.size();
    }
  }
  if (!f.update_expectations.empty() && f.options.contains("shard")) {
    return absl::InvalidArgumentError(
        "cli.update_expectations.shard: --update-expectations needs the whole run; a shard sees "
        "only part of the cases an entry names (run it unsharded)");
  }
  return absl::OkStatus();
}

// Phase 3: output paths are checked before the run, so that a bad one (a device, a FIFO, a
// folder, an input of the run) costs no run time and is never replaced.
absl::Status CheckSessionOutputs(const Session& s) {
  const SessionOptions& f = s.f;
  std::vector<io::RolePath> outputs = {{"--report", f.report},
                                       {"--junit", f.junit},
                                       {"--html", f.html},
                                       {"--update-expectations", f.update_expectations}};
  for (const std::string& p : f.companion_paths) outputs.push_back({"output", p});
  for (const io::RolePath& out : outputs) {
    if (out.path.empty()) continue;
    if (absl::Status st = io::CheckWriteTarget(out.path); !st.ok()) return st;
  }
  std::vector<io::RolePath> inputs;
  for (const std::string& p : f.input_paths) inputs.push_back({"input", p});
  for (const std::string& p : s.expectation_paths) {
    if (p != f.update_expectations) inputs.push_back({"--expectations", p});
  }
  return io::CheckDistinctPaths(inputs, outputs);
}

// Phase 4: the options every case runs under, and the failures folder.
absl::Status SetSessionRunOptions(Session& s) {
  const SessionOptions& f = s.f;
  absl::StatusOr<int64_t> memory_limit = ParseMemoryLimit(f.memory_limit);
  if (!memory_limit.ok()) return memory_limit.status();
  s.memory_limit = *memory_limit;
  if (f.jobs > 1 && f.no_isolation) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cli.jobs.no_isolation: --jobs ", f.jobs,
        " runs workers side by side, and --no-isolation has none (a backend in this process "
        "need not be thread-safe); drop one of them"));
  }
  RunOptions& ro = s.ro;
  ro.isolate = !f.no_isolation;
  // Passing results spooled to a temporary file, not held (result_list.h): a run's memory
  // does not grow with them.
  ro.spool_results = true;
  ro.jobs = f.jobs;
  ro.memory_limit_bytes = *memory_limit;
  ro.timeout_seconds = f.timeout;
  ro.max_consecutive_hangs = f.max_consecutive_hangs;
  ro.max_consecutive_crashes = f.max_consecutive_crashes;
  ro.strictness.nan_payload_strict = f.nan_payload != "lenient";
  ro.strictness.unsupported_fails = f.fail_unsupported;
  ro.strictness.strict_shapes = f.strict_shapes;
  ro.shape_cases = s.cases.shape.empty() ? nullptr : &s.cases.shape;
  ro.expectations = s.expectations.get();
  ro.directed_count = f.directed_count;
  ro.directed_seed = f.directed_seed;
  ro.directed_filter = f.directed_filter;
  ro.hollow_data = f.hollow_data;
  ro.sweep_case = f.sweep_case;
  ro.shape_case = f.shape_case;
  s.tty = isatty(2) && !f.quiet;
  s.failures_dir = f.failures_dir;
  if (s.failures_dir.empty()) {
    const size_t slash = f.report.rfind('/');
    s.failures_dir = f.report.empty()             ? "dmconf-failures"
                     : slash == std::string::npos ? "failures"
                                                  : f.report.substr(0, slash) + "/failures";
  }
  // The failures folder is made only when a case fails, but whether it can be made is known
  // now: one error up front, not one per failing case after a long run.
  if (absl::Status st = io::CheckDirectoryTarget(s.failures_dir); !st.ok()) {
    return absl::Status(st.code(), absl::StrCat("--failures: ", st.message()));
  }
  return absl::OkStatus();
}

// Phase 5: a plugin that cannot be loaded (a mistyped --backend-lib) ends the command here,
// before any case runs or any file is written (built-in adapters that cannot start are
// reported per backend, docs/backends.md). A plugin goes by the name it declares
// (harness/backend/identity.h), never the name of one of dmconf's own backends
// (CheckPluginName); registered backends keep theirs, and no two backends of the run share one.
absl::Status StartSessionPlugins(Session& s) {
  std::set<std::string> taken;
  for (const Selected& b : s.backends) {
    if (!b.plugin) taken.insert(b.info.name);
  }
  for (Selected& b : s.backends) {
    if (!b.plugin) continue;
    std::string declared;
    if (absl::Status started =
            CheckBackendStarts(b.info.name, b.info.factory, s.ro, &declared, &b.start_errors);
        !started.ok()) {
      return started;
    }
    if (absl::Status named = CheckPluginName(b.info, declared); !named.ok()) return named;
    b.info.name = BackendIdentity(declared, b.info.name, &taken);
  }
  return absl::OkStatus();
}

// A failing case saved as a vector file (a shape case as a dmconf-shape-case/1 file), its
// repro line naming the file; when it cannot be saved, the repro names the case id or the
// source file instead, and the first such error is shown (the rest are counted after the run).
template <typename CaseT>
void SaveOneFailure(Session& s, const Selected& b, const CaseT& p, const std::string& repro_args,
                    absl::StatusOr<std::string> path, CaseResult& res) {
  const std::string run = absl::StrCat("dmconf run ", b.repro_flag);
  if (path.ok()) {
    res.vector_file = *path;
    res.repro = absl::StrCat(run, " --vectors ", ShellQuote(*path));
    return;
  }
  if (s.unsaved++ == 0) std::cerr << s.command << ": " << path.status().message() << "\n";
  res.repro = p.source_file.empty()
                  ? absl::StrCat(run, " --case-id ", ShellQuote(res.id), repro_args)
                  : absl::StrCat(run, " --vectors ", ShellQuote(p.source_file));
}

// Each failing case of one backend's run saved under the failures folder.
void SaveSessionFailures(Session& s, const Selected& b, BackendRun& r) {
  const std::string& name = b.info.name;
  for (size_t i = 0; i < r.results.size(); ++i) {
    const CaseResult* held = r.results.Held(i);  // a failing result is held
    if (held == nullptr || !held->failure) continue;
    CaseResult& res = r.results.Mutable(i);
    const std::string verdict(VerdictName(res.verdict));
    if (IsShapeLane(res.lane)) {
      const PreparedShapeCase& p = ShapeCaseOf(r, s.cases.kernel, s.cases.shape, i);
      SaveOneFailure(s, b, p, s.f.shape_repro_args,
                     SaveFailingShapeCase(s.failures_dir, name, p, verdict, res.detail), res);
      if (res.witness.has_value()) {
        absl::StatusOr<std::string> w = SaveWitnessCase(s.failures_dir, name, p, res);
        if (w.ok()) {
          res.witness->case_file = *w;
          res.witness->repro =
              absl::StrCat("dmconf run ", b.repro_flag, " --vectors ", ShellQuote(*w));
        } else if (s.unsaved++ == 0) {
          std::cerr << s.command << ": " << w.status().message() << "\n";
        }
      }
    } else {
      const PreparedCase& p = CaseOf(r, s.cases.kernel, i);
      SaveOneFailure(s, b, p, s.f.catalogue_repro_args,
                     SaveFailingCase(s.failures_dir, name, p, verdict, res.detail), res);
    }
  }
}

// Phase 6: every backend runs the cases (both lanes, isolated); its failures are saved, and
// then confirmed and shrunk (a mutant's are scored instead).
void RunSessionLanes(Session& s) {
  for (const Selected& sel : s.backends) {
    const BackendInfo& b = sel.info;
    if (s.tty) {
      s.ro.progress = [&b](size_t done, size_t total, const CaseResult&) {
        if (done % 16 == 0 || done == total) {
          std::fprintf(stderr, "\r  %s: %zu/%zu cases", b.name.c_str(), done, total);
          if (done == total) std::fprintf(stderr, "\n");
        }
      };
    }
    BackendRun r = RunBackend(b.name, b.factory, s.cases.kernel, s.ro);
    r.library = sel.library;
    r.worker_errors.insert(r.worker_errors.begin(), sel.start_errors.begin(),
                           sel.start_errors.end());
    r.expectations = s.expectations;
    MakeFailingCasesWhole(s.cases.kernel, r, s.ro, &s.cases.shape);
    SaveSessionFailures(s, sel, r);
    if (b.group == BackendGroup::kMutant) {
      s.mutants.push_back({b.name, b.description, b.expected_verdicts});
    } else if (!s.f.no_shrink) {
      s.unsaved +=
          ShrinkNewFailures(s.cases, s.f, s.ro, s.failures_dir, sel.repro_flag, b, r, s.tty);
    }
    s.runs.push_back(std::move(r));
  }
  if (s.unsaved > 1) {
    std::cerr << s.command << ": " << s.unsaved - 1
              << " more failing case(s) could not be saved either; their repro lines name "
                 "the case id or source file instead\n";
  }
}

// The report's options block: the command's own choices, then the session's.
nlohmann::ordered_json SessionOptionsJson(const Session& s) {
  const SessionOptions& f = s.f;
  nlohmann::ordered_json options = f.options;
  options["timeout_seconds"] = f.timeout;
  options["memory_limit_bytes"] = s.memory_limit;
  options["max_consecutive_hangs"] = f.max_consecutive_hangs;
  options["max_consecutive_crashes"] = f.max_consecutive_crashes;
  options["isolation"] = !f.no_isolation;
  options["nan_payload"] = f.nan_payload;
  options["strict_coverage"] = f.strict_coverage;
  options["fail_unsupported"] = f.fail_unsupported;
  options["strict_shapes"] = f.strict_shapes;
  options["strict_expectations"] = f.strict_expectations;
  options["require_cases"] = f.require_cases;
  options["shrink"] = !f.no_shrink;
  options["shrink_seconds"] = f.shrink_seconds;
  options["shrink_total_seconds"] = f.shrink_total_seconds;
  return options;
}

// "SURVIVED name (description): verdict=n ..." for each mutant not caught with its verdict
// class, then the mutation score.
void PrintMutationScore(const Session& s) {
  if (s.mutants.empty()) return;
  int64_t killed = 0;
  for (const MutantExpectation& m : s.mutants) {
    for (const BackendRun& r : s.runs) {
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
  std::cout << "mutation score: " << killed << "/" << s.mutants.size()
            << " mutants caught with the right verdict class\n";
}

// Phase 7: the run judged by the one rule (run_verdict.h, as `dmconf report merge` applies it
// to the written report), the summary and the mutation score printed.
void JudgeSession(Session& s) {
  const SessionOptions& f = s.f;
  for (const FileError& e : f.file_errors) std::cerr << "ERROR " << e.message << "\n";
  s.stale = StaleExpectations(*s.expectations, s.runs);
  s.report.runs = &s.runs;
  // One pass over each run's results for the verdict, the summary block and every writer,
  // instead of one per writer.
  s.tallies.clear();
  for (const BackendRun& r : s.runs) s.tallies.push_back(TallyOf(r, f.jobs));
  s.report.tallies = &s.tallies;
  s.report.threads = f.jobs;
  s.report.mutants = s.mutants;
  s.report.file_errors = f.file_errors;
  s.report.stale = s.stale;
  s.report.options = SessionOptionsJson(s);
  s.report.rules = {.strict_coverage = f.strict_coverage,
                    .strict_expectations = f.strict_expectations,
                    .require_cases = f.require_cases};
  s.report.run_info = DefaultRunInfo(s.command);
  s.verdict = JudgeReportedRun(s.report);
  SummaryOptions so;
  so.max_failures_listed = f.max_listed;
  so.file_errors = &f.file_errors;
  so.strict_coverage = f.strict_coverage;
  so.stale = &s.stale;
  so.strict_expectations = f.strict_expectations;
  // Mutants are expected to fail: their summary is the mutation score, not a failure list.
  if (!s.mutants.empty()) so.max_failures_listed = 0;
  so.verdict = &s.verdict;
  so.tallies = &s.tallies;
  WriteLines(std::cout, SummaryText(s.runs, so));
  PrintMutationScore(s);
}

// Phase 9: --update-expectations FILE rewritten from this run; 0, or 2 when it could not be.
int UpdateSessionExpectations(const Session& s) {
  const SessionOptions& f = s.f;
  if (f.update_expectations.empty()) return 0;
  std::vector<const KnownFailure*> file_entries;
  for (size_t i = s.update_begin; i < s.expectations->known.size(); ++i) {
    file_entries.push_back(&s.expectations->known[i]);
  }
  std::set<std::string> mutant_names;
  for (const MutantExpectation& m : s.mutants) mutant_names.insert(m.backend);
  absl::StatusOr<ExpectationsChange> change =
      UpdateExpectationsFile(f.update_expectations, file_entries, s.stale, s.runs, mutant_names);
  if (!change.ok()) {
    std::cerr << s.command << ": " << change.status().message() << "\n";
    return 2;
  }
  WriteLines(std::cout, ExpectationsChangeText(f.update_expectations, *change));
  return 0;
}

// Phases 1 to 5, which end the command (exit 2) before any case runs or any file is written.
absl::Status PrepareSession(Session& s) {
  absl::Status st = ResolveSessionBackends(s);
  if (st.ok()) st = ReadSessionExpectations(s);
  if (st.ok()) st = CheckSessionOutputs(s);
  if (st.ok()) st = SetSessionRunOptions(s);
  if (st.ok()) st = StartSessionPlugins(s);
  return st;
}

}  // namespace

int RunSession(RunCases& cases, const SessionOptions& f, const std::string& command,
               std::vector<BackendRun>* runs_out) {
  Session s(cases, f, command);
  if (absl::Status st = PrepareSession(s); !st.ok()) {
    std::cerr << command << ": " << st.message() << "\n";
    return 2;
  }
  RunSessionLanes(s);
  JudgeSession(s);
  int status = WriteRunOutputs(f, s.report, command);  // phase 8
  if (UpdateSessionExpectations(s) != 0) status = 2;
  if (status == 0 && s.verdict.fails) status = 1;
  if (runs_out != nullptr) *runs_out = std::move(s.runs);
  return status;
}

}  // namespace dmconf
