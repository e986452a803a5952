// One test per entry of the errata ledger (docs/errata.md): each pins the decision taken where
// the specification is wrong or silent. Expected values are derived by hand in the comments.
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "oracle/case_factory.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

Tensor Iota(ElementType t, Shape s) {
  return *MakeTensor(t, std::move(s), [](int64_t i) { return i; });
}

std::vector<int64_t> Values(const Tensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(*t.GetInteger(i));
  return v;
}

Expectation Eval(const OpCase& c) {
  absl::StatusOr<Expectation> e = Evaluate(c);
  EXPECT_TRUE(e.ok()) << e.status();
  return e.ok() ? *e : Expectation{};
}

std::string RuleOf(const OpCase& c) {
  absl::StatusOr<Validation> v = Validate(c);
  if (!v.ok()) return std::string(v.status().message());
  return v->deciding() ? std::string(v->deciding()->rule->id) : "valid";
}

// E1: SpaceToBatch's transpose is [2, 4, ..., 2N-2, 0, 1, 3, ..., 2N-3]: block offsets
// outermost, last spatial fastest, then the original batch.
TEST(Errata, E1_SpaceToBatchBlockMajorBatchOrder) {
  // data [2,1,2,2] = 0..7, block [1,1,2,2]: out batch = (o1*2 + o2) * 2 + n,
  // out[b, 0, 0, 0] = data[n, 0, o1, o2] = n*4 + o1*2 + o2.
  Expectation e = Eval(BlockOpCase(Op::kSpaceToBatch, Iota(ElementType::kI32, {2, 1, 2, 2}),
                                   {1, 1, 2, 2}, {0, 0, 0, 0}, {0, 0, 0, 0}));
  ASSERT_EQ(e.kind, ExpectationKind::kValid);
  EXPECT_EQ(e.output->shape, (Shape{8, 1, 1, 1}));
  EXPECT_EQ(Values(*e.output), (std::vector<int64_t>{0, 4, 1, 5, 2, 6, 3, 7}));
}

// E2: BatchToSpace's transpose is [N-1, N, 0, N+1, 1, ..., 2N-2, N-2], the inverse of E1.
TEST(Errata, E2_BatchToSpaceInverseOrder) {
  // data [8,1,1,1] = 0..7 (the output of E1) back to [2,1,2,2] = 0..7.
  Expectation e = Eval(BlockOpCase(Op::kBatchToSpace,
                                   *MakeTensor(ElementType::kI32, {8, 1, 1, 1},
                                               [](int64_t i) {
                                                 const int64_t v[] = {0, 4, 1, 5, 2, 6, 3, 7};
                                                 return v[i];
                                               }),
                                   {1, 1, 2, 2}, {0, 0, 0, 0}, {0, 0, 0, 0}));
  ASSERT_EQ(e.kind, ExpectationKind::kValid);
  EXPECT_EQ(e.output->shape, (Shape{2, 1, 2, 2}));
  EXPECT_EQ(Values(*e.output), (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
}

// E3 / E4: the example's output batch 48 is the product of the block_shape *values*
// (2 * 1 * 2 * 4 * 3 * 1), not of block_shape.shape; port ids are not modelled.
TEST(Errata, E3E4_SpaceToBatchExampleOutputBatchUsesValues) {
  OpCase c = BlockOpCase(Op::kSpaceToBatch, Tensor{ElementType::kF32, {2, 6, 10, 3, 3}, {}},
                         {1, 2, 4, 3, 1}, {0, 0, 1, 0, 0}, {0, 0, 1, 0, 0});
  absl::StatusOr<Validation> v = Validate(c);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->output_shape, (Shape{48, 3, 3, 1, 3}));
}

// E5: block_shape[0] != 1 and pads[0] / crops[0] != 0 are unspecified, not must_reject.
TEST(Errata, E5_BatchAxisValuesAreUnspecified) {
  const Tensor d = Tensor{ElementType::kF32, {2, 4}, {}};
  EXPECT_EQ(RuleOf(BlockOpCase(Op::kSpaceToBatch, d, {2, 1}, {0, 0}, {0, 0})),
            "s2b.block_shape.batch_one");
  EXPECT_EQ(RuleOf(BlockOpCase(Op::kSpaceToBatch, d, {1, 1}, {1, 0}, {0, 0})),
            "s2b.pads_begin.batch_zero");
  EXPECT_EQ(RuleOf(BlockOpCase(Op::kBatchToSpace, d, {2, 1}, {0, 0}, {0, 0})),
            "b2s.block_shape.batch_one");
  EXPECT_EQ(RuleOf(BlockOpCase(Op::kBatchToSpace, d, {1, 1}, {0, 0}, {1, 0})),
            "b2s.crops_end.batch_zero");
  absl::StatusOr<Validation> v =
      Validate(BlockOpCase(Op::kSpaceToBatch, d, {2, 1}, {0, 0}, {0, 0}));
  EXPECT_EQ(v->kind(), ExpectationKind::kUnspecified);
}

// E6: DepthToSpace moves depth into space (the formulas), whatever the short description says.
TEST(Errata, E6_DepthToSpaceMovesDepthIntoSpace) {
  absl::StatusOr<Validation> v = Validate(DepthOpCase(
      Op::kDepthToSpace, Tensor{ElementType::kF32, {5, 28, 2, 3}, {}}, 2, "blocks_first"));
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->output_shape, (Shape{5, 7, 4, 6}));
}

