#include "harness/report/report_decode.h"

#include <algorithm>
#include <cstdint>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "harness/report/source_map.h"
#include "harness/runner/slice_coverage.h"

namespace dmconf::report_internal {
namespace {

using io::JsonLoc;
using io::LocError;
using nlohmann::json;

// Typed access to a report that records the first error (rule report.field.*) and answers a
// neutral value after it, so that conversions read straight through.
class Reader {
 public:
  const json& Get(const json& o, const JsonLoc& at, const std::string& key, json::value_t t) {
    static const json kNull;
    if (!status_.ok()) return kNull;
    if (!o.is_object() || !o.contains(key)) {
      Fail("report.field.missing", at.Key(key), "this member is required");
      return kNull;
    }
    const json& v = o[key];
    const bool ok = t == json::value_t::number_integer ? v.is_number_integer()
                    : t == json::value_t::number_float ? v.is_number()
                                                       : v.type() == t;
    if (!ok) {
      Fail("report.field.type", at.Key(key), "wrong JSON type");
      return kNull;
    }
    return v;
  }
  std::string Str(const json& o, const JsonLoc& at, const std::string& key) {
    const json& v = Get(o, at, key, json::value_t::string);
    return v.is_string() ? v.get<std::string>() : "";
  }
  int64_t Int(const json& o, const JsonLoc& at, const std::string& key) {
    const json& v = Get(o, at, key, json::value_t::number_integer);
    if (!v.is_number_integer()) return 0;
    if (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t{INT64_MAX}) {
      Fail("report.field.type", at.Key(key), "too large");
      return 0;
    }
    return v.get<int64_t>();
  }
  // A count or a rank: an integer in [0, max].
  int64_t NonNegative(const json& o, const JsonLoc& at, const std::string& key,
                      int64_t max = INT64_MAX) {
    const int64_t v = Int(o, at, key);
    if (status_.ok() && (v < 0 || v > max)) {
      Fail("report.field.value", at.Key(key), absl::StrCat("must be in [0, ", max, "]"));
      return 0;
    }
    return v;
  }
  bool Bool(const json& o, const JsonLoc& at, const std::string& key) {
    const json& v = Get(o, at, key, json::value_t::boolean);
    return v.is_boolean() && v.get<bool>();
  }
  const json& Arr(const json& o, const JsonLoc& at, const std::string& key) {
    return Get(o, at, key, json::value_t::array);
  }
  void Fail(absl::string_view rule, const JsonLoc& at, absl::string_view what) {
    if (status_.ok()) status_ = LocError(rule, at, what);
  }
  const absl::Status& status() const { return status_; }

 private:
  absl::Status status_;
};

template <typename T>
T Parsed(Reader& rd, const absl::StatusOr<T>& v, const JsonLoc& at, T fallback) {
  if (v.ok()) return *v;
  rd.Fail("report.field.value", at, v.status().message());
  return fallback;
}

uint64_t Bits(Reader& rd, const std::string& hex, const JsonLoc& at) {
  uint64_t v = 0;
  if (hex.size() < 3 || hex.size() > 18 || hex.compare(0, 2, "0x") != 0 ||
      !absl::SimpleHexAtoi(hex.substr(2), &v)) {
    rd.Fail("report.field.value", at, "expected bits as 0x and at most 16 hex digits");
  }
  return v;
}

std::vector<int64_t> Ints(Reader& rd, const json& a, const JsonLoc& at) {
  std::vector<int64_t> out;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i].is_number_integer()) rd.Fail("report.field.type", at.Index(i), "expected an integer");
    out.push_back(a[i].is_number_integer() ? a[i].get<int64_t>() : 0);
  }
  return out;
}

