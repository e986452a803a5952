// Data fills, the one source of every generated input's values: the positional fill (an input
// that encodes where each element sits) and the special-value fill (NaN payloads, infinities,
// -0, subnormals, integer extremes). The catalogue of `dmconf run`, the golden vectors, the
// case builders, the fuzz targets and `dmconf eval --data iota` all fill through here.
//
// Positional fill: element i holds the number first + i when the type holds it exactly (every
// integer type wraps it to its width; f16, bf16, f32, f64, f8e4m3, f8e5m2, f8e8m0 and f4e2m1
// hold it as a number while it is exact), else the bits of first + i (masked to the width);
// boolean elements hold the Thue-Morse bit of first + i (0 or 1, aperiodic, so a shifted
// output still differs). With first = 1 every element of an integer or a 16- to 64-bit float
// type is distinct and non-zero while the count fits the type, so the bits of an output
// element name the input element it came from (harness/compare/diagnosis.h).
//
// Example:
//   Tensor x = PositionalTensor(ElementType::kF32, {1, 1, 10, 10});  // 1.0, 2.0, ..., 100.0
//   Tensor s = SpecialTensor(ElementType::kF16, {1, 4, 4}, /*seed=*/1);
//   // s cycles through SpecialBits(kF16) in an order chosen by the seed
#ifndef DMCONF_HARNESS_GEN_FILLS_H_
#define DMCONF_HARNESS_GEN_FILLS_H_

#include <cstdint>
#include <vector>

#include "oracle/element_type.h"
#include "oracle/tensor.h"

namespace dmconf {

// The bits of element i of the positional fill starting at `first` (see above).
uint64_t PositionalBits(ElementType t, int64_t first, int64_t i);

// Overwrites every element of t (already sized) with the positional fill from `first`.
void FillPositional(Tensor& t, int64_t first = 1);

// A tensor of the shape holding the positional fill from 1; an empty tensor (no bytes) when
// the shape is not representable.
Tensor PositionalTensor(ElementType t, const Shape& shape);

// Special bit patterns of a type: for the float types NaNs with payloads (quiet and
// signalling), +-inf, -0, subnormals, the extremes and a few ordinary values; for the integer
// types the minimum, the maximum, -1 / all ones, 0 and 1 and their neighbours. Empty for the
// types without special values (boolean, nf4).
std::vector<uint64_t> SpecialBits(ElementType t);

// Overwrites every element of t with SpecialBits(t.type) in an order chosen by `seed` (a
// SplitMix64-driven Fisher-Yates shuffle), cycled. Leaves types without specials unchanged.
void FillSpecial(Tensor& t, uint64_t seed);

// A tensor of the shape holding FillSpecial's values.
Tensor SpecialTensor(ElementType t, const Shape& shape, uint64_t seed);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_GEN_FILLS_H_
