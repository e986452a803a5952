#include "harness/suites/conformance_profiles.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "harness/suites/curated.h"
#include "oracle/rules.h"

namespace dmconf {

std::string ConformanceProfile::Id() const { return absl::StrCat(name, "/", version); }

namespace {

std::vector<ConformanceProfile> Current() {
  const std::vector<Op> all_ops(AllOps().begin(), AllOps().end());
  std::vector<ConformanceProfile> v;
  {
    ConformanceProfile p;
    p.name = "nchw-core";
    p.version = 2;
    p.description =
        "the five ops on 4-D data in the element types most inference backends run (f32, f16, "
        "bf16, i32, i8, u8): kernels only; a rule pair at rank 4 for every rule that 4-D data "
        "can break";
    p.ops = all_ops;
    p.types = {ElementType::kF32, ElementType::kF16, ElementType::kBf16,
               ElementType::kI32, ElementType::kI8,  ElementType::kU8};
    p.min_rank = p.max_rank = 4;
    v.push_back(p);
  }
  {
    ConformanceProfile p;
    p.name = "shape-inference";
    p.version = 2;
    p.description =
        "shape inference of the five ops: static cases with dims and attributes up to 2^63-1, "
        "and partial ones (interval dims, unknown ranks, non-constant inputs); no kernels";
    p.ops = all_ops;
    p.kernels = false;
    p.shapes = true;
    v.push_back(p);
  }
  {
    ConformanceProfile p;
    p.name = "full";
    p.version = 2;
    p.description =
        "everything the specifications define: the five ops, all 24 element types, every rank, "
        "kernels and shape inference";
    p.ops = all_ops;
    p.shapes = true;
    v.push_back(p);
  }
  return v;
}

// Version 1 of each: the catalogue's first edition, and no rule coverage required (its
// statement still lists the rules it did and did not exercise).
std::vector<ConformanceProfile> Build() {
  std::vector<ConformanceProfile> v = Current();
  const size_t current = v.size();
  for (size_t k = 0; k < current; ++k) {
    ConformanceProfile p = v[k];
    p.superseded_by = p.Id();
    p.version = 1;
    p.catalogue_edition = 1;
    p.rules_required = false;
    if (p.name == "nchw-core") {
      p.description =
          "the five ops on 4-D data in the element types most inference backends run (f32, "
          "f16, bf16, i32, i8, u8): kernels only";
    }
    v.push_back(p);
  }
  return v;
}

}  // namespace

const std::vector<ConformanceProfile>& ConformanceProfiles() {
  static const std::vector<ConformanceProfile>* const kAll =
      new std::vector<ConformanceProfile>(Build());
  return *kAll;
}

const ConformanceProfile* FindProfile(const std::string& name_or_id) {
  for (const ConformanceProfile& p : ConformanceProfiles()) {
    if (p.Id() == name_or_id || (p.name == name_or_id && p.superseded_by.empty())) return &p;
  }
  return nullptr;
}

std::vector<ProfileRule> ProfileRules(const ConformanceProfile& p) {
  // The rules with a pair whose negative and twin both have data within the ranks: the pairs
  // at their own ranks, and those at each rank of the range the pairs are made at (2 to 8).
  std::set<std::string> within;
  auto take = [&](const std::vector<RulePair>& pairs) {
    for (const RulePair& r : pairs) {
      const auto neg = static_cast<int>(r.negative.data.shape.size());
      const auto twin = static_cast<int>(r.twin.data.shape.size());
      if (neg >= p.min_rank && neg <= p.max_rank && twin >= p.min_rank && twin <= p.max_rank) {
        within.insert(r.rule);
      }
    }
  };
  take(RulePairs());
  for (int rank = std::max(p.min_rank, 2); rank <= std::min(p.max_rank, 8); ++rank) {
    take(RulePairs(rank));
  }
  std::vector<ProfileRule> out;
  for (const Rule& r : AllRules()) {
    if (!r.op.has_value() || r.kind == RuleKind::kMalformed) continue;
    if (std::find(p.ops.begin(), p.ops.end(), *r.op) == p.ops.end()) continue;
    out.push_back({*r.op, std::string(r.id), within.count(std::string(r.id)) > 0});
  }
  return out;
}

}  // namespace dmconf
