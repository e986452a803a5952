#include "harness/compare/shape_judge.h"

#include <limits>

#include "absl/strings/str_cat.h"
#include "harness/compare/shape_witness.h"

namespace dmconf {
namespace {

using K = ShapeOutcome::Kind;

constexpr int64_t kUnboundedMark = std::numeric_limits<int64_t>::max();

// 2^63-1 as an upper bound means "unbounded", as OpenVINO's Interval::s_max does: no instance
// has a larger dim, so it bounds every instance.
PartialShape Normalised(PartialShape p) {
  if (!p.dims) return p;
  for (Dim& d : *p.dims) {
    if (d.hi && *d.hi == kUnboundedMark) d.hi.reset();
  }
  return p;
}

// The largest output dim i any accepted instance can reach when every data dim may go up to
// 2^63-1 (the oracle on the case with each upper bound set to 2^63-1): a per-dim bound, at or
// above the true maximum. 2^63-1 when the oracle keeps the dim unbounded.
int64_t DimCap(const PartialCase& c, size_t i) {
  PartialCase wide = c;
  if (wide.data.dims) {
    for (Dim& d : *wide.data.dims) d.hi = kUnboundedMark;
  }
  absl::StatusOr<PartialResult> r = InferPartialShape(wide);
  if (!r.ok() || r->kind == PartialKind::kMustReject || !r->output.dims ||
      r->output.dims->size() <= i) {
    return kUnboundedMark;
  }
  return (*r->output.dims)[i].hi.value_or(kUnboundedMark);
}

// Where `answer` may leave out the output of an accepted instance (empty `why`: it cannot).
// The oracle's finite bounds and known ranks are reached by accepted instances, so leaving
// them out is certain; an unbounded bound holds every output up to 2^63-1, so a finite answer
// below the largest reachable output is only suspect.
struct Suspicion {
  std::string why;
  bool certain = true;
};

Suspicion Suspect(const PartialShape& oracle, const PartialShape& answer) {
  if (!answer.dims) return {};
  if (!oracle.dims) {
    return {absl::StrCat("the rank is not fixed, the answer fixes it to ", answer.dims->size())};
  }
  if (oracle.dims->size() != answer.dims->size()) {
    return {absl::StrCat("accepted instances have rank ", oracle.dims->size(),
                         ", the answer has rank ", answer.dims->size())};
  }
  for (size_t i = 0; i < oracle.dims->size(); ++i) {
    const Dim& o = (*oracle.dims)[i];
    const Dim& a = (*answer.dims)[i];
    if (a.lo > o.lo) {
      return {absl::StrCat("dim ", i, ": accepted instances reach ", o.lo,
                           ", below the answer's lower bound ", a.lo)};
    }
    if (a.hi && o.hi && *o.hi > *a.hi) {
      return {absl::StrCat("dim ", i, ": accepted instances reach ", *o.hi,
                           ", above the answer's upper bound ", *a.hi)};
    }
    if (a.hi && !o.hi) {
      return {absl::StrCat("dim ", i, ": the answer's upper bound ", *a.hi,
                           " is finite where the oracle's is not"),
              /*certain=*/false};
    }
  }
  return {};
}

// Where a sound answer is wider than the oracle's (empty: equally tight). An upper bound at or
// above the largest output any instance can reach (DimCap) is never loose.
std::string Looseness(const PartialCase& c, const PartialShape& oracle,
                      const PartialShape& answer) {
  if (!oracle.dims) return "";
  if (!answer.dims) return absl::StrCat("unknown rank where the rank is ", oracle.dims->size());
  for (size_t i = 0; i < oracle.dims->size(); ++i) {
    const Dim& o = (*oracle.dims)[i];
    const Dim& a = (*answer.dims)[i];
    if (a.lo < o.lo)
      return absl::StrCat("dim ", i, ": lower bound ", a.lo, " where ", o.lo, " is reached");
    if (o.hi && (!a.hi || *a.hi > *o.hi) && *o.hi < DimCap(c, i)) {
      return absl::StrCat("dim ", i, ": upper bound ",
                          a.hi ? absl::StrCat(*a.hi) : std::string("2^63-1 (unbounded)"), " where ",
                          *o.hi, " is reached");
    }
  }
  return "";
}

ShapeJudgement Make(Verdict v, std::string detail) {
  ShapeJudgement j;
  j.verdict = v;
  j.detail = std::move(detail);
  return j;
}

// Where an instance's output lies outside the answer (known rank): its rank, or the first dim
// the answer's interval leaves out. This, not the suspicion that led to the search, is what
// the instance proves.
std::string OutsideBecause(const PartialShape& answer, const Shape& out) {
  const std::vector<Dim>& a = *answer.dims;
  if (a.size() != out.size()) {
    return absl::StrCat("the instance's output has rank ", out.size(), ", the answer has rank ",
                        a.size());
  }
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i].Contains(out[i])) {
      return absl::StrCat("dim ", i, ": the instance's output has ", out[i],
                          ", outside the answer's ", a[i].ToString());
    }
  }
  return "";
}

