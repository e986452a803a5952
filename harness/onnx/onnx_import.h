// Converts ONNX node-test folders (model.onnx + test_data_set_0/input_0.pb and output_0.pb)
// into dmconf vectors, through the ONNX library's generated classes (harness/onnx/).
//
// Two kinds of folder:
// - ONNX's own node tests, as Debian's libonnx-testdata ships them, for DepthToSpace and
//   SpaceToDepth. Mapping ONNX -> OpenVINO (docs/vector-format.md):
//     DepthToSpace mode "DCR" (the ONNX default) -> DepthToSpace-1 mode blocks_first
//     DepthToSpace mode "CRD"                    -> DepthToSpace-1 mode depth_first
//     SpaceToDepth (no mode in ONNX)             -> SpaceToDepth-1 mode blocks_first
//     attribute blocksize                        -> block_size
//   The expected output is the ONNX test's own output_0.pb, not the oracle's: the conversion
//   checks the oracle against an independent implementation. The vector id is
//   "onnx.<folder name>".
// - Folders written by `dmconf vectors export-onnx` (onnx_export.h): the model's metadata
//   "dmconf.vector" holds the vector without its tensors; data comes from input_0.pb, the
//   other inputs from the graph's initializers of the same names, the expected output from
//   output_0.pb. The graph must be exactly the one the export writes for that case. The result
//   is the exported vector, bit for bit.
// Malformed input gives an error naming the file and a rule (onnx.*, harness/onnx/onnx_parse.h),
// never a crash.
//
// Example:
//   absl::StatusOr<VectorCase> v =
//       ImportOnnxNodeTest("/usr/share/libonnx-testdata/data/node/test_depthtospace_dcr_mode");
#ifndef DMCONF_HARNESS_ONNX_ONNX_IMPORT_H_
#define DMCONF_HARNESS_ONNX_ONNX_IMPORT_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/io/vector_case.h"
#include "oracle/tensor.h"

namespace dmconf::io {

inline constexpr char kOnnxTestDataDir[] = "/usr/share/libonnx-testdata/data/node";

// The model metadata key of an exported folder's vector (less its tensors).
inline constexpr char kOnnxVectorMetadataKey[] = "dmconf.vector";

// The node-test folders converted by default (every DepthToSpace / SpaceToDepth test).
std::vector<std::string> OnnxNodeTestNames();

// Decodes a serialised TensorProto. `file` names it in errors.
absl::StatusOr<Tensor> ParseOnnxTensor(absl::string_view bytes, absl::string_view file);

// Converts one folder (either kind above).
absl::StatusOr<VectorCase> ImportOnnxNodeTest(const std::string& dir);

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_ONNX_ONNX_IMPORT_H_
