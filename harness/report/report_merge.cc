#include "harness/report/report_merge.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "harness/base/json_location.h"
#include "harness/report/shard_set.h"

namespace dmconf {
namespace {

using io::JsonLoc;
using io::LocError;

// What the writer would write of two backends' capabilities is the same.
bool SameCapabilities(const Capabilities& a, const Capabilities& b) {
  return a.infer_static == b.infer_static && a.kernels == b.kernels &&
         a.infer_partial == b.infer_partial && a.ops.size() == b.ops.size() &&
         std::equal(a.ops.begin(), a.ops.end(), b.ops.begin(),
                    [](const OpSupport& x, const OpSupport& y) {
                      return x.op == y.op && x.element_types == y.element_types &&
                             x.min_rank == y.min_rank && x.max_rank == y.max_rank &&
                             x.modes == y.modes && x.notes == y.notes;
                    });
}

// Adds a shard's count to the merged one; a sum above 2^63-1 is refused, never wrapped.
absl::Status AddCount(int64_t* into, int64_t v, const JsonLoc& at) {
  if (__builtin_add_overflow(*into, v, into)) {
    return LocError("report.merge.count_overflow", at,
                    "the merged count would exceed 2^63-1; these reports cannot all be true");
  }
  return absl::OkStatus();
}

absl::Status AddSlices(const BackendRun& from, const JsonLoc& bat, BackendRun& into) {
  for (size_t s = 0; s < from.slices.size(); ++s) {
    const JsonLoc sat = bat.Key("slices").Index(s);
    SliceCoverage& to = into.slices[s];
    absl::Status st = AddCount(&to.in_slice, from.slices[s].in_slice, sat.Key("cases_in_run"));
    if (st.ok()) st = AddCount(&to.ran, from.slices[s].ran, sat.Key("ran"));
    if (st.ok()) st = AddCount(&to.unsupported, from.slices[s].unsupported, sat.Key("unsupported"));
    if (!st.ok()) return st;
  }
  return absl::OkStatus();
}

using StaleKey = std::tuple<std::string, std::string, std::string, std::string, std::string,
                            std::string>;  // backend, case, reason, rule, source, verdict

StaleKey KeyOf(const KnownFailure& k) {
  return {k.backend, k.case_pattern,
          k.reason,  k.rule_pattern,
          k.source,  k.verdict ? std::string(VerdictName(*k.verdict)) : std::string()};
}

// The merge in progress: reports are added one after the other.
class Merger {
 public:
  Merger(const std::vector<std::string>& files, RunReport& m) : files_(files), m_(m) {}

  absl::Status Add(RunReport& r, size_t f) {
    if (f == 0) {
      m_.run = r.run;
      m_.options = r.options;  // the others are equal (CheckShardSet)
      m_.rules = r.rules;      // decoded from the options
      m_.shards = r.shards;
    }
    if (m_.run.time.empty() || r.run.time < m_.run.time) m_.run.time = r.run.time;
    if (r.shard.has_value()) shards_.push_back(absl::StrCat(r.shard->index, "/", r.shard->count));
    for (size_t b = 0; b < r.backends.size(); ++b) {
      const JsonLoc bat = JsonLoc{files_[f], ""}.Key("backends").Index(b);
      if (absl::Status s = AddBackend(r.backends[b], bat, f); !s.ok()) return s;
    }
    for (const StaleExpectation& s : r.stale) {
      const StaleKey key = KeyOf(*s.entry);
      stale_.emplace(key, s.entry);
      ++stale_in_[key];
    }
    for (const FileError& e : r.file_errors) {
      if (file_errors_.insert({e.file, e.rule, e.message}).second) m_.file_errors.push_back(e);
    }
    for (MutantExpectation& e : r.mutants) {
      if (!mutants_.count(e.backend)) mutant_order_.push_back(e.backend);
      mutants_[e.backend] = std::move(e);
    }
    return absl::OkStatus();
  }

  // `reports` are still alive: the stale entries point into them.
  void Finish(const std::string& command, size_t reports) {
    for (const std::string& b : mutant_order_) m_.mutants.push_back(std::move(mutants_[b]));
    for (const auto& [key, entry] : stale_) {
      if (stale_in_[key] != static_cast<int>(reports)) continue;
      m_.stale.push_back({&m_.known.emplace_back(*entry)});
    }
    std::sort(shards_.begin(), shards_.end());
    if (!shards_.empty()) m_.shards = std::move(shards_);
    m_.shard.reset();
    m_.run.command = command;
  }

 private:
  absl::Status AddBackend(BackendRun& from, const JsonLoc& bat, size_t f) {
    const std::string& name = from.backend;
    auto [it, fresh] = run_of_.emplace(name, m_.backends.size());
    if (fresh) {
      BackendRun& run = m_.backends.emplace_back();
      run.backend = name;
      run.library = from.library;
      run.capabilities = from.capabilities;
      run.startup_error = from.startup_error;
      if (run.capabilities.kernels) run.slices = DeclaredSlices(run.capabilities);
    }
    BackendRun& run = m_.backends[it->second];
    if (!fresh && !SameCapabilities(from.capabilities, run.capabilities)) {
      return LocError("report.merge.capabilities_differ", bat.Key("capabilities"),
                      absl::StrCat("backend ", name, " declares other capabilities in ", files_[0],
                                   " or an earlier report"));
    }
    if (absl::Status s = AddSlices(from, bat, run); !s.ok()) return s;
    for (size_t c = 0; c < from.results.size(); ++c) {
      CaseResult& cr = from.results[c];
      auto [where, added] = seen_.emplace(std::make_tuple(name, cr.lane, cr.id), f);
      if (!added && where->second != f) {
        return LocError(
            "report.merge.duplicate_case", bat.Key("cases").Index(c),
            absl::StrCat("backend ", name, " ran case ", cr.id, " in ", files_[where->second],
                         " already (the same shard twice, or overlapping runs)"));
      }
      if (cr.known != nullptr) cr.known = &m_.known.emplace_back(*cr.known);
      run.results.push_back(std::move(cr));
    }
    run.seconds += from.seconds;
    return absl::OkStatus();
  }

  const std::vector<std::string>& files_;
  RunReport& m_;
  std::map<std::string, size_t> run_of_;  // backend name -> index in m_.backends
  // (backend, lane, case id) -> the report that has it. One run may hold an id twice (a vector
  // file and the catalogue can both have it); two reports may not.
  std::map<std::tuple<std::string, CaseLane, std::string>, size_t> seen_;
  std::map<StaleKey, const KnownFailure*> stale_;  // stale in some report
  std::map<StaleKey, int> stale_in_;               // in how many
  std::set<std::tuple<std::string, std::string, std::string>> file_errors_;
  std::map<std::string, MutantExpectation> mutants_;
  std::vector<std::string> mutant_order_, shards_;
};

}  // namespace

absl::StatusOr<RunReport> MergeReports(std::vector<RunReport> reports,
                                       const std::vector<std::string>& files,
                                       const std::string& command) {
  // One run's parts: equal options, one dmconf version, a whole shard set (shard_set.h).
  if (absl::Status s = CheckShardSet(reports, files); !s.ok()) return s;
  RunReport m;
  Merger merger(files, m);
  for (size_t f = 0; f < reports.size(); ++f) {
    if (absl::Status s = merger.Add(reports[f], f); !s.ok()) return s;
  }
  merger.Finish(command, reports.size());
  return m;
}

}  // namespace dmconf