// E7: strides and rates must be positive (must_reject); sizes = 0 is unspecified.
TEST(Errata, E7_EipStridesRatesPositiveSizesZeroUnspecified) {
  const Tensor d = Tensor{ElementType::kF32, {1, 1, 4, 4}, {}};
  EXPECT_EQ(RuleOf(PatchOpCase(d, {2, 2}, {0, 1}, {1, 1}, "valid")), "eip.strides.positive");
  EXPECT_EQ(RuleOf(PatchOpCase(d, {2, 2}, {1, 1}, {1, 0}, "valid")), "eip.rates.positive");
  EXPECT_EQ(RuleOf(PatchOpCase(d, {0, 2}, {1, 1}, {1, 1}, "valid")), "eip.sizes.zero");
  EXPECT_EQ(RuleOf(PatchOpCase(d, {-1, 2}, {1, 1}, {1, 1}, "valid")), "eip.sizes.nonnegative");
}

// E8: output sizes. valid: in=10, size 3, rate 2 -> eff 5, stride 3 -> ceil((10-5+1)/3) = 2;
// in < eff -> 0. same_*: ceil(in / stride): in 10, stride 4 -> 3, in 0 -> 0.
TEST(Errata, E8_EipOutputSizes) {
  auto shape = [](Shape in, int64_t size, int64_t stride, int64_t rate, std::string pad) {
    absl::StatusOr<Validation> v = Validate(PatchOpCase(
        Tensor{ElementType::kF32, in, {}}, {size, size}, {stride, stride}, {rate, rate}, pad));
    return v.ok() ? v->output_shape : Shape{};
  };
  EXPECT_EQ(shape({1, 1, 10, 10}, 3, 3, 2, "valid"), (Shape{1, 9, 2, 2}));
  EXPECT_EQ(shape({1, 1, 4, 4}, 3, 1, 2, "valid"), (Shape{1, 9, 0, 0}));  // eff 5 > 4
  EXPECT_EQ(shape({1, 1, 10, 10}, 3, 4, 1, "same_upper"), (Shape{1, 9, 3, 3}));
  EXPECT_EQ(shape({1, 1, 0, 0}, 3, 4, 1, "same_lower"), (Shape{1, 9, 0, 0}));
}

