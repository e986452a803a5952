// Op instances taken from published model architectures: the shapes and attributes as the model
// runs them, each with its source. They run in `dmconf run`'s catalogue as the group
// `model/<name>/` and are in the golden vectors as `model.<name>` (provenance kind "model",
// source the citation), so a report names the model a failing case comes from.
//
// Layouts follow the op specifications: SpaceToDepth / DepthToSpace / ExtractImagePatches take
// NCHW data; SpaceToBatch / BatchToSpace blocks run over whatever axes the model's data has
// (TensorFlow's NHWC for DeepLab, [N, T, C] for WaveNet), with a block of 1 on N and C.
//
// Example:
//   for (const ModelCase& m : ModelCases()) std::cout << m.name << ": " << m.source << "\n";
#ifndef DMCONF_HARNESS_SUITES_MODEL_CASES_H_
#define DMCONF_HARNESS_SUITES_MODEL_CASES_H_

#include <string>
#include <vector>

#include "oracle/op_case.h"

namespace dmconf {

struct ModelCase {
  std::string name;    // "yolov2.reorg.416"
  std::string source;  // the paper or model card, and where in the model the op runs
  OpCase c;            // f32 data with the positional fill
};

// At least four instances of every op, batch sizes above 1 included; every one valid.
std::vector<ModelCase> ModelCases();

}  // namespace dmconf

#endif  // DMCONF_HARNESS_SUITES_MODEL_CASES_H_
