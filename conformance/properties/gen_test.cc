// The case builders and the seeded-PRNG driver: valid cases are valid, each negative case
// breaks exactly its rule (its twin passes), the overflow lane never crashes the oracle, and a
// seeded sweep hits every declared equivalence class.
#include <iostream>
#include <limits>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "harness/gen/builders.h"
#include "harness/gen/generate.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

TEST(SeededChooser, SameSeedSameAnswers) {
  SeededChooser a(123), b(123), c(124);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const int64_t x = a.Int(0, 1000);
    EXPECT_EQ(x, b.Int(0, 1000));
    differs = differs || x != c.Int(0, 1000);
  }
  EXPECT_TRUE(differs);
}

TEST(SeededChooser, StaysInRangeAndReachesBothEnds) {
  SeededChooser ch(5);
  bool lo = false, hi = false;
  for (int i = 0; i < 1000; ++i) {
    const int64_t x = ch.Int(-3, 3);
    ASSERT_GE(x, -3);
    ASSERT_LE(x, 3);
    lo = lo || x == -3;
    hi = hi || x == 3;
  }
  EXPECT_TRUE(lo && hi);
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  ch.Int(kMin, kMax);  // the full range is allowed
  EXPECT_EQ(ch.Int(7, 7), 7);
  EXPECT_GE(ch.Int(kMax - 1, kMax), kMax - 1);
}

TEST(SeededCase, IsReproducibleFromSeedAndIndex) {
  for (uint64_t i = 0; i < 50; ++i) {
    GeneratedCase a = SeededCase(9, i), b = SeededCase(9, i);
    EXPECT_EQ(a.c.id, b.c.id);
    EXPECT_EQ(a.c.data, b.c.data);
    EXPECT_EQ(AttributesToString(a.c), AttributesToString(b.c));
  }
}

class ValidBuilder : public ::testing::TestWithParam<Op> {};

TEST_P(ValidBuilder, EveryCaseIsValidAndWithinBudget) {
  BuildOptions o;
  for (uint64_t seed = 0; seed < 1500; ++seed) {
    SeededChooser ch(MixSeed(1000 + static_cast<uint64_t>(GetParam()), seed));
    OpCase c = BuildValidCase(ch, GetParam(), o);
    absl::StatusOr<Validation> v = Validate(c);
    ASSERT_TRUE(v.ok()) << v.status();
    ASSERT_TRUE(v->violations.empty())
        << "seed " << seed << ": " << v->violations[0].message << " shape "
        << ShapeToString(c.data.shape) << " " << AttributesToString(c);
    EXPECT_LE(c.data.NumElements(), o.max_elements);
    EXPECT_LE(*NumElements(v->output_shape), o.max_elements) << AttributesToString(c);
    if (seed % 10 == 0) {
      absl::StatusOr<Expectation> e = Evaluate(c);
      ASSERT_TRUE(e.ok()) << e.status();
      EXPECT_EQ(e->output->shape, v->output_shape);
    }
  }
}

// The batch of the block ops (BatchToSpace's input, SpaceToBatch's output) is the batch times
// prod(block_shape): it stays within the element budget too, zero-sized dims or not (a
// zero dim once let the later block values multiply past 2^63-1: a fuzz_infer finding).
TEST(ValidBuilder, BlockOpBatchWithinBudget) {
  BuildOptions o;
  o.with_data = false;
  for (Op op : {Op::kSpaceToBatch, Op::kBatchToSpace}) {
    for (uint64_t seed = 0; seed < 20000; ++seed) {
      SeededChooser ch(MixSeed(77 + static_cast<uint64_t>(op), seed));
      const OpCase c = BuildValidCase(ch, op, o);
      absl::StatusOr<Validation> v = Validate(c);
      ASSERT_TRUE(v.ok() && v->violations.empty()) << OpName(op) << " seed " << seed;
      const int64_t batch = op == Op::kBatchToSpace ? c.data.shape[0] : v->output_shape[0];
      ASSERT_LE(batch, o.max_elements)
          << OpName(op) << " seed " << seed << " " << ShapeToString(c.data.shape) << " "
          << AttributesToString(c);
    }
  }
}

