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
  for (const char* rule :
       {"s2b.block_shape.divides", "s2b.output.representable", "s2b.block_shape.positive",
        "b2s.batch.divisible", "b2s.crops.fit", "b2s.output.representable",
        "s2d.block_size.divides", "s2d.output.representable", "s2d.block_size.positive",
        "d2s.block_size.divides", "d2s.output.representable", "d2s.block_size.positive",
        "eip.output.representable", "eip.sizes.nonnegative"}) {
    EXPECT_TRUE(breaking.count(rule)) << rule;
    EXPECT_TRUE(holding.count(rule)) << rule;
  }
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