// E8 (padding side): in 4, size 2, stride 2 -> out 2, total pad (2-1)*2 + 2 - 4 = 0;
// in 5, size 2, stride 2 -> out 3, total (3-1)*2 + 2 - 5 = 1: same_upper pads at the end,
// same_lower at the beginning. 1x1x1x5 row 1..5, patch width 2:
//   same_upper: patches [1,2] [3,4] [5,0];  same_lower: [0,1] [2,3] [4,5].
TEST(Errata, E8_EipOddPaddingSide) {
  auto row = [](std::string pad) {
    Tensor d = *MakeTensor(ElementType::kI32, {1, 1, 1, 5}, [](int64_t i) { return i + 1; });
    Expectation e = Eval(PatchOpCase(d, {1, 2}, {1, 2}, {1, 1}, pad));
    return Values(*e.output);  // [1, 2, 1, 3]: channel kw=0 then kw=1
  };
  EXPECT_EQ(row("same_upper"), (std::vector<int64_t>{1, 3, 5, 2, 4, 0}));
  EXPECT_EQ(row("same_lower"), (std::vector<int64_t>{0, 2, 4, 1, 3, 5}));
}

// E9: output depth index = (kh * size_cols + kw) * depth + c (channel fastest).
TEST(Errata, E9_EipChannelFastest) {
  // data [1,2,1,1] = {10, 20}; sizes 1x1 -> depth 2 = [c0, c1]; with a 2-channel 1x2 image
  // and sizes 1x2: depth index (kw*2 + c): [c0 kw0, c1 kw0, c0 kw1, c1 kw1].
  Tensor d = *MakeTensor(ElementType::kI32, {1, 2, 1, 2}, [](int64_t i) { return i; });
  // data[c][w] = c*2 + w.
  Expectation e = Eval(PatchOpCase(d, {1, 2}, {1, 1}, {1, 1}, "valid"));
  EXPECT_EQ(e.output->shape, (Shape{1, 4, 1, 1}));
  EXPECT_EQ(Values(*e.output), (std::vector<int64_t>{0, 2, 1, 3}));
}

// E10: an absent block_size means the default 1: the identity.
TEST(Errata, E10_AbsentBlockSizeIsOne) {
  for (Op op : {Op::kDepthToSpace, Op::kSpaceToDepth}) {
    Tensor d = Iota(ElementType::kU8, {1, 3, 2, 2});
    Expectation e = Eval(DepthOpCase(op, d, std::nullopt, "depth_first"));
    ASSERT_EQ(e.kind, ExpectationKind::kValid);
    EXPECT_EQ(*e.output, d);
  }
}

// E11: SpaceToBatch accepts mixed integer types, rejects boolean; BatchToSpace needs one type.
TEST(Errata, E11_IntegerInputTypes) {
  const Tensor d = Tensor{ElementType::kF32, {1, 4}, {}};
  OpCase mixed = BlockOpCase(Op::kSpaceToBatch, d, {1, 2}, {0, 0}, {0, 0});
  mixed.int_inputs[1] = *MakeIntegerTensor(ElementType::kU8, {0, 0});
  EXPECT_EQ(RuleOf(mixed), "valid");
  OpCase boolean = mixed;
  boolean.int_inputs[2] = *MakeTensor(ElementType::kBoolean, {2}, [](int64_t) { return 0; });
  EXPECT_EQ(RuleOf(boolean), "s2b.inputs.integer_type");
  OpCase b2s =
      BlockOpCase(Op::kBatchToSpace, Tensor{ElementType::kF32, {2, 4}, {}}, {1, 2}, {0, 0}, {0, 0});
  b2s.int_inputs[1] = *MakeIntegerTensor(ElementType::kI32, {0, 0});
  EXPECT_EQ(RuleOf(b2s), "b2s.inputs.same_type");
}

// E12: block_shape / pads must have length N (OpenVINO does not check it for SpaceToBatch).
TEST(Errata, E12_SpaceToBatchInputLength) {
  EXPECT_EQ(RuleOf(BlockOpCase(Op::kSpaceToBatch, Tensor{ElementType::kF32, {1, 4, 4}, {}}, {1, 2},
                               {0, 0}, {0, 0})),
            "s2b.inputs.shape");
}

