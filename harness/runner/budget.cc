#include "harness/runner/budget.h"

#include "absl/strings/str_cat.h"

namespace dmconf {

namespace {

// The result of a case not run because its op used up a budget (s.Exhausted). `r` holds the
// case's id, op, type, expected and rule.
CaseResult SkipAfterBudget(const std::string& backend, const Streak& s, CaseResult r,
                           const RunOptions& options) {
  const bool hangs = options.max_consecutive_hangs > 0 && s.hangs >= options.max_consecutive_hangs;
  r.verdict = hangs ? Verdict::kSkippedAfterHangs : Verdict::kSkippedAfterCrashes;
  const absl::string_view what = hangs ? "hung" : "crashed";
  const absl::string_view flag = hangs ? "--max-consecutive-hangs" : "--max-consecutive-crashes";
  r.detail = absl::StrCat("not run: ", hangs ? s.hangs : s.crashes, " cases of ", OpName(r.op),
                          " in a row ", what, " (the last: ", s.last_id,
                          "); run the skipped cases anyway with ", flag,
                          " 0, or this one alone with its repro line");
  MarkFailing(backend, options, r);  // a skipped verdict always fails
  return r;
}

}  // namespace

std::optional<CaseResult> SkipKernelAfterBudget(const std::string& backend, const Streak& s,
                                                const PreparedCase& p, const RunOptions& options) {
  if (!s.Exhausted(options)) return std::nullopt;  // before a result is made: most cases
  CaseResult r;
  r.id = p.c.id;
  r.op = p.c.op;
  r.type = p.c.data.type;
  r.rank = static_cast<int>(p.c.data.shape.size());
  if (p.expectation.ok()) {
    r.expected = ExpectedClassOf(p.expectation->kind);
    if (p.expectation->rule != nullptr) r.rule = std::string(p.expectation->rule->id);
  } else {
    r.expected = ExpectedClass::kMalformed;
  }
  return SkipAfterBudget(backend, s, std::move(r), options);
}

std::optional<CaseResult> SkipShapeAfterBudget(const std::string& backend, const Streak& s,
                                               const PreparedShapeCase& p,
                                               const RunOptions& options) {
  if (!s.Exhausted(options)) return std::nullopt;
  CaseResult r;
  r.id = p.s.id;
  r.op = p.s.c.op;
  r.type = p.s.c.type;
  r.rank = p.s.c.data.RankKnown() ? static_cast<int>(p.s.c.data.dims->size()) : -1;
  r.expected = ExpectedClass::kMalformed;
  if (p.expectation.ok()) {
    r.expected = ExpectedClassOf(p.expectation->kind);
    if (p.expectation->rule != nullptr) r.rule = std::string(p.expectation->rule->id);
  }
  return SkipAfterBudget(backend, s, std::move(r), options);
}

}  // namespace dmconf
