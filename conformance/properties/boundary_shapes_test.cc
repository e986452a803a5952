// The boundary shape cases (harness/gen/boundary_shapes.h): each static pair member breaks or
// holds the rule written beside it in the table (from the specification, not from the oracle),
// and the oracle agrees; every form contains its static case, and the ids are unique.
#include "harness/gen/boundary_shapes.h"

#include <set>
#include <string>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "oracle/partial/partial_infer.h"

namespace dmconf {
namespace {

TEST(BoundaryShapeCases, EachPairBreaksOrHoldsItsRuleAsTheTableSays) {
  const std::vector<BoundaryCase>& cases = BoundaryCases();
  ASSERT_GE(cases.size(), 80u);
  for (const BoundaryCase& b : cases) {
    SCOPED_TRACE(b.rule + " " + b.values);
    absl::StatusOr<PartialResult> r = InferPartialShape(PartialCase::FromStatic(b.c));
    ASSERT_TRUE(r.ok()) << r.status();
    if (b.breaks) {
      ASSERT_EQ(r->kind, PartialKind::kMustReject) << r->output.ToString();
      EXPECT_EQ(r->rule->id, b.rule) << r->message;
    } else {
      EXPECT_EQ(r->kind, PartialKind::kShape) << (r->rule ? r->rule->id : "");
    }
  }
}

// Each op's boundary rules have a breaking case and a holding twin.
TEST(BoundaryShapeCases, EveryRuleHasABreakingCaseAndAHoldingTwin) {
  std::set<std::string> breaking, holding;
  for (const BoundaryCase& b : BoundaryCases()) (b.breaks ? breaking : holding).insert(b.rule);
  for (const char* rule : {"s2b.block_shape.divides",
                           "s2b.output.representable",
                           "s2b.block_shape.positive",
                           "b2s.batch.divisible",
                           "b2s.crops.fit",
                           "b2s.output.representable",
                           "s2d.block_size.divides",
                           "s2d.output.representable",
                           "s2d.block_size.positive",
                           "d2s.block_size.divides",
                           "d2s.output.representable",
                           "d2s.block_size.positive",
                           "eip.output.representable",
                           "eip.sizes.nonnegative",
                           "s2b.data.rank",
                           "s2b.inputs.shape",
                           "b2s.data.rank",
                           "b2s.inputs.shape",
                           "s2d.data.rank",
                           "d2s.data.rank",
                           "eip.data.rank"}) {
    EXPECT_TRUE(breaking.count(rule)) << rule;
    EXPECT_TRUE(holding.count(rule)) << rule;
  }
}

// The wrapping cases: the product each one is about, recomputed here in 128 bits from the
// case's own values, is at least 2^64, and below 2^32 modulo 2^64 (0 or small: what wrapping
// code would answer).
TEST(BoundaryShapeCases, WrappingProductsPass2To64AndWrapToSmallValues) {
  int wrapping = 0, to_zero = 0;
  for (const BoundaryCase& b : BoundaryCases()) {
    if (!b.wraps) continue;
    SCOPED_TRACE(b.rule + " " + b.values);
    ++wrapping;
    const OpCase& c = b.c;
    const Shape& d = c.data.shape;
    using U = unsigned __int128;
    U p = 1;
    switch (c.op) {
      case Op::kSpaceToBatch:  // batch * prod(block_shape)
      case Op::kBatchToSpace:  // prod(block_shape)
        if (c.op == Op::kSpaceToBatch) p = static_cast<U>(d[0]);
        for (int64_t i = 0; i < c.int_inputs[0].NumElements(); ++i) {
          p *= static_cast<U>(*c.int_inputs[0].GetInteger(i));
        }
        break;
      case Op::kDepthToSpace:  // block_size^K
      case Op::kSpaceToDepth:  // depth * block_size^K, K = rank - 2
        p = c.op == Op::kSpaceToDepth ? static_cast<U>(d[1]) : 1;
        for (size_t k = 2; k < d.size(); ++k) p *= static_cast<U>(*c.block_size);
        break;
      case Op::kExtractImagePatches:  // size_rows * size_cols * depth
        p = static_cast<U>(c.sizes[0]) * static_cast<U>(c.sizes[1]) * static_cast<U>(d[1]);
        break;
    }
    EXPECT_GE(p, static_cast<U>(1) << 64);
    EXPECT_LT(static_cast<uint64_t>(p), uint64_t{1} << 32) << "the product modulo 2^64";
    to_zero += static_cast<uint64_t>(p) == 0;
    EXPECT_TRUE(b.breaks);
  }
  EXPECT_GE(wrapping, 15);
  EXPECT_GE(to_zero, 9);  // one or more per op
}

TEST(BoundaryShapeCases, EveryFormHoldsItsStaticCaseAndIdsAreUnique) {
  const std::vector<ShapeCase> cases = BoundaryShapeCases();
  const std::vector<BoundaryCase>& pairs = BoundaryCases();
  EXPECT_GE(cases.size(), 4 * pairs.size());
  std::set<std::string> ids;
  for (const ShapeCase& s : cases) {
    SCOPED_TRACE(s.id);
    EXPECT_TRUE(ids.insert(s.id).second);
    ASSERT_TRUE(absl::StartsWith(s.id, "shape-boundary/"));
    const size_t at = s.origin.find("case ") + 5;
    const size_t index = std::stoul(s.origin.substr(at));
    ASSERT_LT(index, pairs.size());
    EXPECT_TRUE(s.c.data.Contains(pairs[index].c.data.shape));
    EXPECT_EQ(s.c.op, pairs[index].c.op);
  }
}

}  // namespace
}  // namespace dmconf
