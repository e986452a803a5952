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
// Gathered case by case, in two passes over the run's cases in their order (backend by
// backend): the first counts every case, the second keeps the JSON of the cases embedded.
// Memory: the embedded cases (as text) and one entry per cause, op, verdict and known reason,
// whatever the number of cases.
//
// Example:
//   HtmlFailures f(5000);
//   for each case c of backend b: f.Count(b, c);
//   for each case c of backend b, again: f.Keep(b, c);
//   std::string cases = f.EmbeddedText(backends);  // [[case, ...] per backend]
#ifndef DMCONF_HARNESS_REPORT_HTML_FAILURES_H_
#define DMCONF_HARNESS_REPORT_HTML_FAILURES_H_

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "harness/runner/runner.h"
#include "nlohmann/json.hpp"

namespace dmconf {

// The default cap: at about 7 KB of JSON per failing case with a listed mismatch, a page of
// some 35 MB at most.
inline constexpr int64_t kDefaultHtmlMaxFailures = 5000;

class HtmlFailures {
 public:
  explicit HtmlFailures(int64_t cap) : cap_(cap) {}  // cap >= 0

  // The first pass: every case of backend b, in order.
  void Count(size_t b, const CaseResult& c);
  // The second pass, after the first: every case again, in the same order; the first call
  // fixes each cause's share of the cap.
  void Keep(size_t b, const CaseResult& c);
  // Both passes saw the same number of cases of each backend.
  bool SameCases() const { return counted_ == seen_; }

  // Failing cases (new or known) of the run, all counted.
  int64_t failing() const { return failing_; }
  // Of backend b, over every case: {op: {verdict: failing cases (new or known)}}.
  nlohmann::ordered_json FailingCountsJson(size_t b) const;
  // Of backend b, over every new failure: one {verdict, mistake, cases, summary} per cause in
  // the order causes first occur; mistake and summary are those of the diagnosis ("" when
  // none; the summary of the cause's first case that has one).
  nlohmann::ordered_json CausesJson(size_t b) const;
  // Of backend b, over every known failure: one {reason, link, cases} per reason and link, in
  // the order they first occur.
  nlohmann::ordered_json KnownReasonsJson(size_t b) const;
  // Per backend (`backends` of them), the embedded cases as CaseJson writes them: the text of
  // that JSON array of arrays (keys sorted, no spaces; bytes that are not UTF-8 as U+FFFD).
  std::string EmbeddedText(size_t backends) const;

 private:
  // What the page shows of one backend's failing cases.
  struct Backend {
    std::map<std::string, std::map<std::string, int64_t>> failing_counts;  // sorted by name
    std::map<std::pair<Verdict, std::string>, size_t> cause_index;
    nlohmann::ordered_json causes = nlohmann::ordered_json::array();
    std::map<std::pair<std::string, std::string>, size_t> reason_index;
    nlohmann::ordered_json known_reasons = nlohmann::ordered_json::array();
    std::vector<std::string> embedded;  // each case's JSON text, smaller than its value
  };
  // backend, known, verdict, mistake
  using CauseKey = std::tuple<size_t, bool, Verdict, std::string>;

  Backend& At(size_t b);
  void Share();

  int64_t cap_ = 0, failing_ = 0;
  std::vector<Backend> backends_;
  std::vector<int64_t> counted_, seen_;  // cases per backend, in each pass
  std::map<CauseKey, size_t> cause_of_;  // numbered in the order causes first occur
  std::vector<int64_t> sizes_;           // failing cases per cause
  std::vector<int64_t> quota_;           // during the second pass: what is left of each share
  bool shared_ = false;
};

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_HTML_FAILURES_H_
