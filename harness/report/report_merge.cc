#include "harness/report/report_merge.h"

#include <map>
#include <set>
#include <tuple>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/base/json_location.h"
#include "harness/report/shard_set.h"
#include "harness/report/source_map.h"

namespace dmconf {
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
  // Adds a shard's count to the merged one; a sum above 2^63-1 is refused, never wrapped.
  void AddCount(int64_t* into, int64_t v, const JsonLoc& at) {
    if (status_.ok() && __builtin_add_overflow(*into, v, into)) {
      Fail("report.merge.count_overflow", at,
           "the merged count would exceed 2^63-1; these reports cannot all be true");
    }
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
  if (c.contains("known")) {
    KnownFailure& k = known.emplace_back();
    k.reason = rd.Str(c["known"], at.Key("known"), "reason");
    k.link = rd.Str(c["known"], at.Key("known"), "link");
    r.known = &k;
  }
  if (c.contains("invocation")) {
    const JsonLoc iat = at.Key("invocation");
    Invocation inv;
    inv.attributes = rd.Str(c["invocation"], iat, "attributes");
    const json& inputs = rd.Arr(c["invocation"], iat, "inputs");
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
    r.invocation = std::move(inv);
  }
  if (c.contains("mismatch")) {
    const json& m = c["mismatch"];
    const JsonLoc mat = at.Key("mismatch");
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
    r.mismatch = std::move(mm);
  }
  if (c.contains("diagnosis")) {
    r.diagnosis = Diagnosis{rd.Str(c["diagnosis"], at.Key("diagnosis"), "mistake"),
                            rd.Str(c["diagnosis"], at.Key("diagnosis"), "summary")};
    r.diagnosis->from_twin = c["diagnosis"].value("from_twin", false);
  }
  if (c.contains("replays")) {
    const json& rp = c["replays"];
    const JsonLoc rat = at.Key("replays");
    CaseResult::Replays replays;
    replays.count = static_cast<int>(rd.Int(rp, rat, "count"));
    replays.failed = static_cast<int>(rd.Int(rp, rat, "failed"));
    replays.first = ParseVerdict(rd.Str(rp, rat, "first_verdict")).value_or(Verdict::kHarnessError);
    r.replays = replays;
  }
  if (c.contains("shrunk")) {
    const json& s = c["shrunk"];
    const JsonLoc sat = at.Key("shrunk");
    CaseResult::Shrunk sh;
    sh.id = rd.Str(s, sat, "id");
    sh.from_elements = rd.Int(s, sat, "from_elements");
    sh.to_elements = rd.Int(s, sat, "to_elements");
    sh.attempts = static_cast<int>(rd.Int(s, sat, "attempts"));
    sh.budget_exhausted = rd.Bool(s, sat, "budget_exhausted");
    if (s.contains("vector_file")) sh.vector_file = rd.Str(s, sat, "vector_file");
    if (s.contains("repro")) sh.repro = rd.Str(s, sat, "repro");
    if (s.contains("case")) sh.case_text = rd.Str(s, sat, "case");
    for (size_t i = 0; s.contains("thresholds") && i < s["thresholds"].size(); ++i) {
      const json& t = s["thresholds"][i];
      const JsonLoc tat = sat.Key("thresholds").Index(i);
      sh.thresholds.push_back(
          {rd.Str(t, tat, "what"), rd.Int(t, tat, "fails_from"), rd.Int(t, tat, "passes_at")});
    }
    if (s.contains("diagnosis")) {
      sh.diagnosis = Diagnosis{rd.Str(s["diagnosis"], sat.Key("diagnosis"), "mistake"),
                               rd.Str(s["diagnosis"], sat.Key("diagnosis"), "summary")};
      sh.diagnosis->from_twin = s["diagnosis"].value("from_twin", false);
    }
    if (s.contains("source_map")) sh.source_map = ReadSourceMap(rd, s, sat);
    r.shrunk = std::move(sh);
  }
  if (c.contains("vector_file")) r.vector_file = rd.Str(c, at, "vector_file");
  if (c.contains("repro")) r.repro = rd.Str(c, at, "repro");
  if (c.contains("lane")) {
    r.lane = Parsed(rd, ParseCaseLane(rd.Str(c, at, "lane")), at.Key("lane"), CaseLane::kKernel);
  }
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
  return r;
}

std::string StaleKey(const json& s) { return s.dump(); }

}  // namespace

