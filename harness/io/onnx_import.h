// Converts ONNX node tests (model.onnx + test_data_set_0/{input_0,output_0}.pb, as Debian's
// libonnx-testdata ships them) for DepthToSpace and SpaceToDepth into dmconf vectors.
//
// Mapping ONNX -> OpenVINO (docs/vector-format.md):
//   DepthToSpace mode "DCR" (the ONNX default) -> DepthToSpace-1 mode blocks_first
//   DepthToSpace mode "CRD"                    -> DepthToSpace-1 mode depth_first
//   SpaceToDepth (no mode in ONNX)             -> SpaceToDepth-1 mode blocks_first
//   attribute blocksize                        -> block_size
// The expected output is the ONNX test's own output_0.pb, not the oracle's: the conversion
// checks the oracle against an independent implementation.
//
// The reader is a minimal protobuf wire-format decoder: ModelProto.graph (7) -> GraphProto.node
// (1) -> NodeProto.op_type (4) / attribute (5: name 1, i 3, s 4); TensorProto dims (1, packed
// or not), data_type (2; only 1 = float is accepted), float_data (4), raw_data (9,
// little-endian). Malformed input gives an error naming the file (rule onnx.*), never a crash.
//
// Example:
//   absl::StatusOr<VectorCase> v =
//       ImportOnnxNodeTest("/usr/share/libonnx-testdata/data/node/test_depthtospace_dcr_mode");
#ifndef DMCONF_HARNESS_IO_ONNX_IMPORT_H_
#define DMCONF_HARNESS_IO_ONNX_IMPORT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/io/vector_case.h"
#include "oracle/tensor.h"

namespace dmconf::io {

inline constexpr char kOnnxTestDataDir[] = "/usr/share/libonnx-testdata/data/node";

// The node-test folders converted by default (every DepthToSpace / SpaceToDepth test).
std::vector<std::string> OnnxNodeTestNames();

// Decodes a serialised TensorProto (float only). `file` names it in errors.
absl::StatusOr<Tensor> ParseOnnxTensor(absl::string_view bytes, absl::string_view file);

// Converts one node-test folder; the vector id is "onnx.<folder name>".
absl::StatusOr<VectorCase> ImportOnnxNodeTest(const std::string& dir);

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_IO_ONNX_IMPORT_H_
