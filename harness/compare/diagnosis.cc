#include "harness/compare/diagnosis.h"

#include <unordered_map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/compare/block_fit.h"
#include "harness/compare/compare.h"
#include "harness/compare/depth_fit.h"
#include "harness/compare/mistakes.h"
#include "harness/compare/patch_fit.h"

namespace dmconf {
namespace {

struct ValueMistake {
  const char* id;
  const char* description;
  Tensor (*apply)(Tensor);
};

constexpr ValueMistake kValueMistakes[] = {
    {"nan.quieted", "signalling NaNs quieted", QuietSignallingNaNs},
    {"nan.canonicalised", "NaN payloads replaced by the default NaN", CanonicaliseNaNs},
    {"zero.sign_flushed", "-0 flushed to +0", FlushNegativeZero},
    {"subbyte.nibbles_swapped", "4-bit elements packed high nibble first", SwapNibbles},
    {"subbyte.bit_order_reversed", "u1 elements packed least significant bit first",
     ReverseBitOrder},
};

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

std::optional<Diagnosis> Diagnose(const OpCase& c, const Tensor& expected, const Tensor& actual) {
  Diagnosis d;
  if (actual.type == expected.type && actual.shape == expected.shape) {
    for (const ValueMistake& v : kValueMistakes) {
      Tensor model = v.apply(expected);
      if (model != expected && model == actual) {
        d.mistake = v.id;
        d.summary = absl::StrCat("matches: ", v.description);
        return d;
      }
    }
  }
  if (actual.type == c.data.type) {
    // Every model that reproduces the output: when a case cannot tell two mistakes apart (few
    // distinct values, symmetric attributes), all are named, never just the first.
    std::vector<const Mistake*> matching;
    for (const Mistake& m : AllMistakes()) {
      if (!m.applies(c)) continue;
      absl::StatusOr<Tensor> model = m.apply(c);
      if (model.ok() && *model != expected && *model == actual) matching.push_back(&m);
    }
    if (matching.size() == 1) {
      d.mistake = std::string(matching[0]->id);
      d.summary = absl::StrCat("matches: ", matching[0]->description);
    } else if (matching.size() > 1) {
      std::vector<std::string> ids, descriptions;
      for (const Mistake* m : matching) {
        ids.emplace_back(m->id);
        descriptions.emplace_back(m->description);
      }
      d.mistake = absl::StrJoin(ids, "|");
      d.summary = absl::StrCat("matches equally (this case cannot tell them apart): ",
                               absl::StrJoin(descriptions, "; or "));
    }
  }
  // The general mechanism: the map the backend computed, fitted from the whole output (at most
  // one of the fits applies to an op).
  std::optional<LayoutFit> fit = FitDepthLayout(c, expected, actual);
  if (!fit.has_value()) fit = FitBlockLayout(c, expected, actual);
  if (!fit.has_value()) fit = FitPatchGather(c, expected, actual);
  if (fit.has_value()) {
    if (d.mistake.empty()) d.mistake = absl::StrJoin(fit->terms, "+");
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
