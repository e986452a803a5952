// The fitted diagnosis for SpaceToBatch / BatchToSpace: from a position-encoded input (element i
// holds i + 1), the input element each output element holds is recovered, and the whole map is
// fitted to the family the spec's formula belongs to: a pad (crop) with some begin, then the
// reshape-transpose-reshape with some order of the batch and block offsets, reading the data in
// some axis order, with some value in the padding. A fit must explain every output element; the
// answer names the terms that differ from the spec's, or says that no member of the family
// explains the output (or that several explain it equally).
//
// The family's terms (stable ids, docs/diagnoses.md):
//   <op>.fit.batch_order   the output (s2b) / input (b2s) batch is n * prod(B) + f, not
//                          f * batch + n
//   <op>.fit.block_order   the block offsets flattened in another axis order
//   <op>.fit.input_layout  the data read as laid out in another axis order (e.g. NHWC)
//   s2b.fit.pads           another pads_begin (so pads_end = total - pads_begin)
//   s2b.fit.pad_value      the padding holds another value than zero
//   b2s.fit.crops          another crops_begin (so crops_end = total - crops_begin)
// with <op> = s2b or b2s.
//
// Example (SpaceToBatch of [1, 4], block [1, 2], pads_begin [0, 1] and pads_end [0, 3] applied
// the other way round):
//   FitBlockLayout(c, expected, actual)->terms == {"s2b.fit.pads"}
//   FitBlockLayout(c, expected, actual)->summary ==
//     "the fitted map explains every output element and differs from the spec's in: pads_begin
//      [0, 3] (pads_end [0, 1]) where the spec says pads_begin [0, 1] (pads_end [0, 3]):
//      pads_begin and pads_end swapped"
#ifndef DMCONF_HARNESS_COMPARE_BLOCK_FIT_H_
#define DMCONF_HARNESS_COMPARE_BLOCK_FIT_H_

#include <optional>

#include "harness/compare/depth_fit.h"
#include "oracle/op_case.h"
#include "oracle/tensor.h"

namespace dmconf {

// std::nullopt when the fit does not apply: another op, a case that is not valid or has
// B_0 != 1 or a batch pad/crop, data that does not encode positions, an actual output of another
// type or shape, an empty output, or more than 2^22 output elements (the fit's work is bounded).
std::optional<LayoutFit> FitBlockLayout(const OpCase& c, const Tensor& expected,
                                        const Tensor& actual);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_COMPARE_BLOCK_FIT_H_
