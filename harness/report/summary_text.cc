#include "harness/report/summary_text.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "harness/base/shown_text.h"
#include "harness/runner/case_tally.h"
#include "harness/runner/run_verdict.h"

namespace dmconf {
namespace {

std::string Cell(absl::string_view s, size_t width) {
  std::string out(s);
  if (out.size() < width) out.insert(0, width - out.size(), ' ');
  return out;
}

std::string Left(absl::string_view s, size_t width) {
  std::string out(s);
  if (out.size() < width) out.append(width - out.size(), ' ');
  return out;
}

// A run and its figures (case_tally.h).
struct Tallied {
  const BackendRun* run;
  const CaseTally* tally;
};

// The verdicts that occur in any of the runs, in the canonical order.
std::vector<Verdict> Columns(const std::vector<Tallied>& runs) {
  std::set<Verdict> seen;
  for (const Tallied& r : runs) {
    for (const auto& [op, row] : CountByOpVerdict(*r.tally)) {
      for (const auto& [v, n] : row) seen.insert(v);
    }
  }
  std::vector<Verdict> cols;
  for (Verdict v : AllVerdicts()) {
    if (seen.count(v)) cols.push_back(v);
  }
  return cols;
}

std::string VerdictTable(const std::vector<Tallied>& runs, bool with_backend) {
  const std::vector<Verdict> cols = Columns(runs);
  size_t label = 20;
  for (const Tallied& r : runs) {
    if (with_backend) label = std::max(label, r.run->backend.size() + 22);
  }
  std::string out = Left(with_backend ? "backend / op" : "op", label);
  for (Verdict v : cols)
    absl::StrAppend(&out, " ", Cell(VerdictName(v), std::max<size_t>(6, VerdictName(v).size())));
  absl::StrAppend(&out, "\n");
  for (const Tallied& r : runs) {
    std::map<Op, std::map<Verdict, int64_t>> counts = CountByOpVerdict(*r.tally);
    for (const auto& [op, row] : counts) {
      const std::string name = with_backend ? absl::StrCat(OneLine(r.run->backend), " ", OpName(op))
                                            : std::string(OpName(op));
      absl::StrAppend(&out, Left(name, label));
      for (Verdict v : cols) {
        auto it = row.find(v);
        absl::StrAppend(&out, " ",
                        Cell(it == row.end() ? "." : absl::StrCat(it->second),
                             std::max<size_t>(6, VerdictName(v).size())));
      }
      absl::StrAppend(&out, "\n");
    }
  }
  return out;
}

std::string TypeTable(const CaseTally& tally) {
  // cell: passed / run, where "run" excludes unsupported and "passed" is any non-failure.
  std::map<Op, std::map<ElementType, std::pair<int64_t, int64_t>>> t;
  std::set<ElementType> types;
  for (const auto& [op, by_type] : tally.counts) {
    for (const auto& [type, by_verdict] : by_type) {
      for (const auto& [v, n] : by_verdict) {
        if (v == Verdict::kUnsupported) continue;
        auto& cell = t[op][type];
        cell.second += n;
        if (!IsFailure(v, {})) cell.first += n;
        types.insert(type);
      }
    }
  }
  std::string out = Left("op \\ type (ok/run)", 20);
  for (ElementType ty : types) absl::StrAppend(&out, " ", Cell(ElementTypeName(ty), 7));
  absl::StrAppend(&out, "\n");
  for (const auto& [op, row] : t) {
    absl::StrAppend(&out, Left(OpName(op), 20));
    for (ElementType ty : types) {
      auto it = row.find(ty);
      absl::StrAppend(
          &out, " ",
          Cell(it == row.end() ? "." : absl::StrCat(it->second.first, "/", it->second.second), 7));
    }
    absl::StrAppend(&out, "\n");
  }
  return out;
}

}  // namespace

std::map<Op, std::map<Verdict, int64_t>> CountByOpVerdict(const CaseTally& t) {
  std::map<Op, std::map<Verdict, int64_t>> m;
  for (const auto& [op, by_type] : t.counts) {
    for (const auto& [type, by_verdict] : by_type) {
      for (const auto& [v, n] : by_verdict) m[op][v] += n;
    }
  }
  return m;
}

namespace {

std::string SliceLines(const BackendRun& r) {
  if (r.slices.empty() || !r.startup_error.empty()) return "";
  std::string out = "declared slices (cases run / in the run):\n";
  for (const SliceCoverage& s : r.slices) {
    absl::StrAppend(&out, "   ", OneLine(SliceLabel(s.slice)), ": ", s.ran, "/", s.in_slice,
                    s.unsupported > 0 ? absl::StrCat(" (", s.unsupported, " unsupported)") : "",
                    s.Unexercised() ? "  WARNING: no case of this declared slice ran" : "", "\n");
  }
  return out;
}

}  // namespace

namespace {

// "   shape inference: 612 cases (static 200, partial 412): pass 600, loose_shape 12" for a
// backend with a shape-inference lane; "" otherwise.
std::string ShapeLaneLine(const CaseTally& t) {
  int64_t statics = 0, partials = 0;
  std::map<Verdict, int64_t> by_verdict;
  for (const auto& [lane, counts] : t.shape_lanes) {
    for (const auto& [v, n] : counts) {
      (lane == CaseLane::kShapeStatic ? statics : partials) += n;
      by_verdict[v] += n;
    }
  }
  if (statics + partials == 0) return "";
  std::string out = absl::StrCat("   shape inference: ", statics + partials, " cases (static ",
                                 statics, ", partial ", partials, "):");
  const char* sep = " ";
  for (const auto& [v, n] : by_verdict) {
    absl::StrAppend(&out, sep, VerdictName(v), " ", n);
    sep = ", ";
  }
  if (by_verdict.count(Verdict::kLooseShape)) {
    absl::StrAppend(&out,
                    " (loose_shape: sound but wider than the oracle; --strict-shapes makes it "
                    "a failure)");
  }
  if (by_verdict.count(Verdict::kUndecidedShape)) {
    absl::StrAppend(&out,
                    " (undecided_shape: the oracle's bound suspects the answer, but no accepted "
                    "instance outside it was found; no failure without one)");
  }
  return out + "\n";
}

// What the closing line counts besides the verdict's own figures.
struct Tally {
  int64_t known, unsupported, bad_files, unexercised, stale;
};

// "OK: 0 new failure(s), 2 known failure(s), ..." or "FAILED: ...", by the one rule of
// run_verdict.h (o.verdict, else judged here without mutants).
std::string ClosingLine(const std::vector<BackendRun>& runs, const SummaryOptions& o,
                        const Tally& t) {
  RunVerdict own;
  if (o.verdict == nullptr) {
    RunFacts facts;
    facts.runs = &runs;
    facts.file_errors = t.bad_files;
    facts.stale_expectations = t.stale;
    own = JudgeRun(facts, {o.strict_coverage, o.strict_expectations});
  }
  const RunVerdict& verdict = o.verdict != nullptr ? *o.verdict : own;
  // No bare "OK" when some kernels were never tested.
  const std::string not_provided =
      verdict.kernels_not_provided.empty()
          ? ""
          : absl::StrCat(" (shape inference only; kernel lane not provided by ",
                         absl::StrJoin(verdict.kernels_not_provided, ", "), ")");
  std::string no_case;
  for (const std::string& b : verdict.ran_no_case) {
    absl::StrAppend(&no_case, "\nERROR: ", OneLine(b),
                    " ran no case (--require-cases): every case of the selection was "
                    "unsupported, or none was selected");
  }
  // The new failures that count (those of mutants do not: they are expected to fail).
  return absl::StrCat(
      no_case, "\n", verdict.fails ? "FAILED" : "OK", not_provided, ": ", verdict.new_failures,
      " new failure(s), ", t.known, " known failure(s)",
      t.unsupported > 0 ? absl::StrCat(", ", t.unsupported, " unsupported") : "",
      t.bad_files > 0 ? absl::StrCat(", ", t.bad_files, " vector file error(s)") : "",
      t.unexercised > 0 ? absl::StrCat(", ", t.unexercised, " unexercised slice(s)") : "",
      t.stale > 0 ? absl::StrCat(", ", t.stale, " stale expectation(s)") : "",
      verdict.worker_errors > 0
          ? absl::StrCat(", ", verdict.worker_errors, " worker error(s) that belong to no case")
          : "",
      verdict.mutants_missed > 0
          ? absl::StrCat(", ", verdict.mutants_missed, " mutant(s) not caught")
          : "",
      "\n");
}

}  // namespace

std::string CausesText(const BackendRun& r) {
  // A cause: the verdict and the mistake the diagnosis names ("" when it names none).
  struct Cause {
    int64_t count = 0;
    std::string summary, example;
  };
  std::map<std::pair<std::string, std::string>, Cause> causes;
  int64_t failures = 0, named = 0;
  r.results.ForEachHeld([&](size_t, const CaseResult& c) {
    if (!c.failure) return;
    ++failures;
    const std::string mistake = c.diagnosis.has_value() ? c.diagnosis->mistake : "";
    Cause& k = causes[{std::string(VerdictName(c.verdict)), mistake}];
    if (k.count++ == 0) {
      k.summary = c.diagnosis.has_value() ? c.diagnosis->summary : "";
      k.example = c.id;
    }
    named += !mistake.empty();
  });
  if (failures == 0) return "";
  int64_t named_causes = 0;
  for (const auto& [key, k] : causes) named_causes += !key.second.empty();
  std::string out =
      absl::StrCat("   ", failures, " new failure(s), ", named_causes, " named cause(s)",
                   named < failures ? " and some unnamed" : "", ":\n");
  std::vector<std::pair<std::pair<std::string, std::string>, Cause>> sorted(causes.begin(),
                                                                            causes.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second.count > b.second.count; });
  for (const auto& [key, k] : sorted) {
    absl::StrAppend(
        &out, "     ", k.count, " x ", key.first, " ",
        key.second.empty() ? "(no mistake named)" : key.second, ", e.g. ", OneLine(k.example),
        key.second.empty() || k.summary.empty() ? "" : absl::StrCat(": ", k.summary), "\n");
  }
  return out;
}

