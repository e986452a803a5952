#include "harness/report/html_failures.h"

#include <algorithm>

#include "harness/report/report.h"

namespace dmconf {
namespace {

using Json = nlohmann::ordered_json;

bool Failing(const CaseResult& c) { return c.failure || c.known != nullptr; }

std::string MistakeOf(const CaseResult& c) { return c.diagnosis ? c.diagnosis->mistake : ""; }

// The largest share q with sum over causes of min(size, q) <= cap (sizes not all within it).
int64_t ShareOf(const std::vector<int64_t>& sizes, int64_t cap) {
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

HtmlFailures::Backend& HtmlFailures::At(size_t b) {
  if (backends_.size() <= b) {
    backends_.resize(b + 1);
    counted_.resize(b + 1);
    seen_.resize(b + 1);
  }
  return backends_[b];
}

void HtmlFailures::Count(size_t b, const CaseResult& c) {
  Backend& r = At(b);
  ++counted_[b];
  if (!Failing(c)) return;
  ++failing_;
  ++r.failing_counts[std::string(OpName(c.op))][std::string(VerdictName(c.verdict))];
  auto [cause, fresh] = cause_of_.try_emplace(
      CauseKey{b, c.known != nullptr, c.verdict, MistakeOf(c)}, sizes_.size());
  if (fresh) sizes_.push_back(0);
  ++sizes_[cause->second];
  if (c.failure) {
    auto [it, added] = r.cause_index.try_emplace({c.verdict, MistakeOf(c)}, r.causes.size());
    if (added) {
      r.causes.push_back(Json{{"verdict", std::string(VerdictName(c.verdict))},
                              {"mistake", MistakeOf(c)},
                              {"cases", 0},
                              {"summary", ""}});
    }
    Json& g = r.causes[it->second];
    g["cases"] = g["cases"].get<int64_t>() + 1;
    if (g["summary"].get_ref<const std::string&>().empty() && c.diagnosis) {
      g["summary"] = c.diagnosis->summary;
    }
  }
  if (c.known != nullptr) {
    auto [it, added] =
        r.reason_index.try_emplace({c.known->reason, c.known->link}, r.known_reasons.size());
    if (added) {
      r.known_reasons.push_back(
          Json{{"reason", c.known->reason}, {"link", c.known->link}, {"cases", 0}});
    }
    Json& g = r.known_reasons[it->second];
    g["cases"] = g["cases"].get<int64_t>() + 1;
  }
}

// Each cause's share of the cap (the rule above).
void HtmlFailures::Share() {
  shared_ = true;
  quota_ = sizes_;
  int64_t total = 0;
  for (int64_t n : sizes_) total += n;
  if (total <= cap_) return;
  const int64_t q = ShareOf(sizes_, cap_);
  int64_t left = cap_;
  for (int64_t& n : quota_) left -= n = std::min(n, q);
  for (size_t i = 0; i < quota_.size() && left > 0; ++i) {
    if (sizes_[i] > q) ++quota_[i], --left;
  }
}

void HtmlFailures::Keep(size_t b, const CaseResult& c) {
  if (!shared_) Share();
  Backend& r = At(b);
  ++seen_[b];
  if (!Failing(c)) return;
  const auto cause = cause_of_.find(CauseKey{b, c.known != nullptr, c.verdict, MistakeOf(c)});
  if (cause == cause_of_.end() || quota_[cause->second] == 0) return;
  --quota_[cause->second];
  r.embedded.push_back(
      nlohmann::json(CaseJson(c)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

Json HtmlFailures::FailingCountsJson(size_t b) const {
  Json out = Json::object();
  if (b >= backends_.size()) return out;
  for (const auto& [op, verdicts] : backends_[b].failing_counts) out[op] = Json(verdicts);
  return out;
}

Json HtmlFailures::CausesJson(size_t b) const {
  return b < backends_.size() ? backends_[b].causes : Json::array();
}

Json HtmlFailures::KnownReasonsJson(size_t b) const {
  return b < backends_.size() ? backends_[b].known_reasons : Json::array();
}

std::string HtmlFailures::EmbeddedText(size_t backends) const {
  std::string out = "[";
  for (size_t b = 0; b < backends; ++b) {
    out += b == 0 ? "[" : ",[";
    if (b < backends_.size()) {
      for (size_t i = 0; i < backends_[b].embedded.size(); ++i) {
        if (i > 0) out += ',';
        out += backends_[b].embedded[i];
      }
    }
    out += ']';
  }
  return out + "]";
}

}  // namespace dmconf
