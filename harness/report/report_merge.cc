#include "harness/report/report_merge.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "harness/base/json_location.h"
#include "harness/report/report_stream.h"
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

// The first case (in merge order) whose (backend, lane, id) an earlier report has.
struct Duplicate {
  size_t file = 0, backend = 0, index = 0;
  size_t first_file = 0;  // the report that has it first
  std::string name, id;
};

// The heads of the reports merged one after the other; the cases are the files'.
class Merger {
 public:
  Merger(const std::vector<std::string>& files, RunReport& m) : files_(files), m_(m) {}

  // `tallies` are the report's, one per backend; `dup`, the first duplicate case if any.
  absl::Status Add(const RunReport& r, size_t f, const std::vector<CaseTally>& tallies,
                   const std::optional<Duplicate>& dup) {
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
      if (absl::Status s = AddBackend(r.backends[b], bat, f, b, tallies[b]); !s.ok()) return s;
      if (dup.has_value() && dup->file == f && dup->backend == b) {
        return LocError("report.merge.duplicate_case", bat.Key("cases").Index(dup->index),
                        absl::StrCat("backend ", dup->name, " ran case ", dup->id, " in ",
                                     files_[dup->first_file],
                                     " already (the same shard twice, or overlapping runs)"));
      }
    }
    for (const StaleExpectation& s : r.stale) {
      const StaleKey key = KeyOf(*s.entry);
      stale_.emplace(key, s.entry);
      ++stale_in_[key];
    }
    for (const FileError& e : r.file_errors) {
      if (file_errors_.insert({e.file, e.rule, e.message}).second) m_.file_errors.push_back(e);
    }
    for (const MutantExpectation& e : r.mutants) {
      if (!mutants_.count(e.backend)) mutant_order_.push_back(e.backend);
      mutants_[e.backend] = e;
    }
    return absl::OkStatus();
  }

  // The heads are still alive: the stale entries point into them.
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

  std::vector<CaseTally> tallies;              // per merged backend
  std::vector<std::vector<MergedPart>> parts;  // per merged backend

 private:
  absl::Status AddBackend(const BackendRun& from, const JsonLoc& bat, size_t f, size_t b,
                          const CaseTally& tally) {
    const std::string& name = from.backend;
    auto [it, fresh] = run_of_.emplace(name, m_.backends.size());
    if (fresh) {
      BackendRun& run = m_.backends.emplace_back();
      run.backend = name;
      run.library = from.library;
      run.capabilities = from.capabilities;
      run.startup_error = from.startup_error;
      if (run.capabilities.kernels) run.slices = DeclaredSlices(run.capabilities);
      tallies.emplace_back();
      parts.emplace_back();
    }
    BackendRun& run = m_.backends[it->second];
    if (!fresh && !SameCapabilities(from.capabilities, run.capabilities)) {
      return LocError("report.merge.capabilities_differ", bat.Key("capabilities"),
                      absl::StrCat("backend ", name, " declares other capabilities in ", files_[0],
                                   " or an earlier report"));
    }
    if (absl::Status s = AddSlices(from, bat, run); !s.ok()) return s;
    tallies[it->second].Merge(tally);
    parts[it->second].push_back({f, b, tally.cases});
    run.worker_errors.insert(run.worker_errors.end(), from.worker_errors.begin(),
                             from.worker_errors.end());
    run.seconds += from.seconds;
    return absl::OkStatus();
  }

  const std::vector<std::string>& files_;
  RunReport& m_;
  std::map<std::string, size_t> run_of_;           // backend name -> index in m_.backends
  std::map<StaleKey, const KnownFailure*> stale_;  // stale in some report
  std::map<StaleKey, int> stale_in_;               // in how many
  std::set<std::tuple<std::string, std::string, std::string>> file_errors_;
  std::map<std::string, MutantExpectation> mutants_;
  std::vector<std::string> mutant_order_, shards_;
};

// A case's (lane, id), hashed; the backend's name is added when the report's head is known.
uint64_t CaseHash(const CaseResult& c) {
  return absl::HashOf(static_cast<int>(c.lane), absl::string_view(c.id));
}

uint64_t KeyHash(const std::string& backend, uint64_t case_hash) {
  return absl::HashOf(absl::string_view(backend), case_hash);
}

}  // namespace

// MergeReportFiles' steps.
class MergeBuilder {
 public:
  MergeBuilder(const std::vector<std::string>& files, MergedReport& out) : out_(out) {
    out_.files_ = files;
  }