namespace {

// One failing (or known) case: its verdict and detail, then what is known of it. Every text
// from outside (ids, a backend's detail, an expectations file's reason, paths) is OneLine'd: the
// summary is text of several lines (harness/base/shown_text.h).
std::string CaseCard(const CaseResult& c) {
  std::string out = absl::StrCat(c.failure ? "FAIL " : "known ", VerdictName(c.verdict), " ",
                                 OneLine(c.id), "\n     ", OneLine(c.detail), "\n");
  // A shape case's id does not say what it asked: its card does.
  if (IsShapeLane(c.lane) && c.invocation.has_value())
    absl::StrAppend(&out, "     case: ", OneLine(InvocationText(*c.invocation)), "\n");
  if (c.diagnosis.has_value())
    absl::StrAppend(&out, "     diagnosis: ", OneLine(c.diagnosis->summary), "\n");
  if (c.known != nullptr)
    absl::StrAppend(&out, "     known: ", OneLine(c.known->reason),
                    c.known->link.empty() ? "" : absl::StrCat(" (", OneLine(c.known->link), ")"),
                    "\n");
  if (!c.repro.empty()) absl::StrAppend(&out, "     repro: ", OneLine(c.repro), "\n");
  if (c.witness && !c.witness->repro.empty())
    absl::StrAppend(&out, "     witness: ", OneLine(c.witness->instance),
                    "; as a static case: ", OneLine(c.witness->repro), "\n");
  if (c.shrunk && !c.shrunk->repro.empty()) {
    absl::StrAppend(&out, "     shrunk: ", ShrunkText(*c.shrunk),
                    ", same verdict; repro: ", OneLine(c.shrunk->repro), "\n");
    if (c.shrunk->diagnosis.has_value())
      absl::StrAppend(&out, "     shrunk diagnosis: ", c.shrunk->diagnosis->summary, "\n");
  }
  return out;
}

// The cards of the first max_listed failing or known cases, then a pointer to the report.
std::string CaseCards(const BackendRun& r, int max_listed) {
  std::string out;
  int listed = 0;
  r.results.ForEachHeld([&](size_t, const CaseResult& c) {
    if (!c.failure && c.known == nullptr) return;
    if (listed++ == max_listed) absl::StrAppend(&out, "   ... (see the report for the rest)\n");
    if (listed <= max_listed) absl::StrAppend(&out, CaseCard(c));
  });
  return out;
}

// "== backend NAME: ..." with its counts, whether it started and has kernels, its tables,
// causes and case cards.
std::string BackendSection(const BackendRun& r, const CaseTally& n, int max_listed) {
  // passed: ran and did not fail (unspecified_ok included); unsupported: not run, no failure.
  const int64_t passed = n.cases - n.failures - n.known - n.unsupported;
  std::string out =
      absl::StrCat("\n== backend ", OneLine(r.backend), ": ", n.cases, " cases, ",
                   absl::StrFormat("%.1f", r.seconds), " s: ", passed, " passed, ", n.failures,
                   " new failure(s), ", n.known, " known, ", n.unsupported, " unsupported\n");
  if (!r.startup_error.empty()) {
    absl::StrAppend(&out, "   did not start: ", OneLine(r.startup_error), "\n");
  }
  for (const std::string& e : r.worker_errors) {
    absl::StrAppend(&out, "   ERROR (no case's) ", OneLine(e), "\n");
  }
  if (!r.capabilities.kernels && r.startup_error.empty()) {
    absl::StrAppend(&out,
                    "   kernel lane: not provided (the backend declares shape inference only: "
                    "no kernel case was run)\n");
  }
  absl::StrAppend(&out, VerdictTable({{&r, &n}}, false), "\n", TypeTable(n), SliceLines(r),
                  ShapeLaneLine(n), CausesText(r), CaseCards(r, max_listed));
  return out;
}

std::string FileErrorLines(const SummaryOptions& o) {
  if (o.file_errors == nullptr || o.file_errors->empty()) return "";
  std::string out = "\n== vector files not run (unreadable, or contradicted by the oracle)\n";
  for (const FileError& e : *o.file_errors) {
    absl::StrAppend(&out, "ERROR ", OneLine(e.message), "\n");
  }
  return out;
}

std::string StaleLines(const SummaryOptions& o) {
  if (o.stale == nullptr || o.stale->empty()) return "";
  std::string out = absl::StrCat("\n== expectations that matched no failing case (",
                                 o.strict_expectations ? "an error" : "a warning",
                                 "; --strict-expectations makes them fail the run)\n");
  for (const StaleExpectation& s : *o.stale) {
    const KnownFailure& k = *s.entry;
    absl::StrAppend(&out, o.strict_expectations ? "ERROR " : "WARNING ", OneLine(k.source), ": ",
                    k.backend.empty() ? "any backend" : OneLine(k.backend), ", case ",
                    OneLine(k.case_pattern),
                    k.verdict ? absl::StrCat(", ", VerdictName(*k.verdict)) : "", " (",
                    OneLine(k.reason), ")\n");
  }
  return out;
}

std::string UnexercisedLine(int64_t unexercised, bool strict_coverage) {
  if (unexercised == 0) return "";
  return absl::StrCat("\n", strict_coverage ? "ERROR" : "WARNING", ": ", unexercised,
                      " declared slice(s) in which no case ran (the backend answered UNSUPPORTED "
                      "to all of them; see 'declared slices' above)",
                      strict_coverage ? "" : "; --strict-coverage makes this a failure", "\n");
}

}  // namespace

