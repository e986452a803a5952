#include "harness/compare/twin.h"

#include <algorithm>
#include <map>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "harness/compare/block_fit.h"
#include "harness/compare/depth_fit.h"
#include "harness/compare/mistakes.h"
#include "harness/compare/patch_fit.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

// Bits of the position code one twin element carries: the type's width (booleans hold 0 or 1
// only), at most 32.
int DigitBits(ElementType t) {
  if (t == ElementType::kBoolean) return 1;
  return std::min(BitWidth(t), 32);
}

uint64_t Mask(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// The output of the oracle for c, when valid.
std::optional<Tensor> OracleOutput(const OpCase& c) {
  absl::StatusOr<Expectation> e = Evaluate(c);
  if (!e.ok() || e->kind != ExpectationKind::kValid || !e->output.has_value()) return std::nullopt;
  return *std::move(e->output);
}

// c with the self-identifying i32 data the twins' outputs are combined into: element i holds
// its position code i + 1.
OpCase CodeCase(const OpCase& c) {
  OpCase s = c;
  s.data = *Tensor::Zeros(ElementType::kI32, c.data.shape);
  for (int64_t i = 0; i < s.data.NumElements(); ++i)
    s.data.SetBits(i, static_cast<uint64_t>(i + 1));
  return s;
}

// The twins' outputs combined: element j holds the code whose digit k twin k's element j
// holds; a digit wider than the twin's digit gives a code no input element has.
Tensor Combine(const Tensor& actual, const TwinPlan& plan, absl::Span<const RunOutcome> outs) {
  Tensor t = *Tensor::Zeros(ElementType::kI32, actual.shape);
  const uint64_t mask = Mask(plan.digit_bits);
  for (int64_t j = 0; j < t.NumElements(); ++j) {
    uint64_t code = 0;
    for (size_t k = 0; k < outs.size(); ++k) {
      const uint64_t digit = outs[k].output->GetBits(j);
      code = digit > mask ? 0x7FFFFFFF : code | (digit << (plan.digit_bits * k));
      if (code == 0x7FFFFFFF) break;
    }
    t.SetBits(j, code & 0x7FFFFFFF);
  }
  return t;
}

// Whether the map the twins show (output element j holds input code(j) - 1; code 0 is padding,
// zero; another value a fill the same for every element that holds it) gives the original
// output from the original data.
bool MapReproduces(const OpCase& c, const Tensor& combined, const Tensor& actual) {
  if (actual.type != c.data.type || actual.shape != combined.shape) return false;
  const int64_t n = c.data.NumElements();
  std::map<uint64_t, uint64_t> fills;
  for (int64_t j = 0; j < combined.NumElements(); ++j) {
    const uint64_t code = combined.GetBits(j);
    uint64_t want = 0;
    if (code >= 1 && code <= static_cast<uint64_t>(n)) {
      want = c.data.GetBits(static_cast<int64_t>(code) - 1);
    } else if (code != 0) {
      want = fills.emplace(code, actual.GetBits(j)).first->second;
    }
    if (want != actual.GetBits(j)) return false;
  }
  return true;
}

// Whether the explanation `id` (a value mistake, a known mistake, or fitted / shape terms)
// predicts the original output too.
bool Reproduces(const std::string& id, const OpCase& c, const Tensor& expected,
                const Tensor& actual, const Tensor& combined) {
  for (const ValueMistake& v : ValueMistakes()) {
    if (id == v.id) return actual.type == expected.type && v.apply(expected) == actual;
  }
  if (const Mistake* m = FindMistake(id)) {
    if (!m->applies(c)) return false;
    absl::StatusOr<Tensor> t = m->apply(c);
    return t.ok() && *t == actual;
  }
  if (absl::StrContains(id, ".shape.")) return true;  // the shape is the original's
  return MapReproduces(c, combined, actual);
}

// Models of the element type itself (packing, the u1 bit order), which the combined i32 case
// cannot show: each must give every twin's output, and differ from the spec on one.
std::vector<std::pair<std::string, std::string>> TypeModels(const TwinPlan& plan,
                                                            absl::Span<const Tensor> want,
                                                            absl::Span<const RunOutcome> outs) {
  std::vector<std::pair<std::string, std::string>> found;
  for (const ValueMistake& v : ValueMistakes()) {
    if (!v.moves_elements) continue;
    bool all = true, differs = false;
    for (size_t k = 0; k < outs.size() && all; ++k) {
      const Tensor p = v.apply(want[k]);
      all = p == *outs[k].output;
      differs = differs || p != want[k];
    }
    if (all && differs) found.emplace_back(v.id, v.description);
  }
  const OpCase code = CodeCase(plan.twins[0]);
  for (const Mistake& m : AllMistakes()) {
    if (m.applies(code)) continue;  // shown by the combined case
    bool all = true, differs = false;
    for (size_t k = 0; k < outs.size() && all; ++k) {
      if (!m.applies(plan.twins[k])) {
        all = false;
        break;
      }
      absl::StatusOr<Tensor> p = m.apply(plan.twins[k]);
      all = p.ok() && *p == *outs[k].output;
      differs = differs || (p.ok() && *p != want[k]);
    }
    if (all && differs) found.emplace_back(std::string(m.id), std::string(m.description));
  }
  return found;
}

std::string Lead(size_t twins) {
  return absl::StrCat("from ", twins, " diagnostic twin", twins == 1 ? "" : "s",
                      " (the same op, shape, attributes and element type, with data that ",
                      twins == 1 ? "identify" : "together identify", " every position): ");
}

std::string OriginalTail(const std::optional<Diagnosis>& original) {
  return original.has_value() ? absl::StrCat("; this case alone: ", original->summary) : "";
}

// The original diagnosis (or none) with `why` appended: what the twins could not say.
Diagnosis WithNote(const std::optional<Diagnosis>& original, const std::string& why) {
  Diagnosis d = original.value_or(Diagnosis{});
  d.summary = d.summary.empty() ? why : absl::StrCat(d.summary, "; ", why);
  return d;
}

// Why twins that stopped early (fewer outcomes than twins) say nothing.
std::string NoOutputNote(const TwinPlan& plan, absl::Span<const RunOutcome> outs) {
  const std::string what = outs.empty() || plan.twins.empty() ? "" : outs.back().message;
  return absl::StrCat("diagnostic twin ", outs.size(), " of ", plan.twins.size(), " gave no output",
                      what.empty() ? "" : ": ", what, " (nothing is said from twins)");
}

// The oracle's output for every twin, and how the twins' outputs compare with them.
struct TwinExpectations {
  std::vector<Tensor> want;
  bool all_pass = true;      // every twin's output is the oracle's
  bool other_shape = false;  // some twin's output has another shape or type than the original's
};

// std::nullopt when a twin is not valid or gave no output.
std::optional<TwinExpectations> ExpectTwins(const TwinPlan& plan, absl::Span<const RunOutcome> outs,
                                            const Tensor& actual) {
  TwinExpectations e;
  for (size_t k = 0; k < outs.size(); ++k) {
    const std::optional<Tensor>& w = plan.want[k];
    const std::optional<Tensor>& o = outs[k].output;
    if (!w.has_value() || !o.has_value()) return std::nullopt;
    e.all_pass = e.all_pass && *o == *w;
    e.other_shape = e.other_shape || o->shape != actual.shape || o->type != actual.type;
    e.want.push_back(*w);
  }
  return e;
}

// The mistakes that explain the twins (not yet checked against the original output) and what
// is said of them.
struct TwinExplanations {
  std::vector<std::string> named;
  std::string said;
};

// The combined case diagnosed as a self-identifying one (code, its oracle output code_want,
// the combined twins' output), then the type models checked on every twin.
TwinExplanations ExplainTwins(const OpCase& code, const std::optional<Tensor>& code_want,
                              const Tensor& combined, const TwinPlan& plan,
                              absl::Span<const Tensor> want, absl::Span<const RunOutcome> outs) {
  std::optional<Diagnosis> fitted;
  if (code_want.has_value()) fitted = Diagnose(code, *code_want, combined);
  TwinExplanations x;
  if (fitted.has_value() && !fitted->mistake.empty()) {
    x.named = absl::StrSplit(fitted->mistake, '|');
  }
  x.said = fitted.has_value() ? fitted->summary : "";
  for (const auto& [id, description] : TypeModels(plan, want, outs)) {
    x.named.push_back(id);
    x.said = x.said.empty() ? absl::StrCat("matches: ", description)
                            : absl::StrCat("matches: ", description, "; ", x.said);
  }
  return x;
}

// Whether several members of the fitted family explain the combined twins equally: explanations
// with no id, so one id is not named alone.
bool FitIsUnnamed(const OpCase& code, const std::optional<Tensor>& code_want,
                  const Tensor& combined) {
  if (!code_want.has_value()) return false;
  std::optional<LayoutFit> fit = FitDepthLayout(code, *code_want, combined);
  if (!fit.has_value()) fit = FitBlockLayout(code, *code_want, combined);
  if (!fit.has_value()) fit = FitPatchGather(code, *code_want, combined);
  return fit.has_value() && fit->explained && fit->terms.empty();
}

// "; a, b explain the twins but not this case's output, ..." for the named ids not kept; "" when
// every one is kept.
std::string DroppedNote(const std::vector<std::string>& named,
                        const std::vector<std::string>& kept) {
  if (kept.size() >= named.size()) return "";
  std::vector<std::string> dropped;
  for (const std::string& id : named) {
    if (std::find(kept.begin(), kept.end(), id) == kept.end()) dropped.push_back(id);
  }
  return absl::StrCat("; ", absl::StrJoin(dropped, ", "), " explain",
                      dropped.size() == 1 ? "s" : "", " the twins but not this case's output, so ",
                      dropped.size() == 1 ? "it is" : "they are",
                      " not named here (the bug may depend on the values)");
}

}  // namespace

