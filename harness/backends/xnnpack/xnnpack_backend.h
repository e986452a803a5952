// XNNPACK (Debian snapshot 2022-02-16): DepthToSpace only, through
// xnn_create/setup_depth_to_space_nchw2nhwc_x32.
//
// Mapping: XNNPACK's DepthToSpace is blocks_first (DCR) and moves 4-byte elements ("x32"), so
// f32, i32 and u32 run, 4-D only. The operator reads NCHW and writes NHWC; the adapter
// transposes the output back to NCHW itself. XNNPACK's API takes the *output* channel count, so
// a depth not divisible by block_size^2 cannot be passed: such cases are `unsupported`, as are
// block_size 1 (XNNPACK refuses it although OpenVINO allows it; docs/findings.md) and
// depth_first. block_size 0 is passed through, and XNNPACK's refusal is the outcome.
//
// Example:
//   XnnpackBackend b;
//   RunOutcome r = b.Run(op_case);   // kOutput, kRejected (an xnn_status) or kUnsupported
#ifndef DMCONF_HARNESS_BACKENDS_XNNPACK_XNNPACK_BACKEND_H_
#define DMCONF_HARNESS_BACKENDS_XNNPACK_XNNPACK_BACKEND_H_

#include <memory>
#include <string>

#include "harness/backend/backend.h"

namespace dmconf {

class XnnpackBackend : public Backend {
 public:
  std::string Name() const override { return "xnnpack"; }
  Capabilities GetCapabilities() const override;
  using Backend::Supports;
  // The finer check of Unsupported(c, declared).
  bool Supports(const OpCase& c, const Capabilities& declared) const override;
  RunOutcome Run(const OpCase& c) override;
  // Why the case cannot be expressed through XNNPACK's API (empty when it can), checked
  // against `declared` (the caller's copy of GetCapabilities()).
  std::string Unsupported(const OpCase& c, const Capabilities& declared) const;
};

std::unique_ptr<Backend> MakeXnnpackBackend();

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BACKENDS_XNNPACK_XNNPACK_BACKEND_H_
