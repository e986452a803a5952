// The RapidCheck driver of the case builders: every choice is a RapidCheck generator pick, so
// a failing property shrinks (each choice towards its `lo`, which the builders make the
// simplest answer). Use only inside a RapidCheck property.
//
// Picks are drawn at RapidCheck's full size: the builders shape their own distributions
// (Chooser::Weighted, skewed counts), which RapidCheck's size scaling would otherwise squeeze
// towards the first alternative (no overflow lane below size 100, for instance). Shrinking
// does not depend on size.
//
// Example:
//   RC_GTEST_PROP(Props, Something, ()) {
//     RcChooser ch;
//     OpCase c = BuildValidCase(ch, Op::kDepthToSpace);
//     ...
//   }
#ifndef DMCONF_CONFORMANCE_PROPERTIES_RC_CHOOSER_H_
#define DMCONF_CONFORMANCE_PROPERTIES_RC_CHOOSER_H_

#include <limits>

#include "harness/gen/chooser.h"
#include "rapidcheck.h"

namespace dmconf {

class RcChooser : public Chooser {
 public:
  static constexpr int kFull = rc::kNominalSize;

  int64_t Int(int64_t lo, int64_t hi) override {
    constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    if (lo >= hi) return lo;
    if (hi < kMax) return *rc::gen::resize(kFull, rc::gen::inRange<int64_t>(lo, hi + 1));
    if (lo > kMin) return *rc::gen::resize(kFull, rc::gen::inRange<int64_t>(lo - 1, hi)) + 1;
    return *rc::gen::resize(kFull, rc::gen::arbitrary<int64_t>());
  }
};

}  // namespace dmconf

#endif  // DMCONF_CONFORMANCE_PROPERTIES_RC_CHOOSER_H_
