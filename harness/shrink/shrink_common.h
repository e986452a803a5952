// Helpers the kernel shrinker (shrink.cc) and the shape-case shrinker (shrink_shape.cc) share:
// saturating sizes, the smaller values tried for a quantity, block powers, integer tensors as
// values, the order of element types from simplest, and the smaller patch attributes.
#ifndef DMCONF_HARNESS_SHRINK_SHRINK_COMMON_H_
#define DMCONF_HARNESS_SHRINK_SHRINK_COMMON_H_

#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "oracle/op_case.h"
#include "oracle/tensor.h"

namespace dmconf::shrink_internal {

inline constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

// a + b, saturated at the int64 limits.
int64_t SatAdd(int64_t a, int64_t b);
// |v|, with |INT64_MIN| saturated to INT64_MAX.
int64_t Abs(int64_t v);

// The smaller values tried for a quantity v: floor, 1, v / 2, v - 1 (and v - step when step
// > 0), distinct, each in [floor, v), in that order.
std::vector<int64_t> Reductions(int64_t v, int64_t floor, int64_t step = 0);

// b ^ k, nullopt on overflow.
std::optional<int64_t> Power(int64_t b, int64_t k);

// The values of an integer tensor (0 for an element that is no integer).
std::vector<int64_t> Ints(const Tensor& t);

// u8, i32, f32 first (0, 1, 2), every other type after (3): the order of simplicity.
int TypeOrder(ElementType t);

// Element count of a shape; nullopt when not representable.
std::optional<int64_t> Count(const Shape& s);

// `c` with data of `shape`: two candidates, its elements the current data's first ones and its
// last ones (cycled). None when the new shape is not representable or holds more elements than
// the current data.
std::vector<OpCase> WithShape(const OpCase& c, const Shape& shape);

// `c` with integer input k replaced by `v` in its own element type (nullopt if it cannot hold it).
std::optional<OpCase> WithInts(OpCase c, size_t k, const std::vector<int64_t>& v);

// The unit by which axis k of data of rank `rank` can shrink and keep the op's divisibility:
// block_shape[k] (SpaceToBatch), prod(block_shape) (BatchToSpace batch), block_size
// (SpaceToDepth spatial dims) or block_size^K (DepthToSpace depth); 0 when none (a block_shape
// that is not known, or not of length rank).
int64_t DivisibilityStep(Op op, size_t rank, size_t k,
                         const std::optional<std::vector<int64_t>>& block_shape,
                         std::optional<int64_t> block_size);
// The same for a kernel case.
int64_t Step(const OpCase& c, size_t k);

// The attribute bundle (oracle/op_attributes.h) of a kernel or a shape case, shrunk the same
// way for both: smaller sizes, strides and rates (each entry through Reductions(v, 1)), then
// auto_pad valid; in that order. Only ExtractImagePatches reads these attributes.
std::vector<OpAttributes> SmallerPatchAttributes(const OpAttributes& a);

// Those smaller bundles of an ExtractImagePatches case, each a copy of `c` (a kernel case or a
// shape case) with one change, appended to `out`; nothing for the other ops.
template <typename Case, typename Out>
void AppendSmallerPatches(const Case& c, Out& out) {
  if (c.op != Op::kExtractImagePatches) return;
  for (OpAttributes& a : SmallerPatchAttributes(c)) {
    Case y = c;
    CopyAttributes(a, y);
    out.push_back(std::move(y));
  }
}

// The bundle's part of a shrink key (both shrinkers): |block_size| plus every |sizes|,
// |strides| and |rates| entry, plus 1 for an auto_pad other than valid, saturated.
int64_t AttributesWeight(const OpAttributes& a);

inline bool BlockOp(Op op) { return op == Op::kSpaceToBatch || op == Op::kBatchToSpace; }
inline bool DepthOp(Op op) { return op == Op::kSpaceToDepth || op == Op::kDepthToSpace; }

}  // namespace dmconf::shrink_internal

#endif  // DMCONF_HARNESS_SHRINK_SHRINK_COMMON_H_
