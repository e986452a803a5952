// A first end-to-end check of the oracle on the SpaceToDepth example of the specification,
// with values derived by hand from the blocks_first formula.
#include "gtest/gtest.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

TEST(OracleSmoke, SpaceToDepthBlocksFirst2x2) {
  OpCase c;
  c.op = Op::kSpaceToDepth;
  c.data = *MakeTensor(ElementType::kI32, {1, 1, 2, 2}, [](int64_t i) { return i; });
  c.block_size = 2;
  c.mode = "blocks_first";
  absl::StatusOr<Expectation> e = Evaluate(c);
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_EQ(e->kind, ExpectationKind::kValid);
  // [1,1,2,2] with block 2: each of the 4 pixels becomes one output channel, in (bh, bw) order.
  EXPECT_EQ(e->output->shape, (Shape{1, 4, 1, 1}));
  for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(e->output->GetInteger(i), i);
}

// EvalOptions::with_output = false: the kind, rule and output shape of the whole evaluation,
// no output, and the data's bytes neither read nor required (a case held without them).
TEST(OracleSmoke, WithoutOutputNeedsNoBytes) {
  OpCase c;
  c.op = Op::kSpaceToDepth;
  c.data.type = ElementType::kI32;
  c.data.shape = {1, 3, 4, 6};  // no bytes
  c.block_size = 2;
  c.mode = "depth_first";
  EXPECT_FALSE(Evaluate(c).ok());  // the whole evaluation needs them
  EvalOptions o;
  o.with_output = false;
  absl::StatusOr<Expectation> e = Evaluate(c, o);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->kind, ExpectationKind::kValid);
  // [N, C, H, W] -> [N, C * 4, H / 2, W / 2].
  EXPECT_EQ(e->output_shape, (Shape{1, 12, 2, 3}));
  EXPECT_FALSE(e->output.has_value());
  // A block that does not divide H: must_reject, the same rule with or without the output.
  c.block_size = 3;
  c.data = *MakeTensor(ElementType::kI32, {1, 3, 4, 6}, [](int64_t i) { return i; });
  absl::StatusOr<Expectation> whole = Evaluate(c);
  c.data.bytes.clear();
  absl::StatusOr<Expectation> shape_only = Evaluate(c, o);
  ASSERT_TRUE(whole.ok() && shape_only.ok());
  EXPECT_EQ(whole->kind, ExpectationKind::kMustReject);
  EXPECT_EQ(shape_only->kind, ExpectationKind::kMustReject);
  ASSERT_NE(whole->rule, nullptr);
  EXPECT_EQ(whole->rule, shape_only->rule);
}

}  // namespace
}  // namespace dmconf
