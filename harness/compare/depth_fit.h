// A diagnosis from the whole wrong output, not from a list of known mistakes: for
// SpaceToDepth / DepthToSpace with self-identifying (position-encoded) inputs, the map from each
// output element to the input element it holds is recovered, and fitted to the family the
// spec's formula belongs to: reshape(transpose(reshape(data, split), perm), output shape), over
// every split the spec uses and every permutation of the intermediate axes. A fit must explain
// every output element; the answer names the term that differs from the spec's, or says that no
// member of the family explains the output.
//
// The family's terms (stable ids, docs/diagnoses.md): depth.fit.mode (the spec's
// layout of the other mode), depth.fit.split (another split of the depth), depth.fit.permutation
// (another permutation of the intermediate axes), depth.fit.input_layout (4-D NCHW data read as
// NHWC).
//
// Example (DepthToSpace, depth_first wanted, blocks_first computed):
//   FitDepthLayout(c, expected, actual)->summary ==
//     "your output is transpose(x', [0, 3, 4, 1, 5, 2]) of the blocks_first split
//      [N, b, b, C', D1, D2]; the spec (depth_first) says transpose(x', [0, 1, 4, 2, 5, 3]) of
//      the depth_first split [N, C', b, b, D1, D2]: the split and the permutation of the other
//      mode"
#ifndef DMCONF_HARNESS_COMPARE_DEPTH_FIT_H_
#define DMCONF_HARNESS_COMPARE_DEPTH_FIT_H_

#include <optional>
#include <string>
#include <vector>

#include "oracle/op_case.h"
#include "oracle/tensor.h"

namespace dmconf {

struct LayoutFit {
  bool explained = false;  // some member of the family explains every output element
  std::string summary;     // the fitted formula against the spec's, or why nothing fits
  // Ids of the terms in which the fitted map differs from the spec's ("depth.fit.permutation");
  // empty when nothing fits, or when several members of the family fit equally.
  std::vector<std::string> terms;
  // Several members of the family explain every output element equally (explained is then
  // true and terms empty): the case cannot tell them apart.
  bool several = false;
};

// std::nullopt when the fit does not apply: another op, data that does not encode positions,
// an actual output of another type or shape, an invalid case, or more than 3 spatial axes.
std::optional<LayoutFit> FitDepthLayout(const OpCase& c, const Tensor& expected,
                                        const Tensor& actual);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_COMPARE_DEPTH_FIT_H_