// A partial case's shape answer (2^63-1 bounds already read as unbounded): unsound_shape,
// loose_shape or pass.
ShapeJudgement JudgePartialShape(const PartialCase& c, const PartialResult& oracle,
                                 const PartialShape& shape) {
  const Suspicion suspect = Suspect(oracle.output, shape);
  const std::string& why = suspect.why;
  if (!why.empty()) {
    // Unsound only with an accepted instance in hand whose output the answer leaves out.
    std::optional<ShapeInstance> w =
        FindInstance(c, [&](const Shape& out) { return !shape.Contains(out); });
    if (w) {
      ShapeJudgement j =
          Make(Verdict::kUnsoundShape,
               absl::StrCat("answered ", shape.ToString(), ", but the accepted instance ",
                            DescribeInstance(c, *w), " lies outside it (",
                            OutsideBecause(shape, w->output), ")"));
      j.witness = std::move(w);
      return j;
    }
    // No instance in hand: the oracle's bound is not always reached (docs/errata-partial.md
    // D-P6: where D_hi * bmax overflows, no accepted instance may come near it), so a suspicion,
    // however certain it looks, is not a failure. A finite answer where the oracle is
    // unbounded, with no instance above it, holds every instance found: judged as usual below.
    if (suspect.certain) {
      return Make(Verdict::kUndecidedShape,
                  absl::StrCat("answered ", shape.ToString(), "; the oracle's bound says ", why,
                               ", but no accepted instance outside the answer was found"));
    }
  }
  const std::string loose = Looseness(c, oracle.output, shape);
  if (!loose.empty()) {
    return Make(Verdict::kLooseShape, absl::StrCat("answered ", shape.ToString(), ", the oracle ",
                                                   oracle.output.ToString(), ": ", loose));
  }
  return Make(Verdict::kPass, "");
}

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
    case K::kInvalidAnswer:
      return Make(Verdict::kInvalidAnswer, answer.message);
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
    // Unsound only with a named accepted instance (the refusal leaves out its output).
    std::optional<ShapeInstance> w = FindInstance(c, [](const Shape&) { return true; });
    if (!w) {
      return Make(
          Verdict::kUndecidedShape,
          absl::StrCat("refused a partial case the oracle answers ", oracle.output.ToString(),
                       ", but no accepted instance was found: ", answer.message));
    }
    ShapeJudgement j = Make(Verdict::kUnsoundShape,
                            absl::StrCat("refused a partial case with accepted instances (e.g. ",
                                         DescribeInstance(c, *w), "): ", answer.message));
    j.witness = std::move(w);
    return j;
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
  return JudgePartialShape(c, oracle, Normalised(answer.shape));
}

}  // namespace dmconf