bool WantsTwins(const OpCase& c, const std::optional<Diagnosis>& d) {
  // Empty data have no position to identify: a twin would run the same case.
  return c.data.NumElements() > 0 && !IsPositionEncoded(c.data) &&
         (!d.has_value() || d->mistake.empty());
}

TwinPlan PlanTwins(const OpCase& c) {
  TwinPlan plan;
  const int64_t n = c.data.NumElements();
  plan.digit_bits = DigitBits(c.data.type);
  // Codes 1..n, never all ones (a fill of all-ones bits is then no position): the fewest
  // digits K with 2^(bits * K) > n + 1.
  int count = 1;
  while (plan.digit_bits * count < 62 &&
         (uint64_t{1} << (plan.digit_bits * count)) <= static_cast<uint64_t>(n) + 1) {
    ++count;
  }
  if (n > kMaxTwinElements || count > kMaxTwins) {
    plan.skipped = absl::StrCat("no diagnostic twin run: ", n, " elements of ",
                                ElementTypeName(c.data.type), " need ", count, " twins (at most ",
                                kMaxTwins, " of at most ", kMaxTwinElements, " elements)");
    return plan;
  }
  for (int k = 0; k < count; ++k) {
    OpCase t = c;
    t.id = absl::StrCat(c.id, "~twin", k);
    const int shift = plan.digit_bits * k;
    for (int64_t i = 0; i < n; ++i) {
      t.data.SetBits(i, (static_cast<uint64_t>(i + 1) >> shift) & Mask(plan.digit_bits));
    }
    plan.want.push_back(OracleOutput(t));
    plan.twins.push_back(std::move(t));
  }
  return plan;
}

