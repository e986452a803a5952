#include "harness/explore/explore_shapes.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "harness/gen/chooser.h"

namespace dmconf {

std::vector<GenerateOptions> ShapeLaneSlices(const Capabilities& caps) {
  std::vector<GenerateOptions> out;
  if (!caps.infer_static && !caps.infer_partial) return out;
  for (const OpSupport& s : caps.ops) {
    if (s.element_types.empty()) continue;
    GenerateOptions g;
    g.ops = {s.op};
    g.build.data_types.assign(s.element_types.begin(), s.element_types.end());
    g.build.min_rank = std::max(s.min_rank, 1);
    g.build.max_rank = std::min(s.max_rank, 8);
    g.build.modes.assign(s.modes.begin(), s.modes.end());
    g.build.with_data = false;
    out.push_back(std::move(g));
  }
  return out;
}

ShapeCase ExploreShapeCase(const std::vector<GenerateOptions>& slices, const Capabilities& caps,
                           uint64_t seed, uint64_t index) {
  // A stream of its own, apart from the kernel lane's cases of the same seed and index.
  const uint64_t mix = MixSeed(seed ^ 0x5348415045ull, index);
  GenerateOptions g = slices[mix % slices.size()];
  const bool partial = caps.infer_partial && (!caps.infer_static || (mix >> 20) % 3 != 0);
  if (!partial) {
    // As `dmconf run`'s static shape cases (shape_lane.cc BuildShapeCases): the overflow lane
    // first, where a shape inference that wraps or saturates answers wrongly.
    g.valid_weight = 2;
    g.negative_weight = 2;
    g.overflow_weight = 4;
  }
  ShapeCase s = SeededShapeCase(seed, index, partial, g);
  s.id = absl::StrCat("fuzz/", s.id);
  s.origin = absl::StrCat("dmconf fuzz shape lane, ", s.origin);
  return s;
}

}  // namespace dmconf