  // The first reading of file f: its head, its figures and its cases' hashes.
  absl::Status Read(size_t f) {
    std::vector<CaseTally> tallies;
    std::vector<std::vector<uint64_t>> hashes;
    absl::StatusOr<RunReport> head =
        StreamReport(out_.files_[f], [&](size_t b, size_t, const CaseResult& c) {
          if (tallies.size() <= b) {
            tallies.resize(b + 1);
            hashes.resize(b + 1);
          }
          tallies[b].Add(c);
          hashes[b].push_back(CaseHash(c));
        });
    if (!head.ok()) return head.status();
    tallies.resize(head->backends.size());
    hashes.resize(head->backends.size());
    // One run may hold an id twice (a vector file and the catalogue can both have it): a hash
    // counts once per report, so a hash seen twice below is in two reports.
    std::vector<uint64_t> mine;
    for (size_t b = 0; b < hashes.size(); ++b) {
      for (uint64_t h : hashes[b]) mine.push_back(KeyHash(head->backends[b].backend, h));
      std::vector<uint64_t>().swap(hashes[b]);
    }
    std::sort(mine.begin(), mine.end());
    mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
    keys_.insert(keys_.end(), mine.begin(), mine.end());
    out_.heads_.push_back(*std::move(head));
    file_tallies_.push_back(std::move(tallies));
    return absl::OkStatus();
  }

  // One run's parts: equal options, one dmconf version, a whole shard set (shard_set.h).
  absl::Status CheckShards() const { return CheckShardSet(out_.heads_, out_.files_); }

  // The hashes two reports share; empty when no case is in two reports.
  std::set<uint64_t> Shared() {
    std::sort(keys_.begin(), keys_.end());
    std::set<uint64_t> shared;
    for (size_t i = 1; i < keys_.size(); ++i) {
      if (keys_[i] == keys_[i - 1]) shared.insert(keys_[i]);
    }
    std::vector<uint64_t>().swap(keys_);
    return shared;
  }

  // The first duplicate in merge order, confirmed on the cases' ids (a shared hash may be two
  // different cases).
  absl::StatusOr<std::optional<Duplicate>> FindDuplicate(const std::set<uint64_t>& shared) {
    std::map<std::tuple<std::string, CaseLane, std::string>, size_t> seen;  // -> first file
    std::optional<Duplicate> dup;
    for (size_t f = 0; f < out_.files_.size() && !dup.has_value(); ++f) {
      const RunReport& head = out_.heads_[f];
      absl::StatusOr<RunReport> again =
          StreamReport(out_.files_[f], [&](size_t b, size_t k, const CaseResult& c) {
            if (dup.has_value() || b >= head.backends.size()) return;
            const std::string& name = head.backends[b].backend;
            if (!shared.count(KeyHash(name, CaseHash(c)))) return;
            auto [where, added] = seen.emplace(std::make_tuple(name, c.lane, c.id), f);
            if (!added && where->second != f) dup = Duplicate{f, b, k, where->second, name, c.id};
          });
      if (!again.ok()) return again.status();
    }
    return dup;
  }

  absl::Status Finish(const std::optional<Duplicate>& dup, const std::string& command) {
    Merger merger(out_.files_, out_.merged_);
    for (size_t f = 0; f < out_.heads_.size(); ++f) {
      if (absl::Status s = merger.Add(out_.heads_[f], f, file_tallies_[f], dup); !s.ok()) return s;
    }
    merger.Finish(command, out_.heads_.size());
    out_.tallies_ = std::move(merger.tallies);
    out_.parts_ = std::move(merger.parts);
    return absl::OkStatus();
  }

 private:
  MergedReport& out_;
  std::vector<std::vector<CaseTally>> file_tallies_;  // per file, per backend
  std::vector<uint64_t> keys_;  // each report's distinct case hashes, one after the other
};

ReportInput MergedReport::Input() {
  ReportInput in = merged_.Input();
  in.tallies = &tallies_;
  in.cases = this;
  return in;
}

void MergedReport::ForEach(size_t run, const std::function<void(const CaseResult&)>& each) {
  for (const MergedPart& p : parts_[run]) {
    if (!status_.ok()) return;
    int64_t n = 0;
    absl::StatusOr<RunReport> again = StreamReport(
        files_[p.file],
        [&](size_t b, size_t, const CaseResult& c) {
          if (b != p.backend) return;
          ++n;
          each(c);
        },
        p.backend);
    if (!again.ok()) {
      status_ = again.status();
    } else if (n != p.cases) {
      status_ = absl::DataLossError(absl::StrCat("report.merge.changed: ", files_[p.file],
                                                 ": the file changed while it was merged"));
    }
  }
}

absl::StatusOr<std::unique_ptr<MergedReport>> MergeReportFiles(
    const std::vector<std::string>& files, const std::string& command) {
  auto out = std::make_unique<MergedReport>();
  MergeBuilder build(files, *out);
  for (size_t f = 0; f < files.size(); ++f) {
    if (absl::Status s = build.Read(f); !s.ok()) return s;
  }
  if (absl::Status s = build.CheckShards(); !s.ok()) return s;
  const std::set<uint64_t> shared = build.Shared();
  std::optional<Duplicate> dup;
  if (!shared.empty()) {
    absl::StatusOr<std::optional<Duplicate>> found = build.FindDuplicate(shared);
    if (!found.ok()) return found.status();
    dup = *found;
  }
  if (absl::Status s = build.Finish(dup, command); !s.ok()) return s;
  return out;
}

}  // namespace dmconf