// D1: padding elements are the all-zero bit pattern in every type (nf4 code 0, f8e8m0 0x00).
TEST(Errata, D1_PadIsAllZeroBits) {
  for (ElementType t : {ElementType::kNf4, ElementType::kF8e8m0, ElementType::kF32}) {
    Tensor d = *MakeTensor(t, {1, 2}, [](int64_t) { return 0x7; });
    Expectation e = Eval(BlockOpCase(Op::kSpaceToBatch, d, {1, 1}, {0, 1}, {0, 1}));
    ASSERT_EQ(e.output->shape, (Shape{1, 4}));
    EXPECT_EQ(e.output->GetBits(0), 0u) << ElementTypeName(t);
    EXPECT_EQ(e.output->GetBits(1), 7u);
    EXPECT_EQ(e.output->GetBits(3), 0u);
  }
}

// D2: divisibility and crop limits apply to axes 1..N-1; axis 0 only to the E5 rules.
TEST(Errata, D2_AxisZeroOnlyUnderExpectedRules) {
  // B_0 = 2 with batch 3: not divisible, but the verdict is the unspecified batch_one rule.
  EXPECT_EQ(RuleOf(BlockOpCase(Op::kSpaceToBatch, Tensor{ElementType::kF32, {3, 4}, {}}, {2, 1},
                               {0, 0}, {0, 0})),
            "s2b.block_shape.batch_one");
}

// D3: OpenVINO's `string` element type is not a fixed-width type and is out of scope.
TEST(Errata, D3_StringTypeRejected) {
  absl::StatusOr<ElementType> t = ParseElementType("string");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message().substr(0, 23), "case.element_type.known");
}

// D4: a tensor of more than 2^63-1 elements is malformed; an output that cannot be
// represented is must_reject with the op's representable rule.
TEST(Errata, D4_Representability) {
  absl::StatusOr<Validation> v = Validate(
      DepthOpCase(Op::kSpaceToDepth, Tensor{ElementType::kF32, {1, int64_t{1} << 62, 2, 2}, {}}, 2,
                  "blocks_first"));
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().message().substr(0, 30), "case.tensor.size_representable");
  // C * b^K: 3 * (2^31)^2 overflows.
  EXPECT_EQ(RuleOf(DepthOpCase(Op::kSpaceToDepth, Tensor{ElementType::kF32, {1, 3, 0, 0}, {}},
                               int64_t{1} << 31, "blocks_first")),
            "s2d.output.representable");
}

// D4a: a case is must_reject only when a quantity the spec defines cannot be represented,
// never for an intermediate of dmconf's own arithmetic. ExtractImagePatches, one row of 5,
// sizes [1, 2], rates [1, R] with R = 2^63 - 4: the effective patch width R * (2 - 1) + 1 =
// 2^63 - 3 is representable, in + eff = 2^63 + 2 is not (the rule used to reject it).
//   valid: in 5 < eff, so no patch fits: output [1, 2, 1, 0], a valid empty output.
//   same_upper / same_lower: out = ceil(5 / 1) = 5, total pad (5 - 1) * 1 + eff - 5 = 2^63 - 4,
//   pad_begin = 2^62 - 2 either way (even total). Column kw = 0 reads ow - 2^62 + 2 < 0 and
//   kw = 1 reads ow + R - pad_begin = ow + 2^62 - 2 >= 5: every element is padding, zeros.
TEST(Errata, D4a_EipPaddedExtentIsNoRule) {
  const int64_t r = INT64_MAX - 3;
  const Tensor row = *MakeTensor(ElementType::kI32, {1, 1, 1, 5}, [](int64_t i) { return i + 1; });
  Expectation valid = Eval(PatchOpCase(row, {1, 2}, {1, 1}, {1, r}, "valid"));
  EXPECT_EQ(valid.kind, ExpectationKind::kValid);
  EXPECT_EQ(valid.output_shape, (Shape{1, 2, 1, 0}));
  for (const char* pad : {"same_upper", "same_lower"}) {
    Expectation same = Eval(PatchOpCase(row, {1, 2}, {1, 1}, {1, r}, pad));
    EXPECT_EQ(same.kind, ExpectationKind::kValid) << pad;
    ASSERT_TRUE(same.output.has_value()) << pad;
    EXPECT_EQ(same.output_shape, (Shape{1, 2, 1, 5})) << pad;
    EXPECT_EQ(Values(*same.output), std::vector<int64_t>(10, 0)) << pad;
  }
  // The effective patch size itself above 2^63-1 stays must_reject: 2^62 * (3 - 1) + 1.
  EXPECT_EQ(RuleOf(PatchOpCase(row, {1, 3}, {1, 1}, {1, int64_t{1} << 62}, "valid")),
            "eip.output.representable");
}

