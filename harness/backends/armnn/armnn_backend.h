// Arm NN 20.08, CpuRef backend: SpaceToBatchNd, BatchToSpaceNd, SpaceToDepth, DepthToSpace.
//
// Mapping (layout NCHW, which Arm NN's descriptors take directly):
//   SpaceToBatch / BatchToSpace: 4-D only, blocks, pads and crops on H and W only
//     (block_shape[0..1] == 1, pads/crops[0..1] == 0); anything else is `unsupported`.
//   SpaceToDepth / DepthToSpace: 4-D only, blocks_first only (Arm NN has no mode).
// Element types go in as the Arm NN type of the same width; bits are copied, not converted:
//   f32, i32, u32 -> Float32; f16 -> Float16; bf16 -> BFloat16;
//   u8, boolean, f8e4m3, f8e5m2, f8e8m0 -> QAsymmU8 (scale 1, offset 0);
//   i8 -> QAsymmS8 (scale 1, offset 0); i16, u16 -> QSymmS16 (scale 1).
// Arm NN's own support query (IsXSupported) accepts 3-D and 5-D tensors it then cannot build, so
// capabilities come from measured runs, not from that query (docs/findings.md).
//
// Some invalid inputs crash Arm NN (SIGFPE or assert abort; docs/findings.md F1-F3). With
// `guard_known_crashes` (the default) those cases are answered `unsupported` without calling
// Arm NN, so in-process use is safe; switch it off only inside an isolated worker process, where
// the crash becomes a verdict.
//
// Example:
//   ArmnnBackend b;                       // guard on
//   RunOutcome r = b.Run(op_case);        // kOutput, kRejected (armnn::Exception) or kUnsupported
//   ShapeOutcome s = b.InferStatic(PartialCase::FromStatic(op_case));  // the layer's shape
#ifndef DMCONF_HARNESS_BACKENDS_ARMNN_ARMNN_BACKEND_H_
#define DMCONF_HARNESS_BACKENDS_ARMNN_ARMNN_BACKEND_H_

#include <memory>
#include <optional>
#include <string>

#include "harness/backend/backend.h"

namespace dmconf {

class ArmnnBackend : public Backend {
 public:
  struct Options {
    bool guard_known_crashes = true;
  };
  ArmnnBackend();
  explicit ArmnnBackend(Options options);
  ~ArmnnBackend() override;

  std::string Name() const override { return "armnn"; }
  Capabilities GetCapabilities() const override;
  using Backend::Supports;
  // The finer check of Unsupported(c, declared).
  bool Supports(const OpCase& c, const Capabilities& declared) const override;
  RunOutcome Run(const OpCase& c) override;
  // Arm NN's own layer shape inference (IConnectableLayer::InferOutputShapes) on a static
  // case without data: the layer built from the case's attributes, asked for its output shape.
  // Cases outside what the adapter can express (as for Run, plus an element count above
  // Arm NN's unsigned int) are kUnsupported; an armnn::Exception is a refusal.
  ShapeOutcome InferStatic(const PartialCase& c) override;

  // Why the case is outside what the adapter can express (empty when it is inside); also
  // checked by Run(). `declared`: the capabilities the case is checked against (the caller's
  // copy of GetCapabilities()). `with_data` false: a shape-only case (no data bytes to check).
  std::string Unsupported(const OpCase& c, const Capabilities& declared,
                          bool with_data = true) const;
  // Why Arm NN is known to crash on this case (empty when it is not known to).
  static std::string KnownCrash(const OpCase& c);

 private:
  struct Runtime;
  Options options_;
  std::unique_ptr<Runtime> runtime_;  // created on first Run()
};

// Guard on: safe in-process.
std::unique_ptr<Backend> MakeArmnnBackend();
// Guard off: for `dmconf run`'s isolated worker processes, where Arm NN's crashes on invalid
// input become `crash` verdicts (docs/findings.md F1-F3). Never call it in-process.
std::unique_ptr<Backend> MakeArmnnBackendUnguarded();

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BACKENDS_ARMNN_ARMNN_BACKEND_H_
