#include "harness/compare/shape_judge.h"

#include "absl/strings/str_cat.h"

namespace dmconf {
namespace {

using K = ShapeOutcome::Kind;

std::string Bound(const std::optional<int64_t>& hi) {
  return hi ? absl::StrCat(*hi) : std::string("inf");
}

// Whether every shape of `inner` lies in `outer` (rank and every interval).
bool Inside(const PartialShape& inner, const PartialShape& outer, std::string* why) {
  if (!outer.dims) return true;
  if (!inner.dims) {
    *why = absl::StrCat("the rank is unknown, the answer fixes it to ", outer.dims->size());
    return false;
  }
  if (inner.dims->size() != outer.dims->size()) {
    *why = absl::StrCat("rank ", inner.dims->size(), " expected, the answer has rank ",
                        outer.dims->size());
    return false;
  }
  for (size_t i = 0; i < inner.dims->size(); ++i) {
    const Dim& a = (*inner.dims)[i];
    const Dim& b = (*outer.dims)[i];
    if (a.lo < b.lo) {
      *why = absl::StrCat("dim ", i, ": an accepted instance has ", a.lo,
                          ", below the answer's lower bound ", b.lo);
      return false;
    }
    if (b.hi && (!a.hi || *a.hi > *b.hi)) {
      *why = absl::StrCat("dim ", i, ": an accepted instance has ", Bound(a.hi),
                          ", above the answer's upper bound ", *b.hi);
      return false;
    }
  }
  return true;
}

// Where a sound answer is wider than the oracle's (empty: equally tight).
std::string Looseness(const PartialShape& oracle, const PartialShape& answer) {
  if (!oracle.dims) return "";
  if (!answer.dims) return absl::StrCat("unknown rank where the rank is ", oracle.dims->size());
  for (size_t i = 0; i < oracle.dims->size(); ++i) {
    const Dim& o = (*oracle.dims)[i];
    const Dim& a = (*answer.dims)[i];
    if (a.lo < o.lo)
      return absl::StrCat("dim ", i, ": lower bound ", a.lo, " where ", o.lo, " is reached");
    if (o.hi && (!a.hi || *a.hi > *o.hi)) {
      return absl::StrCat("dim ", i, ": upper bound ", Bound(a.hi), " where ", *o.hi,
                          " is reached");
    }
  }
  return "";
}

ShapeJudgement Make(Verdict v, std::string detail) { return {v, std::move(detail)}; }

}  // namespace

ShapeJudgement JudgeShapeAnswer(const PartialCase& c, const PartialResult& oracle,
                                const ShapeOutcome& answer) {
  switch (answer.kind) {
    case K::kCrash:
      return Make(Verdict::kCrash, answer.message);
    case K::kHang:
      return Make(Verdict::kHang, answer.message);
    case K::kHarnessError:
      return Make(Verdict::kHarnessError, answer.message);
    case K::kOutOfMemory:
      return Make(Verdict::kOutOfMemory, answer.message);
    case K::kUnsupported:
      return Make(Verdict::kUnsupported, answer.message);
    case K::kRejected:
    case K::kOutput:
      break;
  }
  const bool refused = answer.kind == K::kRejected;
  const std::string rule = oracle.rule != nullptr ? std::string(oracle.rule->id) : "";
  switch (oracle.kind) {
    case PartialKind::kUnspecified:
      return Make(Verdict::kUnspecifiedOk,
                  absl::StrCat("unspecified (", rule, "); the backend ",
                               refused ? "refused" : "answered " + answer.shape.ToString()));
    case PartialKind::kMustReject:
      if (refused) return Make(Verdict::kPass, absl::StrCat("refused (", rule, ")"));
      return Make(Verdict::kFalseAccept,
                  absl::StrCat("answered ", answer.shape.ToString(), " but every instance breaks ",
                               rule, ": ", oracle.message));
    case PartialKind::kShape:
      break;
  }
  const bool is_static = c.IsStatic();
  if (refused) {
    if (is_static) {
      return Make(Verdict::kFalseReject,
                  absl::StrCat("refused a valid case: ", answer.message, " (the output is ",
                               oracle.output.ToString(), ")"));
    }
    return Make(Verdict::kUnsoundShape,
                absl::StrCat("refused a partial case with valid instances (their outputs: ",
                             oracle.output.ToString(), "): ", answer.message));
  }
  if (answer.type != c.type) {
    return Make(Verdict::kWrongType,
                absl::StrCat("answered element type ", ElementTypeName(answer.type), ", expected ",
                             ElementTypeName(c.type)));
  }
  if (is_static) {
    if (answer.shape.ToString() != oracle.output.ToString()) {
      return Make(Verdict::kWrongShape, absl::StrCat("answered ", answer.shape.ToString(),
                                                     ", expected ", oracle.output.ToString()));
    }
    return Make(Verdict::kPass, "");
  }
  std::string why;
  if (!Inside(oracle.output, answer.shape, &why)) {
    return Make(Verdict::kUnsoundShape, absl::StrCat("answered ", answer.shape.ToString(),
                                                     ", the outputs of accepted "
                                                     "instances span ",
                                                     oracle.output.ToString(), ": ", why));
  }
  const std::string loose = Looseness(oracle.output, answer.shape);
  if (!loose.empty()) {
    return Make(Verdict::kLooseShape,
                absl::StrCat("answered ", answer.shape.ToString(), ", the oracle ",
                             oracle.output.ToString(), ": ", loose));
  }
  return Make(Verdict::kPass, "");
}

}  // namespace dmconf
