#include "harness/suites/conformance_profiles.h"

#include "absl/strings/str_cat.h"

namespace dmconf {

std::string ConformanceProfile::Id() const { return absl::StrCat(name, "/", version); }

namespace {

std::vector<ConformanceProfile> Build() {
  const std::vector<Op> all_ops(AllOps().begin(), AllOps().end());
  std::vector<ConformanceProfile> v;
  {
    ConformanceProfile p;
    p.name = "nchw-core";
    p.description =
        "the five ops on 4-D data in the element types most inference backends run (f32, f16, "
        "bf16, i32, i8, u8): kernels only";
    p.ops = all_ops;
    p.types = {ElementType::kF32, ElementType::kF16, ElementType::kBf16,
               ElementType::kI32, ElementType::kI8,  ElementType::kU8};
    p.min_rank = p.max_rank = 4;
    v.push_back(p);
  }
  {
    ConformanceProfile p;
    p.name = "shape-inference";
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
    p.description =
        "everything the specifications define: the five ops, all 24 element types, every rank, "
        "kernels and shape inference";
    p.ops = all_ops;
    p.shapes = true;
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
    if (p.name == name_or_id || p.Id() == name_or_id) return &p;
  }
  return nullptr;
}

}  // namespace dmconf