// D5: u4 packs its first element in the low nibble (OpenVINO's C++ core), not the high one.
TEST(Errata, D5_U4LowNibbleFirst) {
  Tensor t = *MakeTensor(ElementType::kU4, {2}, [](int64_t i) { return i == 0 ? 0x7 : 0x8; });
  EXPECT_EQ(t.bytes, (std::vector<uint8_t>{0x87}));
  // The u3 example of docs/element-types.md: low bits 01 10 11 00 01 10 11 00 -> 0x6C 0x6C,
  // high bits 0 0 0 1 1 1 1 0 -> 0x1E.
  Tensor u3 = *MakeTensor(ElementType::kU3, {8}, [](int64_t i) { return (i + 1) % 8; });
  EXPECT_EQ(u3.bytes, (std::vector<uint8_t>{0x6C, 0x6C, 0x1E}));
}

// D6: must_reject rules decide before unspecified ones, and every broken rule is listed.
TEST(Errata, D6_MustRejectBeforeUnspecified) {
  absl::StatusOr<Validation> v = Validate(BlockOpCase(
      Op::kSpaceToBatch, Tensor{ElementType::kF32, {1, 5}, {}}, {2, 2}, {0, 0}, {0, 0}));
  ASSERT_TRUE(v.ok());
  ASSERT_EQ(v->violations.size(), 2u);
  EXPECT_EQ(v->violations[0].rule->id, "s2b.block_shape.divides");
  EXPECT_EQ(v->violations[1].rule->id, "s2b.block_shape.batch_one");
  EXPECT_EQ(v->kind(), ExpectationKind::kMustReject);
}

// D7: zero-sized tensors are valid where the formulas allow them: empty outputs.
TEST(Errata, D7_ZeroSizedTensorsAreValid) {
  Expectation a = Eval(DepthOpCase(Op::kDepthToSpace, Tensor{ElementType::kF32, {1, 0, 3, 3}, {}},
                                   int64_t{1} << 31, "blocks_first"));
  EXPECT_EQ(a.kind, ExpectationKind::kValid);
  EXPECT_EQ(a.output->shape, (Shape{1, 0, int64_t{3} << 31, int64_t{3} << 31}));
  Expectation b = Eval(BlockOpCase(Op::kBatchToSpace, Tensor{ElementType::kF32, {0, 2, 2}, {}},
                                   {1, 2, 2}, {0, 0, 0}, {0, 0, 0}));
  EXPECT_EQ(b.kind, ExpectationKind::kValid);
  EXPECT_EQ(b.output->shape, (Shape{0, 4, 4}));
}

// D8: the oracle never builds an output above its memory limit: a valid but giant case is
// refused with case.output.too_large (a limit of the oracle, not a verdict on a backend).
TEST(Errata, D8_OracleMemoryLimit) {
  OpCase c = BlockOpCase(Op::kSpaceToBatch, Iota(ElementType::kF32, {1, 2}), {1, 1}, {0, 0},
                         {0, int64_t{1} << 40});
  absl::StatusOr<Validation> v = Validate(c);
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->kind(), ExpectationKind::kValid);
  absl::StatusOr<Expectation> e = Evaluate(c);
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.status().message().substr(0, 21), "case.output.too_large");
}

}  // namespace
}  // namespace dmconf
