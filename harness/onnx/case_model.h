// The ONNX graph of one valid case, as exported by `dmconf vectors export-onnx`:
//
// - DepthToSpace (4-D): one DepthToSpace-13 node, blocks_first -> mode "DCR", depth_first ->
//   "CRD". SpaceToDepth (4-D, blocks_first only: ONNX's SpaceToDepth has no mode and is
//   blocks_first): one SpaceToDepth-13 node. Attribute blocksize = block_size.
// - SpaceToBatch and BatchToSpace: the specification's own decomposition (the oracle's formula,
//   oracle/ops/space_to_batch.cc, batch_to_space.cc). The OpenVINO inputs block_shape,
//   pads_begin / crops_begin and pads_end / crops_end are initializers of their own integer
//   type under those names.
//     SpaceToBatch:  Pad(data, Concat(Cast(pads_begin), Cast(pads_end)))   (when a pad is not 0)
//                    -> Reshape [batch + P_0, (D_1 + P_1) / B_1, B_1, ...]
//                    -> Transpose [2, 4, ..., 2N-2, 0, 1, 3, ..., 2N-3]
//                    -> Reshape (the output shape)
//     BatchToSpace:  Reshape [B_1, ..., B_{N-1}, batch / prod(B), D_1, ..., D_{N-1}]
//                    -> Transpose [N-1, N, 0, N+1, 1, ..., 2N-2, N-2]
//                    -> Reshape [batch / prod(B), D_1 * B_1, ...]
//                    -> Slice(starts Cast(crops_begin), ends dims - Cast(crops_end))
//                                                                     (when a crop is not 0)
//   Reshape-14 with allowzero = 1, so zero-sized dims are dims, not "copy the input's".
// - ExtractImagePatches: Pad (same_upper / same_lower), then one strided Slice per kernel
//   position (i, j), Concat on the channel axis in (i, j) order: output channel
//   (i * sizes[1] + j) * C + c, as the specification orders the depth.
// The graph's input is "data", its output "output"; opset kOnnxOpset, IR kOnnxIrVersion.
//
// Errors (the reason a case is not exported) carry an "onnx.export.*" id: .type (ONNX 1.12 has
// no such element type), .rank (ONNX's DepthToSpace / SpaceToDepth are 4-D), .mode
// (SpaceToDepth depth_first; an absent block_size is written as its default, 1), .case (the case
// is not one the graph can compute, e.g. a must_reject case).
#ifndef DMCONF_HARNESS_ONNX_CASE_MODEL_H_
#define DMCONF_HARNESS_ONNX_CASE_MODEL_H_

#include "absl/status/statusor.h"
#include "onnx/onnx_pb.h"
#include "oracle/op_case.h"

namespace dmconf::onnx_io {

// The case must be valid (oracle Validate); the declared output shape is the oracle's.
absl::StatusOr<::onnx::ModelProto> CaseModel(const OpCase& c);

}  // namespace dmconf::onnx_io

#endif  // DMCONF_HARNESS_ONNX_CASE_MODEL_H_
