#include "harness/compare/fit_search.h"

#include <unordered_map>

#include "absl/strings/str_cat.h"

namespace dmconf {

std::vector<int64_t> InputIndexOfEach(const Tensor& data, const Tensor& actual) {
  std::unordered_map<uint64_t, int64_t> where;
  for (int64_t i = 0; i < data.NumElements(); ++i) where[data.GetBits(i)] = i;
  std::vector<int64_t> seen(static_cast<size_t>(actual.NumElements()));
  for (int64_t j = 0; j < actual.NumElements(); ++j) {
    auto it = where.find(actual.GetBits(j));
    seen[static_cast<size_t>(j)] = it == where.end() ? -1 : it->second;
  }
  return seen;
}

LayoutFit SeveralFit(const std::vector<std::string>& ways) {
  LayoutFit fit;
  fit.explained = true;
  fit.several = true;
  fit.summary = absl::StrCat(
      "several members of the family explain every output element equally (this case cannot "
      "tell them apart): ",
      absl::StrJoin(ways, "; or "));
  return fit;
}

LayoutFit NoMemberFits(absl::string_view family) {
  LayoutFit fit;
  fit.summary = absl::StrCat("no member of the family (", family,
                             ") explains every output element: the backend computes something "
                             "outside the formula's family (or a per-element mistake)");
  return fit;
}

LayoutFit OneFit(const FitTerms& t, absl::string_view what) {
  LayoutFit fit;
  fit.explained = true;
  fit.terms = t.terms;
  fit.summary = t.terms.empty()
                    ? absl::StrCat("the spec's own ", what, " explains every output element")
                    : absl::StrCat("the fitted ", what,
                                   " explains every output element and differs from the spec's "
                                   "in: ",
                                   absl::StrJoin(t.texts, "; "));
  return fit;
}

}  // namespace dmconf
