#include "harness/report/report_head.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/report/report.h"
#include "harness/report/report_fields.h"
#include "harness/runner/slice_coverage.h"

namespace dmconf::report_internal {
namespace {

using io::JsonLoc;
using nlohmann::json;
using Kind = FieldReader::Kind;

Capabilities ReadCapabilities(FieldReader& rd, const json& c, const JsonLoc& at) {
  Capabilities caps;
  caps.infer_static = rd.Bool(c, at, "infer_static");
  caps.infer_partial = rd.Bool(c, at, "infer_partial");
  if (rd.Has(c, "kernels")) caps.kernels = rd.Bool(c, at, "kernels");
  const json& ops = rd.Arr(c, at, "ops");
  for (size_t i = 0; i < ops.size() && rd.ok(); ++i) {
    const json& op = rd.At(ops, at.Key("ops"), i, Kind::kObject);
    const JsonLoc o = at.Key("ops").Index(i);
    OpSupport& s = caps.ops.emplace_back();
    s.op = rd.Parsed(ParseOp(rd.Str(op, o, "op")), o.Key("op"), Op::kSpaceToDepth);
    const std::vector<std::string> types = rd.Strs(op, o, "element_types");
    for (size_t t = 0; t < types.size() && rd.ok(); ++t) {
      s.element_types.insert(rd.Parsed(ParseElementType(types[t]), o.Key("element_types").Index(t),
                                       ElementType::kF32));
    }
    s.min_rank = static_cast<int>(rd.NonNegative(op, o, "min_rank", INT32_MAX));
    s.max_rank = static_cast<int>(rd.NonNegative(op, o, "max_rank", INT32_MAX));
    for (std::string& m : rd.Strs(op, o, "modes")) s.modes.insert(std::move(m));
    s.notes = rd.Str(op, o, "notes");
  }
  return caps;
}

// The blocks a backend's counts are drawn from, which the reader checks but does not keep
// (merge and the page recompute them from the cases): totals, counts (op -> element type ->
// verdict -> number) and status_matrix (absent from reports written before it).
void CheckDrawnBlocks(FieldReader& rd, const json& b, const JsonLoc& at) {
  const json& totals = rd.Obj(b, at, "totals");
  for (const char* key : {"cases", "run", "unsupported", "new_failures", "known_failures"}) {
    rd.Int(totals, at.Key("totals"), key);
  }
  const JsonLoc cat = at.Key("counts");
  for (const auto& [op, types] : rd.Obj(b, at, "counts").items()) {
    for (const auto& [type, verdicts] : rd.As(types, cat.Key(op), Kind::kObject).items()) {
      const JsonLoc tat = cat.Key(op).Key(type);
      for (const auto& [verdict, n] : rd.As(verdicts, tat, Kind::kObject).items()) {
        rd.VerdictNamed(verdict, tat.Key(verdict));
        if (rd.ok() && (!n.is_number_integer() || n.get<int64_t>() < 0)) {
          rd.Fail("report.field.type", tat.Key(verdict), "expected a count (integer >= 0)");
        }
      }
    }
  }
  if (!rd.Has(b, "status_matrix")) return;
  const json& matrix = rd.Arr(b, at, "status_matrix");
  for (size_t i = 0; i < matrix.size() && rd.ok(); ++i) {
    const json& m = rd.At(matrix, at.Key("status_matrix"), i, Kind::kObject);
    const JsonLoc mat = at.Key("status_matrix").Index(i);
    for (const char* key : {"op", "element_type", "lane", "status"}) rd.Str(m, mat, key);
    for (const char* key : {"rank", "cases"}) rd.Int(m, mat, key);
  }
}

// The slices' counts: one slice per capabilities.ops entry, none without kernels.
void ReadSlices(FieldReader& rd, const json& b, const JsonLoc& at, BackendRun& run) {
  if (run.capabilities.kernels) run.slices = DeclaredSlices(run.capabilities);
  const json& slices = rd.Arr(b, at, "slices");
  if (rd.ok() && slices.size() != run.slices.size()) {
    rd.Fail("report.field.value", at.Key("slices"), "one slice per capabilities.ops entry");
  }
  for (size_t i = 0; i < slices.size() && rd.ok(); ++i) {
    const json& s = rd.At(slices, at.Key("slices"), i, Kind::kObject);
    const JsonLoc sat = at.Key("slices").Index(i);
    rd.Str(s, sat, "slice");
    rd.Str(s, sat, "op");
    rd.Bool(s, sat, "unexercised");
    run.slices[i].in_slice = rd.NonNegative(s, sat, "cases_in_run");
    run.slices[i].ran = rd.NonNegative(s, sat, "ran");
    run.slices[i].unsupported = rd.NonNegative(s, sat, "unsupported");
  }
}

BackendRun ReadBackend(FieldReader& rd, const json& b, const JsonLoc& at, const json& run_block) {
  BackendRun run;
  run.backend = rd.Str(b, at, "name");
  run.startup_error = rd.Str(b, at, "startup_error");
  if (rd.Has(b, "worker_errors")) run.worker_errors = rd.Strs(b, at, "worker_errors");
  if (rd.Has(b, "library")) run.library = rd.Str(b, at, "library");
  CheckDrawnBlocks(rd, b, at);
  run.capabilities = ReadCapabilities(rd, rd.Obj(b, at, "capabilities"), at.Key("capabilities"));
  ReadSlices(rd, b, at, run);
  // The streamed reader has taken the cases out (report_stream.h), and decodes each itself.
  rd.Arr(b, at, "cases");
  // The wall time is not checked: it is the run block's, which nothing judges.
  const auto seconds = run_block.find("backend_seconds");
  if (seconds != run_block.end() && seconds->is_object()) {
    const auto it = seconds->find(run.backend);
    if (it != seconds->end() && it->is_number()) run.seconds = it->get<double>();
  }
  return run;
}

// "run": the time is required (a merge takes the earliest); the rest reads as "" when absent.
RunInfo ReadRunInfo(FieldReader& rd, const json& r, const JsonLoc& at) {
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
void ReadOptions(FieldReader& rd, const json& o, const JsonLoc& at, RunReport& out) {
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
  out.shard = rd.Parsed(s, at.Key("shard"), Shard{});
  out.options.erase(it);
}

void ReadMutants(FieldReader& rd, const json& mutation, const JsonLoc& at, RunReport& out) {
  const json& list = rd.Arr(mutation, at, "mutants");
  for (size_t i = 0; i < list.size() && rd.ok(); ++i) {
    const json& m = rd.At(list, at.Key("mutants"), i, Kind::kObject);
    const JsonLoc mat = at.Key("mutants").Index(i);
    MutantExpectation& e = out.mutants.emplace_back();
    e.backend = rd.Str(m, mat, "backend");
    e.description = rd.Str(m, mat, "description");
    const std::vector<std::string> verdicts = rd.Strs(m, mat, "expected_verdicts");
    for (size_t k = 0; k < verdicts.size() && rd.ok(); ++k) {
      const Verdict v = rd.VerdictNamed(verdicts[k], mat.Key("expected_verdicts").Index(k));
      if (rd.ok()) e.expected_verdicts.push_back(v);
    }
  }
}

// "stale_expectations" and "file_errors": lists of objects whose members are all strings; an
// absent member reads as "".
std::vector<std::map<std::string, std::string>> ReadTextRecords(FieldReader& rd, const json& j,
                                                                const JsonLoc& root,
                                                                const char* key) {
  std::vector<std::map<std::string, std::string>> out;
  if (!rd.Has(j, key)) return out;
  const json& list = rd.Arr(j, root, key);
  for (size_t i = 0; i < list.size() && rd.ok(); ++i) {
    const json& e = rd.At(list, root.Key(key), i, Kind::kObject);
    std::map<std::string, std::string>& record = out.emplace_back();
    for (const auto& [k, v] : e.items()) record[k] = rd.Str(e, root.Key(key).Index(i), k);
  }
  return out;
}

void ReadListed(FieldReader& rd, const json& j, const JsonLoc& root, RunReport& out) {
  const auto stale = ReadTextRecords(rd, j, root, "stale_expectations");
  for (size_t i = 0; i < stale.size() && rd.ok(); ++i) {
    const auto text = [&](const char* key) {
      const auto it = stale[i].find(key);
      return it == stale[i].end() ? std::string() : it->second;
    };
    KnownFailure& k = out.known.emplace_back();
    k.source = text("source");
    k.backend = text("backend");
    k.case_pattern = text("case");
    k.rule_pattern = text("rule");
    k.reason = text("reason");
    const std::string verdict = text("verdict");
    if (!verdict.empty()) {
      k.verdict = rd.VerdictNamed(verdict, root.Key("stale_expectations").Index(i).Key("verdict"));
    }
    out.stale.push_back({&k});
  }
  for (auto& e : ReadTextRecords(rd, j, root, "file_errors")) {
    out.file_errors.push_back({e["file"], e["rule"], e["message"]});
  }
}

}  // namespace

absl::Status ReadReportHead(const json& head, const JsonLoc& root, RunReport& out) {
  if (!head.is_object()) return io::LocError("report.field.type", root, "expected an object");
  const auto format = head.find("format");
  if (format == head.end() || !format->is_string() || format->get<std::string>() != kReportFormat) {
    return io::LocError("report.format", root.Key("format"),
                        absl::StrCat("\"format\" must be \"", kReportFormat, "\""));
  }
  FieldReader rd;
  const json& run = rd.Obj(head, root, "run");
  const json& options = rd.Obj(head, root, "options");
  const json& summary = rd.Obj(head, root, "summary");
  for (const char* key : {"backends", "cases", "new_failures", "known_failures"}) {
    rd.Int(summary, root.Key("summary"), key);
  }
  const json& backends = rd.Arr(head, root, "backends");
  out.run = ReadRunInfo(rd, run, root.Key("run"));
  ReadOptions(rd, options, root.Key("options"), out);
  for (size_t b = 0; b < backends.size() && rd.ok(); ++b) {
    const json& backend = rd.At(backends, root.Key("backends"), b, Kind::kObject);
    out.backends.push_back(ReadBackend(rd, backend, root.Key("backends").Index(b), run));
  }
  ReadListed(rd, head, root, out);
  if (rd.Has(head, "mutation")) {
    ReadMutants(rd, rd.Obj(head, root, "mutation"), root.Key("mutation"), out);
  }
  return rd.status();
}

}  // namespace dmconf::report_internal