Capabilities ReadCapabilities(Reader& rd, const json& c, const JsonLoc& at) {
  Capabilities caps;
  caps.infer_static = rd.Bool(c, at, "infer_static");
  caps.infer_partial = rd.Bool(c, at, "infer_partial");
  if (c.is_object() && c.contains("kernels")) caps.kernels = rd.Bool(c, at, "kernels");
  const json& ops = rd.Arr(c, at, "ops");
  for (size_t i = 0; i < ops.size(); ++i) {
    const JsonLoc o = at.Key("ops").Index(i);
    OpSupport s;
    s.op = Parsed(rd, ParseOp(rd.Str(ops[i], o, "op")), o.Key("op"), Op::kSpaceToDepth);
    const json& types = rd.Arr(ops[i], o, "element_types");
    for (size_t t = 0; t < types.size(); ++t) {
      const JsonLoc tat = o.Key("element_types").Index(t);
      const std::string name = types[t].is_string() ? types[t].get<std::string>() : "";
      s.element_types.insert(Parsed(rd, ParseElementType(name), tat, ElementType::kF32));
    }
    s.min_rank = static_cast<int>(rd.NonNegative(ops[i], o, "min_rank", INT32_MAX));
    s.max_rank = static_cast<int>(rd.NonNegative(ops[i], o, "max_rank", INT32_MAX));
    const json& modes = rd.Arr(ops[i], o, "modes");
    for (size_t m = 0; m < modes.size(); ++m) {
      if (!modes[m].is_string())
        rd.Fail("report.field.type", o.Key("modes").Index(m), "expected a string");
      else
        s.modes.insert(modes[m].get<std::string>());
    }
    s.notes = rd.Str(ops[i], o, "notes");
    caps.ops.push_back(std::move(s));
  }
  return caps;
}

Diagnosis ReadDiagnosis(Reader& rd, const json& d, const JsonLoc& at) {
  Diagnosis out;
  out.mistake = rd.Str(d, at, "mistake");
  out.summary = rd.Str(d, at, "summary");
  // Whether it came from diagnostic twins (harness/compare/twin.h); absent: it did not.
  if (d.is_object() && d.contains("from_twin")) out.from_twin = rd.Bool(d, at, "from_twin");
  return out;
}

Invocation ReadInvocation(Reader& rd, const json& c, const JsonLoc& iat) {
  Invocation inv;
  inv.attributes = rd.Str(c, iat, "attributes");
  const json& inputs = rd.Arr(c, iat, "inputs");
  for (size_t i = 0; i < inputs.size(); ++i) {
    const JsonLoc n = iat.Key("inputs").Index(i);
    CaseInput in;
    in.name = rd.Str(inputs[i], n, "name");
    in.type = Parsed(rd, ParseElementType(rd.Str(inputs[i], n, "element_type")),
                     n.Key("element_type"), ElementType::kF32);
    in.shape = Ints(rd, rd.Arr(inputs[i], n, "shape"), n.Key("shape"));
    if (inputs[i].is_object() && inputs[i].contains("partial_shape")) {
      in.partial_shape = rd.Str(inputs[i], n, "partial_shape");
    }
    inv.inputs.push_back(std::move(in));
  }
  return inv;
}

Mismatch ReadMismatch(Reader& rd, const json& m, const JsonLoc& mat) {
  Mismatch mm;
  mm.index = Ints(rd, rd.Arr(m, mat, "index"), mat.Key("index"));
  mm.expected_bits = Bits(rd, rd.Str(m, mat, "expected_bits"), mat.Key("expected_bits"));
  mm.actual_bits = Bits(rd, rd.Str(m, mat, "actual_bits"), mat.Key("actual_bits"));
  mm.differing = rd.Int(m, mat, "differing");
  mm.total = rd.Int(m, mat, "total");
  mm.shape = Ints(rd, rd.Arr(m, mat, "shape"), mat.Key("shape"));
  const json& listed = rd.Arr(m, mat, "listed");
  for (size_t i = 0; i < listed.size() && rd.status().ok(); ++i) {
    const json& w = listed[i];
    const JsonLoc wat = mat.Key("listed").Index(i);
    if (!w.is_array() || w.size() != 3 || !w[0].is_number_integer() || !w[1].is_string() ||
        !w[2].is_string()) {
      rd.Fail("report.field.type", wat, "expected [flat index, expected bits, actual bits]");
      break;
    }
    mm.listed.push_back({w[0].get<int64_t>(), Bits(rd, w[1].get<std::string>(), wat.Index(1)),
                         Bits(rd, w[2].get<std::string>(), wat.Index(2))});
  }
  return mm;
}

CaseResult::Replays ReadReplays(Reader& rd, const json& rp, const JsonLoc& rat) {
  CaseResult::Replays replays;
  replays.count = static_cast<int>(rd.Int(rp, rat, "count"));
  replays.failed = static_cast<int>(rd.Int(rp, rat, "failed"));
  replays.first = ParseVerdict(rd.Str(rp, rat, "first_verdict")).value_or(Verdict::kHarnessError);
  return replays;
}

