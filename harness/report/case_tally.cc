#include "harness/report/case_tally.h"

namespace dmconf {

void StatusCell::Add(const CaseResult& c) {
  ++cases;
  if (c.known != nullptr) {
    ++known;
  } else if (c.failure) {
    ++failed;
  } else if (c.verdict == Verdict::kUnsupported) {
    ++unsupported;
  } else {
    ++passed;
  }
}

void StatusCell::Merge(const StatusCell& o) {
  cases += o.cases;
  passed += o.passed;
  failed += o.failed;
  known += o.known;
  unsupported += o.unsupported;
}

const char* StatusCell::Status() const {
  if (failed + known > 0) return "failing";
  return passed > 0 ? "implemented" : "unsupported";
}

const char* MatrixLane(const CaseResult& c) { return IsShapeLane(c.lane) ? "shape" : "kernel"; }

void CaseTally::Add(const CaseResult& c) {
  ++cases;
  failures += c.failure;
  known += c.known != nullptr;
  const bool fails = IsFailure(c.verdict, {});
  if (c.verdict != Verdict::kUnsupported) {
    ++run;
    std::pair<int64_t, int64_t>& p = pass_by_op[c.op];
    ++p.second;
    if (!fails) {
      ++p.first;
      ++ok;
    }
  }
  ++counts[c.op][c.type][c.verdict];
  cells[{c.op, c.type, c.rank, MatrixLane(c)}].Add(c);
  if (fails) ++failing[c.verdict];
  SuiteCounts& s = suites[c.op];
  ++s.tests;
  s.failures += c.failure;
  s.skipped += !c.failure && (c.verdict == Verdict::kUnsupported || c.known != nullptr);
}

void CaseTally::Merge(const CaseTally& o) {
  cases += o.cases;
  run += o.run;
  failures += o.failures;
  known += o.known;
  ok += o.ok;
  for (const auto& [op, p] : o.pass_by_op) {
    pass_by_op[op].first += p.first;
    pass_by_op[op].second += p.second;
  }
  for (const auto& [op, types] : o.counts) {
    for (const auto& [type, verdicts] : types) {
      for (const auto& [v, n] : verdicts) counts[op][type][v] += n;
    }
  }
  for (const auto& [key, cell] : o.cells) cells[key].Merge(cell);
  for (const auto& [v, n] : o.failing) failing[v] += n;
  for (const auto& [op, s] : o.suites) {
    SuiteCounts& into = suites[op];
    into.tests += s.tests;
    into.failures += s.failures;
    into.skipped += s.skipped;
  }
}

CaseTally TallyOf(const BackendRun& run) {
  CaseTally t;
  for (const CaseResult& c : run.results) t.Add(c);
  return t;
}

}  // namespace dmconf
