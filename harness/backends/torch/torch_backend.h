// libtorch (optional): ATen's pixel_shuffle / pixel_unshuffle for DepthToSpace / SpaceToDepth
// depth_first, and im2col (the kernel behind torch.nn.functional.unfold) for
// ExtractImagePatches.
//
// Mapping:
//   DepthToSpace depth_first  -> at::pixel_shuffle(x, b)      (4-D NCHW; torch takes leading dims
//   SpaceToDepth depth_first  -> at::pixel_unshuffle(x, b)     as batch, so other ranks differ
//                                                              from OpenVINO and are unsupported)
//   blocks_first has no torch kernel (only view/permute), so it is `unsupported`.
//   ExtractImagePatches       -> explicit zero padding (at::constant_pad_nd; the pads of
//     ERRATA E8, odd pad at the end for same_upper, at the start for same_lower), then
//     at::im2col(kernel, dilation = rates, padding 0, stride), whose [N, C*kh*kw, L] has the
//     channel slowest; the adapter permutes it to OpenVINO's (kh, kw, c) order:
//     view {N, C, kh, kw, OH, OW} -> permute {0, 2, 3, 1, 4, 5} -> [N, kh*kw*C, OH, OW].
// Element types: pixel ops move every dtype (unsigned 16/32/64-bit and f8 types as the signed /
// byte dtype of their width); im2col is f32, f64 and f16 only. Torch errors (c10::Error) are
// `rejected`.
#ifndef DMCONF_HARNESS_BACKENDS_TORCH_TORCH_BACKEND_H_
#define DMCONF_HARNESS_BACKENDS_TORCH_TORCH_BACKEND_H_

#include <memory>
#include <string>

#include "harness/backend/backend.h"

namespace dmconf {

class TorchBackend : public Backend {
 public:
  std::string Name() const override { return "torch"; }
  Capabilities GetCapabilities() const override;
  RunOutcome Run(const OpCase& c) override;
};

std::unique_ptr<Backend> MakeTorchBackend();

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BACKENDS_TORCH_TORCH_BACKEND_H_
