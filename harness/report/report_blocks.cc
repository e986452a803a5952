#include "harness/report/report_blocks.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "harness/report/status_matrix.h"
#include "harness/runner/run_verdict.h"
#include "harness/runner/slice_coverage.h"

namespace dmconf {
namespace {

using Json = nlohmann::ordered_json;

double Rate(int64_t ok, int64_t run) {
  if (run == 0) return 1.0;
  // Six decimals: stable text across platforms.
  return static_cast<double>(
             static_cast<int64_t>(static_cast<double>(ok) * 1e6 / static_cast<double>(run) + 0.5)) /
         1e6;
}

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

// Cases that ran (not unsupported) are the denominator; those not failing, the numerator.
Json PassRatesJson(const CaseTally& t) {
  std::map<std::string, std::pair<int64_t, int64_t>> by_op;  // ok, run; sorted by name
  for (const auto& [op, p] : t.pass_by_op) by_op[std::string(OpName(op))] = p;
  Json rates_by_op = Json::object();
  for (const auto& [op, p] : by_op) rates_by_op[op] = Rate(p.first, p.second);
  return Json{{"overall", Rate(t.ok, t.run)}, {"by_op", rates_by_op}};
}

}  // namespace

Json BackendTotalsJson(const BackendRun& r) { return BackendTotalsJson(TallyOf(r)); }

Json BackendTotalsJson(const CaseTally& t) {
  return Json{{"cases", t.cases},
              {"run", t.run},
              {"unsupported", t.cases - t.run},
              {"new_failures", t.failures},
              {"known_failures", t.known}};
}

Json SlicesJson(const BackendRun& r) {
  Json slices = Json::array();
  for (const SliceCoverage& s : r.slices) {
    slices.push_back(Json{{"slice", SliceLabel(s.slice)},
                          {"op", std::string(OpName(s.slice.op))},
                          {"cases_in_run", s.in_slice},
                          {"ran", s.ran},
                          {"unsupported", s.unsupported},
                          {"unexercised", s.Unexercised()}});
  }
  return slices;
}

Json VerdictCountsJson(const BackendRun& r) { return VerdictCountsJson(TallyOf(r)); }

Json VerdictCountsJson(const CaseTally& t) {
  // Sorted by name at each level.
  std::map<std::string, std::map<std::string, std::map<std::string, int64_t>>> sorted;
  for (const auto& [op, types] : t.counts) {
    for (const auto& [type, verdicts] : types) {
      for (const auto& [v, n] : verdicts) {
        sorted[std::string(OpName(op))][std::string(ElementTypeName(type))]
              [std::string(VerdictName(v))] = n;
      }
    }
  }
  Json counts = Json::object();
  for (const auto& [op, types] : sorted) {
    Json tj = Json::object();
    for (const auto& [type, verdicts] : types) {
      Json v = Json::object();
      for (const auto& [name, n] : verdicts) v[name] = n;
      tj[type] = v;
    }
    counts[op] = tj;
  }
  return counts;
}

Json CasesJson(const BackendRun& r, const CaseFilter& keep) {
  Json cases = Json::array();
  for (const CaseResult& c : r.results) {
    if (!keep || keep(c)) cases.push_back(CaseJson(c));
  }
  return cases;
}

Json BackendHeadJson(const BackendRun& r) { return BackendHeadJson(r, TallyOf(r)); }

Json BackendHeadJson(const BackendRun& r, const CaseTally& t) {
  Json out{{"name", r.backend}};
  if (!r.library.empty()) out["library"] = r.library;
  out["startup_error"] = r.startup_error;
  if (!r.worker_errors.empty()) out["worker_errors"] = r.worker_errors;
  out["capabilities"] = CapabilitiesJson(r.capabilities);
  out["totals"] = BackendTotalsJson(t);
  out["pass_rates"] = PassRatesJson(t);
  out["slices"] = SlicesJson(r);
  out["counts"] = VerdictCountsJson(t);
  out["status_matrix"] = StatusMatrixJson(t.cells);
  out["cases"] = Json::array();
  return out;
}

Json RunBlockJson(const ReportInput& in) {
  Json seconds = Json::object();
  for (const BackendRun& r : *in.runs) seconds[r.backend] = r.seconds;
  Json run_info = in.run_info;
  run_info["backend_seconds"] = seconds;
  return run_info;
}

Json SummaryJson(const ReportInput& in) {
  int64_t cases = 0, failures = 0, known = 0;
  for (size_t k = 0; k < in.runs->size(); ++k) {
    const CaseTally t = RunTally(in, k);
    cases += t.cases;
    failures += t.failures;
    known += t.known;
  }
  return Json{{"backends", in.runs->size()},
              {"cases", cases},
              {"new_failures", failures},
              {"known_failures", known},
              {"file_errors", in.file_errors.size()},
              {"unexercised_slices", CountUnexercisedSlices(*in.runs)},
              {"stale_expectations", in.stale.size()}};
}

Json FileErrorsJson(const std::vector<FileError>& errors) {
  Json list = Json::array();
  for (const FileError& e : errors) {
    list.push_back(Json{{"file", e.file}, {"rule", e.rule}, {"message", e.message}});
  }
  return list;
}

Json StaleExpectationsJson(const std::vector<StaleExpectation>& stale) {
  Json list = Json::array();
  for (const StaleExpectation& s : stale) {
    const KnownFailure& k = *s.entry;
    list.push_back(Json{{"source", k.source},
                        {"backend", k.backend},
                        {"case", k.case_pattern},
                        {"rule", k.rule_pattern},
                        {"verdict", k.verdict ? std::string(VerdictName(*k.verdict)) : ""},
                        {"reason", k.reason}});
  }
  return list;
}

Json MutationJson(const ReportInput& in) {
  Json list = Json::array();
  int64_t killed = 0;
  for (const MutantExpectation& m : in.mutants) {
    for (size_t k = 0; k < in.runs->size(); ++k) {
      if ((*in.runs)[k].backend != m.backend) continue;
      MutantScore s = ScoreMutant(RunTally(in, k), m);
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
  return Json{
      {"killed", killed}, {"total", total}, {"score", Rate(killed, total)}, {"mutants", list}};
}

}  // namespace dmconf
