// OpenCV 4.6 dnn (optional): DepthToSpace and SpaceToDepth through its ONNX importer. The adapter
// writes one single-node ONNX model per case (harness/onnx/model_builder.h, the ONNX library's
// generated classes; the importer fixes the shapes from the model) and runs it with cv::dnn::Net.
//
// Mapping: NCHW throughout. blocks_first -> ONNX DepthToSpace mode "DCR", depth_first -> "CRD";
// ONNX SpaceToDepth has no mode and is blocks_first, so SpaceToDepth depth_first is
// `unsupported`, as is a missing mode (ONNX would default to DCR). OpenCV dnn computes in f32
// only (other inputs are silently converted), so f32 is the only type declared. 4-D only.
// Import or run errors (cv::Exception) are `rejected`.
#ifndef DMCONF_HARNESS_BACKENDS_OPENCV_OPENCV_BACKEND_H_
#define DMCONF_HARNESS_BACKENDS_OPENCV_OPENCV_BACKEND_H_

#include <memory>
#include <string>

#include "harness/backend/backend.h"

namespace dmconf {

class OpencvBackend : public Backend {
 public:
  std::string Name() const override { return "opencv"; }
  Capabilities GetCapabilities() const override;
  RunOutcome Run(const OpCase& c) override;
};

std::unique_ptr<Backend> MakeOpencvBackend();

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BACKENDS_OPENCV_OPENCV_BACKEND_H_