TEST_P(ValidBuilder, OptionsAreHonoured) {
  BuildOptions o;
  o.data_types = {ElementType::kU4, ElementType::kF16};
  o.zero_size = false;
  o.max_elements = 256;
  o.min_rank = 4;
  o.max_rank = 4;
  o.modes = {"depth_first", "same_lower"};
  for (uint64_t seed = 0; seed < 300; ++seed) {
    SeededChooser ch(seed);
    OpCase c = BuildValidCase(ch, GetParam(), o);
    EXPECT_TRUE(c.data.type == ElementType::kU4 || c.data.type == ElementType::kF16);
    EXPECT_EQ(c.data.shape.size(), 4u);
    EXPECT_GT(c.data.NumElements(), 0) << ShapeToString(c.data.shape);
    EXPECT_LE(c.data.NumElements(), 256);
    if (c.mode) {
      EXPECT_EQ(*c.mode, "depth_first");
    }
    if (c.auto_pad) {
      EXPECT_EQ(*c.auto_pad, "same_lower");
    }
    absl::StatusOr<Validation> v = Validate(c);
    ASSERT_TRUE(v.ok());
    EXPECT_TRUE(v->violations.empty());
  }
}

INSTANTIATE_TEST_SUITE_P(AllOps, ValidBuilder, ::testing::ValuesIn(AllOps()),
                         [](const ::testing::TestParamInfo<Op>& p) {
                           return std::string(OpPrefix(p.param));
                         });

TEST(NegativeBuilder, EveryRuleIsBreakableExceptParseLevelOnes) {
  for (const Rule& r : AllRules()) {
    const bool parse_level = r.id == "case.op.known" || r.id == "case.element_type.known" ||
                             r.id == "case.tensor.integer_values" ||
                             r.id == "case.tensor.too_large" || r.id == "case.output.too_large" ||
                             r.id == "case.partial.not_static";
    EXPECT_EQ(CanBreak(r), !parse_level) << r.id;
  }
}

TEST(NegativeBuilder, BreaksExactlyTheRuleAndTheTwinPasses) {
  for (const Rule* r : BreakableRules()) {
    for (uint64_t seed = 0; seed < 60; ++seed) {
      SeededChooser ch(MixSeed(seed, 77));
      absl::StatusOr<NegativeCase> n = BuildNegativeCase(ch, *r);
      ASSERT_TRUE(n.ok()) << n.status();
      absl::Status s = CheckNegativeCase(*n);
      ASSERT_TRUE(s.ok()) << r->id << " seed " << seed << ": " << s.message() << "\n  shape "
                          << ShapeToString(n->broken.data.shape) << " "
                          << AttributesToString(n->broken);
    }
  }
}

TEST(NegativeBuilder, RefusesParseLevelRules) {
  SeededChooser ch(1);
  EXPECT_FALSE(BuildNegativeCase(ch, *FindRule("case.op.known")).ok());
}

TEST(OverflowLane, TinyDataAndTheOracleAnswers) {
  for (Op op : AllOps()) {
    for (uint64_t seed = 0; seed < 400; ++seed) {
      SeededChooser ch(MixSeed(seed, 5 + static_cast<uint64_t>(op)));
      OpCase c = BuildOverflowCase(ch, op);
      EXPECT_LE(c.data.bytes.size(), 64u * 8u);
      // Either a verdict or a case-level error; never a crash (ASan/UBSan builds check more).
      absl::StatusOr<Expectation> e = Evaluate(c, EvalOptions{int64_t{1} << 20});
      if (!e.ok()) {
        EXPECT_TRUE(absl::StartsWith(e.status().message(), "case.")) << e.status();
      }
    }
  }
}

TEST(SeededDriver, HitsEveryDeclaredClass) {
  ClassCounter counts;
  for (uint64_t i = 0; i < 6000; ++i) counts.Add(SeededCase(2024, i));
  std::cout << counts.Report();
  EXPECT_TRUE(counts.Missing().empty())
      << "missing: " << counts.Missing().size() << " e.g. " << counts.Missing()[0];
}

}  // namespace
}  // namespace dmconf