absl::StatusOr<std::unique_ptr<MergedReport>> MergeReports(const std::vector<json>& reports,
                                                           const std::vector<std::string>& files,
                                                           const std::string& command) {
  // One run's parts: equal options, one dmconf version, a whole shard set (shard_set.h).
  if (absl::Status s = CheckShardSet(reports, files); !s.ok()) return s;
  auto m = std::make_unique<MergedReport>();
  std::map<std::string, size_t> run_of;  // backend name -> index in m->runs
  // (backend, lane, case id) -> the report that has it. One run may hold an id twice (a vector
  // file and the catalogue can both have it); two reports may not.
  std::map<std::tuple<std::string, CaseLane, std::string>, size_t> seen;
  std::map<std::string, json> stale;  // entry -> entry, stale in every report so far
  std::map<std::string, int> stale_in;
  std::set<std::tuple<std::string, std::string, std::string>> file_errors;
  std::map<std::string, MutantExpectation> mutants;
  std::vector<std::string> mutant_order, shards;
  json options, first_options, first_run;
  std::string earliest;
  for (size_t f = 0; f < reports.size(); ++f) {
    const json& r = reports[f];
    const JsonLoc root{files[f], ""};
    Reader rd;
    json o = r["options"];
    if (o.contains("shard")) {
      shards.push_back(o["shard"].is_string() ? o["shard"].get<std::string>() : o["shard"].dump());
      o.erase("shard");
    }
    if (f == 0) first_options = o;  // the others are equal (CheckShardSet)
    const std::string time = rd.Str(r["run"], root.Key("run"), "time");
    if (earliest.empty() || time < earliest) earliest = time;
    if (f == 0) first_run = r["run"];
    const json& backends = r["backends"];
    for (size_t b = 0; b < backends.size(); ++b) {
      const JsonLoc bat = root.Key("backends").Index(b);
      const json& bj = backends[b];
      const std::string name = rd.Str(bj, bat, "name");
      Capabilities caps = ReadCapabilities(
          rd, rd.Get(bj, bat, "capabilities", json::value_t::object), bat.Key("capabilities"));
      if (!rd.status().ok()) return rd.status();
      auto [it, fresh] = run_of.emplace(name, m->runs.size());
      if (fresh) {
        BackendRun run;
        run.backend = name;
        run.capabilities = caps;
        run.startup_error = rd.Str(bj, bat, "startup_error");
        if (bj.contains("library")) run.library = rd.Str(bj, bat, "library");
        if (caps.kernels) run.slices = DeclaredSlices(caps);  // none: no kernel lane
        m->runs.push_back(std::move(run));
      }
      BackendRun& run = m->runs[it->second];
      if (!fresh) {
        // Compare what the writer would write: the capabilities as read.
        const bool same = caps.infer_static == run.capabilities.infer_static &&
                          caps.kernels == run.capabilities.kernels &&
                          caps.infer_partial == run.capabilities.infer_partial &&
                          caps.ops.size() == run.capabilities.ops.size() &&
                          std::equal(caps.ops.begin(), caps.ops.end(), run.capabilities.ops.begin(),
                                     [](const OpSupport& a, const OpSupport& b) {
                                       return a.op == b.op && a.element_types == b.element_types &&
                                              a.min_rank == b.min_rank &&
                                              a.max_rank == b.max_rank && a.modes == b.modes &&
                                              a.notes == b.notes;
                                     });
        if (!same) {
          return LocError("report.merge.capabilities_differ", bat.Key("capabilities"),
                          absl::StrCat("backend ", name, " declares other capabilities in ",
                                       files[0], " or an earlier report"));
        }
      }
      const json& slices = rd.Arr(bj, bat, "slices");
      if (rd.status().ok() && slices.size() != run.slices.size()) {
        rd.Fail("report.field.value", bat.Key("slices"), "one slice per capabilities.ops entry");
      }
      for (size_t s = 0; s < slices.size() && rd.status().ok(); ++s) {
        const JsonLoc sat = bat.Key("slices").Index(s);
        rd.AddCount(&run.slices[s].in_slice, rd.NonNegative(slices[s], sat, "cases_in_run"),
                    sat.Key("cases_in_run"));
        rd.AddCount(&run.slices[s].ran, rd.NonNegative(slices[s], sat, "ran"), sat.Key("ran"));
        rd.AddCount(&run.slices[s].unsupported, rd.NonNegative(slices[s], sat, "unsupported"),
                    sat.Key("unsupported"));
      }
      const json& cases = rd.Arr(bj, bat, "cases");
      for (size_t c = 0; c < cases.size() && rd.status().ok(); ++c) {
        CaseResult cr = ReadCase(rd, cases[c], bat.Key("cases").Index(c), m->known);
        auto [where, added] = seen.emplace(std::make_tuple(name, cr.lane, cr.id), f);
        if (!added && where->second != f) {
          return LocError(
              "report.merge.duplicate_case", bat.Key("cases").Index(c),
              absl::StrCat("backend ", name, " ran case ", cr.id, " in ", files[where->second],
                           " already (the same shard twice, or overlapping runs)"));
        }
        run.results.push_back(std::move(cr));
      }
      if (r["run"].contains("backend_seconds") && r["run"]["backend_seconds"].is_object() &&
          r["run"]["backend_seconds"].contains(name) &&
          r["run"]["backend_seconds"][name].is_number()) {
        run.seconds += r["run"]["backend_seconds"][name].get<double>();
      }
      if (!rd.status().ok()) return rd.status();
    }
    if (r.contains("stale_expectations")) {
      for (const json& s : r["stale_expectations"]) {
        stale[StaleKey(s)] = s;
        ++stale_in[StaleKey(s)];
      }
    }
    if (r.contains("file_errors")) {
      for (const json& e : r["file_errors"]) {
        const auto key =
            std::make_tuple(e.value("file", ""), e.value("rule", ""), e.value("message", ""));
        if (file_errors.insert(key).second) {
          m->input.file_errors.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key)});
        }
      }
    }
    if (r.contains("mutation")) {
      const JsonLoc mat = root.Key("mutation");
      const json& list = rd.Arr(r["mutation"], mat, "mutants");
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
            rd.Fail("report.verdict.unknown", at.Key("expected_verdicts").Index(k),
                    "not a verdict");
          else
            e.expected_verdicts.push_back(*v);
        }
        if (!mutants.count(e.backend)) mutant_order.push_back(e.backend);
        mutants[e.backend] = std::move(e);
      }
      if (!rd.status().ok()) return rd.status();
    }
  }
  for (const std::string& b : mutant_order) m->input.mutants.push_back(mutants[b]);
  for (const auto& [key, s] : stale) {
    if (stale_in[key] != static_cast<int>(reports.size())) continue;
    KnownFailure& k = m->known.emplace_back();
    k.source = s.value("source", "");
    k.backend = s.value("backend", "");
    k.case_pattern = s.value("case", "");
    k.rule_pattern = s.value("rule", "");
    k.verdict = ParseVerdict(s.value("verdict", ""));
    k.reason = s.value("reason", "");
    m->input.stale.push_back({&k});
  }
  std::sort(shards.begin(), shards.end());
  options = first_options;
  if (!shards.empty()) options["shards"] = shards;
  m->input.options = nlohmann::ordered_json(options);
  m->input.run_info = nlohmann::ordered_json::object();
  m->input.run_info["time"] = earliest;
  for (const char* key : {"host", "dmconf_version", "compiler"}) {
    m->input.run_info[key] = first_run.contains(key) && first_run[key].is_string()
                                 ? first_run[key].get<std::string>()
                                 : std::string();
  }
  m->input.run_info["command"] = command;
  m->input.runs = &m->runs;
  return m;
}

}  // namespace dmconf
