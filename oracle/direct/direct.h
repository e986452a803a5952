// A second, independent evaluation of the five ops: one index formula per output element.
//
// The literal oracle (oracle.h) follows the specifications' reshape / transpose / reshape
// pipelines through shared primitives. This library derives, from the specifications'
// semantics alone, where every output element comes from, and copies it element by element
// through Tensor::GetBits / SetBits. It shares no index arithmetic with the oracle's
// primitives, so a disagreement between the two is a bug in one of them.
//
// The formulas (n: batch index, o_i: offset inside a block, flat(o_1..o_K): row-major with the
// last offset fastest, b: block_size, K: number of spatial axes):
//   SpaceToBatch   out[f * batch + n, i_1, ...] = pad(data)[n, i_1 * B_1 + o_1, ...],
//                  f = flat(o_1..o_{N-1}) over radices B_1..B_{N-1}; zero in the padding.
//   BatchToSpace   out[n, j_1, ...] = data[flat(o_1..) * batch_out + n, d_1, ...],
//                  p_i = j_i + crops_begin[i], o_i = p_i mod B_i, d_i = p_i div B_i.
//   DepthToSpace   out[n, c', y_1, ...] = data[n, in_c, y_1 div b, ...], o_i = y_i mod b,
//                  in_c = flat(o) * C_out + c' (blocks_first) or c' * b^K + flat(o)
//                  (depth_first).
//   SpaceToDepth   the inverse: out[n, out_c, z_1, ...] = data[n, c, z_1 * b + o_1, ...],
//                  out_c = flat(o) * C + c (blocks_first) or c * b^K + flat(o) (depth_first).
//   ExtractImagePatches
//                  out[n, (kh * KW + kw) * C + c, oh, ow] =
//                      data[n, c, oh * SH - PT + kh * RH, ow * SW - PL + kw * RW],
//                  zero outside the image; out size and padding as ERRATA E8.
// Pad zeros are the all-zero bit pattern of the element type.
//
// Contract: DirectEvaluate accepts any case. Malformed cases give the oracle's `case.*` error;
// cases the oracle does not find valid give a FailedPrecondition error whose message is the
// deciding rule's message ("s2b.block_shape.divides: ..."). For valid cases the output shape
// is computed here too, independently, and an InternalError starting with
// "direct.shape_disagrees" is returned when it differs from the oracle's shape inference.
// Outputs above max_bytes give `case.output.too_large` (nothing is allocated).
//
// Example (the SpaceToDepth example shape of the specification):
//   OpCase c;
//   c.op = Op::kSpaceToDepth;
//   c.data = *MakeTensor(ElementType::kU4, {5, 7, 4, 6}, [](int64_t i) { return i; });
//   c.block_size = 2;
//   c.mode = "depth_first";
//   absl::StatusOr<Tensor> y = direct::DirectEvaluate(c);   // shape [5, 28, 2, 3]
//   // Output [0, 1, 0, 0] (flat 6): c = 1 div 4 = 0, flat(o) = 1, o = (0, 1), z = (0, 0),
//   // so it copies data[0, 0, 0, 1] (flat 1): y->GetBits(6) == 1.
//
//   absl::StatusOr<direct::SourceMap> m = direct::DirectSourceMap(c);
//   // m->source[k] is the flat data index output element k copies (or kPadZero).
#ifndef DMCONF_ORACLE_DIRECT_DIRECT_H_
#define DMCONF_ORACLE_DIRECT_DIRECT_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "oracle/op_case.h"
#include "oracle/tensor.h"

namespace dmconf::direct {

// Marks an output element that is padding (all-zero bits) in a SourceMap.
inline constexpr int64_t kPadZero = -1;

inline constexpr int64_t kDefaultMaxBytes = kMaxTensorBytes;

// Evaluates a case with the direct index formulas (contract above).
absl::StatusOr<Tensor> DirectEvaluate(const OpCase& c, int64_t max_bytes = kDefaultMaxBytes);

// For a valid case: the output shape and, per output element in row-major order, the
// row-major index into data of the element it copies, or kPadZero. Refuses
// (`case.output.too_large`) maps of more than max_elements entries.
struct SourceMap {
  Shape output_shape;
  std::vector<int64_t> source;
};
absl::StatusOr<SourceMap> DirectSourceMap(const OpCase& c, int64_t max_elements = int64_t{1} << 26);

// Per-op entry points. Each builds the OpCase (integer inputs as i64) and calls
// DirectEvaluate, so invalid arguments give the same rule-named errors.
absl::StatusOr<Tensor> DirectSpaceToBatch(const Tensor& data, absl::Span<const int64_t> block_shape,
                                          absl::Span<const int64_t> pads_begin,
                                          absl::Span<const int64_t> pads_end,
                                          int64_t max_bytes = kDefaultMaxBytes);
absl::StatusOr<Tensor> DirectBatchToSpace(const Tensor& data, absl::Span<const int64_t> block_shape,
                                          absl::Span<const int64_t> crops_begin,
                                          absl::Span<const int64_t> crops_end,
                                          int64_t max_bytes = kDefaultMaxBytes);
absl::StatusOr<Tensor> DirectSpaceToDepth(const Tensor& data, int64_t block_size, DepthMode mode,
                                          int64_t max_bytes = kDefaultMaxBytes);
absl::StatusOr<Tensor> DirectDepthToSpace(const Tensor& data, int64_t block_size, DepthMode mode,
                                          int64_t max_bytes = kDefaultMaxBytes);
absl::StatusOr<Tensor> DirectExtractImagePatches(const Tensor& data,
                                                 absl::Span<const int64_t> sizes,
                                                 absl::Span<const int64_t> strides,
                                                 absl::Span<const int64_t> rates, AutoPad auto_pad,
                                                 int64_t max_bytes = kDefaultMaxBytes);

}  // namespace dmconf::direct

#endif  // DMCONF_ORACLE_DIRECT_DIRECT_H_
