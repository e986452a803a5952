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
    plan.twins.push_back(std::move(t));
  }
  return plan;
}

Diagnosis TwinsSkipped(const TwinPlan& plan, const std::optional<Diagnosis>& original) {
  Diagnosis d = original.value_or(Diagnosis{});
  d.summary = d.summary.empty() ? plan.skipped : absl::StrCat(d.summary, "; ", plan.skipped);
  return d;
}

Diagnosis DiagnoseFromTwins(const OpCase& c, const Tensor& expected, const Tensor& actual,
                            const TwinPlan& plan, absl::Span<const RunOutcome> outs,
                            const std::optional<Diagnosis>& original) {
  auto unchanged = [&](const std::string& why) {
    Diagnosis d = original.value_or(Diagnosis{});
    d.summary = d.summary.empty() ? why : absl::StrCat(d.summary, "; ", why);
    return d;
  };
  if (outs.size() < plan.twins.size() || plan.twins.empty()) {
    const std::string what = outs.empty() || plan.twins.empty() ? "" : outs.back().message;
    return unchanged(absl::StrCat("diagnostic twin ", outs.size(), " of ", plan.twins.size(),
                                  " gave no output", what.empty() ? "" : ": ", what,
                                  " (nothing is said from twins)"));
  }
  std::vector<Tensor> want;
  bool all_pass = true, other_shape = false;
  for (size_t k = 0; k < outs.size(); ++k) {
    std::optional<Tensor> w = OracleOutput(plan.twins[k]);
    const std::optional<Tensor>& o = outs[k].output;
    if (!w.has_value() || !o.has_value()) return unchanged("the diagnostic twins are not valid");
    all_pass = all_pass && *o == *w;
    other_shape = other_shape || o->shape != actual.shape || o->type != actual.type;
    want.push_back(*std::move(w));
  }
  if (other_shape && !all_pass) {
    return unchanged(
        "a diagnostic twin's output has another shape or type than this case's: the output "
        "depends on the data's values (nothing is said from twins)");
  }
  Diagnosis d;
  d.from_twin = true;
  if (all_pass) {
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
  std::optional<Diagnosis> fitted;
  if (code_want.has_value()) fitted = Diagnose(code, *code_want, combined);
  std::vector<std::string> named;
  if (fitted.has_value() && !fitted->mistake.empty()) {
    named = absl::StrSplit(fitted->mistake, '|');
  }
  std::string said = fitted.has_value() ? fitted->summary : "";
  for (const auto& [id, description] : TypeModels(plan, want, outs)) {
    named.push_back(id);
    said = said.empty() ? absl::StrCat("matches: ", description)
                        : absl::StrCat("matches: ", description, "; ", said);
  }
  // Several members of the fitted family explaining the twins equally are explanations with no
  // id: with them, one id is not named alone.
  std::optional<LayoutFit> fit;
  if (code_want.has_value()) {
    fit = FitDepthLayout(code, *code_want, combined);
    if (!fit.has_value()) fit = FitBlockLayout(code, *code_want, combined);
    if (!fit.has_value()) fit = FitPatchGather(code, *code_want, combined);
  }
  const bool unnamed = fit.has_value() && fit->explained && fit->terms.empty();
  std::vector<std::string> kept;
  for (const std::string& id : named) {
    if (Reproduces(id, c, expected, actual, combined)) kept.push_back(id);
  }
  d.mistake = unnamed && kept.size() == 1 ? "" : absl::StrJoin(kept, "|");
  if (unnamed && kept.size() == 1) {
    said = absl::StrCat("ambiguous (not named): ", said);
  }
  std::string honesty;
  if (kept.size() < named.size()) {
    std::vector<std::string> dropped;
    for (const std::string& id : named) {
      if (std::find(kept.begin(), kept.end(), id) == kept.end()) dropped.push_back(id);
    }
    honesty = absl::StrCat(
        "; ", absl::StrJoin(dropped, ", "), " explain", dropped.size() == 1 ? "s" : "",
        " the twins but not this case's output, so ", dropped.size() == 1 ? "it is" : "they are",
        " not named here (the bug may depend on the values)");
  }
  d.summary = absl::StrCat(Lead(outs.size()), said.empty() ? "the twins fail" : said, honesty,
                           OriginalTail(original));
  return d;
}

}  // namespace dmconf
