// Partial-shape inference: hand-derived examples, agreement with static inference on exact
// shapes, and the soundness / tightness properties over enumerated instances.
#include "harness/gen/partial.h"

#include <functional>
#include <limits>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "conformance/properties/rc_chooser.h"
#include "gtest/gtest.h"
#include "harness/gen/builders.h"
#include "harness/gen/generate.h"
#include "oracle/oracle.h"
#include "oracle/partial/partial_infer.h"
#include "rapidcheck/gtest.h"

namespace dmconf {
namespace {

Tensor I64(std::vector<int64_t> v) { return *MakeIntegerTensor(ElementType::kI64, v); }

std::string Infer(const PartialCase& c) {
  absl::StatusOr<PartialResult> r = InferPartialShape(c);
  if (!r.ok()) return std::string(r.status().message());
  if (r->kind == PartialKind::kMustReject) return r->message.substr(0, r->message.find(':'));
  return r->has_output ? r->output.ToString() : "no output";
}

// ---- Hand-derived examples --------------------------------------------------------------

// The attribute bundle (oracle/op_attributes.h) crosses from a static case to its partial case
// and back whole: every one of its six members, each set to a value of its own.
TEST(PartialCase, StaticRoundTripKeepsEveryAttribute) {
  OpCase c;
  c.op = Op::kExtractImagePatches;
  c.data = *Tensor::Zeros(ElementType::kF32, {1, 1, 5, 5});
  c.block_size = 3;
  c.mode = "depth_first";
  c.sizes = {2, 3};
  c.strides = {4, 5};
  c.rates = {1, 2};
  c.auto_pad = "same_lower";
  const PartialCase p = PartialCase::FromStatic(c);
  EXPECT_EQ(p.block_size, std::optional<int64_t>(3));
  EXPECT_EQ(p.mode, std::optional<std::string>("depth_first"));
  EXPECT_EQ(p.sizes, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(p.strides, (std::vector<int64_t>{4, 5}));
  EXPECT_EQ(p.rates, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(p.auto_pad, std::optional<std::string>("same_lower"));
  absl::StatusOr<OpCase> back = p.ToShapeOnlyCase();
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->block_size, c.block_size);
  EXPECT_EQ(back->mode, c.mode);
  EXPECT_EQ(back->sizes, c.sizes);
  EXPECT_EQ(back->strides, c.strides);
  EXPECT_EQ(back->rates, c.rates);
  EXPECT_EQ(back->auto_pad, c.auto_pad);
}

TEST(PartialShape, Printing) {
  EXPECT_EQ(
      PartialShape::Of({Dim::Exact(1), Dim::Range(2, 8), Dim::AtLeast(3), Dim::Any()}).ToString(),
      "[1,[2,8],[3,inf),?]");
  EXPECT_EQ(PartialShape::DynamicRank().ToString(), "[...]");
  EXPECT_TRUE(PartialShape::Of({Dim::Range(2, 8)}).Contains({8}));
  EXPECT_FALSE(PartialShape::Of({Dim::Range(2, 8)}).Contains({9}));
}

TEST(PartialInfer, DepthToSpaceIntervals) {
  PartialCase c;
  c.op = Op::kDepthToSpace;
  c.data = PartialShape::Of({Dim::Exact(1), Dim::Range(8, 20), Dim::AtLeast(3)});
  c.block_size = 2;
  c.mode = "blocks_first";
  // C / 2 over [8, 20] -> [4, 10]; D * 2 over [3, inf) -> [6, inf).
  EXPECT_EQ(Infer(c), "[1,[4,10],[6,inf)]");
  c.data = PartialShape::Of({Dim::Exact(1), Dim::Range(5, 5), Dim::Exact(3)});
  EXPECT_EQ(Infer(c), "d2s.block_size.divides");  // no C in [5, 5] divisible by 2
  c.data = PartialShape::DynamicRank();
  EXPECT_EQ(Infer(c), "[...]");
}

TEST(PartialInfer, SpaceToDepthIntervals) {
  PartialCase c;
  c.op = Op::kSpaceToDepth;
  c.data = PartialShape::Of({Dim::Any(), Dim::Range(1, 2), Dim::Range(5, 13), Dim::AtLeast(1)});
  c.block_size = 3;
  c.mode = "depth_first";
  // C * 9 -> [9, 18]; [5, 13] / 3 -> multiples 6, 9, 12 -> [2, 4]; [1, inf) / 3 -> [1, inf).
  EXPECT_EQ(Infer(c), "[?,[9,18],[2,4],[1,inf)]");
  c.mode = "DEPTH_FIRST";
  EXPECT_EQ(Infer(c), "s2d.mode.enum");
}

TEST(PartialInfer, SpaceToBatchKnownAndUnknownInputs) {
  PartialCase c;
  c.op = Op::kSpaceToBatch;
  c.data = PartialShape::Of({Dim::Range(1, 2), Dim::Range(3, 10), Dim::AtLeast(4)});
  c.int_inputs = {I64({1, 4, 2}), I64({0, 1, 0}), I64({0, 0, 1})};
  // batch [1,2] * 8 = [8,16]; (D + 1) / 4 over [4, 11] -> [1, 2]; (D + 1) / 2, D >= 4 -> [3, inf)
  EXPECT_EQ(Infer(c), "[[8,16],[1,2],[3,inf)]");
  // Pads unknown: (D + P) / B with P >= 0 -> [ceil(lo / B), inf).
  c.int_inputs[1].reset();
  EXPECT_EQ(Infer(c), "[[8,16],[1,inf),[3,inf)]");
  // Block unknown, pads known: batch >= 1 unbounded; (D + P) / B in [1, D_hi + P].
  c.int_inputs = {std::nullopt, I64({0, 1, 0}), I64({0, 0, 1})};
  EXPECT_EQ(Infer(c), "[[1,inf),[1,11],[1,inf)]");
  // No padded size in [3, 5] + 0 is divisible by 7.
  c.data = PartialShape::Of({Dim::Exact(1), Dim::Range(3, 5)});
  c.int_inputs = {I64({1, 7}), I64({0, 0}), I64({0, 0})};
  EXPECT_EQ(Infer(c), "s2b.block_shape.divides");
  // Unknown rank with a constant input: the rank is its length.
  c.data = PartialShape::DynamicRank();
  EXPECT_EQ(Infer(c), "[?,?]");
}

TEST(PartialInfer, BatchToSpaceKnownAndUnknownInputs) {
  PartialCase c;
  c.op = Op::kBatchToSpace;
  c.data = PartialShape::Of({Dim::Range(4, 13), Dim::Range(2, 3)});
  c.int_inputs = {I64({1, 4}), I64({0, 1}), I64({0, 2})};
  // batch / 4 over [4, 13] -> [1, 3]; D * 4 - 3 over [2, 3] -> [5, 9].
  EXPECT_EQ(Infer(c), "[[1,3],[5,9]]");
  // crops_end unknown: the output can shrink to 0; at most D_hi * B - crops_begin.
  c.int_inputs[2].reset();
  EXPECT_EQ(Infer(c), "[[1,3],[0,11]]");
  // Block unknown, crops 3: B <= batch <= 13; min D * B - 3 with D in [2, 3]: D = 3, B = 1 -> 0;
  // max 3 * 13 - 3 = 36 (batch 13, B = 13).
  c.int_inputs = {std::nullopt, I64({0, 1}), I64({0, 2})};
  EXPECT_EQ(Infer(c), "[[1,13],[0,36]]");
  // crops 7 with D in [1, 1] and batch [5, 5]: D * B = B must be >= 7 but B | 5 -> B <= 5.
  c.data = PartialShape::Of({Dim::Exact(5), Dim::Exact(1)});
  c.int_inputs = {std::nullopt, I64({0, 3}), I64({0, 4})};
  EXPECT_EQ(Infer(c), "b2s.crops.fit");
}

// Block unknown with huge crops: B <= batch <= 27, so D * B >= C = 2^62 needs D >= 2^62 / 27.
// The search used to walk every smaller D (no B fits them) without counting steps: a hang
// (fuzz_partial_shape finding, fuzz/regressions/partial_shape/timeout-d72a...).
TEST(PartialInfer, BatchToSpaceHugeCropsUnknownBlockFinishes) {
  PartialCase c;
  c.op = Op::kBatchToSpace;
  const int64_t C = int64_t{1} << 62;
  c.data = PartialShape::Of({Dim::Range(1, 27), Dim::AtLeast(1)});
  c.int_inputs = {std::nullopt, I64({0, C}), I64({0, 0})};
  // D = C, B = 1 gives D * B - C = 0; D unbounded, so no upper bound: [0, inf), printed "?".
  EXPECT_EQ(Infer(c), "[[1,27],?]");
  // D <= 2^40: D * B <= 27 * 2^40 < 2^62 for every instance.
  c.data = PartialShape::Of({Dim::Range(1, 27), Dim::Range(1, int64_t{1} << 40)});
  EXPECT_EQ(Infer(c), "b2s.crops.fit");
}

// Block unknown with an unbounded batch: every B has a multiple in [50, inf), so the lower
// bound of D * B - C with D = 2, C = 13 is 2 * 7 - 13 = 1 (B = 7; 2 * B - 13 is never 0). The
// search used to read the missing upper bound of the batch (an empty optional) and fell back
// to 0 (a plugin_shape finding: a correct plugin's tighter bound was called unsound).
TEST(PartialInfer, BatchToSpaceUnknownBlockUnboundedBatch) {
  PartialCase c;
  c.op = Op::kBatchToSpace;
  c.data = PartialShape::Of({Dim::AtLeast(50), Dim::Exact(2)});
  c.int_inputs = {std::nullopt, I64({0, 1}), I64({0, 12})};
  EXPECT_EQ(Infer(c), "[[1,inf),[1,inf)]");
}

// Block unknown, D = 2^63-1 exact, batch in [2^62-2, 2^62+4] (so B <= 2^62+4): B = 1 gives
// the output D = 2^63-1 itself, and every larger B overflows. The upper bound used to be the
// largest multiple of 2^62+4 (2^62+4, below the lower bound 2^63-1: an empty interval; a
// plugin_shape finding).
TEST(PartialInfer, BatchToSpaceUnknownBlockOverflowingUpperBound) {
  PartialCase c;
  c.op = Op::kBatchToSpace;
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  const int64_t b = int64_t{1} << 62;
  // A last dim 0 keeps the data representable (0 elements); its output is 0 * B - 0 = 0.
  c.data = PartialShape::Of({Dim::Range(b - 2, b + 4), Dim::Exact(kMax), Dim::Exact(0)});
  c.int_inputs = {std::nullopt, I64({0, 0, 0}), I64({0, 0, 0})};
  EXPECT_EQ(Infer(c), absl::StrCat("[[1,", b + 4, "],", kMax, ",0]"));
}

// Block constant, crops not constant: D_1 = 2 with block_shape[1] = 2^62 gives D_1 * B_1 =
// 2^63, above 2^63-1 whatever the crops ("b2s.output.representable: ... D_i * B_i are
// representable"; the static oracle rejects every instance). The partial oracle skipped that
// check when a crop was not constant and answered [0,[0,2^62]] (the largest multiple of 2^62
// below 2^63, reached by no instance): a correct plugin that refused the case got
// unsound_shape (docs/false-positive-hunt.md).
TEST(PartialInfer, BatchToSpaceConstantBlockUnknownCropsUnrepresentable) {
  PartialCase c;
  c.op = Op::kBatchToSpace;
  const int64_t b = int64_t{1} << 62;
  c.data = PartialShape::Of({Dim::Exact(0), Dim::Exact(2)});
  c.int_inputs = {I64({1, b}), std::nullopt, std::nullopt};
  EXPECT_EQ(Infer(c), "b2s.output.representable");
  c.int_inputs = {I64({1, b}), I64({0, 1}), std::nullopt};
  EXPECT_EQ(Infer(c), "b2s.output.representable");
  // D_1 in [1, 2]: D_1 = 1 is accepted (2^62 - crops, crops down to 0 and up to 2^62).
  c.data = PartialShape::Of({Dim::Exact(0), Dim::Range(1, 2)});
  c.int_inputs = {I64({1, b}), std::nullopt, std::nullopt};
  EXPECT_EQ(Infer(c), absl::StrCat("[0,[0,", b, "]]"));
}

// Block not constant: every instance's output holds batch * B_0 * prod(D_i + P_i) elements
// (the blocks only regroup the padded data), here at least (2^62-2) * 2 * 2 * 3 > 2^63-1, so
// every instance is must_reject (s2b.output.representable). The per-dim lower bounds
// [2^62-2, 1, 1, 1] fit, but no instance reaches them together: the spatial 1s need blocks
// 2, 2, 3, which multiply the batch. The oracle answered a shape, and a correct plugin that
// refused got unsound_shape (docs/false-positive-hunt.md).
TEST(PartialInfer, SpaceToBatchUnknownBlockCountsThePaddedData) {
  PartialCase c;
  c.op = Op::kSpaceToBatch;
  const int64_t b = (int64_t{1} << 62) - 2;
  c.data = PartialShape::Of({Dim::Range(b, b + 5), Dim::Range(0, 3), Dim::Any(), Dim::Range(2, 5)});
  c.int_inputs = {std::nullopt, I64({0, 1, 0, 0}), I64({0, 1, 2, 1})};
  EXPECT_EQ(Infer(c), "s2b.output.representable");
  // Pads unknown too: the padded data is at least [2^62-2, 0, 0, 2]: 0 elements, accepted; the
  // last dim is at least 1 (block_shape[3] = D_3 + P_3).
  c.int_inputs = {std::nullopt, std::nullopt, std::nullopt};
  EXPECT_EQ(Infer(c), absl::StrCat("[[", b, ",inf),?,?,[1,inf)]"));
}

// pads_begin not constant, pads_end[1] = 2^63-3, D_1 = 0, block_shape[1] = 4: the padded dim
// p + 2^63-3 is at most 2^63-1 (s2b.output.representable), so it is one of 2^63-3, 2^63-2,
// 2^63-1, and none is a multiple of 4: every instance is must_reject. The oracle left the
// padded dim unbounded above and answered [2^61, inf) (docs/false-positive-hunt.md).
TEST(PartialInfer, SpaceToBatchUnknownPadsNoMultipleBelowTheLimit) {
  PartialCase c;
  c.op = Op::kSpaceToBatch;
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  c.data = PartialShape::Of({Dim::Exact(3), Dim::Exact(0), Dim::Exact(0)});
  c.int_inputs = {I64({1, 4, 1}), std::nullopt, I64({0, kMax - 2, 0})};
  EXPECT_EQ(Infer(c), "s2b.block_shape.divides");
  // pads_end[1] = 2^63-4 = 4 * (2^61 - 1): reached with pads_begin[1] = 0.
  c.int_inputs = {I64({1, 4, 1}), std::nullopt, I64({0, kMax - 3, 0})};
  EXPECT_EQ(Infer(c), absl::StrCat("[12,[", (int64_t{1} << 61) - 1, ",inf),?]"));
}

// A dim unbounded above is still at most 2^63-1 in every instance: a division needs a multiple
// of the divisor in [lo, 2^63-1]. With block 2^62 the only multiple is 2^62 itself (2^63 is
// not an int64), below lo = 2^62 + 1: every instance is must_reject. The oracle answered
// [2, inf) for the quotient (docs/false-positive-hunt.md).
TEST(PartialInfer, DivisionsOfUnboundedDimsStopAtTheLimit) {
  const int64_t b = int64_t{1} << 62;
  PartialCase c;
  c.op = Op::kDepthToSpace;
  c.block_size = b;
  c.mode = "blocks_first";
  c.data = PartialShape::Of({Dim::Exact(0), Dim::AtLeast(b + 1), Dim::Exact(1)});
  EXPECT_EQ(Infer(c), "d2s.block_size.divides");
  c.data = PartialShape::Of({Dim::Exact(0), Dim::AtLeast(b), Dim::Exact(1)});
  // C = 2^62 is the one depth: the quotient 1 (dmconf writes inf for a bound only the 2^63-1
  // limit sets).
  EXPECT_EQ(Infer(c), absl::StrCat("[0,[1,inf),", b, "]"));
  c.op = Op::kSpaceToDepth;
  c.mode = "depth_first";
  c.data = PartialShape::Of({Dim::Exact(1), Dim::Exact(1), Dim::AtLeast(b + 1)});
  EXPECT_EQ(Infer(c), "s2d.block_size.divides");
  PartialCase t;
  t.op = Op::kBatchToSpace;
  t.data = PartialShape::Of({Dim::AtLeast(b + 1), Dim::Exact(1)});
  t.int_inputs = {I64({1, b}), I64({0, 0}), I64({0, 0})};
  EXPECT_EQ(Infer(t), "b2s.batch.divisible");
}

// SpaceToDepth's smallest instance, data [2^62-1, 1, 2^32-1] with block_size 2^32-1, has
// (2^62-1) * (2^32-1) elements, above 2^63-1, and so has every instance (the output holds the
// data's elements): no instance is accepted, and the answer is must_reject. The oracle checked
// the element count of SpaceToBatch, DepthToSpace and ExtractImagePatches only ("the other two
// never grow") and answered a shape.
TEST(PartialInfer, SpaceToDepthRejectsWhenTheSmallestOutputIsTooLarge) {
  const int64_t b = (int64_t{1} << 32) - 1, n = (int64_t{1} << 62) - 1;
  PartialCase c;
  c.op = Op::kSpaceToDepth;
  c.block_size = b;
  c.mode = "depth_first";
  c.data = PartialShape::Of({Dim::Range(n, n + 3), Dim::Range(1, 4), Dim::AtLeast(1)});
  EXPECT_EQ(Infer(c), "s2d.output.representable");
}

// Block and crops_end not constant, D_1 = 4, crops_begin[1] = 2^63-2: an instance needs
// 2^63-2 <= 4 * B <= 2^63-1 (the crops fit, and D_1 * B_1 is an int64), and no multiple of 4
// lies there: every instance is must_reject (b2s.crops.fit). The oracle answered a shape
// (the unbounded batch leaves B unbounded, and the unknown crop skipped the search).
TEST(PartialInfer, BatchToSpaceUnknownBlockAndCropNeedARepresentableProduct) {
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  PartialCase c;
  c.op = Op::kBatchToSpace;
  c.data = PartialShape::Of({Dim::AtLeast(2), Dim::Exact(4)});
  c.int_inputs = {std::nullopt, I64({0, kMax - 1}), std::nullopt};
  EXPECT_EQ(Infer(c), "b2s.crops.fit");
  // D_1 in [1, 4]: D_1 = 1 with B_1 = 2^63-2 (batch 2^63-2) fits.
  c.data = PartialShape::Of({Dim::AtLeast(2), Dim::Range(1, 4)});
  EXPECT_EQ(Infer(c), "[[1,inf),?]");
}

// Block not constant, batch 3037000499, D_1 = 2^32+1, crops of dim 1 at least 2^63-1: an
// instance needs D_1 * B_1 = 2^63-1 exactly, so B_1 in [ceil((2^63-1) / D_1), floor((2^63-1) /
// D_1)] = [2^31, 2^31-1], empty: every instance is must_reject (b2s.crops.fit). The search for
// the smallest D * B - C walked every B past the overflow looking for one that divides the
// batch, ran out of steps and answered the sound bound 0, a shape: a plugin that refused got
// unsound_shape (a 600 s fuzz finding, docs/false-positive-hunt.md).
TEST(PartialInfer, BatchToSpaceBlockSearchStopsAtTheOverflow) {
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  PartialCase c;
  c.op = Op::kBatchToSpace;
  c.data = PartialShape::Of(
      {Dim::Exact(3037000499), Dim::Exact((int64_t{1} << 32) + 1), Dim::Range(0, 2)});
  c.int_inputs = {std::nullopt, I64({0, kMax, 0}), std::nullopt};
  EXPECT_EQ(Infer(c), "b2s.crops.fit");
  c.int_inputs = {std::nullopt, I64({0, kMax, 0}), I64({0, 0, 0})};
  EXPECT_EQ(Infer(c), "b2s.crops.fit");
}

// Crops 2^63-1 on D_1 in [2^62, 2^63-2], block not constant: for every such D the smallest B
// (ceil(C / D) = 2) overflows D * B, so once the search stopped at the overflow, no D took a
// counted step and the walk over 2^62 values of D never ended (a hang of dmconf fuzz, found by
// the 600 s run of the false-positive hunt). Every D now costs a step: the search ends within
// its 2^16 steps with the sound lower bound 0.
TEST(PartialInfer, BatchToSpaceBlockSearchCountsEveryD) {
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  PartialCase c;
  c.op = Op::kBatchToSpace;
  c.data = PartialShape::Of({Dim::AtLeast(1), Dim::Range(int64_t{1} << 62, kMax - 1)});
  c.int_inputs = {std::nullopt, I64({0, kMax}), I64({0, 0})};
  EXPECT_EQ(Infer(c), "[[1,inf),?]");
}

PartialShape Len(Dim n) { return PartialShape::Of({n}); }

// Non-constant inputs with a known, partial or unknown shape. The specs: "block_shape,
// pads_begin, pads_end: 1-D tensors with shape [N], N the rank of data" (BatchToSpace: crops),
// and "data: rank >= 2".
TEST(PartialInfer, SpaceToBatchNonConstantInputShapes) {
  PartialCase c;
  c.op = Op::kSpaceToBatch;
  c.data = PartialShape::Of({Dim::Exact(1), Dim::Range(2, 8)});
  c.int_inputs = {std::nullopt, I64({0, 1}), I64({0, 0})};
  // block_shape of shape [2] (the data rank), values B >= 1 unknown, P_1 = 1:
  //   out[0] = 1 * B_0 * B_1: B = 1 gives 1, and it grows without bound -> [1, inf);
  //   out[1] = (D_1 + 1) / B_1 with D_1 + 1 in [3, 9]: B_1 = 1 gives up to 9, B_1 = D_1 + 1
  //   gives 1 -> [1, 9].
  c.int_shapes[0] = Len(Dim::Exact(2));
  EXPECT_EQ(Infer(c), "[[1,inf),[1,9]]");
  // Lengths [2..3], [?], [..2] and an unknown rank all admit 2: the same answer.
  for (const PartialShape& s : {Len(Dim::Range(2, 3)), Len(Dim::Any()), Len(Dim::Range(0, 2)),
                                PartialShape::DynamicRank()}) {
    c.int_shapes[0] = s;
    EXPECT_EQ(Infer(c), "[[1,inf),[1,9]]") << s.ToString();
  }
  // Length 3, or [3..], is not the data rank 2: no instance has shape [2].
  c.int_shapes[0] = Len(Dim::Exact(3));
  EXPECT_EQ(Infer(c), "s2b.inputs.shape");
  c.int_shapes[0] = Len(Dim::AtLeast(3));
  EXPECT_EQ(Infer(c), "s2b.inputs.shape");
  // A 2-D block_shape ([2,1], or 2-D of any dims) is never 1-D.
  c.int_shapes[0] = PartialShape::Of({Dim::Exact(2), Dim::Exact(1)});
  EXPECT_EQ(Infer(c), "s2b.inputs.shape");
  c.int_shapes[0] = PartialShape::Of({Dim::Any(), Dim::Any()});
  EXPECT_EQ(Infer(c), "s2b.inputs.shape");
  // Type rules still come from the static oracle: an f32 block_shape is not an integer.
  c.int_shapes[0] = Len(Dim::Exact(2));
  c.int_types[0] = ElementType::kF32;
  EXPECT_EQ(Infer(c), "s2b.inputs.integer_type");
  c.int_types[0] = ElementType::kI64;
  // The shape of a non-constant input is validated like the data's.
  c.int_shapes[0] = Len(Dim::Range(3, 2));
  absl::StatusOr<PartialResult> r = InferPartialShape(c);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StartsWith(r.status().message(), "case.tensor.dims_nonnegative"));
}

TEST(PartialInfer, SpaceToBatchUnknownDataRankFromInputShapes) {
  PartialCase c;
  c.op = Op::kSpaceToBatch;
  c.data = PartialShape::DynamicRank();
  // block_shape [4]: every accepted instance has rank 4. Every dim is "?": out[0] = batch *
  // prod(B) over batch >= 0 is [0, inf); out[i] = (D_i + P_i) / B_i with pads unknown is
  // [0, inf) (D_i = 0, P_i = 0).
  c.int_shapes[0] = Len(Dim::Exact(4));
  EXPECT_EQ(Infer(c), "[?,?,?,?]");
  c.int_shapes[0] = Len(Dim::Exact(3));
  EXPECT_EQ(Infer(c), "[?,?,?]");
  // A length above 2^16 declared by a non-constant input is not materialised (D-P13).
  c.int_shapes[0] = Len(Dim::Exact(100000));
  EXPECT_EQ(Infer(c), "[...]");
  c.int_shapes[0] = Len(Dim::Exact(int64_t{1} << 62));
  EXPECT_EQ(Infer(c), "[...]");
  // Lengths [2..3] alone leave ranks 2 and 3: the rank stays unknown.
  c.int_shapes[0] = Len(Dim::Range(2, 3));
  EXPECT_EQ(Infer(c), "[...]");
  // ... with pads_begin of length [3..5] only 3 is left.
  c.int_shapes[1] = Len(Dim::Range(3, 5));
  EXPECT_EQ(Infer(c), "[?,?,?]");
  // [..2]: with rank >= 2, only 2 is left.
  c.int_shapes = {Len(Dim::Range(0, 2)), PartialShape::DynamicRank(), PartialShape()};
  EXPECT_EQ(Infer(c), "[?,?]");
  // [?] admits every rank.
  c.int_shapes[0] = Len(Dim::Any());
  EXPECT_EQ(Infer(c), "[...]");
  // Lengths [..1]: the data rank would be below 2.
  c.int_shapes[0] = Len(Dim::Range(0, 1));
  EXPECT_EQ(Infer(c), "s2b.data.rank");
  // Lengths [2..3] and [4..]: no N fits both.
  c.int_shapes = {Len(Dim::Range(2, 3)), Len(Dim::AtLeast(4)), PartialShape()};
  EXPECT_EQ(Infer(c), "s2b.inputs.shape");
  // A constant pads_end of length 3 and block_shape of shape [2]: disjoint.
  c.int_shapes = {Len(Dim::Exact(2)), PartialShape(), PartialShape()};
  c.int_inputs[2] = I64({0, 0, 0});
  EXPECT_EQ(Infer(c), "s2b.inputs.shape");
  // ... block_shape [2..3] with the constant: rank 3. Batch: B unknown -> [0, inf) = ?.
  // Spatial: (D_i + pads_begin_i + 0) / B_i with pads_begin unknown -> [0, inf).
  c.int_shapes[0] = Len(Dim::Range(2, 3));
  EXPECT_EQ(Infer(c), "[?,?,?]");
  // Data rank 3 known: lengths [2..5] admit it, [4..5] do not.
  c.data = PartialShape::Of({Dim::Exact(2), Dim::Exact(4), Dim::Exact(6)});
  c.int_inputs = {std::nullopt, I64({0, 0, 0}), I64({0, 0, 0})};
  c.int_shapes[0] = Len(Dim::Range(2, 5));
  // out[0] = 2 * B_0 * B_1 * B_2 >= 2, unbounded; out[i] = D_i / B_i in [1, D_i].
  EXPECT_EQ(Infer(c), "[[2,inf),[1,4],[1,6]]");
  c.int_shapes[0] = Len(Dim::Range(4, 5));
  EXPECT_EQ(Infer(c), "s2b.inputs.shape");
}

TEST(PartialInfer, BatchToSpaceNonConstantInputShapes) {
  PartialCase c;
  c.op = Op::kBatchToSpace;
  c.data = PartialShape::DynamicRank();
  // block_shape of shape [?] and crops of shape [3], data rank unknown: every accepted
  // instance has rank 3. Every dim "?": out[0] = batch / prod(B) over batch >= 0 -> [0, inf);
  // out[i] = D_i * B_i - crops with crops unknown -> [0, inf).
  c.int_shapes = {Len(Dim::Any()), Len(Dim::Exact(3)), Len(Dim::Exact(3))};
  EXPECT_EQ(Infer(c), "[?,?,?]");
  // crops_begin [2] and crops_end [3]: no common length.
  c.data = PartialShape::Of({Dim::Range(4, 13), Dim::Range(2, 3)});
  c.int_shapes = {PartialShape(), Len(Dim::Exact(2)), Len(Dim::Exact(3))};
  EXPECT_EQ(Infer(c), "b2s.inputs.shape");
  // A 2-D block_shape.
  c.int_shapes = {PartialShape::Of({Dim::Exact(1), Dim::Exact(2)}), PartialShape(), PartialShape()};
  EXPECT_EQ(Infer(c), "b2s.inputs.shape");
  // block_shape constant [1, 4], crops_end constant [0, 2], crops_begin of shape [?]:
  //   out[0] = batch / 4 over [4, 13] -> [1, 3];
  //   out[1] = D * 4 - cb - 2 with cb >= 0 unknown: at most 3 * 4 - 2 = 10, down to 0.
  c.int_inputs = {I64({1, 4}), std::nullopt, I64({0, 2})};
  c.int_shapes = {PartialShape(), Len(Dim::Any()), PartialShape()};
  EXPECT_EQ(Infer(c), "[[1,3],[0,10]]");
  // ... crops_begin of shape [3] cannot be [2].
  c.int_shapes[1] = Len(Dim::Exact(3));
  EXPECT_EQ(Infer(c), "b2s.inputs.shape");
  // Rank 1 data is left to the static oracle.
  c.data = PartialShape::Of({Dim::Exact(4)});
  c.int_inputs = {std::nullopt, std::nullopt, std::nullopt};
  c.int_shapes = {Len(Dim::Exact(1)), PartialShape(), PartialShape()};
  EXPECT_EQ(Infer(c), "b2s.data.rank");
}

TEST(PartialInfer, ExtractImagePatchesIntervals) {
  PartialCase c;
  c.op = Op::kExtractImagePatches;
  c.data = PartialShape::Of({Dim::Exact(2), Dim::Range(1, 3), Dim::Range(2, 9), Dim::AtLeast(0)});
  c.sizes = {3, 2};
  c.strides = {2, 3};
  c.rates = {2, 1};
  c.auto_pad = "valid";
  // depth 6 * [1,3]; rows: eff 5, in [2, 9] -> 0 .. (9 - 5) / 2 + 1 = 3; cols eff 2 -> [0, inf).
  EXPECT_EQ(Infer(c), "[2,[6,18],[0,3],?]");
  c.auto_pad = "same_lower";
  // ceil(in / stride): rows [1, 5], cols [0, inf).
  EXPECT_EQ(Infer(c), "[2,[6,18],[1,5],?]");
  c.data = PartialShape::DynamicRank();
  EXPECT_EQ(Infer(c), "[?,?,?,?]");
  c.strides = {0, 1};
  EXPECT_EQ(Infer(c), "eip.strides.positive");
}

// A rule that depends on the attributes (or constant inputs) alone rejects every instance at
// any rank: the partial oracle answers must_reject with it for a static shape, an interval
// shape of the same rank and an unknown rank alike (and, for SpaceToBatch / BatchToSpace, with
// the other inputs not constant). Each rule below is read off the specification.
struct AttributeCase {
  const char* rule;
  std::function<void(PartialCase&)> set;
};

void ExpectRejectedAtEveryRank(PartialCase c, const std::vector<AttributeCase>& rules) {
  const PartialShape exact = c.data;
  std::vector<Dim> wide;
  for (const Dim& d : c.data.dims.value_or(std::vector<Dim>{}))
    wide.push_back(d.lo == 1 ? Dim::Range(1, 9) : Dim::AtLeast(d.lo));
  const PartialShape widened = PartialShape::Of(wide);
  for (const AttributeCase& a : rules) {
    PartialCase x = c;
    a.set(x);
    for (const PartialShape& data : {exact, widened, PartialShape::DynamicRank()}) {
      x.data = data;
      EXPECT_EQ(Infer(x), a.rule) << "data " << data.ToString();
      if (x.op != Op::kSpaceToBatch && x.op != Op::kBatchToSpace) continue;
      for (size_t k = 0; k < 3; ++k) {  // an input the rule is not about, left not constant
        if (!x.int_inputs[k] || *x.int_inputs[k] != *c.int_inputs[k]) continue;
        PartialCase y = x;
        y.int_inputs[k].reset();
        EXPECT_EQ(Infer(y), a.rule) << "input " << k << " not constant, data " << data.ToString();
      }
    }
  }
}

TEST(PartialInfer, AttributeOnlyRulesRejectAtEveryRank) {
  constexpr int64_t kHalf = int64_t{1} << 62;
  PartialCase d2s;
  d2s.op = Op::kDepthToSpace;
  d2s.data = PartialShape::Of({Dim::Exact(1), Dim::Exact(8), Dim::Exact(2), Dim::Exact(2)});
  d2s.block_size = 2;
  d2s.mode = "blocks_first";
  ExpectRejectedAtEveryRank(d2s,
                            {{"d2s.block_size.positive", [](PartialCase& x) { x.block_size = 0; }},
                             {"d2s.block_size.positive", [](PartialCase& x) { x.block_size = -3; }},
                             {"d2s.mode.enum", [](PartialCase& x) { x.mode = "sideways"; }},
                             {"d2s.mode.required", [](PartialCase& x) { x.mode.reset(); }}});
  PartialCase s2d = d2s;
  s2d.op = Op::kSpaceToDepth;
  ExpectRejectedAtEveryRank(s2d,
                            {{"s2d.block_size.positive", [](PartialCase& x) { x.block_size = 0; }},
                             {"s2d.mode.enum", [](PartialCase& x) { x.mode = "depth first"; }},
                             {"s2d.mode.required", [](PartialCase& x) { x.mode.reset(); }}});
  PartialCase eip;
  eip.op = Op::kExtractImagePatches;
  eip.data = PartialShape::Of({Dim::Exact(1), Dim::Exact(1), Dim::Exact(5), Dim::Exact(5)});
  eip.sizes = {3, 1};
  eip.strides = {1, 1};
  eip.rates = {1, 1};
  eip.auto_pad = "valid";
  ExpectRejectedAtEveryRank(
      eip,
      {// rate * (size - 1) + 1 = 2^62 * 2 + 1 = 2^63 + 1: above 2^63-1 whatever the data.
       {"eip.output.representable",
        [](PartialCase& x) {
          x.rates = {kHalf, 1};
        }},
       {"eip.output.representable",
        [](PartialCase& x) {
          x.rates = {1, kHalf};
          x.sizes = {1, 3};
        }},
       {"eip.strides.positive",
        [](PartialCase& x) {
          x.strides = {0, 1};
        }},
       {"eip.rates.positive",
        [](PartialCase& x) {
          x.rates = {1, -1};
        }},
       {"eip.sizes.nonnegative",
        [](PartialCase& x) {
          x.sizes = {-1, 1};
        }},
       {"eip.sizes.length", [](PartialCase& x) { x.sizes = {3}; }},
       {"eip.strides.length",
        [](PartialCase& x) {
          x.strides = {1, 1, 1};
        }},
       {"eip.rates.length", [](PartialCase& x) { x.rates = {}; }},
       {"eip.auto_pad.enum", [](PartialCase& x) { x.auto_pad = "full"; }},
       {"eip.auto_pad.required", [](PartialCase& x) { x.auto_pad.reset(); }}});
  PartialCase s2b;
  s2b.op = Op::kSpaceToBatch;
  s2b.data = PartialShape::Of({Dim::Exact(1), Dim::Exact(4)});
  s2b.int_inputs = {I64({1, 2}), I64({0, 0}), I64({0, 0})};
  ExpectRejectedAtEveryRank(s2b, {{"s2b.block_shape.positive",
                                   [](PartialCase& x) {
                                     x.int_inputs[0] = I64({1, 0});
                                   }},
                                  {"s2b.pads_begin.nonnegative",
                                   [](PartialCase& x) {
                                     x.int_inputs[1] = I64({0, -1});
                                   }},
                                  {"s2b.pads_end.nonnegative",
                                   [](PartialCase& x) {
                                     x.int_inputs[2] = I64({0, -2});
                                   }},
                                  {"s2b.inputs.integer_type", [](PartialCase& x) {
                                     x.int_inputs[0] = *Tensor::Zeros(ElementType::kF32, {2});
                                     x.int_types[0] = ElementType::kF32;
                                   }}});
  PartialCase b2s = s2b;
  b2s.op = Op::kBatchToSpace;
  b2s.data = PartialShape::Of({Dim::Exact(2), Dim::Exact(4)});
  ExpectRejectedAtEveryRank(
      b2s, {{"b2s.block_shape.positive",
             [](PartialCase& x) {
               x.int_inputs[0] = I64({1, -2});
             }},
            {"b2s.crops_begin.nonnegative",
             [](PartialCase& x) {
               x.int_inputs[1] = I64({0, -1});
             }},
            {"b2s.crops_end.nonnegative",
             [](PartialCase& x) {
               x.int_inputs[2] = I64({0, -1});
             }},
            // crops_begin + crops_end = 2^63 > D * B for every D, B (both at most 2^63-1).
            {"b2s.crops.fit",
             [](PartialCase& x) {
               x.int_inputs[1] = I64({0, kHalf});
               x.int_inputs[2] = I64({0, kHalf});
             }},
            {"b2s.inputs.same_type", [](PartialCase& x) {
               x.int_inputs[1] = *MakeIntegerTensor(ElementType::kI32, {0, 0});
               x.int_types[1] = ElementType::kI32;
             }}});
}

TEST(PartialInfer, MalformedIntervalsAreErrors) {
  PartialCase c;
  c.op = Op::kSpaceToDepth;
  c.mode = "blocks_first";
  c.data = PartialShape::Of({Dim::Exact(1), Dim::Range(4, 2), Dim::Exact(2)});
  absl::StatusOr<PartialResult> r = InferPartialShape(c);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::StartsWith(r.status().message(), "case.tensor.dims_nonnegative"));
}

// ---- Exact shapes: partial inference is static inference ----------------------------------

TEST(PartialInfer, ExactShapesAgreeWithStaticInference) {
  for (uint64_t i = 0; i < 3000; ++i) {
    const GeneratedCase g = SeededCase(31, i);
    absl::StatusOr<Validation> v = Validate(g.c);
    absl::StatusOr<PartialResult> p = InferPartialShape(PartialCase::FromStatic(g.c));
    // A partial case has no way to carry a wrong number of integer inputs.
    if (g.rule && g.rule->id == "case.inputs.count") continue;
    ASSERT_EQ(v.ok(), p.ok()) << g.c.id;
    if (!v.ok()) continue;
    const bool rejects = v->kind() == ExpectationKind::kMustReject;
    ASSERT_EQ(rejects, p->kind == PartialKind::kMustReject)
        << g.c.id << " static: " << (rejects ? v->deciding()->message : "accepts")
        << " partial: " << p->message;
    if (!rejects && p->has_output) {
      EXPECT_EQ(p->output.ToString(), PartialShape::Static(v->output_shape).ToString()) << g.c.id;
    }
  }
}

// ---- Soundness and tightness over enumerated instances ------------------------------------

// The shapes a non-constant input takes in the enumeration: 1-D lengths in its interval from
// its lower bound up to 4 (or just its lower bound when that is larger); for another known
// rank, the shape of its lower bounds; for an unknown rank also [] and [2,2].
std::vector<Shape> InputShapes(const PartialShape& s) {
  if (!s.dims) return {{}, {0}, {1}, {2}, {3}, {4}, {2, 2}};
  if (s.dims->size() != 1) {
    Shape lows;
    for (const Dim& d : *s.dims) lows.push_back(d.lo);
    return {lows};
  }
  const Dim& l = (*s.dims)[0];
  std::vector<Shape> v;
  for (int64_t n = l.lo; n <= std::max<int64_t>(l.lo, std::min<int64_t>(l.hi.value_or(4), 4)); ++n)
    v.push_back({n});
  return v;
}

// Calls f for every instance of p whose data has rank N and whose non-constant inputs have
// the given shapes. Dims: [lo, hi] (lo + 3 for an unbounded hi) when the data rank is known,
// else 0..3 (0..2 from rank 3 on). A constant input is itself. A non-constant input of shape
// [N] takes the values: block 1..12 on spatial axes (block_shape[0] in {1, 2}), pads / crops
// 0..24 (end 0..1 when begin is unknown too: shapes only see the sum), index 0 zero; 1..3 and
// 0..3 when the data rank is unknown. Another shape breaks `*.inputs.shape` (or the data rank
// is below 2) whatever its values: it takes block 1 / pads 0 only.
void EnumerateAt(const PartialCase& p, size_t N, const std::array<Shape, 3>& shapes,
                 const std::function<void(const OpCase&)>& f) {
  OpCase base;
  base.op = p.op;
  CopyAttributes(p, base);
  base.data.type = p.type;
  // Per position, the list of values to try: dims first, then the elements of each
  // non-constant input.
  std::vector<std::vector<int64_t>> choices;
  for (size_t i = 0; i < N; ++i) {
    const Dim d = p.data.dims ? (*p.data.dims)[i] : Dim::Range(0, N <= 2 ? 3 : 2);
    std::vector<int64_t> v;
    for (int64_t x = d.lo; x <= d.hi.value_or(d.lo + 3); ++x) v.push_back(x);
    choices.push_back(v);
  }
  const bool block_op = p.op == Op::kSpaceToBatch || p.op == Op::kBatchToSpace;
  const bool small = !p.data.dims;
  std::array<size_t, 3> first = {0, 0, 0};
  for (size_t k = 0; block_op && k < 3; ++k) {
    first[k] = choices.size();
    if (p.int_inputs[k]) continue;
    const bool fits = shapes[k] == Shape{static_cast<int64_t>(N)};
    for (int64_t i = 0; i < *NumElements(shapes[k]); ++i) {
      const int64_t lo = k == 0 ? 1 : 0;
      // Shapes only see begin + end: with both unknown, end 0..1 with begin 0..hi covers it.
      const bool sum_covered = k == 2 && !p.int_inputs[1];
      int64_t hi = i == 0 ? (k == 0 ? 2 : 0) : (sum_covered ? 1 : (k == 0 ? 12 : 24));
      if (small && i != 0 && !sum_covered) hi = 3;
      if (!fits) hi = lo;
      std::vector<int64_t> v;
      for (int64_t x = lo; x <= hi; ++x) v.push_back(x);
      choices.push_back(v);
    }
  }
  std::vector<size_t> idx(choices.size(), 0);
  while (true) {
    OpCase c = base;
    for (size_t i = 0; i < N; ++i) c.data.shape.push_back(choices[i][idx[i]]);
    for (size_t k = 0; block_op && k < 3; ++k) {
      if (p.int_inputs[k]) {
        c.int_inputs.push_back(*p.int_inputs[k]);
        continue;
      }
      c.int_inputs.push_back(*MakeTensor(p.int_types[k], shapes[k], [&](int64_t i) {
        const size_t j = first[k] + static_cast<size_t>(i);
        return choices[j][idx[j]];
      }));
    }
    f(c);
    size_t j = 0;
    while (j < idx.size() && ++idx[j] == choices[j].size()) idx[j++] = 0;
    if (j == idx.size()) break;
  }
}

// Calls f for every instance of p: data ranks 0..3 when p's is unknown, every combination of
// the non-constant inputs' InputShapes, then EnumerateAt.
void Enumerate(const PartialCase& p, const std::function<void(const OpCase&)>& f) {
  std::vector<size_t> ranks = {0, 1, 2, 3};
  if (p.data.dims) ranks = {p.data.dims->size()};
  const bool block_op = p.op == Op::kSpaceToBatch || p.op == Op::kBatchToSpace;
  std::array<std::vector<Shape>, 3> options;
  for (size_t k = 0; k < 3; ++k) {
    options[k] = {{}};  // unused
    if (block_op && !p.int_inputs[k]) options[k] = InputShapes(p.int_shapes[k]);
  }
  for (size_t N : ranks) {
    std::array<size_t, 3> at = {0, 0, 0};
    while (true) {
      EnumerateAt(p, N, {options[0][at[0]], options[1][at[1]], options[2][at[2]]}, f);
      size_t k = 0;
      while (k < 3 && ++at[k] == options[k].size()) at[k++] = 0;
      if (k == 3) break;
    }
  }
}

// The shape of a non-constant input whose instance value has length n: [n] (3 in 8), a
// partial shape containing n ([lo..hi], [lo..), [?]: 2 in 8), an unknown rank (1 in 8), or
// one without it ([n+1], [..n-1] or the 2-D [n,1]: 2 in 8, every instance is rejected).
PartialShape InputShape(Chooser& ch, int64_t n) {
  switch (ch.Weighted({3, 2, 1, 2})) {
    case 0:
      return PartialShape::Of({Dim::Exact(n)});
    case 1:
      switch (ch.Int(0, 2)) {
        case 0:
          return PartialShape::Of({Dim::Range(n - ch.Int(0, 1), n + ch.Int(0, 1))});
        case 1:
          return PartialShape::Of({Dim::AtLeast(n - ch.Int(0, 1))});
        default:
          return PartialShape::Of({Dim::Any()});
      }
    case 2:
      return PartialShape::DynamicRank();
    default:
      switch (ch.Int(0, 2)) {
        case 0:
          return PartialShape::Of({Dim::Exact(n + 1)});
        case 1:
          return PartialShape::Of({Dim::Range(0, n - 1)});
        default:
          return PartialShape::Of({Dim::Exact(n), Dim::Exact(1)});
      }
  }
}

// A partial case around a small static one: each dim widened to an interval (sometimes
// unbounded); for SpaceToBatch / BatchToSpace sometimes an unknown data rank (1 in 6) and,
// at rank 2 or with an unknown data rank, inputs sometimes non-constant (each 1 in 3, or all
// three: 1 in 4, 1 in 2 with an unknown data rank), with a shape from InputShape (sometimes
// one shape for all).
PartialCase Widen(Chooser& ch, const OpCase& c) {
  PartialCase p = PartialCase::FromStatic(c);
  for (Dim& d : *p.data.dims) {
    d.lo = std::max<int64_t>(0, d.lo - ch.Int(0, 2));
    if (ch.Weighted({5, 1}) == 1) {
      d.hi.reset();
    } else {
      d.hi = *d.hi + ch.Int(0, 2);
    }
  }
  if (c.op == Op::kSpaceToBatch || c.op == Op::kBatchToSpace) {
    if (ch.Weighted({5, 1}) == 1) p.data = PartialShape::DynamicRank();
    if (c.data.shape.size() == 2 || !p.data.dims) {
      const int64_t n = static_cast<int64_t>(c.data.shape.size());
      const bool all = ch.Weighted({p.data.dims ? 3 : 1, 1}) == 1;
      const std::optional<PartialShape> shared =
          ch.Bool() ? std::optional<PartialShape>(InputShape(ch, n)) : std::nullopt;
      for (size_t k = 0; k < 3; ++k) {
        if (!all && ch.Weighted({2, 1}) == 0) continue;
        p.int_shapes[k] = shared ? *shared : InputShape(ch, n);
        p.int_inputs[k].reset();
      }
    }
  }
  return p;
}

RC_GTEST_PROP(PartialProperties, SoundAndTight, ()) {
  RcChooser ch;
  const Op op = ch.Pick<Op>(AllOps());
  BuildOptions o;
  o.max_elements = 48;
  o.max_rank = op == Op::kSpaceToBatch || op == Op::kBatchToSpace ? 3 : 4;
  OpCase c = BuildValidCase(ch, op, o);
  if (op == Op::kSpaceToBatch || op == Op::kBatchToSpace) {
    // Keep blocks and pads small so that the enumeration reaches every bound's witness.
    for (Tensor& t : c.int_inputs) {
      std::vector<int64_t> v;
      for (int64_t i = 0; i < t.NumElements(); ++i)
        v.push_back(std::min<int64_t>(*t.GetInteger(i), 3));
      t = I64(v);
    }
    for (int64_t& d : c.data.shape) d = std::min<int64_t>(d, 6);
  }
  const PartialCase p = Widen(ch, c);
  absl::StatusOr<PartialResult> r = InferPartialShape(p);
  RC_ASSERT(r.ok());
  RC_LOG() << "partial case " << OpName(p.op) << " " << p.data.ToString() << " "
           << AttributesToString(c) << " inputs";
  for (size_t k = 0; k < 3; ++k) {
    RC_LOG() << " " << (p.int_inputs[k] ? "constant" : p.int_shapes[k].ToString());
  }
  RC_LOG() << " -> " << (r->has_output ? r->output.ToString() : r->message) << "\n";
  bool finite = p.data.dims.has_value();
  for (const Dim& d : p.data.dims.value_or(std::vector<Dim>{})) finite = finite && d.hi.has_value();
  const size_t out_rank = r->has_output && r->output.dims ? r->output.dims->size() : 0;
  std::vector<bool> lo_hit(out_rank, false), hi_hit(out_rank, false);
  Enumerate(p, [&](const OpCase& inst) {
    absl::StatusOr<Validation> v = Validate(inst);
    RC_ASSERT(v.ok());
    if (v->kind() == ExpectationKind::kMustReject || v->output_shape.empty()) return;
    // Soundness: an accepted instance is inside the partial answer.
    RC_LOG() << "instance " << ShapeToString(inst.data.shape) << " " << AttributesToString(inst)
             << " -> " << ShapeToString(v->output_shape) << "\n";
    RC_ASSERT(r->kind != PartialKind::kMustReject);
    if (!r->has_output) return;
    RC_ASSERT(r->output.Contains(v->output_shape));
    for (size_t i = 0; i < out_rank; ++i) {
      const Dim& d = (*r->output.dims)[i];
      lo_hit[i] = lo_hit[i] || v->output_shape[i] == d.lo;
      hi_hit[i] = hi_hit[i] || (d.hi && v->output_shape[i] == *d.hi);
    }
  });
  // Tightness: with finite input intervals (enumerated completely), every bound is reached.
  // Not claimed for BatchToSpace with a non-constant block_shape, whose per-dim bounds ignore
  // the coupling of batch divisibility and crops (docs/errata-partial.md, D-P6).
  const bool coupled = p.op == Op::kBatchToSpace && !p.int_inputs[0];
  if (finite && !coupled && r->kind == PartialKind::kShape) {
    for (size_t i = 0; i < out_rank; ++i) {
      const Dim& d = (*r->output.dims)[i];
      RC_ASSERT(lo_hit[i]);
      if (d.hi) RC_ASSERT(hi_hit[i]);
    }
  }
}

}  // namespace
}  // namespace dmconf
