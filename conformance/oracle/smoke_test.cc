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

}  // namespace
}  // namespace dmconf
