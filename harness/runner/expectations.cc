#include "harness/runner/expectations.h"

#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/base/files.h"
#include "harness/base/json_location.h"
#include "harness/runner/runner.h"
#include "nlohmann/json.hpp"

namespace dmconf {

bool GlobMatch(absl::string_view p, absl::string_view t) {
  // Iterative matcher with one backtrack point (the last '*').
  size_t pi = 0, ti = 0, star = absl::string_view::npos, mark = 0;
  while (ti < t.size()) {
    if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      mark = ti;
    } else if (pi < p.size() && p[pi] == t[ti]) {
      ++pi;
      ++ti;
    } else if (star != absl::string_view::npos) {
      pi = star + 1;
      ti = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

const KnownFailure* Expectations::Find(absl::string_view backend, absl::string_view case_id,
                                       Verdict v, absl::string_view rule) const {
  for (const KnownFailure& k : known) {
    if (!k.backend.empty() && k.backend != backend) continue;
    if (k.verdict.has_value() && *k.verdict != v) continue;
    if (!k.rule_pattern.empty() && (rule.empty() || !GlobMatch(k.rule_pattern, rule))) continue;
    if (GlobMatch(k.case_pattern, case_id)) return &k;
  }
  return nullptr;
}

namespace {

// The located helpers of harness/io name their rules vector.field.*; an expectations file
// gets the same checks under its own prefix (expectations.field.*).
absl::Status Renamed(const absl::Status& s) {
  std::string m(s.message());
  if (absl::StartsWith(m, "vector.")) m = absl::StrCat("expectations.", m.substr(7));
  return absl::Status(s.code(), m);
}

absl::StatusOr<std::string> OptionalString(const nlohmann::json& obj, const io::JsonLoc& at,
                                           absl::string_view key) {
  absl::StatusOr<const nlohmann::json*> m = io::Member(obj, at, key, false);
  if (!m.ok()) return Renamed(m.status());
  if (*m == nullptr) return std::string();
  absl::StatusOr<std::string> v = io::ReadString(**m, at.Key(key));
  if (!v.ok()) return Renamed(v.status());
  return v;
}

}  // namespace

absl::StatusOr<Expectations> ParseExpectations(absl::string_view text, absl::string_view file) {
  const io::JsonLoc root{std::string(file), ""};
  nlohmann::json j;
  io::JsonLoc duplicate{std::string(file), ""};
  constexpr int kMaxDepth = 32;  // an expectations file needs 3
  if (io::JsonNestingDepth(text, kMaxDepth) > kMaxDepth) {
    return absl::InvalidArgumentError(absl::StrCat(
        "expectations.json.nesting: ", file, ": JSON nested deeper than ", kMaxDepth, " levels"));
  }
  try {
    j = io::ParseJsonNotingDuplicates(text, &duplicate);
  } catch (const nlohmann::json::exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat("expectations.json.syntax: ", file, ": not valid JSON (", e.what(), ")"));
  }
  if (!duplicate.pointer.empty()) {
    return io::LocError("expectations.duplicate_key", duplicate,
                        "this key appears twice in one object (JSON readers disagree on which "
                        "one counts)");
  }
  if (absl::Status s = io::CheckObject(j, root, {"format", "known_failures"}); !s.ok()) {
    return Renamed(s);
  }
  // Not j.value("format", ""): it throws when "format" is there but not a string.
  const auto format = j.find("format");
  if (format == j.end() || !format->is_string() || *format != "dmconf-expectations/1") {
    return io::LocError("expectations.format", root.Key("format"),
                        "\"format\" must be \"dmconf-expectations/1\"");
  }
  Expectations e;
  if (!j.contains("known_failures")) return e;
  const io::JsonLoc list_at = root.Key("known_failures");
  if (!j["known_failures"].is_array()) {
    return io::LocError("expectations.field.type", list_at, "expected an array of entries");
  }
  size_t i = 0;
  for (const nlohmann::json& k : j["known_failures"]) {
    const io::JsonLoc at = list_at.Index(i++);
    if (absl::Status s =
            io::CheckObject(k, at, {"backend", "case", "rule", "verdict", "reason", "link"});
        !s.ok()) {
      return Renamed(s);
    }
    KnownFailure f;
    f.source = at.ToString();
    absl::StatusOr<const nlohmann::json*> case_j = io::Member(k, at, "case", true);
    if (!case_j.ok()) return Renamed(case_j.status());
    absl::StatusOr<std::string> case_pattern = io::ReadString(**case_j, at.Key("case"));
    if (!case_pattern.ok()) return Renamed(case_pattern.status());
    f.case_pattern = *case_pattern;
    absl::StatusOr<std::string> reason = OptionalString(k, at, "reason");
    if (!reason.ok()) return reason.status();
    if (reason->empty()) {
      return io::LocError("expectations.field.missing", at.Key("reason"),
                          "every entry needs a non-empty reason");
    }
    f.reason = *reason;
    absl::StatusOr<std::string> backend = OptionalString(k, at, "backend");
    absl::StatusOr<std::string> rule = OptionalString(k, at, "rule");
    absl::StatusOr<std::string> link = OptionalString(k, at, "link");
    absl::StatusOr<std::string> verdict = OptionalString(k, at, "verdict");
    for (const auto* v : {&backend, &rule, &link, &verdict}) {
      if (!v->ok()) return v->status();
    }
    f.backend = *backend;
    f.rule_pattern = *rule;
    f.link = *link;
    if (!verdict->empty()) {
      std::optional<Verdict> v = ParseVerdict(*verdict);
      if (!v.has_value()) {
        return io::LocError("expectations.verdict", at.Key("verdict"),
                            absl::StrCat("unknown verdict '", verdict->substr(0, 40), "'"));
      }
      f.verdict = v;
    }
    e.known.push_back(std::move(f));
  }
  return e;
}

absl::StatusOr<Expectations> LoadExpectations(const std::string& path) {
  // Refused by size before it is read, and never blocks on a FIFO (harness/base/files.h).
  absl::StatusOr<std::string> text = io::ReadFileToString(path, kMaxExpectationsFileBytes);
  if (!text.ok()) {
    return absl::Status(text.status().code(),
                        absl::StrCat("expectations.read: ", text.status().message()));
  }
  return ParseExpectations(*text, path);
}

std::vector<bool> HadCases(const std::vector<const KnownFailure*>& entries,
                           const std::vector<BackendRun>& runs) {
  std::vector<bool> had(entries.size(), false);
  size_t left = entries.size();
  // One pass over every result (a spooled run is read once), whatever the number of entries.
  for (const BackendRun& r : runs) {
    if (left == 0) break;
    for (const CaseResult& c : r.results) {
      for (size_t i = 0; i < entries.size(); ++i) {
        const KnownFailure& k = *entries[i];
        if (had[i] || (!k.backend.empty() && k.backend != r.backend)) continue;
        if (!k.rule_pattern.empty() && (c.rule.empty() || !GlobMatch(k.rule_pattern, c.rule))) {
          continue;
        }
        if (GlobMatch(k.case_pattern, c.id)) {
          had[i] = true;
          --left;
        }
      }
      if (left == 0) break;
    }
  }
  return had;
}

std::vector<StaleExpectation> StaleExpectations(const Expectations& e,
                                                const std::vector<BackendRun>& runs) {
  std::set<const KnownFailure*> matched;
  std::set<std::string> backends;
  for (const BackendRun& r : runs) {
    backends.insert(r.backend);
    r.results.ForEachHeld([&](size_t, const CaseResult& c) {  // a known result is held
      if (c.known != nullptr) matched.insert(c.known);
    });
  }
  std::vector<const KnownFailure*> unmatched;
  for (const KnownFailure& k : e.known) {
    // An entry for a backend that did not run could not match: not stale, only idle.
    if (!k.backend.empty() && !backends.count(k.backend)) continue;
    if (!matched.count(&k)) unmatched.push_back(&k);
  }
  // An entry none of whose cases ran (a run of other ops or types: a per-op test of
  // dmconf_add_backend_tests) had no chance to match: idle, not stale.
  const std::vector<bool> had = HadCases(unmatched, runs);
  std::vector<StaleExpectation> out;
  for (size_t i = 0; i < unmatched.size(); ++i) {
    if (had[i]) out.push_back({unmatched[i]});
  }
  return out;
}

}  // namespace dmconf
