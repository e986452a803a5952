// Internal to the direct library: one index map per op.
//
// An IndexMap gives the output shape (computed here from the op's output-shape formula, not
// taken from the oracle) and, for an output multi-index, the data multi-index it copies, or
// false when the element is padding.
#ifndef DMCONF_ORACLE_DIRECT_INDEX_MAPS_H_
#define DMCONF_ORACLE_DIRECT_INDEX_MAPS_H_

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "oracle/op_case.h"
#include "oracle/shape.h"

namespace dmconf::direct::internal {

struct IndexMap {
  Shape output_shape;
  // out: an output multi-index; src: receives the data multi-index. False: padding.
  std::function<bool(const int64_t* out, int64_t* src)> source;
};

// Preconditions for all: the case is valid by the specification (the caller checked it with
// dmconf::Validate); integer values already read as int64. Errors: InternalError
// "direct.shape_unrepresentable" when an output dim does not fit int64.
absl::StatusOr<IndexMap> SpaceToBatchMap(const Shape& data, std::vector<int64_t> block,
                                         std::vector<int64_t> pads_begin,
                                         std::vector<int64_t> pads_end);
absl::StatusOr<IndexMap> BatchToSpaceMap(const Shape& data, std::vector<int64_t> block,
                                         std::vector<int64_t> crops_begin,
                                         std::vector<int64_t> crops_end);
absl::StatusOr<IndexMap> SpaceToDepthMap(const Shape& data, int64_t block_size, DepthMode mode);
absl::StatusOr<IndexMap> DepthToSpaceMap(const Shape& data, int64_t block_size, DepthMode mode);
absl::StatusOr<IndexMap> ExtractImagePatchesMap(const Shape& data, std::array<int64_t, 2> sizes,
                                                std::array<int64_t, 2> strides,
                                                std::array<int64_t, 2> rates, AutoPad auto_pad);

// Arithmetic on __int128 with a saturation point above any int64, so products of many int64
// values never overflow; FitsInt64 tells whether a result is usable.
using Wide = __int128;
Wide SatMul(Wide a, Wide b);
bool FitsInt64(Wide x);
absl::Status Unrepresentable(absl::string_view what);

}  // namespace dmconf::direct::internal

#endif  // DMCONF_ORACLE_DIRECT_INDEX_MAPS_H_