// shrunk.source_map: four integer arrays (harness/report/source_map.h), one entry per output
// element in holds and expected.
CaseResult::Shrunk::SourceMap ReadSourceMap(Reader& rd, const json& shrunk, const JsonLoc& sat) {
  const JsonLoc at = sat.Key("source_map");
  const json& m = rd.Get(shrunk, sat, "source_map", json::value_t::object);
  CaseResult::Shrunk::SourceMap out;
  out.shape = Ints(rd, rd.Arr(m, at, "shape"), at.Key("shape"));
  out.input_shape = Ints(rd, rd.Arr(m, at, "input_shape"), at.Key("input_shape"));
  out.holds = Ints(rd, rd.Arr(m, at, "holds"), at.Key("holds"));
  out.expected = Ints(rd, rd.Arr(m, at, "expected"), at.Key("expected"));
  if (rd.status().ok() && (out.holds.size() != out.expected.size() ||
                           static_cast<int64_t>(out.holds.size()) > kMaxSourceMapElements)) {
    rd.Fail("report.field.value", at.Key("holds"),
            "holds and expected: one entry per output element, at most 64");
  }
  return out;
}

// witness: the instance proving an unsound_shape verdict (harness/compare/shape_judge.h).
CaseResult::Witness ReadWitness(Reader& rd, const json& w, const JsonLoc& wat) {
  CaseResult::Witness out;
  out.instance = rd.Str(w, wat, "instance");
  out.output = Ints(rd, rd.Arr(w, wat, "output"), wat.Key("output"));
  if (w.is_object() && w.contains("case_file")) out.case_file = rd.Str(w, wat, "case_file");
  if (w.is_object() && w.contains("repro")) out.repro = rd.Str(w, wat, "repro");
  return out;
}

CaseResult::Shrunk ReadShrunk(Reader& rd, const json& s, const JsonLoc& sat) {
  CaseResult::Shrunk sh;
  sh.id = rd.Str(s, sat, "id");
  sh.from_elements = rd.Int(s, sat, "from_elements");
  sh.to_elements = rd.Int(s, sat, "to_elements");
  sh.attempts = static_cast<int>(rd.Int(s, sat, "attempts"));
  sh.budget_exhausted = rd.Bool(s, sat, "budget_exhausted");
  if (s.contains("vector_file")) sh.vector_file = rd.Str(s, sat, "vector_file");
  if (s.contains("repro")) sh.repro = rd.Str(s, sat, "repro");
  if (s.contains("diagnosis"))
    sh.diagnosis = ReadDiagnosis(rd, s["diagnosis"], sat.Key("diagnosis"));
  if (s.contains("source_map")) sh.source_map = ReadSourceMap(rd, s, sat);
  if (s.contains("case")) sh.case_text = rd.Str(s, sat, "case");
  static const json kNone = json::array();
  const json& thresholds = s.contains("thresholds") ? rd.Arr(s, sat, "thresholds") : kNone;
  for (size_t i = 0; i < thresholds.size() && rd.status().ok(); ++i) {
    const json& t = thresholds[i];
    const JsonLoc tat = sat.Key("thresholds").Index(i);
    sh.thresholds.push_back(
        {rd.Str(t, tat, "what"), rd.Int(t, tat, "fails_from"), rd.Int(t, tat, "passes_at")});
  }
  return sh;
}

// The counterpart of the writer's CaseJson (report.cc).
CaseResult ReadCase(Reader& rd, const json& c, const JsonLoc& at, std::deque<KnownFailure>& known) {
  CaseResult r;
  r.id = rd.Str(c, at, "id");
  r.op = Parsed(rd, ParseOp(rd.Str(c, at, "op")), at.Key("op"), Op::kSpaceToDepth);
  r.type = Parsed(rd, ParseElementType(rd.Str(c, at, "element_type")), at.Key("element_type"),
                  ElementType::kF32);
  r.expected = Parsed(rd, ParseExpectedClass(rd.Str(c, at, "expected")), at.Key("expected"),
                      ExpectedClass::kMalformed);
  r.rule = rd.Str(c, at, "rule");
  const std::optional<Verdict> v = ParseVerdict(rd.Str(c, at, "verdict"));
  if (!v.has_value()) rd.Fail("report.verdict.unknown", at.Key("verdict"), "not a verdict");
  r.verdict = v.value_or(Verdict::kHarnessError);
  r.failure = rd.Bool(c, at, "failure");
  r.detail = rd.Str(c, at, "detail");
  // The data's rank (-1: a shape case of unknown rank), for the status matrix; reports
  // written before it was recorded have none (-1).
  if (c.contains("rank")) {
    const int64_t rank = rd.Int(c, at, "rank");
    if (rank < -1 || rank > 64) {
      rd.Fail("report.field.value", at.Key("rank"), "must be in [-1, 64]");
    } else {
      r.rank = static_cast<int>(rank);
    }
  }
  if (c.contains("known")) {
    KnownFailure& k = known.emplace_back();
    k.reason = rd.Str(c["known"], at.Key("known"), "reason");
    k.link = rd.Str(c["known"], at.Key("known"), "link");
    r.known = &k;
  }
  if (c.contains("invocation")) {
    r.invocation = ReadInvocation(rd, c["invocation"], at.Key("invocation"));
  }
  if (c.contains("mismatch")) r.mismatch = ReadMismatch(rd, c["mismatch"], at.Key("mismatch"));
  if (c.contains("diagnosis")) r.diagnosis = ReadDiagnosis(rd, c["diagnosis"], at.Key("diagnosis"));
  if (c.contains("replays")) r.replays = ReadReplays(rd, c["replays"], at.Key("replays"));
  if (c.contains("shrunk")) r.shrunk = ReadShrunk(rd, c["shrunk"], at.Key("shrunk"));
  if (c.contains("witness")) r.witness = ReadWitness(rd, c["witness"], at.Key("witness"));
  if (c.contains("backend_output")) r.backend_output = rd.Str(c, at, "backend_output");
  if (c.contains("vector_file")) r.vector_file = rd.Str(c, at, "vector_file");
  if (c.contains("repro")) r.repro = rd.Str(c, at, "repro");
  if (c.contains("lane")) {
    r.lane = Parsed(rd, ParseCaseLane(rd.Str(c, at, "lane")), at.Key("lane"), CaseLane::kKernel);
  }
  return r;
}

