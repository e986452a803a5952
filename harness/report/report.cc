#include "harness/report/report.h"

#include <unistd.h>

#include <ctime>
#include <map>

#include "absl/strings/str_cat.h"
#include "harness/base/atomic_file.h"
#include "harness/compare/compare.h"
#include "harness/report/source_map.h"
#include "harness/report/status_matrix.h"
#include "harness/runner/summary.h"

namespace dmconf {
namespace {

using Json = nlohmann::ordered_json;

Json CapabilitiesJson(const Capabilities& caps) {
  Json ops = Json::array();
  for (const OpSupport& s : caps.ops) {
    Json types = Json::array();
    for (ElementType t : s.element_types) types.push_back(std::string(ElementTypeName(t)));
    Json modes = Json::array();
    for (const std::string& m : s.modes) modes.push_back(m);
    ops.push_back(Json{{"op", std::string(OpName(s.op))},
                       {"element_types", types},
                       {"min_rank", s.min_rank},
                       {"max_rank", s.max_rank},
                       {"modes", modes},
                       {"notes", s.notes}});
  }
  Json j{{"infer_static", caps.infer_static}, {"infer_partial", caps.infer_partial}, {"ops", ops}};
  // Written only for a backend with shape inference only: its kernel lane is not provided.
  if (!caps.kernels) j["kernels"] = false;
  return j;
}

}  // namespace

Json CaseJson(const CaseResult& c) {
  Json j{{"id", c.id},
         {"op", std::string(OpName(c.op))},
         {"element_type", std::string(ElementTypeName(c.type))},
         {"rank", c.rank},
         {"expected", std::string(ExpectedClassName(c.expected))},
         {"rule", c.rule},
         {"verdict", std::string(VerdictName(c.verdict))},
         {"failure", c.failure},
         {"detail", c.detail}};
  if (c.known != nullptr) j["known"] = Json{{"reason", c.known->reason}, {"link", c.known->link}};
  if (c.invocation.has_value()) {
    Json inputs = Json::array();
    for (const CaseInput& i : c.invocation->inputs) {
      Json in{{"name", i.name},
              {"element_type", std::string(ElementTypeName(i.type))},
              {"shape", i.shape}};
      if (!i.partial_shape.empty()) in["partial_shape"] = i.partial_shape;
      inputs.push_back(std::move(in));
    }
    j["invocation"] = Json{{"attributes", c.invocation->attributes}, {"inputs", inputs}};
  }
  if (c.mismatch.has_value()) {
    Json listed = Json::array();
    for (const WrongElement& w : c.mismatch->listed) {
      listed.push_back(Json::array(
          {w.flat, FormatBits(c.type, w.expected_bits), FormatBits(c.type, w.actual_bits)}));
    }
    j["mismatch"] = Json{{"index", c.mismatch->index},
                         {"expected_bits", FormatBits(c.type, c.mismatch->expected_bits)},
                         {"actual_bits", FormatBits(c.type, c.mismatch->actual_bits)},
                         {"differing", c.mismatch->differing},
                         {"total", c.mismatch->total},
                         {"shape", c.mismatch->shape},
                         {"listed", listed}};
  }
  if (c.diagnosis.has_value()) {
    j["diagnosis"] = Json{{"mistake", c.diagnosis->mistake}, {"summary", c.diagnosis->summary}};
    if (c.diagnosis->from_twin) j["diagnosis"]["from_twin"] = true;
  }
  if (!c.vector_file.empty()) j["vector_file"] = c.vector_file;
  if (!c.repro.empty()) j["repro"] = c.repro;
  if (IsShapeLane(c.lane)) j["lane"] = std::string(CaseLaneName(c.lane));
  if (c.replays.has_value()) {
    j["replays"] = Json{{"count", c.replays->count},
                        {"failed", c.replays->failed},
                        {"first_verdict", VerdictName(c.replays->first)}};
  }
  if (c.shrunk.has_value()) {
    j["shrunk"] = Json{{"id", c.shrunk->id},
                       {"from_elements", c.shrunk->from_elements},
                       {"to_elements", c.shrunk->to_elements},
                       {"attempts", c.shrunk->attempts},
                       {"budget_exhausted", c.shrunk->budget_exhausted}};
    if (!c.shrunk->vector_file.empty()) j["shrunk"]["vector_file"] = c.shrunk->vector_file;
    if (!c.shrunk->repro.empty()) j["shrunk"]["repro"] = c.shrunk->repro;
    if (!c.shrunk->case_text.empty()) j["shrunk"]["case"] = c.shrunk->case_text;
    for (const CaseResult::Shrunk::Threshold& t : c.shrunk->thresholds) {
      j["shrunk"]["thresholds"].push_back(
          Json{{"what", t.what}, {"fails_from", t.fails_from}, {"passes_at", t.passes_at}});
    }
    if (c.shrunk->diagnosis.has_value()) {
      j["shrunk"]["diagnosis"] = Json{{"mistake", c.shrunk->diagnosis->mistake},
                                      {"summary", c.shrunk->diagnosis->summary}};
      if (c.shrunk->diagnosis->from_twin) j["shrunk"]["diagnosis"]["from_twin"] = true;
    }
    if (c.shrunk->source_map.has_value()) {
      j["shrunk"]["source_map"] = SourceMapJson(*c.shrunk->source_map);
    }
  }
  return j;
}

namespace {

double Rate(int64_t ok, int64_t run) {
  if (run == 0) return 1.0;
  // Six decimals: stable text across platforms.
  return static_cast<double>(
             static_cast<int64_t>(static_cast<double>(ok) * 1e6 / static_cast<double>(run) + 0.5)) /
         1e6;
}

// A backend's block with an empty "cases" (its last key): the report's figures of the run.
Json BackendHead(const BackendRun& r) {
  Json counts = Json::object();
  std::map<std::string, std::map<std::string, std::map<std::string, int64_t>>> sorted;
  std::map<std::string, std::pair<int64_t, int64_t>> by_op;  // ok, run
  int64_t ok = 0, run = 0, failures = 0, known = 0;
  for (const CaseResult& c : r.results) {
    ++sorted[std::string(OpName(c.op))][std::string(ElementTypeName(c.type))]
            [std::string(VerdictName(c.verdict))];
    failures += c.failure;
    known += c.known != nullptr;
    if (c.verdict == Verdict::kUnsupported) continue;
    auto& o = by_op[std::string(OpName(c.op))];
    ++o.second;
    ++run;
    if (!IsFailure(c.verdict, {})) {
      ++o.first;
      ++ok;
    }
  }
  for (const auto& [op, types] : sorted) {
    Json t = Json::object();
    for (const auto& [type, verdicts] : types) {
      Json v = Json::object();
      for (const auto& [name, n] : verdicts) v[name] = n;
      t[type] = v;
    }
    counts[op] = t;
  }
  Json rates_by_op = Json::object();
  for (const auto& [op, p] : by_op) rates_by_op[op] = Rate(p.first, p.second);
  Json slices = Json::array();
  for (const SliceCoverage& s : r.slices) {
    slices.push_back(Json{{"slice", SliceLabel(s.slice)},
                          {"op", std::string(OpName(s.slice.op))},
                          {"cases_in_run", s.in_slice},
                          {"ran", s.ran},
                          {"unsupported", s.unsupported},
                          {"unexercised", s.Unexercised()}});
  }
  Json out{{"name", r.backend}};
  if (!r.library.empty()) out["library"] = r.library;
  Json rest{{"startup_error", r.startup_error},
            {"capabilities", CapabilitiesJson(r.capabilities)},
            {"totals", Json{{"cases", r.results.size()},
                            {"run", run},
                            {"unsupported", static_cast<int64_t>(r.results.size()) - run},
                            {"new_failures", failures},
                            {"known_failures", known}}},
            {"pass_rates", Json{{"overall", Rate(ok, run)}, {"by_op", rates_by_op}}},
            {"slices", slices},
            {"counts", counts},
            {"status_matrix", StatusMatrixJson(r)},
            {"cases", Json::array()}};
  for (auto& [key, value] : rest.items()) out[key] = std::move(value);
  return out;
}

Json BackendJson(const BackendRun& r, const CaseFilter& keep) {
  Json out = BackendHead(r);
  Json& cases = out["cases"];
  for (const CaseResult& c : r.results) {
    if (!keep || keep(c)) cases.push_back(CaseJson(c));
  }
  return out;
}

}  // namespace

MutantScore ScoreMutant(const BackendRun& run, const MutantExpectation& m) {
  MutantScore s;
  s.backend = m.backend;
  for (const CaseResult& c : run.results) {
    if (IsFailure(c.verdict, {})) ++s.failing_verdicts[c.verdict];
  }
  s.killed = !s.failing_verdicts.empty();
  s.right_class = s.killed;
  for (const auto& [v, n] : s.failing_verdicts) {
    // Cases skipped after a run of hangs (crashes) follow from those: same class.
    const Verdict cls = v == Verdict::kSkippedAfterHangs     ? Verdict::kHang
                        : v == Verdict::kSkippedAfterCrashes ? Verdict::kCrash
                                                             : v;
    bool expected = false;
    for (Verdict e : m.expected_verdicts) expected |= e == cls;
    if (!expected) s.right_class = false;
  }
  return s;
}

RunVerdict JudgeReportedRun(const ReportInput& in) {
  RunFacts facts;
  facts.runs = in.runs;
  for (const MutantExpectation& m : in.mutants) {
    facts.mutants.insert(m.backend);
    for (const BackendRun& r : *in.runs) {
      if (r.backend == m.backend && !ScoreMutant(r, m).right_class) ++facts.mutants_missed;
    }
  }
  facts.file_errors = static_cast<int64_t>(in.file_errors.size());
  facts.stale_expectations = static_cast<int64_t>(in.stale.size());
  return JudgeRun(facts, RunRulesFromOptions(nlohmann::json(in.options)));
}

namespace {

// The report's keys before "backends": format, run, options, summary.
Json ReportHead(const ReportInput& in) {
  int64_t cases = 0, failures = 0, known = 0;
  Json seconds = Json::object();
  for (const BackendRun& r : *in.runs) {
    for (const CaseResult& c : r.results) {
      ++cases;
      failures += c.failure;
      known += c.known != nullptr;
    }
    seconds[r.backend] = r.seconds;
  }
  Json run_info = in.run_info;
  run_info["backend_seconds"] = seconds;
  return Json{{"format", std::string(kReportFormat)},
              {"run", run_info},
              {"options", in.options},
              {"summary", Json{{"backends", in.runs->size()},
                               {"cases", cases},
                               {"new_failures", failures},
                               {"known_failures", known},
                               {"file_errors", in.file_errors.size()},
                               {"unexercised_slices", CountUnexercisedSlices(*in.runs)},
                               {"stale_expectations", in.stale.size()}}}};
}

// The report's keys after "backends", each only when it has something to list: file_errors,
// stale_expectations, mutation.
Json ReportTail(const ReportInput& in) {
  Json j = Json::object();
  if (!in.file_errors.empty()) {
    Json list = Json::array();
    for (const FileError& e : in.file_errors) {
      list.push_back(Json{{"file", e.file}, {"rule", e.rule}, {"message", e.message}});
    }
    j["file_errors"] = std::move(list);
  }
  if (!in.stale.empty()) {
    Json list = Json::array();
    for (const StaleExpectation& s : in.stale) {
      const KnownFailure& k = *s.entry;
      list.push_back(Json{{"source", k.source},
                          {"backend", k.backend},
                          {"case", k.case_pattern},
                          {"rule", k.rule_pattern},
                          {"verdict", k.verdict ? std::string(VerdictName(*k.verdict)) : ""},
                          {"reason", k.reason}});
    }
    j["stale_expectations"] = std::move(list);
  }
  if (!in.mutants.empty()) {
    Json list = Json::array();
    int64_t killed = 0;
    for (const MutantExpectation& m : in.mutants) {
      for (const BackendRun& r : *in.runs) {
        if (r.backend != m.backend) continue;
        MutantScore s = ScoreMutant(r, m);
        killed += s.right_class;
        Json expected = Json::array();
        for (Verdict v : m.expected_verdicts) expected.push_back(std::string(VerdictName(v)));
        Json got = Json::object();
        for (const auto& [v, n] : s.failing_verdicts) got[std::string(VerdictName(v))] = n;
        list.push_back(Json{{"backend", m.backend},
                            {"description", m.description},
                            {"expected_verdicts", expected},
                            {"failing_verdicts", got},
                            {"killed", s.killed},
                            {"right_class", s.right_class}});
      }
    }
    const int64_t total = static_cast<int64_t>(list.size());
    j["mutation"] = Json{
        {"killed", killed}, {"total", total}, {"score", Rate(killed, total)}, {"mutants", list}};
  }
  return j;
}

}  // namespace

Json JsonReport(const ReportInput& in, const CaseFilter& keep) {
  Json j = ReportHead(in);
  Json backends = Json::array();
  for (const BackendRun& r : *in.runs) backends.push_back(BackendJson(r, keep));
  j["backends"] = std::move(backends);
  Json tail = ReportTail(in);
  for (auto& [key, value] : tail.items()) j[key] = std::move(value);
  return j;
}

namespace {

constexpr auto kReplace = Json::error_handler_t::replace;

// `j` as the report's text holds it `depth` levels deep (indent 1): every line after the
// first shifted by `depth` spaces. (A dumped string never holds a raw newline.)
std::string DumpAt(const Json& j, int depth) {
  const std::string text = j.dump(1, ' ', false, kReplace);
  if (depth == 0) return text;
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (char ch : text) {
    out.push_back(ch);
    if (ch == '\n') out.append(static_cast<size_t>(depth), ' ');
  }
  return out;
}

// One backend's block at depth 2, its cases dumped one at a time.
void StreamBackend(const BackendRun& r, const TextSink& out) {
  const std::string head = DumpAt(BackendHead(r), 2);
  if (r.results.empty()) {
    out(head);
    return;
  }
  // The head ends with its empty "cases": `[]\n  }`.
  constexpr absl::string_view kEmptyCases = "[]\n  }";
  out(absl::string_view(head).substr(0, head.size() - kEmptyCases.size()));
  out("[\n");
  bool first = true;
  for (const CaseResult& c : r.results) {
    out(first ? "    " : ",\n    ");
    first = false;
    out(DumpAt(CaseJson(c), 4));
  }
  out("\n   ]\n  }");
}

}  // namespace

void StreamJsonReport(const ReportInput& in, const TextSink& out) {
  // The head's text ends with its closing `\n}`: the backends follow inside it.
  const std::string head = DumpAt(ReportHead(in), 0);
  out(absl::string_view(head).substr(0, head.size() - 2));
  out(",\n \"backends\": ");
  if (in.runs->empty()) out("[]");
  for (size_t k = 0; k < in.runs->size(); ++k) {
    out(k == 0 ? "[\n  " : ",\n  ");
    StreamBackend((*in.runs)[k], out);
  }
  if (!in.runs->empty()) out("\n ]");
  const Json tail = ReportTail(in);
  if (tail.empty()) {
    out("\n}\n");
    return;
  }
  // The tail's keys, without its own opening `{\n`.
  const std::string rest = DumpAt(tail, 0);
  out(",\n");
  out(absl::string_view(rest).substr(2));
  out("\n");
}

std::string JsonReportText(const ReportInput& in) {
  // A backend's text may hold bytes that are not UTF-8 (a plugin's message): they become
  // U+FFFD instead of an exception that would lose the report.
  return JsonReport(in).dump(1, ' ', false, kReplace) + "\n";
}

namespace {

// `write`'s text streamed into `path` atomically, its folder made first.
absl::Status WriteStreamed(const std::string& path,
                           const std::function<void(const TextSink&)>& write) {
  absl::Status s = io::CreateParentDirectories(path);
  if (!s.ok()) return s;
  absl::StatusOr<io::AtomicFileWriter> file = io::AtomicFileWriter::Open(path);
  if (!file.ok()) return file.status();
  write([&file](absl::string_view text) { file->Append(text); });
  return file->Commit();
}

}  // namespace

absl::Status WriteJsonReport(const std::string& path, const ReportInput& in) {
  return WriteStreamed(path, [&in](const TextSink& out) { StreamJsonReport(in, out); });
}

absl::Status WriteJunit(const std::string& path, const ReportInput& in) {
  return WriteStreamed(path, [&in](const TextSink& out) { StreamJunit(in, out); });
}

Json DefaultRunInfo(const std::string& command) {
  char host[256] = {0};
  gethostname(host, sizeof(host) - 1);
  const std::time_t now = std::time(nullptr);
  char when[32];
  std::tm tm;
  gmtime_r(&now, &tm);
  std::strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return Json{{"time", when},
              {"host", host},
              {"dmconf_version", DMCONF_VERSION},
              {"compiler", __VERSION__},
              {"command", command}};
}

}  // namespace dmconf
