// The diagnosis of a wrong output shape: the backend's shape is fitted against the spec's
// output-shape formula of the op with one term changed at a time, and the term (or terms)
// whose change gives exactly that shape is named. Where no single term explains it, it says so.
//
// The terms (stable ids, docs/diagnoses.md):
//   eip.shape.plus_one        valid padding: floor((in - eff) / stride), the +1 left out
//   eip.shape.ceil            floor and ceil exchanged (valid: ceil((in - eff) / stride) + 1;
//                             same_*: floor(in / stride))
//   eip.shape.rate_ignored    the effective patch size without the rate (eff = size)
//   eip.shape.rate_stride_swapped  strides and rates exchanged
//   eip.shape.row_rate / eip.shape.col_rate  one axis's rate used for both
//   eip.shape.padding         valid computed as same (ceil(in / stride)), or same as valid
//   eip.shape.depth           the depth not multiplied by the patch size (C, not C * KH * KW)
//   s2d.shape.block_power / d2s.shape.block_power  the channels multiplied (divided) by
//                             block_size once, or squared, not block_size ^ (rank - 2)
//   s2b.shape.pads_begin / s2b.shape.pads_end  one end's padding left out
//   s2b.shape.batch           the batch not multiplied by prod(block_shape)
//   b2s.shape.crops_begin / b2s.shape.crops_end  one end's cropping left out
//   b2s.shape.batch           the batch not divided by prod(block_shape)
//
// Example (ExtractImagePatches, data [1, 1, 9, 9], sizes [2, 2], strides [2, 2], rates [1, 1],
// valid; the backend answers [1, 4, 3, 3] where the spec says (9 - 2) / 2 + 1 = 4 rows):
//   ShapeDiagnosis(c, {1, 4, 4, 4}, {1, 4, 3, 3})->mistake == "eip.shape.plus_one"
// Where several terms give the backend's shape, all are named, joined by '|'.
#ifndef DMCONF_HARNESS_COMPARE_SHAPE_TERMS_H_
#define DMCONF_HARNESS_COMPARE_SHAPE_TERMS_H_

#include <optional>

#include "harness/compare/diagnosis.h"
#include "oracle/op_case.h"
#include "oracle/shape.h"

namespace dmconf {

// std::nullopt when the shapes are equal or the case is not valid.
std::optional<Diagnosis> ShapeDiagnosis(const OpCase& c, const Shape& expected,
                                        const Shape& actual);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_COMPARE_SHAPE_TERMS_H_
