// Round trips through the literal oracle, on deterministic grids and every element type:
//   DepthToSpace(SpaceToDepth(x)) == x and SpaceToDepth(DepthToSpace(x)) == x, each mode;
//   BatchToSpace(SpaceToBatch(x)) == x with crops equal to the pads;
//   SpaceToBatch(BatchToSpace(x)) == x with no crops.
#include "conformance/oracle/case_builders.h"
#include "conformance/oracle/case_grids.h"
#include "gtest/gtest.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

using testing::Describe;
using testing::ValidGrid;

Tensor Oracle(const OpCase& c) {
  absl::StatusOr<Expectation> e = Evaluate(c);
  EXPECT_TRUE(e.ok()) << Describe(c) << ": " << e.status();
  if (!e.ok()) return {};
  EXPECT_EQ(e->kind, ExpectationKind::kValid) << Describe(c) << ": " << e->message;
  return e->output.value_or(Tensor{});
}

// The inverse op of a depth case: same block_size and mode, the output as data.
OpCase DepthInverse(const OpCase& c, Tensor y) {
  OpCase inv = c;
  inv.op = c.op == Op::kSpaceToDepth ? Op::kDepthToSpace : Op::kSpaceToDepth;
  inv.data = std::move(y);
  return inv;
}

TEST(RoundTrip, DepthOpsInvertEachOtherInEachMode) {
  int trips = 0;
  for (ElementType t : AllElementTypes()) {
    for (Op op : {Op::kSpaceToDepth, Op::kDepthToSpace}) {
      for (const OpCase& c : ValidGrid(op, t, 30)) {
        const Tensor back = Oracle(DepthInverse(c, Oracle(c)));
        ASSERT_TRUE(back == c.data) << "inverse after " << Describe(c);
        ++trips;
      }
    }
  }
  EXPECT_EQ(trips, 24 * 2 * 30);
}

TEST(RoundTrip, BatchToSpaceWithCropsEqualToThePadsUndoesSpaceToBatch) {
  for (ElementType t : AllElementTypes()) {
    for (const OpCase& c : ValidGrid(Op::kSpaceToBatch, t, 30)) {
      OpCase inv = c;
      inv.op = Op::kBatchToSpace;
      inv.data = Oracle(c);  // crops_begin = pads_begin, crops_end = pads_end (same tensors)
      ASSERT_TRUE(Oracle(inv) == c.data) << "BatchToSpace after " << Describe(c);
    }
  }
}

TEST(RoundTrip, SpaceToBatchUndoesBatchToSpaceWithoutCrops) {
  for (ElementType t : AllElementTypes()) {
    for (OpCase c : ValidGrid(Op::kBatchToSpace, t, 30)) {
      c.int_inputs[1] =
          *MakeIntegerTensor(ElementType::kI64, std::vector<int64_t>(c.data.shape.size(), 0));
      c.int_inputs[2] = c.int_inputs[1];
      OpCase inv = c;
      inv.op = Op::kSpaceToBatch;
      inv.data = Oracle(c);
      ASSERT_TRUE(Oracle(inv) == c.data) << "SpaceToBatch after " << Describe(c);
    }
  }
}

// The round trip is not vacuous: undoing one mode with the other changes the data whenever
// there is more than one channel and a block above 1.
TEST(RoundTrip, MixedModesDoNotInvert) {
  OpCase c = testing::DepthCase(
      Op::kSpaceToDepth, testing::Pattern(ElementType::kI32, {1, 2, 4, 4}), 2, "blocks_first");
  OpCase inv = DepthInverse(c, Oracle(c));
  inv.mode = "depth_first";
  EXPECT_FALSE(Oracle(inv) == c.data);
}

}  // namespace
}  // namespace dmconf
