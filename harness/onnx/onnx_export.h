// `dmconf vectors export-onnx`: vectors as ONNX node-test folders, the layout ONNX's backend
// tests and ONNX Runtime's onnx_test_runner read:
//   OUT/test_dmconf_<id>/model.onnx
//   OUT/test_dmconf_<id>/test_data_set_0/input_0.pb    (data, TensorProto named "data")
//   OUT/test_dmconf_<id>/test_data_set_0/output_0.pb   (expected output, named "output")
//   OUT/dmconf-onnx-export.json                        (what was exported, what was skipped)
// <id> is the vector id with every character outside [A-Za-z0-9_] made '_'.
//
// The graph of each case is harness/onnx/case_model.h's (DepthToSpace / SpaceToDepth nodes,
// the specification's decomposition of SpaceToBatch / BatchToSpace, strided slices for
// ExtractImagePatches); every model passes onnx::checker::check_model and strict shape
// inference before it is written. The model's metadata "dmconf.vector" holds the vector without
// its tensors, so `dmconf vectors import-onnx` gives the vector back bit for bit.
//
// Skipped, each with its reason: cases that are not valid (must_reject, unspecified: a node
// test holds an output), element types ONNX 1.12 lacks, depth ops of rank other than 4,
// SpaceToDepth depth_first, an absent block_size, non-constant block / pad / crop inputs,
// and a model or tensor file larger than the importer reads.
//
// Example:
//   absl::StatusOr<OnnxExport> e = ExportOnnx(vectors, "/tmp/onnx");
//   for (const auto& [id, why] : e->skipped) std::cout << id << ": " << why << "\n";
#ifndef DMCONF_HARNESS_ONNX_ONNX_EXPORT_H_
#define DMCONF_HARNESS_ONNX_ONNX_EXPORT_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/io/vector_case.h"

namespace dmconf::io {

inline constexpr char kOnnxExportListName[] = "dmconf-onnx-export.json";
// Largest export list read back (the next export's clean-up) and so written.
inline constexpr int64_t kMaxOnnxExportListBytes = int64_t{64} << 20;

struct OnnxExport {
  std::vector<std::pair<std::string, std::string>> exported;  // vector id, folder name
  std::vector<std::pair<std::string, std::string>> skipped;   // vector id, reason
};

// The folder name of a vector id.
std::string OnnxTestFolderName(const std::string& id);

// The model metadata of a vector: its JSON (docs/vector-format.md) without the "data" of any
// tensor.
std::string OnnxVectorMetadata(const VectorCase& v);

// Writes the folders and the list; removes the folders an earlier export into out_dir wrote
// (named in its list) that this one does not write. Errors: io.* (writing), onnx.export.name (two
// ids give the same folder name), onnx.checker / onnx.shape_inference (a model that fails the ONNX
// checker: a bug, never skipped).
absl::StatusOr<OnnxExport> ExportOnnx(const std::vector<VectorCase>& vectors,
                                      const std::string& out_dir);

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_ONNX_ONNX_EXPORT_H_
