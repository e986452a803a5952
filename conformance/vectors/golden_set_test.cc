// The golden profile: coverage (every op, mode, auto_pad, element type, rank, special value,
// zero-sized tensors, rule pairs), determinism, budget, the spec examples against the spec
// text, and that the checked-in vectors/golden is current.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "harness/io/vector_file.h"
#include "harness/suites/vector_set_files.h"
#include "harness/suites/vector_sets.h"
#include "oracle/rules.h"

namespace dmconf::io {
namespace {

const std::vector<VectorCase>& Golden() {
  static const auto* set = new std::vector<VectorCase>(*BuildProfile("golden", kDefaultSeed));
  return *set;
}

bool Has(const VectorCase& v, const std::string& cls) {
  return std::find(v.classes.begin(), v.classes.end(), cls) != v.classes.end();
}

// Vectors carrying every one of the classes.
int Count(std::initializer_list<std::string> classes) {
  int n = 0;
  for (const VectorCase& v : Golden()) {
    bool all = true;
    for (const std::string& c : classes) all = all && Has(v, c);
    n += all ? 1 : 0;
  }
  return n;
}

const VectorCase* Find(const std::string& id) {
  for (const VectorCase& v : Golden()) {
    if (v.c.id == id) return &v;
  }
  return nullptr;
}

TEST(GoldenSet, EveryOpModeAutoPadAndElementType) {
  for (Op op : AllOps()) {
    const std::string o = absl::StrCat("op:", OpName(op));
    for (ElementType t : AllElementTypes()) {
      const std::string ty = absl::StrCat("type:", ElementTypeName(t));
      if (op == Op::kSpaceToDepth || op == Op::kDepthToSpace) {
        for (const char* m : {"mode:blocks_first", "mode:depth_first"}) {
          EXPECT_GE(Count({o, ty, m, "expect:valid"}), 1) << o << " " << ty << " " << m;
        }
      } else if (op == Op::kExtractImagePatches) {
        for (const char* p : {"auto_pad:valid", "auto_pad:same_upper", "auto_pad:same_lower"}) {
          EXPECT_GE(Count({o, ty, p, "expect:valid"}), 1) << ty << " " << p;
        }
      } else {
        EXPECT_GE(Count({o, ty, "expect:valid"}), 1) << o << " " << ty;
      }
    }
  }
}

TEST(GoldenSet, RanksFromTheMinimumToAtLeastSix) {
  const std::map<Op, std::pair<int, int>> ranks = {{Op::kSpaceToBatch, {2, 6}},
                                                   {Op::kBatchToSpace, {2, 6}},
                                                   {Op::kSpaceToDepth, {3, 6}},
                                                   {Op::kDepthToSpace, {3, 6}},
                                                   {Op::kExtractImagePatches, {4, 4}}};
  for (const auto& [op, range] : ranks) {
    for (int r = range.first; r <= range.second; ++r) {
      EXPECT_GE(Count({absl::StrCat("op:", OpName(op)), absl::StrCat("rank:", r), "expect:valid"}),
                1)
          << OpName(op) << " rank " << r;
    }
  }
}

TEST(GoldenSet, SpecialValuesAndZeroSizedTensors) {
  for (const char* s : {"special:nan", "special:snan", "special:inf", "special:neg_zero",
                        "special:subnormal", "special:int_min", "special:int_max"}) {
    for (Op op : {Op::kSpaceToBatch, Op::kDepthToSpace, Op::kExtractImagePatches}) {
      EXPECT_GE(Count({s, absl::StrCat("op:", OpName(op)), "expect:valid"}), 1)
          << s << " " << OpName(op);
    }
  }
  for (Op op : AllOps()) {
    EXPECT_GE(Count({"zero_sized", absl::StrCat("op:", OpName(op)), "expect:valid"}), 1)
        << OpName(op);
  }
}

TEST(GoldenSet, EveryRuleHasACaseAndAValidTwin) {
  for (const Rule& r : AllRules()) {
    if (r.kind == RuleKind::kMalformed) continue;
    const std::string id(r.id);
    const VectorCase* neg = Find("rule." + id);
    const VectorCase* twin = Find("rule." + id + ".twin");
    ASSERT_NE(neg, nullptr) << id;
    ASSERT_NE(twin, nullptr) << id;
    ASSERT_NE(neg->expected.rule, nullptr) << id;
    EXPECT_EQ(neg->expected.rule->id, r.id);
    EXPECT_EQ(neg->expected.kind, r.kind == RuleKind::kMustReject ? ExpectationKind::kMustReject
                                                                  : ExpectationKind::kUnspecified);
    EXPECT_EQ(twin->expected.kind, ExpectationKind::kValid) << id;
    EXPECT_EQ(neg->c.op, twin->c.op) << id;
    EXPECT_TRUE(Has(*twin, "twin:" + id));
  }
}

TEST(GoldenSet, DeterministicAndWithinBudget) {
  absl::StatusOr<std::vector<VectorCase>> again = BuildProfile("golden", kDefaultSeed);
  ASSERT_TRUE(again.ok());
  ASSERT_EQ(again->size(), Golden().size());
  int64_t bytes = 0;
  std::set<std::string> ids;
  for (size_t i = 0; i < Golden().size(); ++i) {
    const std::string text = SerializeVector(Golden()[i]);
    EXPECT_EQ(text, SerializeVector((*again)[i]));
    bytes += static_cast<int64_t>(text.size());
    EXPECT_TRUE(ids.insert(Golden()[i].c.id).second) << Golden()[i].c.id;
  }
  EXPECT_LT(bytes, 20 << 20);
  // Another seed permutes the special values only: same ids, some files differ.
  absl::StatusOr<std::vector<VectorCase>> other = BuildProfile("golden", 7);
  ASSERT_TRUE(other.ok());
  int differing = 0;
  for (size_t i = 0; i < Golden().size(); ++i) {
    EXPECT_EQ((*other)[i].c.id, Golden()[i].c.id);
    differing += Golden()[i].c.data != (*other)[i].c.data ? 1 : 0;
  }
  EXPECT_GT(differing, 0);
  EXPECT_FALSE(BuildProfile("no-such-profile", 1).ok());
}

// Output shapes stated in the specifications' IR examples (spec/*.md), typed in.
TEST(GoldenSet, SpecExampleShapesMatchTheSpecText) {
  const std::map<std::string, Shape> want = {
      {"spec.s2b.ir_layer", {48, 3, 3, 1, 3}},
      {"spec.b2s.ir_layer", {2, 6, 10, 3, 3}},
      {"spec.s2d.ir_layer.blocks_first", {5, 28, 2, 3}},
      {"spec.s2d.ir_layer.depth_first", {5, 28, 2, 3}},
      {"spec.d2s.ir_layer.blocks_first", {5, 7, 4, 6}},
      {"spec.d2s.ir_layer.depth_first", {5, 7, 4, 6}},
      {"spec.eip.ir_layer", {64, 27, 2, 2}},
  };
  for (const auto& [id, shape] : want) {
    const VectorCase* v = Find(id);
    ASSERT_NE(v, nullptr) << id;
    ASSERT_TRUE(v->expected.output.has_value()) << id;
    EXPECT_EQ(v->expected.output->shape, shape) << id;
    EXPECT_EQ(v->provenance.kind, "spec_example");
  }
}

// ExtractImagePatches worked examples: outputs typed in from ExtractImagePatches-3.md.
TEST(GoldenSet, ExtractImagePatchesExamplesMatchTheSpecText) {
  struct Example {
    const char* id;
    Shape shape;
    std::vector<int64_t> values;
  } examples[] = {
      {"spec.eip.example1", {1, 9, 2, 2}, {1,  6,  51, 56, 2,  7,  52, 57, 3,  8,  53, 58,
                                           11, 16, 61, 66, 12, 17, 62, 67, 13, 18, 63, 68,
                                           21, 26, 71, 76, 22, 27, 72, 77, 23, 28, 73, 78}},
      {"spec.eip.example2",
       {1, 16, 1, 1},
       {1, 2, 3, 4, 11, 12, 13, 14, 21, 22, 23, 24, 31, 32, 33, 34}},
      {"spec.eip.example3",
       {1, 16, 2, 2},
       {0,  0,   0, 89, 0,  0,  81, 90, 0,  0,  82, 0,  0,  0, 83, 0,  0,  9, 0,  99, 1, 10,
        91, 100, 2, 0,  92, 0,  3,  0,  93, 0,  0,  19, 0,  0, 11, 20, 0,  0, 12, 0,  0, 0,
        13, 0,   0, 0,  0,  29, 0,  0,  21, 30, 0,  0,  22, 0, 0,  0,  23, 0, 0,  0}},
      {"spec.eip.example4", {1, 9, 2, 2}, {1,  6,  51, 56, 3,  8,  53, 58, 5,  10, 55, 60,
                                           21, 26, 71, 76, 23, 28, 73, 78, 25, 30, 75, 80,
                                           41, 46, 91, 96, 43, 48, 93, 98, 45, 50, 95, 100}},
      {"spec.eip.example5", {1, 8, 2, 2}, {1,  4,  16, 19, 26, 29, 41, 44, 2,  5,  17,
                                           20, 27, 30, 42, 45, 6,  9,  21, 24, 31, 34,
                                           46, 49, 7,  10, 22, 25, 32, 35, 47, 50}},
  };
  for (const Example& e : examples) {
    const VectorCase* v = Find(e.id);
    ASSERT_NE(v, nullptr) << e.id;
    ASSERT_TRUE(v->expected.output.has_value());
    const Tensor& out = *v->expected.output;
    ASSERT_EQ(out.shape, e.shape) << e.id;
    ASSERT_EQ(out.NumElements(), static_cast<int64_t>(e.values.size()));
    for (size_t i = 0; i < e.values.size(); ++i) {
      const float f = static_cast<float>(e.values[i]);
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      EXPECT_EQ(out.GetBits(static_cast<int64_t>(i)), bits) << e.id << " element " << i;
    }
  }
}

TEST(GoldenSet, CheckedInSetIsCurrent) {
  const std::string dir = std::string(DMCONF_SOURCE_DIR) + "/vectors/golden";
  absl::StatusOr<std::vector<SetFile>> want = RegenerateSet(dir);
  ASSERT_TRUE(want.ok()) << want.status();
  absl::StatusOr<std::vector<std::string>> diffs = CompareSet(dir, *want);
  ASSERT_TRUE(diffs.ok()) << diffs.status();
  EXPECT_TRUE(diffs->empty()) << diffs->size() << " differences, first: " << diffs->front()
                              << " (run scripts/regenerate.sh)";
}

}  // namespace
}  // namespace dmconf::io
