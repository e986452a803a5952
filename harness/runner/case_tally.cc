#include "harness/runner/case_tally.h"

#include <mutex>

#include "harness/base/parallel_ranges.h"

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
  unsupported += c.verdict == Verdict::kUnsupported && !c.failure;
  if (IsShapeLane(c.lane)) ++shape_lanes[c.lane][c.verdict];
}

namespace {

// `from` added into `into`, count by count, through maps of any depth: all that Merge does, so
// that what Add counts needs no second description here.
void AddInto(int64_t& into, int64_t from) { into += from; }
void AddInto(std::pair<int64_t, int64_t>& into, const std::pair<int64_t, int64_t>& from) {
  into.first += from.first;
  into.second += from.second;
}
void AddInto(StatusCell& into, const StatusCell& from) { into.Merge(from); }
void AddInto(SuiteCounts& into, const SuiteCounts& from) {
  into.tests += from.tests;
  into.failures += from.failures;
  into.skipped += from.skipped;
}
template <typename K, typename V>
void AddInto(std::map<K, V>& into, const std::map<K, V>& from) {
  for (const auto& [key, value] : from) AddInto(into[key], value);
}

}  // namespace

void CaseTally::Merge(const CaseTally& o) {
  AddInto(cases, o.cases);
  AddInto(run, o.run);
  AddInto(failures, o.failures);
  AddInto(known, o.known);
  AddInto(ok, o.ok);
  AddInto(pass_by_op, o.pass_by_op);
  AddInto(counts, o.counts);
  AddInto(cells, o.cells);
  AddInto(failing, o.failing);
  AddInto(suites, o.suites);
  AddInto(unsupported, o.unsupported);
  AddInto(shape_lanes, o.shape_lanes);
}

CaseTally TallyOf(const BackendRun& run, int threads) {
  CaseTally t;
  std::mutex mu;
  ForEachRange(run.results.size(), threads, [&](size_t begin, size_t end) {
    CaseTally part;
    for (size_t i = begin; i < end; ++i) part.Add(run.results[i]);
    const std::lock_guard<std::mutex> lock(mu);
    t.Merge(part);
  });
  return t;
}

}  // namespace dmconf