// The slices' counts: one slice per capabilities.ops entry, none without kernels.
void ReadSlices(Reader& rd, const json& bj, const JsonLoc& bat, BackendRun& run) {
  if (run.capabilities.kernels) run.slices = DeclaredSlices(run.capabilities);
  const json& slices = rd.Arr(bj, bat, "slices");
  if (rd.status().ok() && slices.size() != run.slices.size()) {
    rd.Fail("report.field.value", bat.Key("slices"), "one slice per capabilities.ops entry");
  }
  for (size_t s = 0; s < slices.size() && rd.status().ok(); ++s) {
    const JsonLoc sat = bat.Key("slices").Index(s);
    run.slices[s].in_slice = rd.NonNegative(slices[s], sat, "cases_in_run");
    run.slices[s].ran = rd.NonNegative(slices[s], sat, "ran");
    run.slices[s].unsupported = rd.NonNegative(slices[s], sat, "unsupported");
  }
}

BackendRun ReadBackend(Reader& rd, const json& bj, const JsonLoc& bat, const json& run_block,
                       std::deque<KnownFailure>& known) {
  BackendRun run;
  run.backend = rd.Str(bj, bat, "name");
  run.capabilities = ReadCapabilities(rd, rd.Get(bj, bat, "capabilities", json::value_t::object),
                                      bat.Key("capabilities"));
  run.startup_error = rd.Str(bj, bat, "startup_error");
  if (bj.contains("worker_errors")) {
    for (const json& e : rd.Arr(bj, bat, "worker_errors"))
      run.worker_errors.push_back(e.get<std::string>());
  }
  if (bj.contains("library")) run.library = rd.Str(bj, bat, "library");
  ReadSlices(rd, bj, bat, run);
  const json& cases = rd.Arr(bj, bat, "cases");
  for (size_t c = 0; c < cases.size() && rd.status().ok(); ++c) {
    run.results.push_back(ReadCase(rd, cases[c], bat.Key("cases").Index(c), known));
  }
  // The wall time is not checked: it is the run block's, which nothing judges.
  const auto seconds = run_block.find("backend_seconds");
  if (seconds != run_block.end() && seconds->is_object()) {
    const auto it = seconds->find(run.backend);
    if (it != seconds->end() && it->is_number()) run.seconds = it->get<double>();
  }
  return run;
}

// "run": the time is required (a merge takes the earliest); the rest reads as "" when absent.
RunInfo ReadRunInfo(Reader& rd, const json& r, const JsonLoc& at) {
  RunInfo info;
  info.time = rd.Str(r, at, "time");
  const auto text = [&r](const char* key) {
    return r.contains(key) && r[key].is_string() ? r[key].get<std::string>() : std::string();
  };
  info.host = text("host");
  info.dmconf_version = text("dmconf_version");
  info.compiler = text("compiler");
  info.command = text("command");
  return info;
}

