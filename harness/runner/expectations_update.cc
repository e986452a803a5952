#include "harness/runner/expectations_update.h"

#include <sys/stat.h>

#include <cerrno>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "harness/base/atomic_file.h"
#include "nlohmann/json.hpp"

namespace dmconf {
namespace {

std::string EntryText(const KnownFailure& k) {
  return absl::StrCat(k.backend.empty() ? "any backend" : k.backend, ", case ", k.case_pattern,
                      k.rule_pattern.empty() ? "" : absl::StrCat(", rule ", k.rule_pattern), ", ",
                      k.verdict.has_value() ? VerdictName(*k.verdict) : "any failing verdict", " (",
                      k.reason, ")");
}

// The file as it is, or a new empty expectations file when there is none yet.
absl::StatusOr<nlohmann::ordered_json> ReadOrNew(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 && errno == ENOENT) {
    return nlohmann::ordered_json{{"format", "dmconf-expectations/1"},
                                  {"known_failures", nlohmann::ordered_json::array()}};
  }
  absl::StatusOr<std::string> text = io::ReadFileToString(path, kMaxExpectationsFileBytes);
  if (!text.ok()) {
    return absl::Status(text.status().code(),
                        absl::StrCat("expectations.read: ", text.status().message()));
  }
  // The run loaded (and so validated) this file before it started; it is parsed again here to
  // keep each entry's members and order as the user wrote them.
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(*text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat("expectations.json.syntax: ", path, ": changed while the run went on"));
  }
  if (!j.contains("known_failures")) j["known_failures"] = nlohmann::ordered_json::array();
  return j;
}

// Whether any case the run had for a backend `k` applies to is one `k` names (its case pattern
// and, when it has one, its rule pattern): whether `k` had a chance to match.
bool HadCases(const KnownFailure& k, const std::vector<BackendRun>& runs) {
  for (const BackendRun& r : runs) {
    if (!k.backend.empty() && k.backend != r.backend) continue;
    for (const CaseResult& c : r.results) {
      if (!k.rule_pattern.empty() && (c.rule.empty() || !GlobMatch(k.rule_pattern, c.rule))) {
        continue;
      }
      if (GlobMatch(k.case_pattern, c.id)) return true;
    }
  }
  return false;
}

}  // namespace

absl::StatusOr<ExpectationsChange> UpdateExpectationsFile(
    const std::string& path, const std::vector<const KnownFailure*>& file_entries,
    const std::vector<StaleExpectation>& stale, const std::vector<BackendRun>& runs,
    const std::set<std::string>& skip_backends) {
  absl::StatusOr<nlohmann::ordered_json> j = ReadOrNew(path);
  if (!j.ok()) return j.status();
  nlohmann::ordered_json& list = (*j)["known_failures"];
  if (!list.is_array() || list.size() != file_entries.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "expectations.read: ", path, ": its entries changed while the run went on; not updated"));
  }
  std::set<const KnownFailure*> stale_set;
  for (const StaleExpectation& s : stale) stale_set.insert(s.entry);
  ExpectationsChange change;
  nlohmann::ordered_json kept = nlohmann::ordered_json::array();
  for (size_t i = 0; i < file_entries.size(); ++i) {
    const KnownFailure& k = *file_entries[i];
    if (!stale_set.count(&k)) {
      kept.push_back(list[i]);
    } else if (!HadCases(k, runs)) {
      ++change.idle_kept;
      kept.push_back(list[i]);
    } else {
      change.removed.push_back(absl::StrCat("/known_failures/", i, ": ", EntryText(k)));
    }
  }
  std::set<std::tuple<std::string, std::string, Verdict>> seen;
  for (const BackendRun& r : runs) {
    if (skip_backends.count(r.backend)) continue;
    r.results.ForEachHeld([&](size_t, const CaseResult& c) {  // a failing result is held
      if (!c.failure) return;
      if (c.verdict == Verdict::kHarnessError) {
        ++change.harness_errors_not_added;
        return;
      }
      if (!seen.insert({r.backend, c.id, c.verdict}).second) return;
      nlohmann::ordered_json e{{"backend", r.backend}, {"case", c.id}};
      if (!c.rule.empty()) e["rule"] = c.rule;
      e["verdict"] = VerdictName(c.verdict);
      e["reason"] = kReasonPlaceholder;
      kept.push_back(std::move(e));
      change.added.push_back(absl::StrCat(r.backend, ", case ", c.id,
                                          c.rule.empty() ? "" : absl::StrCat(", rule ", c.rule),
                                          ", ", VerdictName(c.verdict)));
    });
  }
  list = std::move(kept);
  if (absl::Status s = io::WriteFileAtomically(path, j->dump(2) + "\n"); !s.ok()) return s;
  return change;
}

std::string ExpectationsChangeText(const std::string& path, const ExpectationsChange& c) {
  std::string out;
  if (c.removed.empty() && c.added.empty()) {
    absl::StrAppend(&out, "expectations: ", path, " is up to date (nothing removed or added)\n");
  } else {
    absl::StrAppend(&out, "expectations: updated ", path, ": removed ", c.removed.size(),
                    " stale entr", c.removed.size() == 1 ? "y" : "ies", ", added ", c.added.size(),
                    " new failure(s) as known", c.added.empty() ? "" : " (fill in their reasons)",
                    "\n");
  }
  for (const std::string& r : c.removed) absl::StrAppend(&out, "  - removed ", r, "\n");
  for (const std::string& a : c.added) absl::StrAppend(&out, "  + added ", a, "\n");
  if (c.idle_kept > 0) {
    absl::StrAppend(&out, "  ", c.idle_kept, " stale entr", c.idle_kept == 1 ? "y" : "ies",
                    " kept: no case it names ran (another op, type or backend)\n");
  }
  if (c.harness_errors_not_added > 0) {
    absl::StrAppend(&out, "  ", c.harness_errors_not_added,
                    " harness_error case(s) not added: they are dmconf's own faults, never "
                    "a backend's known failure\n");
  }
  return out;
}

}  // namespace dmconf
