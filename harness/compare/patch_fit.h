// The fitted diagnosis for ExtractImagePatches: from a position-encoded input (element i holds
// i + 1), the input element each output element holds is recovered, and the whole map is
// fitted to the family of the spec's patch gather: output (n, ch, oh, ow) holds input
// (n, c, oh * stride - pad + kh * rate, ow * stride' - pad' + kw * rate'), with any strides,
// rates and pads per axis (solved from the output), either order of the depth (channel-fastest
// or patch-major) and of the patch offsets (row- or column-major), the data read as NCHW or
// NHWC, and any one value in the padding. A fit must explain every output element; the answer
// names the terms that differ from the spec's, or says that no member of the family explains
// the output (or that several explain it equally). A stride or rate that no output element
// depends on (one output row; one patch row) is not fitted: the spec's is kept.
//
// The family's terms (stable ids, docs/diagnoses.md):
//   eip.fit.depth_order   patch-major depth (c * KH * KW + k), not channel-fastest (k * C + c)
//   eip.fit.kernel_order  patch offsets column-major (kw * KH + kh), not row-major
//   eip.fit.input_layout  the data read as NHWC
//   eip.fit.strides       other strides ("the rates used as strides", "the column stride used
//                         for rows")
//   eip.fit.rates         other rates ("the column rate is used for rows")
//   eip.fit.pads          another padding before ("the padding split the other way (same_lower
//                         vs same_upper)")
//   eip.fit.pad_value     the padding holds another value than zero
//
// Example (data [1, 1, 5, 3], sizes [2, 2], strides [2, 1], rates [2, 1], valid; a kernel that
// uses the column rate for rows):
//   FitPatchGather(c, expected, actual)->terms == {"eip.fit.rates"}
//   FitPatchGather(c, expected, actual)->summary ==
//     "the fitted patch gather explains every output element and differs from the spec's in:
//      rates [1, 1] where the spec says [2, 1] (the column rate is used for rows)"
#ifndef DMCONF_HARNESS_COMPARE_PATCH_FIT_H_
#define DMCONF_HARNESS_COMPARE_PATCH_FIT_H_

#include <optional>

#include "harness/compare/depth_fit.h"
#include "oracle/op_case.h"
#include "oracle/tensor.h"

namespace dmconf {

// std::nullopt when the fit does not apply: another op, a case that is not valid, data that
// does not encode positions, an actual output of another type or shape, an empty output, or
// more than 2^22 output elements (the fit's work is bounded).
std::optional<LayoutFit> FitPatchGather(const OpCase& c, const Tensor& expected,
                                        const Tensor& actual);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_COMPARE_PATCH_FIT_H_
