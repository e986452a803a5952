// The steps the fitted diagnoses (depth_fit.h, block_fit.h, patch_fit.h) share: recovering the
// input element each output element holds, keeping the members of a family that explain the
// output with the fewest terms differing from the spec's, and stating the answer (one member,
// several members equally, or none).
//
// Example (a family whose members are described as FitTerms):
//   const std::vector<int64_t> seen = InputIndexOfEach(c.data, actual);  // -1: not an input
//   FewestTerms<FitTerms> best;
//   for (const Member& m : members) {
//     if (!best.CanStillTie(m.structural)) break;
//     if (Explains(m, seen)) best.Offer(Describe(m));
//   }
//   if (best.kept().empty()) return NoMemberFits("pad, reshape-transpose-reshape, ...");
//   if (best.kept().size() > 1) return SeveralFit(best.Ways());
//   return OneFit(best.kept()[0], "map");
#ifndef DMCONF_HARNESS_COMPARE_FIT_SEARCH_H_
#define DMCONF_HARNESS_COMPARE_FIT_SEARCH_H_

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "harness/compare/depth_fit.h"
#include "oracle/tensor.h"

namespace dmconf {

// The fits' work is bounded: outputs of at most this many elements, and at most this many
// element visits over all the members tried (most fail within a few elements, but a case whose
// members agree on long prefixes must not cost members x elements).
inline constexpr int64_t kMaxFitElements = int64_t{1} << 22;
inline constexpr int64_t kFitWorkBudget = int64_t{1} << 26;

// For each output element of `actual`, the flat index of the element of `data` holding the same
// bits, or -1 when no input element does (data encode positions: their values are distinct).
std::vector<int64_t> InputIndexOfEach(const Tensor& data, const Tensor& actual);

// How one member of a family differs from the spec's formula: the terms' ids
// ("s2b.fit.pads") and, in the same order, what each says.
struct FitTerms {
  std::vector<std::string> terms, texts;
};

// The members that explain the output with the fewest differing terms, in the order offered.
// D: FitTerms, or a struct deriving from it.
template <typename D>
class FewestTerms {
 public:
  // Whether a member with `structural` terms known to differ can still tie with the best kept
  // (members are offered cheapest first, so a search stops at the first that cannot).
  bool CanStillTie(size_t structural) const { return structural <= fewest_; }
  void Offer(D d) {
    if (d.terms.size() < fewest_) {
      fewest_ = d.terms.size();
      kept_.clear();
    }
    if (d.terms.size() == fewest_) kept_.push_back(std::move(d));
  }
  const std::vector<D>& kept() const { return kept_; }
  // Each kept member as one phrase: its texts joined by " and ".
  std::vector<std::string> Ways() const {
    std::vector<std::string> ways;
    for (const D& d : kept_) ways.push_back(absl::StrJoin(d.texts, " and "));
    return ways;
  }

 private:
  size_t fewest_ = std::numeric_limits<size_t>::max();
  std::vector<D> kept_;
};

// Several members explain every output element equally: `ways` names each.
LayoutFit SeveralFit(const std::vector<std::string>& ways);

// No member of the family (described by `family`) explains every output element.
LayoutFit NoMemberFits(absl::string_view family);

// One member explains every output element: the spec's own `what` ("map") when `t` has no
// terms, else the fitted `what` and the terms in which it differs.
LayoutFit OneFit(const FitTerms& t, absl::string_view what);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_COMPARE_FIT_SEARCH_H_
