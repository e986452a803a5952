// Eigen 3.4 Tensor module: ExtractImagePatches through Tensor::extract_image_patches, the kernel
// TensorFlow's ExtractImagePatches is built on.
//
// Mapping (as TensorFlow does it): the NCHW input is transposed to a RowMajor NHWC tensor and
// Eigen is called with rows and columns swapped (Eigen's "rows" is the dim next to the channel,
// here W). The result, RowMajor [N, OH*OW, kh, kw, C] in memory, is OpenVINO's depth order
// (kh, kw, c), channel fastest; the adapter transposes it to [N, kh*kw*C, OH, OW].
//   valid      -> PADDING_VALID
//   same_upper -> PADDING_SAME (Eigen puts the odd pad at the end)
//   same_lower -> the explicit-padding overload, odd pad at the start (ERRATA E8)
// Elements are moved as unsigned integers of their width (1, 2, 4 or 8 bytes), so every
// byte-aligned type runs and the pad value is all-zero bits, as OpenVINO's.
// Eigen does not validate: out-of-domain attributes (sizes, strides or rates < 1, rank != 4,
// an unknown auto_pad) and `valid` with an effective kernel larger than the input (where Eigen
// asserts; docs/findings.md) are `unsupported`, never passed to Eigen.
//
// Example:
//   EigenBackend b;
//   RunOutcome r = b.Run(op_case);   // kOutput or kUnsupported
#ifndef DMCONF_HARNESS_BACKENDS_EIGEN_EIGEN_BACKEND_H_
#define DMCONF_HARNESS_BACKENDS_EIGEN_EIGEN_BACKEND_H_

#include <memory>
#include <string>

#include "harness/backend/backend.h"

namespace dmconf {

class EigenBackend : public Backend {
 public:
  std::string Name() const override { return "eigen"; }
  Capabilities GetCapabilities() const override;
  using Backend::Supports;
  // The finer check of Unsupported(c, declared).
  bool Supports(const OpCase& c, const Capabilities& declared) const override;
  RunOutcome Run(const OpCase& c) override;
  // Why the case is not passed to Eigen (empty when it is), checked against `declared` (the
  // caller's copy of GetCapabilities()).
  std::string Unsupported(const OpCase& c, const Capabilities& declared) const;
};

std::unique_ptr<Backend> MakeEigenBackend();

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BACKENDS_EIGEN_EIGEN_BACKEND_H_
