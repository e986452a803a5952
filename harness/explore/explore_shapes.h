// The shape-inference lane of `dmconf fuzz` (Explore): for a backend that declares
// infer_static or infer_partial, generated shape cases without data inside its declared
// slices, asked and judged exactly as `dmconf run`'s shape lane asks and judges them
// (shape_lane.h RunShapeCase: InferStatic for a static case when declared, else InferPartial).
//
// Case `index` of the lane: a declared slice (its op, element types, ranks and modes), then
// harness/gen's seeded driver without data (SeededShapeCase): a static case (one in three, or
// every case when only infer_static is declared) drawn with the overflow lane weighted as in
// `dmconf run` (dims and attributes near 2^63), or a partial one (intervals, "?", unknown
// ranks, non-constant block_shape / pads / crops). Ids: "fuzz/shape-static-..." and
// "fuzz/shape-partial-...".
//
// Example:
//   std::vector<GenerateOptions> slices = ShapeLaneSlices(caps);   // empty: no shape lane
//   ShapeCase s = ExploreShapeCase(slices, caps, /*seed=*/1, /*index=*/7);
#ifndef DMCONF_HARNESS_EXPLORE_EXPLORE_SHAPES_H_
#define DMCONF_HARNESS_EXPLORE_EXPLORE_SHAPES_H_

#include <cstdint>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/gen/generate.h"
#include "harness/gen/partial.h"

namespace dmconf {

// One generator setting per declared op slice with element types; empty when the backend
// declares neither infer_static nor infer_partial.
std::vector<GenerateOptions> ShapeLaneSlices(const Capabilities& caps);

// Case `index` of the shape lane of seed `seed` (`slices` non-empty).
ShapeCase ExploreShapeCase(const std::vector<GenerateOptions>& slices, const Capabilities& caps,
                           uint64_t seed, uint64_t index);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_EXPLORE_EXPLORE_SHAPES_H_
