// Expectation (known-failure) files: a vendor lists the failures they know about, with a reason
// and, where there is one, an upstream link, so that CI fails only on new failures.
//
// Format (JSON, reports/expectations/*.json):
//   {"format": "dmconf-expectations/1",
//    "known_failures": [
//      {"backend": "armnn",                  // optional: applies to every backend if absent
//       "case": "sweep/s2b.*",               // a case id; '*' matches any run of characters
//       "rule": "s2b.pads_*",                // optional: the case's deciding rule id (glob)
//       "verdict": "wrong_values",           // optional: any failing verdict if absent
//       "reason": "Arm NN pads only H and W",
//       "link": "https://github.com/..."}]}  // optional
//
// Example:
//   absl::StatusOr<Expectations> e = LoadExpectations("reports/expectations/armnn.json");
//   const KnownFailure* k = e->Find("armnn", "sweep/s2b.f32...", Verdict::kWrongValues, "");
#ifndef DMCONF_HARNESS_RUNNER_EXPECTATIONS_H_
#define DMCONF_HARNESS_RUNNER_EXPECTATIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/backend/verdict.h"

namespace dmconf {

struct KnownFailure {
  std::string source;   // where it was read: "file: /known_failures/3"
  std::string backend;  // empty: any
  std::string case_pattern;
  std::string rule_pattern;  // empty: any rule (or none)
  std::optional<Verdict> verdict;
  std::string reason;
  std::string link;
};

struct Expectations {
  std::vector<KnownFailure> known;
  // The first entry matching, or nullptr. `rule` is the case's deciding rule id (empty for
  // valid cases); an entry with a rule pattern matches only cases whose rule it matches.
  const KnownFailure* Find(absl::string_view backend, absl::string_view case_id, Verdict v,
                           absl::string_view rule = "") const;
};

// Largest expectations file read (bytes).
inline constexpr int64_t kMaxExpectationsFileBytes = int64_t{16} << 20;

// Errors name a rule, the file and the JSON pointer, like vector files:
// "expectations.read: ...", "expectations.json.syntax", "expectations.duplicate_key",
// "expectations.format", "expectations.field.{missing,type,unknown}", "expectations.verdict",
// e.g. "expectations.field.unknown: e.json: /known_failures/2/verdicts: unknown member ...".
absl::StatusOr<Expectations> LoadExpectations(const std::string& path);
absl::StatusOr<Expectations> ParseExpectations(absl::string_view text, absl::string_view file);

struct BackendRun;

// An entry that matched no failing case of a run in which its backend (any backend, when it
// names none) ran and some case it names ran: the failure it describes is gone, or its pattern
// is wrong. Reported, and a failure with --strict-expectations. An entry none of whose cases
// ran (HadCases false: a run of other ops, types or vector files) is idle, not stale.
struct StaleExpectation {
  const KnownFailure* entry;
};
std::vector<StaleExpectation> StaleExpectations(const Expectations& e,
                                                const std::vector<BackendRun>& runs);

// For each entry k: whether any case the runs had for a backend k applies to is one k names
// (its case pattern and, when it has one, its rule pattern): whether k had a chance to match.
// One pass over the runs' results for all the entries.
std::vector<bool> HadCases(const std::vector<const KnownFailure*>& entries,
                           const std::vector<BackendRun>& runs);

// Glob match with '*' only.
bool GlobMatch(absl::string_view pattern, absl::string_view text);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_RUNNER_EXPECTATIONS_H_
