#include "harness/runner/slice_coverage.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace dmconf {

void CountIntoSlices(const OpCase& c, Verdict v, std::vector<SliceCoverage>& slices) {
  CountIntoSlices([&c](const OpSupport& s) { return OpSupportCovers(s, c); }, v, slices);
}

void CountIntoSlices(absl::FunctionRef<bool(const OpSupport&)> covers, Verdict v,
                     std::vector<SliceCoverage>& slices) {
  for (SliceCoverage& s : slices) {
    if (!covers(s.slice)) continue;
    ++s.in_slice;
    if (v == Verdict::kUnsupported) {
      ++s.unsupported;
    } else if (VerdictRowOf(v).ran) {
      ++s.ran;
    }
  }
}

std::vector<SliceCoverage> DeclaredSlices(const Capabilities& caps) {
  std::vector<SliceCoverage> out;
  for (const OpSupport& s : caps.ops) out.push_back(SliceCoverage{s});
  return out;
}

std::string SliceLabel(const OpSupport& s) {
  std::string types;
  if (s.element_types.size() == AllElementTypes().size()) {
    types = "all types";
  } else if (s.element_types.size() > 6) {
    types = absl::StrCat(s.element_types.size(), " types");
  } else {
    for (ElementType t : s.element_types) {
      absl::StrAppend(&types, types.empty() ? "" : ",", ElementTypeName(t));
    }
  }
  const std::string ranks = s.min_rank == s.max_rank
                                ? absl::StrCat("rank ", s.min_rank)
                                : absl::StrCat("ranks ", s.min_rank, "-", s.max_rank);
  std::string out = absl::StrCat(OpName(s.op), " ", types, " ", ranks);
  if (!s.modes.empty()) absl::StrAppend(&out, " modes ", absl::StrJoin(s.modes, ","));
  return out;
}

}  // namespace dmconf