std::string SummaryText(const std::vector<BackendRun>& runs, const SummaryOptions& o) {
  std::vector<CaseTally> own;
  if (o.tallies == nullptr) {
    for (const BackendRun& r : runs) own.push_back(TallyOf(r));
  }
  const std::vector<CaseTally>& tallies = o.tallies != nullptr ? *o.tallies : own;
  std::string out;
  int64_t known = 0, unsupported = 0;
  for (size_t k = 0; k < runs.size(); ++k) {
    const CaseTally& n = tallies[k];
    known += n.known;
    unsupported += n.unsupported;
    absl::StrAppend(&out, BackendSection(runs[k], n, o.max_failures_listed));
  }
  if (runs.size() > 1) {
    std::vector<Tallied> all;
    for (size_t k = 0; k < runs.size(); ++k) all.push_back({&runs[k], &tallies[k]});
    absl::StrAppend(&out, "\n== all backends (backend x op x verdict)\n", VerdictTable(all, true));
  }
  const size_t bad_files = o.file_errors != nullptr ? o.file_errors->size() : 0;
  const size_t stale = o.stale != nullptr ? o.stale->size() : 0;
  const int64_t unexercised = CountUnexercisedSlices(runs);
  absl::StrAppend(&out, FileErrorLines(o), StaleLines(o),
                  UnexercisedLine(unexercised, o.strict_coverage),
                  ClosingLine(runs, o,
                              {known, unsupported, static_cast<int64_t>(bad_files), unexercised,
                               static_cast<int64_t>(stale)}));
  return out;
}

}  // namespace dmconf
