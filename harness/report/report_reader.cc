#include "harness/report/report_reader.h"

#include <optional>
#include <string>

#include "harness/backend/case_class.h"
#include "harness/backend/verdict.h"
#include "harness/report/report_fields.h"
#include "harness/report/source_map.h"

namespace dmconf {
namespace {

using io::JsonLoc;
using nlohmann::json;
using report_internal::FieldReader;
using Kind = FieldReader::Kind;

Diagnosis ReadDiagnosis(FieldReader& rd, const json& d, const JsonLoc& at) {
  Diagnosis out;
  out.mistake = rd.Str(d, at, "mistake");
  out.summary = rd.Str(d, at, "summary");
  // Whether it came from diagnostic twins (harness/compare/twin.h); absent: it did not.
  if (rd.Has(d, "from_twin")) out.from_twin = rd.Bool(d, at, "from_twin");
  return out;
}

Invocation ReadInvocation(FieldReader& rd, const json& inv, const JsonLoc& at) {
  Invocation out;
  out.attributes = rd.Str(inv, at, "attributes");
  const json& inputs = rd.Arr(inv, at, "inputs");
  for (size_t i = 0; i < inputs.size() && rd.ok(); ++i) {
    const json& in = rd.At(inputs, at.Key("inputs"), i, Kind::kObject);
    const JsonLoc n = at.Key("inputs").Index(i);
    CaseInput& c = out.inputs.emplace_back();
    c.name = rd.Str(in, n, "name");
    c.type = rd.Parsed(ParseElementType(rd.Str(in, n, "element_type")), n.Key("element_type"),
                       ElementType::kF32);
    c.shape = rd.Ints(in, n, "shape");
    if (rd.Has(in, "partial_shape")) c.partial_shape = rd.Str(in, n, "partial_shape");
  }
  return out;
}

Mismatch ReadMismatch(FieldReader& rd, const json& m, const JsonLoc& at) {
  Mismatch out;
  out.index = rd.Ints(m, at, "index");
  out.shape = rd.Ints(m, at, "shape");
  const json& listed = rd.Arr(m, at, "listed");
  out.expected_bits = rd.Bits(rd.Str(m, at, "expected_bits"), at.Key("expected_bits"));
  out.actual_bits = rd.Bits(rd.Str(m, at, "actual_bits"), at.Key("actual_bits"));
  out.differing = rd.Int(m, at, "differing");
  out.total = rd.Int(m, at, "total");
  for (size_t i = 0; i < listed.size() && rd.ok(); ++i) {
    const json& w = listed[i];
    const JsonLoc wat = at.Key("listed").Index(i);
    if (!w.is_array() || w.size() != 3 || !w[0].is_number_integer() || !w[1].is_string() ||
        !w[2].is_string()) {
      rd.Fail("report.field.type", wat, "expected [flat index, expected bits, actual bits]");
      break;
    }
    out.listed.push_back({w[0].get<int64_t>(), rd.Bits(w[1].get<std::string>(), wat.Index(1)),
                          rd.Bits(w[2].get<std::string>(), wat.Index(2))});
  }
  return out;
}

CaseResult::Replays ReadReplays(FieldReader& rd, const json& r, const JsonLoc& at) {
  CaseResult::Replays out;
  out.count = static_cast<int>(rd.Ranged(r, at, "count", INT32_MIN, INT32_MAX));
  out.failed = static_cast<int>(rd.Ranged(r, at, "failed", INT32_MIN, INT32_MAX));
  out.first = rd.VerdictOf(r, at, "first_verdict");
  return out;
}

// shrunk.source_map, which the page draws: four integer arrays (source_map.h), one entry per
// output element (at most kMaxSourceMapElements) in holds and expected.
CaseResult::Shrunk::SourceMap ReadSourceMap(FieldReader& rd, const json& m, const JsonLoc& at) {
  CaseResult::Shrunk::SourceMap out;
  out.shape = rd.Ints(m, at, "shape");
  out.input_shape = rd.Ints(m, at, "input_shape");
  out.holds = rd.Ints(m, at, "holds");
  out.expected = rd.Ints(m, at, "expected");
  if (rd.ok() && (out.holds.size() != out.expected.size() ||
                  static_cast<int64_t>(out.holds.size()) > kMaxSourceMapElements)) {
    rd.Fail("report.field.value", at.Key("holds"),
            "holds and expected: one entry per output element, at most 64");
  }
  return out;
}

// witness: the instance proving an unsound_shape verdict (harness/compare/shape_judge.h).
CaseResult::Witness ReadWitness(FieldReader& rd, const json& w, const JsonLoc& at) {
  CaseResult::Witness out;
  out.instance = rd.Str(w, at, "instance");
  out.output = rd.Ints(w, at, "output");
  if (rd.Has(w, "case_file")) out.case_file = rd.Str(w, at, "case_file");
  if (rd.Has(w, "repro")) out.repro = rd.Str(w, at, "repro");
  return out;
}

CaseResult::Shrunk ReadShrunk(FieldReader& rd, const json& s, const JsonLoc& at) {
  CaseResult::Shrunk out;
  out.id = rd.Str(s, at, "id");
  out.from_elements = rd.Int(s, at, "from_elements");
  out.to_elements = rd.Int(s, at, "to_elements");
  out.attempts = static_cast<int>(rd.Ranged(s, at, "attempts", INT32_MIN, INT32_MAX));
  out.budget_exhausted = rd.Bool(s, at, "budget_exhausted");
  if (rd.Has(s, "vector_file")) out.vector_file = rd.Str(s, at, "vector_file");
  if (rd.Has(s, "repro")) out.repro = rd.Str(s, at, "repro");
  if (rd.Has(s, "case")) out.case_text = rd.Str(s, at, "case");
  if (rd.Has(s, "thresholds")) {
    const json& list = rd.Arr(s, at, "thresholds");
    for (size_t i = 0; i < list.size() && rd.ok(); ++i) {
      const json& t = rd.At(list, at.Key("thresholds"), i, Kind::kObject);
      const JsonLoc tat = at.Key("thresholds").Index(i);
      out.thresholds.push_back(
          {rd.Str(t, tat, "what"), rd.Int(t, tat, "fails_from"), rd.Int(t, tat, "passes_at")});
    }
  }
  if (rd.Has(s, "diagnosis")) {
    out.diagnosis = ReadDiagnosis(rd, rd.Obj(s, at, "diagnosis"), at.Key("diagnosis"));
  }
  if (rd.Has(s, "source_map")) {
    out.source_map = ReadSourceMap(rd, rd.Obj(s, at, "source_map"), at.Key("source_map"));
  }
  return out;
}

// The counterpart of the writer's CaseJson (report.cc), one line per member: what each must
// be is what it is read as.
CaseResult ReadCase(FieldReader& rd, const json& c, const JsonLoc& at,
                    std::deque<KnownFailure>& known) {
  CaseResult r;
  if (!c.is_object()) {
    rd.Fail("report.field.type", at, "expected an object");
    return r;
  }
  r.id = rd.Str(c, at, "id");
  r.op = rd.Parsed(ParseOp(rd.Str(c, at, "op")), at.Key("op"), Op::kSpaceToDepth);
  r.type = rd.Parsed(ParseElementType(rd.Str(c, at, "element_type")), at.Key("element_type"),
                     ElementType::kF32);
  r.expected = rd.Parsed(ParseExpectedClass(rd.Str(c, at, "expected")), at.Key("expected"),
                         ExpectedClass::kMalformed);
  r.rule = rd.Str(c, at, "rule");
  r.verdict = rd.VerdictOf(c, at, "verdict");
  r.detail = rd.Str(c, at, "detail");
  r.failure = rd.Bool(c, at, "failure");
  // The data's rank (-1: a shape case of unknown rank), for the status matrix; reports
  // written before it was recorded have none (-1).
  if (rd.Has(c, "rank")) r.rank = static_cast<int>(rd.Ranged(c, at, "rank", -1, 64));
  if (rd.Has(c, "lane")) {
    r.lane = rd.Parsed(ParseCaseLane(rd.Str(c, at, "lane")), at.Key("lane"), CaseLane::kKernel);
  }
  if (rd.Has(c, "vector_file")) r.vector_file = rd.Str(c, at, "vector_file");
  if (rd.Has(c, "repro")) r.repro = rd.Str(c, at, "repro");
  if (rd.Has(c, "backend_output")) r.backend_output = rd.Str(c, at, "backend_output");
  if (rd.Has(c, "known")) {
    const json& k = rd.Obj(c, at, "known");
    KnownFailure& entry = known.emplace_back();
    entry.reason = rd.Str(k, at.Key("known"), "reason");
    entry.link = rd.Str(k, at.Key("known"), "link");
    r.known = &entry;
  }
  if (rd.Has(c, "diagnosis")) {
    r.diagnosis = ReadDiagnosis(rd, rd.Obj(c, at, "diagnosis"), at.Key("diagnosis"));
  }
  if (rd.Has(c, "replays")) {
    r.replays = ReadReplays(rd, rd.Obj(c, at, "replays"), at.Key("replays"));
  }
  if (rd.Has(c, "witness")) {
    r.witness = ReadWitness(rd, rd.Obj(c, at, "witness"), at.Key("witness"));
  }
  if (rd.Has(c, "shrunk")) r.shrunk = ReadShrunk(rd, rd.Obj(c, at, "shrunk"), at.Key("shrunk"));
  if (rd.Has(c, "invocation")) {
    r.invocation = ReadInvocation(rd, rd.Obj(c, at, "invocation"), at.Key("invocation"));
  }
  if (rd.Has(c, "mismatch")) {
    r.mismatch = ReadMismatch(rd, rd.Obj(c, at, "mismatch"), at.Key("mismatch"));
  }
  return r;
}

}  // namespace

absl::StatusOr<CaseResult> DecodeCase(const json& c, const JsonLoc& at,
                                      std::deque<KnownFailure>& known) {
  FieldReader rd;
  CaseResult r = ReadCase(rd, c, at, known);
  if (!rd.ok()) return rd.status();
  return r;
}

}  // namespace dmconf