Diagnosis TwinsSkipped(const TwinPlan& plan, const std::optional<Diagnosis>& original) {
  return WithNote(original, plan.skipped);
}

Diagnosis DiagnoseFromTwins(const OpCase& c, const Tensor& expected, const Tensor& actual,
                            const TwinPlan& plan, absl::Span<const RunOutcome> outs,
                            const std::optional<Diagnosis>& original) {
  if (outs.size() < plan.twins.size() || plan.twins.empty()) {
    return WithNote(original, NoOutputNote(plan, outs));
  }
  const std::optional<TwinExpectations> e = ExpectTwins(plan, outs, actual);
  if (!e.has_value()) return WithNote(original, "the diagnostic twins are not valid");
  if (e->other_shape && !e->all_pass) {
    return WithNote(original,
                    "a diagnostic twin's output has another shape or type than this case's: the "
                    "output depends on the data's values (nothing is said from twins)");
  }
  Diagnosis d;
  d.from_twin = true;
  if (e->all_pass) {
    d.summary = absl::StrCat(
        Lead(outs.size()),
        "the twins pass, so the bug depends on the values of this case's data (special values "
        "such as NaN, infinities or -0, their sign, or repeated values), not only on where "
        "elements go",
        OriginalTail(original));
    return d;
  }
  const OpCase code = CodeCase(c);
  const std::optional<Tensor> code_want = OracleOutput(code);
  const Tensor combined = Combine(actual, plan, outs);
  const TwinExplanations x = ExplainTwins(code, code_want, combined, plan, e->want, outs);
  // A mistake is named only when it also gives this case's output.
  std::vector<std::string> kept;
  for (const std::string& id : x.named) {
    if (Reproduces(id, c, expected, actual, combined)) kept.push_back(id);
  }
  const bool ambiguous = kept.size() == 1 && FitIsUnnamed(code, code_want, combined);
  d.mistake = ambiguous ? "" : absl::StrJoin(kept, "|");
  const std::string said = ambiguous ? absl::StrCat("ambiguous (not named): ", x.said) : x.said;
  d.summary = absl::StrCat(Lead(outs.size()), said.empty() ? "the twins fail" : said,
                           DroppedNote(x.named, kept), OriginalTail(original));
  return d;
}

}  // namespace dmconf
