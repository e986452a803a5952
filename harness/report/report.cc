#include "harness/report/report.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <ctime>
#include <map>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "harness/base/files.h"
#include "harness/base/parallel_ranges.h"
#include "harness/compare/compare.h"
#include "harness/report/report_blocks.h"
#include "harness/report/report_reader.h"
#include "harness/report/source_map.h"

namespace dmconf {
namespace {

using Json = nlohmann::ordered_json;

// The members of a plain case, the one list of them both writers use (CaseJson with the DOM,
// CaseText without it), in their order: `put(name, value)` with a string, an integer or a
// boolean. `between()` runs after "detail", where CaseJson puts the parts a failing case adds
// (HasFailureParts) before its file, repro line and lane; the rest of them come after.
template <typename Put, typename Between>
void PlainCaseMembers(const CaseResult& c, Put&& put, Between&& between) {
  put("id", absl::string_view(c.id));
  put("op", OpName(c.op));
  put("element_type", ElementTypeName(c.type));
  put("rank", int64_t{c.rank});
  put("expected", ExpectedClassName(c.expected));
  put("rule", absl::string_view(c.rule));
  put("verdict", VerdictName(c.verdict));
  put("failure", c.failure);
  put("detail", absl::string_view(c.detail));
  between();
  if (!c.vector_file.empty()) put("vector_file", absl::string_view(c.vector_file));
  if (!c.repro.empty()) put("repro", absl::string_view(c.repro));
  if (IsShapeLane(c.lane)) put("lane", CaseLaneName(c.lane));
}

// The parts of a failing case CaseJson writes after its plain members' "detail".
void AddFailureParts(const CaseResult& c, Json& j) {
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
  if (c.witness.has_value()) {
    j["witness"] = Json{{"instance", c.witness->instance}, {"output", c.witness->output}};
    if (!c.witness->case_file.empty()) j["witness"]["case_file"] = c.witness->case_file;
    if (!c.witness->repro.empty()) j["witness"]["repro"] = c.witness->repro;
  }
  if (c.backend_output) j["backend_output"] = *c.backend_output;
}

// The parts CaseJson writes last: replays and the shrunk case.
void AddShrinkParts(const CaseResult& c, Json& j) {
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
}

}  // namespace

Json CaseJson(const CaseResult& c) {
  Json j = Json::object();
  const auto put = [&j](const char* name, const auto& v) {
    if constexpr (std::is_convertible_v<decltype(v), absl::string_view>) {
      j[name] = std::string(absl::string_view(v));
    } else {
      j[name] = v;
    }
  };
  PlainCaseMembers(c, put, [&] { AddFailureParts(c, j); });
  AddShrinkParts(c, j);
  return j;
}

namespace {

Json BackendJson(const BackendRun& r, const CaseFilter& keep) {
  Json out = BackendHeadJson(r);
  Json& cases = out["cases"];
  for (const CaseResult& c : r.results) {
    if (!keep || keep(c)) cases.push_back(CaseJson(c));
  }
  return out;
}

}  // namespace

MutantScore ScoreMutant(const BackendRun& run, const MutantExpectation& m) {
  return ScoreMutant(TallyOf(run), m);
}

MutantScore ScoreMutant(const CaseTally& run, const MutantExpectation& m) {
  MutantScore s;
  s.backend = m.backend;
  s.failing_verdicts = run.failing;
  s.killed = !s.failing_verdicts.empty();
  s.right_class = s.killed;
  for (const auto& [v, n] : s.failing_verdicts) {
    // Cases skipped after a run of hangs (crashes) follow from those: same class.
    const Verdict cls = VerdictRowOf(v).mutant_class;
    bool expected = false;
    for (Verdict e : m.expected_verdicts) expected |= e == cls;
    if (!expected) s.right_class = false;
  }
  return s;
}

CaseTally RunTally(const ReportInput& in, size_t k) {
  return in.tallies != nullptr ? (*in.tallies)[k] : TallyOf((*in.runs)[k]);
}

void ForEachCase(const ReportInput& in, size_t k,
                 const std::function<void(const CaseResult&)>& each) {
  if (in.cases != nullptr) {
    in.cases->ForEach(k, each);
    return;
  }
  for (const CaseResult& c : (*in.runs)[k].results) each(c);
}

RunVerdict JudgeReportedRun(const ReportInput& in) {
  RunFacts facts;
  facts.runs = in.runs;
  std::vector<int64_t> failures;
  for (size_t k = 0; k < in.runs->size(); ++k) {
    const CaseTally t = RunTally(in, k);
    failures.push_back(t.failures);
    const bool mutant =
        std::any_of(in.mutants.begin(), in.mutants.end(),
                    [&](const MutantExpectation& m) { return m.backend == (*in.runs)[k].backend; });
    if (t.run == 0 && !mutant) facts.ran_no_case.push_back((*in.runs)[k].backend);
    for (const MutantExpectation& m : in.mutants) {
      if ((*in.runs)[k].backend == m.backend && !ScoreMutant(t, m).right_class) {
        ++facts.mutants_missed;
      }
    }
  }
  for (const MutantExpectation& m : in.mutants) facts.mutants.insert(m.backend);
  if (in.tallies != nullptr) facts.new_failures = &failures;
  facts.file_errors = static_cast<int64_t>(in.file_errors.size());
  facts.stale_expectations = static_cast<int64_t>(in.stale.size());
  return JudgeRun(facts, in.rules);
}

namespace {

// The report's keys before "backends": format, run, options, summary.
Json ReportHead(const ReportInput& in) {
  return Json{{"format", std::string(kReportFormat)},
              {"run", RunBlockJson(in)},
              {"options", in.options},
              {"summary", SummaryJson(in)}};
}

// The report's keys after "backends", each only when it has something to list: file_errors,
// stale_expectations, mutation.
Json ReportTail(const ReportInput& in) {
  Json j = Json::object();
  if (!in.file_errors.empty()) j["file_errors"] = FileErrorsJson(in.file_errors);
  if (!in.stale.empty()) j["stale_expectations"] = StaleExpectationsJson(in.stale);
  if (!in.mutants.empty()) j["mutation"] = MutationJson(in);
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

// `s` as nlohmann's dump writes a string value (no ASCII escaping; bytes that are not UTF-8
// become U+FFFD): printable ASCII other than a quote and a backslash as it is, anything else
// through nlohmann itself.
void AppendJsonString(std::string& out, absl::string_view s) {
  for (const unsigned char ch : s) {
    if (ch < 0x20 || ch >= 0x7f || ch == '"' || ch == '\\') {
      out += Json(std::string(s)).dump(-1, ' ', false, kReplace);
      return;
    }
  }
  out += '"';
  out.append(s.data(), s.size());
  out += '"';
}

// DumpAt(CaseJson(c), depth), the same bytes, written without the DOM for a case with none of
// the parts a failure adds (nearly every case of a large run): the keys in CaseJson's order,
// one per line at `depth` + 1 spaces. Any other case goes through CaseJson.
// (StreamJsonReport.SameBytesAsTheWholeDocument compares the two.)
std::string CaseText(const CaseResult& c, int depth) {
  if (HasFailureParts(c)) return DumpAt(CaseJson(c), depth);
  const std::string pad(static_cast<size_t>(depth) + 1, ' ');
  std::string out;
  // The keys, the padding and the short values take under 64 bytes a line: one allocation.
  out.reserve(12 * (64 + pad.size()) + c.id.size() + c.rule.size() + c.detail.size() +
              c.vector_file.size() + c.repro.size());
  out += '{';
  bool first = true;
  const auto put = [&](absl::string_view name, const auto& v) {
    out += first ? "\n" : ",\n";
    first = false;
    out += pad;
    out += '"';
    out.append(name.data(), name.size());
    out += "\": ";
    using V = std::decay_t<decltype(v)>;
    if constexpr (std::is_same_v<V, bool>) {
      out += v ? "true" : "false";
    } else if constexpr (std::is_same_v<V, int64_t>) {
      absl::StrAppend(&out, v);
    } else {
      AppendJsonString(out, v);
    }
  };
  PlainCaseMembers(c, put, [] {});
  out += '\n';
  out.append(static_cast<size_t>(depth), ' ');
  out += '}';
  return out;
}

// runs[k]'s block at depth 2, its cases dumped one at a time.
void StreamBackend(const ReportInput& in, size_t k, const TextSink& out) {
  const CaseTally t = RunTally(in, k);
  const std::string head = DumpAt(BackendHeadJson((*in.runs)[k], t), 2);
  if (t.cases == 0) {
    out(head);
    return;
  }
  // The head ends with its empty "cases": `[]\n  }`.
  constexpr absl::string_view kEmptyCases = "[]\n  }";
  out(absl::string_view(head).substr(0, head.size() - kEmptyCases.size()));
  out("[\n");
  bool first = true;
  const auto put = [&](absl::string_view text) {
    out(first ? "    " : ",\n    ");
    first = false;
    out(text);
  };
  if (in.cases != nullptr || in.threads <= 1) {
    // One text at a time (StreamedWriters.MemoryDoesNotGrowWithCases holds it to that).
    ForEachCase(in, k, [&](const CaseResult& c) { put(CaseText(c, 4)); });
  } else {
    // The held results' texts made in blocks, each block in in.threads threads, written in
    // order: the same bytes, with memory bounded by the block (about 3 MB).
    // (A spooled result is read back by each thread in its range, ascending: result_list.h.)
    const ResultList& results = (*in.runs)[k].results;
    constexpr size_t kBlock = 8192;
    std::vector<std::string> texts;
    for (size_t begin = 0; begin < results.size(); begin += kBlock) {
      texts.assign(std::min(kBlock, results.size() - begin), std::string());
      ForEachRange(texts.size(), in.threads, [&](size_t from, size_t to) {
        for (size_t i = from; i < to; ++i) texts[i] = CaseText(results[begin + i], 4);
      });
      for (const std::string& text : texts) put(text);
    }
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
    StreamBackend(in, k, out);
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

// `write`'s text streamed into `path` atomically, its folder made first; not committed when
// the case source failed.
// `limit`: the size its reader accepts (a report's: kMaxReportFileBytes), checked before the
// rename.
absl::Status WriteStreamed(const std::string& path, const ReportInput& in,
                           const std::function<void(const TextSink&)>& write,
                           io::WriteLimit limit = {}) {
  absl::Status s = io::CreateParentDirectories(path);
  if (!s.ok()) return s;
  absl::StatusOr<io::AtomicFileWriter> file = io::AtomicFileWriter::Open(path, limit);
  if (!file.ok()) return file.status();
  write([&file](absl::string_view text) { file->Append(text); });
  if (in.cases != nullptr && !in.cases->status().ok()) return in.cases->status();
  return file->Commit();
}

}  // namespace

absl::Status WriteJsonReport(const std::string& path, const ReportInput& in) {
  return WriteStreamed(path, in, [&in](const TextSink& out) { StreamJsonReport(in, out); },
                       {kMaxReportFileBytes, "a report"});
}

absl::Status WriteJunit(const std::string& path, const ReportInput& in) {
  return WriteStreamed(path, in, [&in](const TextSink& out) { StreamJunit(in, out); });
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