// "options": kept as read, apart from "shard", which must be a shard ("K/N"), and a merged
// report's "shards" (a list of names; anything else is left as read). The run-level strict
// flags are decoded as well, and kept: absent or not a boolean, a flag is off.
void ReadOptions(Reader& rd, const json& o, const JsonLoc& at, RunReport& out) {
  out.options = o;
  const auto flag = [&o](const char* key) {
    const auto it = o.find(key);
    return it != o.end() && it->is_boolean() && it->get<bool>();
  };
  out.rules.strict_coverage = flag("strict_coverage");
  out.rules.strict_expectations = flag("strict_expectations");
  out.rules.require_cases = flag("require_cases");
  const auto shards = out.options.find("shards");
  if (shards != out.options.end() && shards->is_array() && !shards->empty() &&
      std::all_of(shards->begin(), shards->end(), [](const json& v) { return v.is_string(); })) {
    for (const json& v : *shards) out.shards.push_back(v.get<std::string>());
    out.options.erase(shards);
  }
  const auto it = out.options.find("shard");
  if (it == out.options.end()) return;
  absl::StatusOr<Shard> s = it->is_string() ? ParseShard(it->get<std::string>())
                                            : absl::InvalidArgumentError("cli.shard: not a string");
  if (!s.ok()) {
    rd.Fail("report.field.value", at.Key("shard"), s.status().message());
    return;
  }
  out.shard = *s;
  out.options.erase(it);
}

void ReadMutants(Reader& rd, const json& mutation, const JsonLoc& mat, RunReport& out) {
  const json& list = rd.Arr(mutation, mat, "mutants");
  for (size_t i = 0; i < list.size() && rd.status().ok(); ++i) {
    const JsonLoc at = mat.Key("mutants").Index(i);
    MutantExpectation e;
    e.backend = rd.Str(list[i], at, "backend");
    e.description = rd.Str(list[i], at, "description");
    const json& verdicts = rd.Arr(list[i], at, "expected_verdicts");
    for (size_t k = 0; k < verdicts.size(); ++k) {
      const std::optional<Verdict> v =
          ParseVerdict(verdicts[k].is_string() ? verdicts[k].get<std::string>() : "");
      if (!v)
        rd.Fail("report.verdict.unknown", at.Key("expected_verdicts").Index(k), "not a verdict");
      else
        e.expected_verdicts.push_back(*v);
    }
    out.mutants.push_back(std::move(e));
  }
}

// "stale_expectations" and "file_errors": CheckReportDocument checked that every member is a
// string; an absent one reads as "".
void ReadListed(Reader& rd, const json& j, const JsonLoc& root, RunReport& out) {
  const auto text = [](const json& o, const char* key) { return o.value(key, std::string()); };
  if (j.contains("stale_expectations")) {
    const json& list = j["stale_expectations"];
    for (size_t i = 0; i < list.size(); ++i) {
      KnownFailure& k = out.known.emplace_back();
      k.source = text(list[i], "source");
      k.backend = text(list[i], "backend");
      k.case_pattern = text(list[i], "case");
      k.rule_pattern = text(list[i], "rule");
      k.reason = text(list[i], "reason");
      const std::string verdict = text(list[i], "verdict");
      k.verdict = ParseVerdict(verdict);
      if (!verdict.empty() && !k.verdict.has_value()) {
        rd.Fail("report.verdict.unknown", root.Key("stale_expectations").Index(i).Key("verdict"),
                "not a verdict");
      }
      out.stale.push_back({&k});
    }
  }
  if (j.contains("file_errors")) {
    for (const json& e : j["file_errors"]) {
      out.file_errors.push_back({text(e, "file"), text(e, "rule"), text(e, "message")});
    }
  }
}

}  // namespace

absl::Status DecodeCheckedReport(const json& j, const JsonLoc& root, RunReport& out) {
  Reader rd;
  out.run = ReadRunInfo(rd, j["run"], root.Key("run"));
  ReadOptions(rd, j["options"], root.Key("options"), out);
  const json& backends = j["backends"];
  for (size_t b = 0; b < backends.size() && rd.status().ok(); ++b) {
    out.backends.push_back(
        ReadBackend(rd, backends[b], root.Key("backends").Index(b), j["run"], out.known));
  }
  if (j.contains("mutation")) ReadMutants(rd, j["mutation"], root.Key("mutation"), out);
  ReadListed(rd, j, root, out);
  return rd.status();
}

absl::StatusOr<CaseResult> DecodeCheckedCase(const json& c, const JsonLoc& at,
                                             std::deque<KnownFailure>& known) {
  Reader rd;
  CaseResult r = ReadCase(rd, c, at, known);
  if (!rd.status().ok()) return rd.status();
  return r;
}

}  // namespace dmconf::report_internal
