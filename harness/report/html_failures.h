// The failing cases of the HTML page (html_report.h): which of them the page embeds when
// there are more than its cap, and the tallies the page shows of all of them, counted over
// every case of the run whatever the cap (failing cases per op and verdict, new failures by
// cause, known failures by reason).
//
// Under the cap every failing case (new or known) is embedded. Above it, each cause (one
// backend, new or known, one verdict and one named mistake) gets an equal share of the cap,
// and a cause with fewer cases than its share leaves the rest to the others (the largest share
// q with sum over causes of min(cases, q) <= cap; what is left of the cap adds one case to
// each of the first causes, in the order they first occur, that have more than q); of each
// cause, its first cases in the run's order are embedded. So a rare cause is never crowded
// out by a backend that fails every case, and the same run gives the same page.
//
// Example:
//   std::vector<std::vector<bool>> keep = EmbeddedFailures(*run.runs, 5000);
//   // keep[b][i]: case i of backend b is a failing case the page embeds
#ifndef DMCONF_HARNESS_REPORT_HTML_FAILURES_H_
#define DMCONF_HARNESS_REPORT_HTML_FAILURES_H_

#include <cstdint>
#include <vector>

#include "harness/runner/runner.h"
#include "nlohmann/json.hpp"

namespace dmconf {

// The default cap: at about 7 KB of JSON per failing case with a listed mismatch, a page of
// some 35 MB at most.
inline constexpr int64_t kDefaultHtmlMaxFailures = 5000;

// Per backend, per case: whether it is a failing case (new or known) the page embeds; at
// most `cap` in all (cap >= 0).
std::vector<std::vector<bool>> EmbeddedFailures(const std::vector<BackendRun>& runs, int64_t cap);

// Of one backend, over every case: {op: {verdict: failing cases (new or known)}}.
nlohmann::ordered_json FailingCountsJson(const BackendRun& r);
// Of one backend, over every new failure: one {verdict, mistake, cases, summary} per cause in
// the order causes first occur; mistake and summary are those of the diagnosis ("" when none;
// the summary of the cause's first case that has one).
nlohmann::ordered_json CausesJson(const BackendRun& r);
// Of one backend, over every known failure: one {reason, link, cases} per reason and link, in
// the order they first occur.
nlohmann::ordered_json KnownReasonsJson(const BackendRun& r);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_HTML_FAILURES_H_
