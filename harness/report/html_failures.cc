#include "harness/report/html_failures.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <utility>

namespace dmconf {
namespace {

using Json = nlohmann::ordered_json;

bool Failing(const CaseResult& c) { return c.failure || c.known != nullptr; }

std::string MistakeOf(const CaseResult& c) { return c.diagnosis ? c.diagnosis->mistake : ""; }

// The largest share q with sum over causes of min(size, q) <= cap (sizes not all within it).
int64_t Share(const std::vector<int64_t>& sizes, int64_t cap) {
  int64_t lo = 0, hi = *std::max_element(sizes.begin(), sizes.end());
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo + 1) / 2;
    int64_t sum = 0;
    for (int64_t n : sizes) sum += std::min(n, mid);
    if (sum <= cap)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

}  // namespace

std::vector<std::vector<bool>> EmbeddedFailures(const std::vector<BackendRun>& runs, int64_t cap) {
  // Each failing case's cause, numbered in the order causes first occur.
  using Key = std::tuple<size_t, bool, Verdict, std::string>;
  std::map<Key, size_t> index;
  std::vector<int64_t> sizes;
  std::vector<std::vector<size_t>> cause(runs.size());
  for (size_t b = 0; b < runs.size(); ++b) {
    for (const CaseResult& c : runs[b].results) {
      if (!Failing(c)) {
        cause[b].push_back(0);
        continue;
      }
      auto [it, added] =
          index.try_emplace(Key{b, c.known != nullptr, c.verdict, MistakeOf(c)}, sizes.size());
      if (added) sizes.push_back(0);
      ++sizes[it->second];
      cause[b].push_back(it->second);
    }
  }
  int64_t total = 0;
  for (int64_t n : sizes) total += n;
  std::vector<int64_t> quota = sizes;
  if (total > cap) {
    const int64_t q = Share(sizes, cap);
    int64_t left = cap;
    for (int64_t& n : quota) left -= n = std::min(n, q);
    for (size_t i = 0; i < quota.size() && left > 0; ++i) {
      if (sizes[i] > q) ++quota[i], --left;
    }
  }
  std::vector<std::vector<bool>> keep(runs.size());
  for (size_t b = 0; b < runs.size(); ++b) {
    for (size_t i = 0; i < runs[b].results.size(); ++i) {
      const bool take = Failing(runs[b].results[i]) && quota[cause[b][i]] > 0;
      if (take) --quota[cause[b][i]];
      keep[b].push_back(take);
    }
  }
  return keep;
}

Json FailingCountsJson(const BackendRun& r) {
  std::map<std::string, std::map<std::string, int64_t>> sorted;
  for (const CaseResult& c : r.results) {
    if (Failing(c)) ++sorted[std::string(OpName(c.op))][std::string(VerdictName(c.verdict))];
  }
  Json out = Json::object();
  for (const auto& [op, verdicts] : sorted) out[op] = Json(verdicts);
  return out;
}

Json CausesJson(const BackendRun& r) {
  std::map<std::pair<Verdict, std::string>, size_t> index;
  Json out = Json::array();
  for (const CaseResult& c : r.results) {
    if (!c.failure) continue;
    auto [it, added] = index.try_emplace({c.verdict, MistakeOf(c)}, out.size());
    if (added) {
      out.push_back(Json{{"verdict", std::string(VerdictName(c.verdict))},
                         {"mistake", MistakeOf(c)},
                         {"cases", 0},
                         {"summary", ""}});
    }
    Json& g = out[it->second];
    g["cases"] = g["cases"].get<int64_t>() + 1;
    if (g["summary"].get_ref<const std::string&>().empty() && c.diagnosis) {
      g["summary"] = c.diagnosis->summary;
    }
  }
  return out;
}

Json KnownReasonsJson(const BackendRun& r) {
  std::map<std::pair<std::string, std::string>, size_t> index;
  Json out = Json::array();
  for (const CaseResult& c : r.results) {
    if (c.known == nullptr) continue;
    auto [it, added] = index.try_emplace({c.known->reason, c.known->link}, out.size());
    if (added) {
      out.push_back(Json{{"reason", c.known->reason}, {"link", c.known->link}, {"cases", 0}});
    }
    Json& g = out[it->second];
    g["cases"] = g["cases"].get<int64_t>() + 1;
  }
  return out;
}

}  // namespace dmconf
