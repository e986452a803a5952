// Report writers: the JSON report `dmconf-report/2` (reports/dmconf-report-2.schema.json,
// docs/report-format.md) and JUnit XML (junit_report.cc). Both are deterministic apart from the
// JSON's "run" block (time, host, versions, durations). Files are written atomically and
// streamed: one case's text at a time goes to the file's temporary (harness/base/files.h
// AtomicFileWriter), never a document of the whole run. The reader is
// report_stream.h, beside this: it decodes a JSON report into a RunReport (run_report.h)
// whose Input() this writes again as the same document.
//
// Example:
//   ReportInput in{.runs = runs, .options_json = {...}};
//   absl::Status s = WriteJsonReport("reports/out/report.json", in);
//   absl::Status t = WriteJunit("reports/out/junit.xml", in);
#ifndef DMCONF_HARNESS_REPORT_REPORT_H_
#define DMCONF_HARNESS_REPORT_REPORT_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "harness/backend/verdict.h"
#include "harness/runner/case_tally.h"
#include "harness/runner/run_verdict.h"
#include "harness/runner/runner.h"
#include "nlohmann/json.hpp"

namespace dmconf {

// The format tag of the JSON report; its schema is reports/dmconf-report-2.schema.json.
inline constexpr absl::string_view kReportFormat = "dmconf-report/2";

// Mutation testing: what the run knows about a mutant backend.
struct MutantExpectation {
  std::string backend;  // "mutant.d2s_mode_swapped"
  std::string description;
  std::vector<Verdict> expected_verdicts;
};

struct MutantScore {
  std::string backend;
  bool killed = false;       // at least one failing verdict
  bool right_class = false;  // killed, and every failing verdict is an expected one
  std::map<Verdict, int64_t> failing_verdicts;
};
MutantScore ScoreMutant(const BackendRun& run, const MutantExpectation& m);
MutantScore ScoreMutant(const CaseTally& run, const MutantExpectation& m);

// Where a writer takes a run's cases from when they are not held in memory (a streamed
// `dmconf report merge` reads them again from its files).
class CaseSource {
 public:
  virtual ~CaseSource() = default;
  // Calls `each` for every case of runs[run], in order.
  virtual void ForEach(size_t run, const std::function<void(const CaseResult&)>& each) = 0;
  // The first error met while reading (then a writer's output is not committed).
  virtual absl::Status status() const = 0;
};

struct ReportInput {
  const std::vector<BackendRun>* runs = nullptr;
  nlohmann::ordered_json options;          // the options of the run (seed, count, ...)
  nlohmann::ordered_json run_info;         // time, host, versions, command (non-deterministic)
  std::vector<MutantExpectation> mutants;  // empty: no mutation block
  std::vector<FileError> file_errors;      // vector files that could not be read
  std::vector<StaleExpectation> stale;     // expectation entries that matched nothing
  // The run-level strict flags; `options` records them too ("strict_coverage",
  // "strict_expectations"), and the report reader decodes them from there.
  RunRules rules;
  // When set, runs[k]'s figures are tallies[k] (TallyOf(runs[k]) when its results are held:
  // a run session gathers them once for all its writers). For runs whose cases are not in
  // runs[k].results, the cases come from `cases` (the HTML page of a report, which reads the
  // cases itself, sets only `tallies`).
  const std::vector<CaseTally>* tallies = nullptr;
  CaseSource* cases = nullptr;
  // Threads that make the JSON text of held results (the run's --jobs): the bytes are the
  // same for any count.
  int threads = 1;
};

// runs[k]'s figures: tallies[k], or a pass over its results.
CaseTally RunTally(const ReportInput& in, size_t k);
// Calls `each` for every case of runs[k], from the results or the case source.
void ForEachCase(const ReportInput& in, size_t k,
                 const std::function<void(const CaseResult&)>& each);

// Whether the run fails (run_verdict.h, the one rule of `dmconf run` and `dmconf report
// merge`): the mutants scored with ScoreMutant, the run-level rules in.rules (for a report
// read back, what the run recorded, so a merged report keeps its shards' rules).
RunVerdict JudgeReportedRun(const ReportInput& in);

// Which cases a backend's "cases" list holds (every case when empty; the totals, counts and
// summary count them all): the HTML page keeps the failing ones only.
using CaseFilter = std::function<bool(const CaseResult&)>;
nlohmann::ordered_json JsonReport(const ReportInput& in, const CaseFilter& cases = nullptr);
// One case of a backend's "cases" (what JsonReport writes for it; DecodeCase reads it back).
nlohmann::ordered_json CaseJson(const CaseResult& c);
std::string JunitXml(const ReportInput& in);
// JsonReport as the text written to a file (indented; bytes that are not UTF-8 become U+FFFD).
std::string JsonReportText(const ReportInput& in);

// Where a streamed writer puts its text, piece by piece.
using TextSink = std::function<void(absl::string_view)>;
// The text of JsonReportText (the same bytes) and of JunitXml, written piece by piece: the
// figures first (a pass over the results), then each case as its own small text. Their memory
// does not grow with the number of cases.
void StreamJsonReport(const ReportInput& in, const TextSink& out);
void StreamJunit(const ReportInput& in, const TextSink& out);

// Both stream atomically (AtomicFileWriter), creating the report's folder first (mkdir -p).
absl::Status WriteJsonReport(const std::string& path, const ReportInput& in);
absl::Status WriteJunit(const std::string& path, const ReportInput& in);

// `s` with & < > " ' written as entities: safe as XML / HTML text and in quoted attributes
// (the JUnit writer and the report diff page). Bytes XML 1.0 cannot carry, or that a parser
// would change (control bytes other than newline and tab, CR, DEL, bytes that are not UTF-8,
// U+FFFE / U+FFFF), are written as a visible `\x1b`.
std::string MarkupEscape(absl::string_view s);

// time (UTC, ISO 8601), host, dmconf version, compiler.
nlohmann::ordered_json DefaultRunInfo(const std::string& command);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_REPORT_H_
