#include "harness/backends/mutants/mutants.h"

#include <signal.h>
#include <unistd.h>

#include <cstdlib>

#include "harness/backends/mutants/mutant_support.h"
#include "harness/compare/mistakes.h"
#include "oracle/oracle.h"

namespace dmconf {

RunOutcome OutcomeOf(absl::StatusOr<Tensor> t) { return RunOutcome::OfResult(std::move(t)); }

namespace {

RunOutcome Reject(std::string why) {
  RunOutcome o;
  o.kind = RunOutcome::Kind::kRejected;
  o.message = std::move(why);
  return o;
}

}  // namespace

// The correct behaviour: the oracle's output, or a refusal.
RunOutcome CorrectOutcome(const OpCase& c) {
  absl::StatusOr<Expectation> e = Evaluate(c);
  if (!e.ok()) return Reject(std::string(e.status().message()));
  if (e->kind != ExpectationKind::kValid || !e->output.has_value()) return Reject(e->message);
  RunOutcome o;
  o.output = std::move(e->output);
  return o;
}

namespace {

// Correct, except that `mistake` is applied where its model applies and `op` matches.
template <Op kOp>
RunOutcome WithMistake(const OpCase& c, const char* mistake) {
  const Mistake* m = FindMistake(mistake);
  if (c.op == kOp && m != nullptr && m->applies(c)) return OutcomeOf(m->apply(c));
  return CorrectOutcome(c);
}

// Correct, with a value transformation of every output.
template <Tensor (*F)(Tensor)>
RunOutcome WithValues(const OpCase& c) {
  RunOutcome o = CorrectOutcome(c);
  if (o.output.has_value()) o.output = F(*std::move(o.output));
  return o;
}

std::vector<int64_t> Values(const Tensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(t.GetInteger(i).value_or(0));
  return v;
}

bool BrokenOnlyBy(const OpCase& c, absl::string_view rule) {
  absl::StatusOr<Validation> v = Validate(c);
  if (!v.ok() || v->kind() != ExpectationKind::kMustReject) return false;
  for (const Violation& x : v->violations) {
    if (x.rule->kind == RuleKind::kMustReject && x.rule->id != rule) return false;
  }
  return true;
}

// ---- the mutants ----

RunOutcome D2sModeSwapped(const OpCase& c) {
  return WithMistake<Op::kDepthToSpace>(c, "depth.mode_swapped");
}
RunOutcome S2dModeSwapped(const OpCase& c) {
  return WithMistake<Op::kSpaceToDepth>(c, "depth.mode_swapped");
}
RunOutcome S2bPadsSwapped(const OpCase& c) {
  return WithMistake<Op::kSpaceToBatch>(c, "s2b.pads_swapped");
}
RunOutcome B2sCropsSwapped(const OpCase& c) {
  return WithMistake<Op::kBatchToSpace>(c, "b2s.crops_swapped");
}
RunOutcome S2bBatchMajor(const OpCase& c) {
  return WithMistake<Op::kSpaceToBatch>(c, "s2b.batch_major");
}
RunOutcome B2sBatchMajor(const OpCase& c) {
  return WithMistake<Op::kBatchToSpace>(c, "b2s.batch_major");
}
RunOutcome EipSameSwapped(const OpCase& c) {
  return WithMistake<Op::kExtractImagePatches>(c, "eip.same_swapped");
}
RunOutcome EipSameLowerOffByOne(const OpCase& c) {
  return WithMistake<Op::kExtractImagePatches>(c, "eip.same_lower_off_by_one");
}
RunOutcome EipRateAsStride(const OpCase& c) {
  return WithMistake<Op::kExtractImagePatches>(c, "eip.rate_stride_swapped");
}
RunOutcome EipPatchMajor(const OpCase& c) {
  return WithMistake<Op::kExtractImagePatches>(c, "eip.patch_major");
}
RunOutcome D2sNhwc(const OpCase& c) {
  return WithMistake<Op::kDepthToSpace>(c, "layout.nhwc_as_nchw");
}
RunOutcome EipNhwc(const OpCase& c) {
  return WithMistake<Op::kExtractImagePatches>(c, "layout.nhwc_as_nchw");
}

// Mode honoured only for 4-D data: 5-D DepthToSpace always runs blocks_first.
RunOutcome D2sMode4dOnly(const OpCase& c) {
  if (c.op != Op::kDepthToSpace || c.data.shape.size() != 5) return CorrectOutcome(c);
  OpCase m = c;
  if (m.mode == "depth_first") m.mode = "blocks_first";
  return CorrectOutcome(m);
}

// No divisibility check: a must_reject case broken only by the divisibility rule runs anyway
// (the floor of the output shape, zero-filled, as an unchecked kernel would allocate it).
RunOutcome S2bNoDivisibilityCheck(const OpCase& c) {
  if (c.op != Op::kSpaceToBatch || !BrokenOnlyBy(c, "s2b.block_shape.divides")) {
    return CorrectOutcome(c);
  }
  const std::vector<int64_t> block = Values(c.int_inputs[0]);
  const std::vector<int64_t> pb = Values(c.int_inputs[1]), pe = Values(c.int_inputs[2]);
  Shape out = c.data.shape;
  int64_t p = 1;
  for (size_t i = 0; i < out.size() && i < block.size(); ++i) {
    int64_t padded = 0;
    if (i > 0 && (__builtin_add_overflow(out[i], pb[i], &padded) ||
                  __builtin_add_overflow(padded, pe[i], &padded))) {
      return Reject("padded size overflows");
    }
    if (i > 0) out[i] = padded / block[i];
    if (__builtin_mul_overflow(p, block[i], &p)) return Reject("block product overflows");
  }
  if (__builtin_mul_overflow(out[0], p, &out[0])) return Reject("output batch overflows");
  return OutcomeOf(Tensor::Zeros(c.data.type, out));
}
RunOutcome S2dNoDivisibilityCheck(const OpCase& c) {
  if (c.op != Op::kSpaceToDepth || !BrokenOnlyBy(c, "s2d.block_size.divides"))
    return CorrectOutcome(c);
  Shape out = c.data.shape;
  const int64_t b = c.block_size.value_or(1);
  for (size_t i = 2; i < out.size(); ++i) {
    out[i] /= b;
    // Checked: the block sizes of overflow cases multiply past int64.
    if (__builtin_mul_overflow(out[1], b, &out[1])) return Reject("output channels overflow");
  }
  return OutcomeOf(Tensor::Zeros(c.data.type, out));
}
// Negative pads read as "no padding" instead of being refused.
RunOutcome S2bNegativePadsAccepted(const OpCase& c) {
  if (c.op != Op::kSpaceToBatch || c.int_inputs.size() != 3) return CorrectOutcome(c);
  OpCase m = c;
  for (int k : {1, 2}) {
    std::vector<int64_t> v = Values(c.int_inputs[k]);
    bool changed = false;
    for (int64_t& x : v) {
      if (x < 0) {
        x = 0;
        changed = true;
      }
    }
    if (!changed) continue;
    absl::StatusOr<Tensor> t = MakeIntegerTensor(c.int_inputs[k].type, v);
    if (t.ok()) m.int_inputs[k] = *std::move(t);
  }
  return CorrectOutcome(m);
}

// Over-strict checks: valid cases refused.
RunOutcome D2sRank4Only(const OpCase& c) {
  if (c.op == Op::kDepthToSpace && c.data.shape.size() != 4) {
    return Reject("DepthToSpace: only 4-D input is supported");
  }
  return CorrectOutcome(c);
}
RunOutcome EipRejectsSmallInput(const OpCase& c) {
  if (c.op == Op::kExtractImagePatches && c.data.shape.size() == 4 && c.sizes.size() == 2 &&
      c.rates.size() == 2) {
    for (int a = 0; a < 2; ++a) {
      if (c.data.shape[2 + a] < c.rates[a] * (c.sizes[a] - 1) + 1) {
        return Reject("ExtractImagePatches: patch larger than the image");
      }
    }
  }
  return CorrectOutcome(c);
}

// Crashes, aborts and hangs on a trigger.
RunOutcome S2dCrashBlockOne(const OpCase& c) {
  if (c.op == Op::kSpaceToDepth && c.block_size == 1) raise(SIGSEGV);
  return CorrectOutcome(c);
}
RunOutcome B2sAbortSubByte(const OpCase& c) {
  if (c.op == Op::kBatchToSpace && BitWidth(c.data.type) == 4) std::abort();
  return CorrectOutcome(c);
}
RunOutcome S2bHangZeroDim(const OpCase& c) {
  if (c.op == Op::kSpaceToBatch) {
    for (int64_t d : c.data.shape) {
      if (d == 0) {
        for (;;) pause();
      }
    }
  }
  return CorrectOutcome(c);
}

// Wrong output metadata.
RunOutcome D2sBooleanAsU8(const OpCase& c) {
  RunOutcome o = CorrectOutcome(c);
  if (c.op == Op::kDepthToSpace && o.output.has_value() &&
      o.output->type == ElementType::kBoolean) {
    o.output->type = ElementType::kU8;
  }
  return o;
}
RunOutcome B2sIgnoresCropsEnd(const OpCase& c) {
  if (c.op != Op::kBatchToSpace || c.int_inputs.size() != 3) return CorrectOutcome(c);
  OpCase m = c;
  std::vector<int64_t> zeros(static_cast<size_t>(c.int_inputs[2].NumElements()), 0);
  absl::StatusOr<Tensor> t = MakeIntegerTensor(c.int_inputs[2].type, zeros);
  if (t.ok()) m.int_inputs[2] = *std::move(t);
  return CorrectOutcome(m);
}
RunOutcome EipValidPadded(const OpCase& c) {
  if (c.op != Op::kExtractImagePatches || c.auto_pad != "valid") return CorrectOutcome(c);
  OpCase m = c;
  m.auto_pad = "same_upper";
  return CorrectOutcome(m);
}
// The padding region is left holding a fill pattern instead of zeros.
RunOutcome S2bPadGarbage(const OpCase& c) {
  RunOutcome o = CorrectOutcome(c);
  if (c.op != Op::kSpaceToBatch || !o.output.has_value()) return o;
  // Position-independent: every zero element that is padding becomes all-ones; zero data is
  // indistinguishable here, which is the point (an uninitialised buffer).
  OpCase probe = c;
  absl::StatusOr<Tensor> ones =
      MakeTensor(c.data.type, c.data.shape, [](int64_t) { return ~uint64_t{0}; });
  if (!ones.ok()) return o;
  probe.data = *std::move(ones);
  RunOutcome p = CorrectOutcome(probe);
  if (!p.output.has_value()) return o;
  const int64_t n = o.output->NumElements();
  for (int64_t i = 0; i < n; ++i) {
    if (p.output->GetBits(i) == 0) o.output->SetBits(i, 0xA5A5A5A5A5A5A5A5ull);
  }
  return o;
}

// Static shape inference that multiplies the channels by block_size once instead of
// block_size^(rank - 2) (a 4-D formula written as C * b); the evaluated output stays right, so
// only a harness that compares shape inference catches it.
ShapeOutcome S2dInferChannelsOnce(const PartialCase& c) {
  ShapeOutcome o = OracleShapeOutcome(c);
  if (o.kind != RunOutcome::Kind::kOutput) return o;
  if (c.op == Op::kSpaceToDepth && c.block_size.has_value() && *c.block_size > 1 && c.data.dims &&
      c.data.dims->size() >= 2 && o.shape.dims) {
    int64_t channels = 0;
    if (!__builtin_mul_overflow((*c.data.dims)[1].lo, *c.block_size, &channels)) {
      (*o.shape.dims)[1] = Dim::Exact(channels);
    }
  }
  return o;
}

using V = Verdict;
const std::vector<V> kValues = {V::kWrongValues};

// Layout mistakes: each moves elements to the wrong place.
std::vector<MutantInfo> LayoutMutants() {
  const std::vector<V>& values = kValues;
  return {
      {"d2s_mode_swapped", "DepthToSpace: blocks_first and depth_first swapped", values,
       D2sModeSwapped},
      {"s2d_mode_swapped", "SpaceToDepth: blocks_first and depth_first swapped", values,
       S2dModeSwapped},
      {"s2b_pads_swapped", "SpaceToBatch: pads_begin applied at the end and vice versa", values,
       S2bPadsSwapped},
      {"b2s_crops_swapped", "BatchToSpace: crops_begin applied at the end and vice versa", values,
       B2sCropsSwapped},
      {"s2b_batch_major", "SpaceToBatch: output batch batch-major instead of block-major", values,
       S2bBatchMajor},
      {"b2s_batch_major", "BatchToSpace: input batch read batch-major instead of block-major",
       values, B2sBatchMajor},
      {"eip_same_swapped", "ExtractImagePatches: same_upper and same_lower swapped", values,
       EipSameSwapped},
      {"eip_same_lower_off_by_one", "ExtractImagePatches: same_lower begin padding one too many",
       values, EipSameLowerOffByOne},
      // A huge stride read as a rate makes the dilated patch unrepresentable: the swapped case
      // is refused (false_reject), as a real implementation with this bug would refuse it.
      {"eip_rate_as_stride",
       "ExtractImagePatches: rates and strides swapped",
       {V::kWrongValues, V::kWrongShape, V::kFalseReject},
       EipRateAsStride},
      {"eip_patch_major", "ExtractImagePatches: patch-major instead of channel-fastest depth",
       values, EipPatchMajor},
      {"d2s_nhwc_as_nchw", "DepthToSpace: NCHW input read as NHWC", values, D2sNhwc},
      {"eip_nhwc_as_nchw", "ExtractImagePatches: NCHW input read as NHWC", values, EipNhwc},
      {"d2s_mode_4d_only", "DepthToSpace: mode ignored for 5-D data (always blocks_first)", values,
       D2sMode4dOnly},
  };
}

// Value mistakes of every op (bits changed, not places) and the first rule and crash bugs.
std::vector<MutantInfo> ValueAndRuleMutants() {
  const std::vector<V>& values = kValues;
  return {
      {"nan_quieting",
       "all ops: signalling NaNs quieted on copy",
       {V::kNanPayloadChanged},
       WithValues<QuietSignallingNaNs>},
      {"nan_canonicalising",
       "all ops: NaN payloads replaced by the default NaN",
       {V::kNanPayloadChanged},
       WithValues<CanonicaliseNaNs>},
      {"neg_zero_flush", "all ops: -0 flushed to +0", values, WithValues<FlushNegativeZero>},
      {"nibble_order_swapped", "all ops: 4-bit types packed high nibble first", values,
       WithValues<SwapNibbles>},
      {"u1_bit_order_reversed", "all ops: u1 packed least significant bit first", values,
       WithValues<ReverseBitOrder>},
      {"s2b_no_divisibility_check",
       "SpaceToBatch: divisibility of padded dims not checked",
       {V::kFalseAccept},
       S2bNoDivisibilityCheck},
      {"s2d_no_divisibility_check",
       "SpaceToDepth: divisibility by block_size not checked",
       {V::kFalseAccept},
       S2dNoDivisibilityCheck},
      {"s2b_negative_pads_accepted",
       "SpaceToBatch: negative pads read as 0 instead of refused",
       {V::kFalseAccept},
       S2bNegativePadsAccepted},
      {"d2s_rank4_only",
       "DepthToSpace: over-strict rank check (refuses rank != 4)",
       {V::kFalseReject},
       D2sRank4Only},
      {"eip_rejects_small_input",
       "ExtractImagePatches: refuses images smaller than the patch",
       {V::kFalseReject},
       EipRejectsSmallInput},
      {"s2d_crash_block_one",
       "SpaceToDepth: segfault when block_size is 1",
       {V::kCrash},
       S2dCrashBlockOne},
      {"b2s_abort_sub_byte",
       "BatchToSpace: abort() on 4-bit element types",
       {V::kCrash},
       B2sAbortSubByte},
      {"s2b_hang_zero_dim",
       "SpaceToBatch: endless loop on a zero-sized dim",
       {V::kHang},
       S2bHangZeroDim},
      {"d2s_boolean_as_u8",
       "DepthToSpace: boolean output typed u8",
       {V::kWrongType},
       D2sBooleanAsU8},
  };
}

// Mistakes found by the shape or the padding they produce.
std::vector<MutantInfo> ShapeAndPaddingMutants() {
  const std::vector<V>& values = kValues;
  const std::vector<V> values_or_shape = {V::kWrongValues, V::kWrongShape};
  return {
      {"b2s_ignores_crops_end",
       "BatchToSpace: crops_end ignored (so crops are never checked to fit)",
       {V::kWrongShape, V::kFalseAccept},
       B2sIgnoresCropsEnd},
      {"eip_valid_padded", "ExtractImagePatches: valid padded like same_upper", values_or_shape,
       EipValidPadded},
      {"s2b_pad_garbage", "SpaceToBatch: padding left uninitialised (not zero)", values,
       S2bPadGarbage},
      {"s2d_infer_channels_once",
       "SpaceToDepth: shape inference multiplies channels by block_size, not by its square",
       {V::kWrongShape},
       CorrectOutcome,
       S2dInferChannelsOnce},
  };
}

std::vector<MutantInfo> Build() {
  std::vector<MutantInfo> all = LayoutMutants();
  for (MutantInfo& m : ValueAndRuleMutants()) all.push_back(std::move(m));
  for (MutantInfo& m : ShapeAndPaddingMutants()) all.push_back(std::move(m));
  for (MutantInfo& m : BlockLayoutMutants()) all.push_back(std::move(m));
  for (MutantInfo& m : PatchGatherMutants()) all.push_back(std::move(m));
  for (MutantInfo& m : LookalikeMutants()) all.push_back(std::move(m));
  for (MutantInfo& m : BlindMutants()) all.push_back(std::move(m));
  return all;
}

class MutantBackend : public Backend {
 public:
  explicit MutantBackend(const MutantInfo& m) : m_(m) {}
  std::string Name() const override { return "mutant." + m_.name; }
  Capabilities GetCapabilities() const override {
    Capabilities caps = SupportEverything();
    caps.infer_static = m_.infer != nullptr;
    return caps;
  }
  RunOutcome Run(const OpCase& c) override { return m_.run(c); }
  ShapeOutcome InferStatic(const PartialCase& c) override {
    return m_.infer != nullptr ? m_.infer(c) : Backend::InferStatic(c);
  }

 private:
  MutantInfo m_;
};

}  // namespace

const std::vector<MutantInfo>& AllMutants() {
  static const std::vector<MutantInfo>* const kAll = new std::vector<MutantInfo>(Build());
  return *kAll;
}

BackendFactory MutantFactory(const MutantInfo& m) {
  return [m]() -> absl::StatusOr<std::unique_ptr<Backend>> {
    return std::unique_ptr<Backend>(new MutantBackend(m));
  };
}

}  // namespace dmconf
