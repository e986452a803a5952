#include "harness/compare/diagnosis.h"

#include <set>
#include <unordered_map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "harness/compare/block_fit.h"
#include "harness/compare/compare.h"
#include "harness/compare/depth_fit.h"
#include "harness/compare/mistakes.h"
#include "harness/compare/patch_fit.h"
#include "harness/compare/shape_terms.h"

namespace dmconf {
namespace {

constexpr ValueMistake kValueMistakes[] = {
    {"nan.quieted", "signalling NaNs quieted", QuietSignallingNaNs},
    {"nan.canonicalised", "NaN payloads replaced by the default NaN", CanonicaliseNaNs},
    {"zero.sign_flushed", "-0 flushed to +0", FlushNegativeZero},
    {"subbyte.nibbles_swapped", "4-bit elements packed high nibble first", SwapNibbles, true},
    {"subbyte.bit_order_reversed", "u1 elements packed least significant bit first",
     ReverseBitOrder, true},
    {"elem.word_halves_swapped", "8-byte elements copied as two 4-byte halves in swapped order",
     SwapWordHalves},
    {"elem.bytes_reversed", "8-byte elements copied with their 8 bytes in reverse order",
     ReverseElementBytes},
};

}  // namespace

absl::Span<const ValueMistake> ValueMistakes() { return kValueMistakes; }

namespace {

// Where the first differing element of `actual` came from, when the input encodes positions.
std::string SourceOfFirstDifference(const OpCase& c, const Tensor& expected, const Tensor& actual) {
  if (!IsPositionEncoded(c.data) || actual.type != c.data.type) return "";
  std::unordered_map<uint64_t, int64_t> where;
  const int64_t n = c.data.NumElements();
  for (int64_t i = 0; i < n; ++i) where[c.data.GetBits(i)] = i;
  auto describe = [&](uint64_t bits) -> std::string {
    if (bits == 0) return "zero (padding)";
    auto it = where.find(bits);
    if (it == where.end())
      return absl::StrCat("a value not in the input (", FormatBits(actual.type, bits), ")");
    return absl::StrCat("input ", ShapeToString(MultiIndex(c.data.shape, it->second)));
  };
  if (actual.shape != expected.shape) {
    if (actual.NumElements() == 0) return "";
    return absl::StrCat("output element 0 holds ", describe(actual.GetBits(0)));
  }
  std::optional<Mismatch> m = FirstMismatch(expected, actual);
  if (!m.has_value()) return "";
  return absl::StrCat("first wrong element ", ShapeToString(m->index), " holds ",
                      describe(m->actual_bits), ", expected ", describe(m->expected_bits));
}

}  // namespace

Diagnosis UnwrittenDiagnosis(const Tensor& expected, absl::Span<const int64_t> unwritten) {
  int64_t zeros = 0;
  for (int64_t i : unwritten) zeros += expected.GetBits(i) == 0;
  const int64_t n = static_cast<int64_t>(unwritten.size());
  Diagnosis d;
  d.mistake = zeros == n ? "output.padding_not_written" : "output.unwritten";
  d.summary = absl::StrCat(
      "the backend never wrote ", n, " of ", expected.NumElements(),
      " output elements (they keep the output buffer's fill, which differed between two runs "
      "over two fills); first at ",
      ShapeToString(MultiIndex(expected.shape, unwritten.front())),
      zeros == n  ? ". All of them are padding, where the spec puts zeros: the padding zeros "
                    "were not written"
      : zeros > 0 ? absl::StrCat(". ", zeros, " of them are padding (zeros in the spec)")
                  : "");
  return d;
}

bool IsPositionEncoded(const Tensor& data) {
  const int64_t n = data.NumElements();
  if (n == 0 || BitWidth(data.type) < 8 || n > (int64_t{1} << 22)) return false;
  if (BitWidth(data.type) < 63 && n >= (int64_t{1} << BitWidth(data.type))) return false;
  std::unordered_map<uint64_t, int64_t> seen;
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t b = data.GetBits(i);
    if (b == 0 || !seen.emplace(b, i).second) return false;
  }
  return true;
}

namespace {

// One explanation of a wrong output: a model whose output equals the backend's bit for bit, or
// the fitted map.
struct Explanation {
  std::string id;  // mistake id or fitted terms joined by '+'; empty: several fitted members
  std::string description;
  bool moves_elements = false;  // a layout explanation: only data that identify positions
                                // can tell it from other layouts
  bool fitted = false;          // the fitted map itself (its summary says it all)
};

// Whether a fit's terms say what model m says (m.fit_terms lists the term sets that do).
bool SameAsFit(const Mistake& m, const std::vector<std::string>& terms) {
  const std::set<std::string> got(terms.begin(), terms.end());
  for (absl::string_view alt : absl::StrSplit(m.fit_terms, '|', absl::SkipEmpty())) {
    const std::set<std::string> want = absl::StrSplit(alt, '+');
    if (want == got) return true;
  }
  return false;
}

// Every explanation of `actual` this case admits: each value model and each known mistake whose
// output equals it, and the fitted map when it explains every element (merged into a model that
// says the same). All are kept: a case that cannot tell them apart names none alone.
std::vector<Explanation> Explanations(const OpCase& c, const Tensor& expected, const Tensor& actual,
                                      const std::optional<LayoutFit>& fit) {
  std::vector<Explanation> out;
  if (actual.type == expected.type && actual.shape == expected.shape) {
    for (const ValueMistake& v : kValueMistakes) {
      Tensor model = v.apply(expected);
      if (model != expected && model == actual) {
        out.push_back({v.id, v.description, v.moves_elements});
      }
    }
  }
  bool fit_merged = false;
  const bool fit_named = fit.has_value() && fit->explained && !fit->terms.empty();
  if (actual.type == c.data.type) {
    for (const Mistake& m : AllMistakes()) {
      if (!m.applies(c)) continue;
      absl::StatusOr<Tensor> model = m.apply(c);
      if (!model.ok() || *model == expected || *model != actual) continue;
      out.push_back({std::string(m.id), std::string(m.description), true});
      if (fit_named && SameAsFit(m, fit->terms)) fit_merged = true;
    }
  }
  if (fit.has_value() && fit->explained && !fit_merged) {
    if (fit_named) {
      // (a fit of empty data names the pad value only: it moves no element)
      out.push_back(
          {absl::StrJoin(fit->terms, "+"), "the fitted map", c.data.NumElements() > 0, true});
    } else if (fit->several) {
      out.push_back({"", "other members of the fitted family", true, true});
    }
  }
  return out;
}

// How many distinct values the data hold (counted up to `cap`).
int64_t DistinctValues(const Tensor& data, int64_t cap) {
  std::set<uint64_t> seen;
  const int64_t n = data.NumElements();
  for (int64_t i = 0; i < n && static_cast<int64_t>(seen.size()) < cap; ++i) {
    seen.insert(data.GetBits(i));
  }
  return static_cast<int64_t>(seen.size());
}

// The named part of a diagnosis from its explanations (d.mistake and the first clause of
// d.summary). A mistake is named only when it is the one explanation, and, for one that moves
// elements, when the data identify positions: data with few distinct values (sub-byte types,
// special-value fills) let other layouts give the same output, so those are listed, not named.
void Name(const OpCase& c, const std::vector<Explanation>& all, Diagnosis& d) {
  if (all.empty()) return;
  const bool positions = IsPositionEncoded(c.data);
  bool moves = false;
  for (const Explanation& e : all) moves = moves || e.moves_elements;
  if (all.size() == 1 && !all[0].id.empty() && (positions || !moves)) {
    d.mistake = all[0].id;
    if (!all[0].fitted) d.summary = absl::StrCat("matches: ", all[0].description);
    return;
  }
  if (all.size() == 1 && all[0].fitted) return;  // the fit's own summary says it
  std::vector<std::string> ids, descriptions;
  for (const Explanation& e : all) {
    if (e.fitted && e.id.empty()) {
      descriptions.push_back(e.description);
      continue;
    }
    ids.push_back(e.id);
    descriptions.push_back(e.fitted ? absl::StrCat("the fitted map (", e.id, ")") : e.description);
  }
  if (moves && !positions) {
    d.summary = absl::StrCat(
        "not named: the data of this case hold ", DistinctValues(c.data, 1 << 20),
        " distinct value(s) and do not identify positions, so other bugs give the same output; "
        "consistent with: ",
        absl::StrJoin(descriptions, "; or "));
    return;
  }
  if (ids.size() >= 2) d.mistake = absl::StrJoin(ids, "|");
  d.summary = absl::StrCat("ambiguous: ", absl::StrJoin(descriptions, ", "),
                           " fit equally (this case cannot tell them apart)");
}

}  // namespace

std::optional<Diagnosis> Diagnose(const OpCase& c, const Tensor& expected, const Tensor& actual) {
  // A wrong shape is fitted against the terms of the spec's shape formula (shape_terms.h).
  std::optional<Diagnosis> shape;
  if (actual.shape != expected.shape) shape = ShapeDiagnosis(c, expected.shape, actual.shape);
  // An empty output holds no element: nothing in it tells one mistake from another; only its
  // shape speaks.
  if (actual.NumElements() == 0) return shape;
  // The general mechanism: the map the backend computed, fitted from the whole output (at most
  // one of the fits applies to an op).
  std::optional<LayoutFit> fit = FitDepthLayout(c, expected, actual);
  if (!fit.has_value()) fit = FitBlockLayout(c, expected, actual);
  if (!fit.has_value()) fit = FitPatchGather(c, expected, actual);
  Diagnosis d;
  const std::vector<Explanation> explanations = Explanations(c, expected, actual, fit);
  Name(c, explanations, d);
  if (shape.has_value()) {
    // The shape's term is the mistake only when no explanation of the output's bits was found
    // (one that was, named or not, is another explanation of the same shape).
    if (d.mistake.empty() && explanations.empty()) d.mistake = shape->mistake;
    d.summary = d.summary.empty() ? shape->summary : absl::StrCat(shape->summary, "; ", d.summary);
  }
  if (fit.has_value()) {
    d.summary = d.summary.empty() ? fit->summary : absl::StrCat(d.summary, "; ", fit->summary);
  }
  const std::string source = SourceOfFirstDifference(c, expected, actual);
  if (!source.empty()) {
    d.summary = d.summary.empty() ? source : absl::StrCat(d.summary, "; ", source);
  }
  if (d.summary.empty()) return std::nullopt;
  return d;
}

}  // namespace dmconf
