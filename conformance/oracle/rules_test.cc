// Every rule of the rule table (oracle/rules.h) has a test here:
// - must_reject and unspecified rules: a hand-built case that breaks exactly that rule (Validate
//   reports that one rule, with the rule's kind) beside its passing twin (the same case with the
//   one change undone, which is valid);
// - malformed (case.*) rules: a case that gives an absl::Status error starting with the id.
// A rule added to the table without a case here fails RulesTest.EveryRuleHasACase.
#include "oracle/rules.h"

#include <functional>
#include <map>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "conformance/oracle/case_builders.h"
#include "gtest/gtest.h"
#include "oracle/oracle.h"
#include "oracle/partial/partial_infer.h"

namespace dmconf {
namespace {

using testing::BlockCase;
using testing::DepthCase;
using testing::IntegerBits;
using testing::PatchCase;

constexpr int64_t kBig = int64_t{1} << 62;

Tensor F32(const Shape& s) { return *Tensor::Zeros(ElementType::kF32, s); }

// ---- Base cases (valid) and one-change variants ----

OpCase S2B(const Shape& d = {2, 4, 6}, const std::vector<int64_t>& block = {1, 2, 3},
           const std::vector<int64_t>& pb = {0, 0, 0}, const std::vector<int64_t>& pe = {0, 0, 0}) {
  return BlockCase(Op::kSpaceToBatch, F32(d), block, pb, pe);
}
OpCase B2S(const Shape& d = {12, 2, 3}, const std::vector<int64_t>& block = {1, 2, 3},
           const std::vector<int64_t>& cb = {0, 0, 0}, const std::vector<int64_t>& ce = {0, 0, 0}) {
  return BlockCase(Op::kBatchToSpace, F32(d), block, cb, ce);
}
OpCase S2D(const Shape& d = {1, 2, 4, 6}, std::optional<int64_t> b = 2,
           std::optional<std::string> mode = "blocks_first") {
  return DepthCase(Op::kSpaceToDepth, F32(d), b, mode);
}
OpCase D2S(const Shape& d = {1, 8, 2, 3}, std::optional<int64_t> b = 2,
           std::optional<std::string> mode = "depth_first") {
  return DepthCase(Op::kDepthToSpace, F32(d), b, mode);
}
OpCase EIP(const Shape& d = {1, 2, 5, 5}, std::vector<int64_t> sizes = {2, 2},
           std::vector<int64_t> strides = {1, 1}, std::vector<int64_t> rates = {1, 1},
           std::optional<std::string> pad = "valid") {
  return PatchCase(F32(d), std::move(sizes), std::move(strides), std::move(rates), pad);
}
OpCase WithInputType(OpCase c, size_t k, ElementType t) {
  std::vector<uint64_t> bits;
  for (int64_t i = 0; i < c.int_inputs[k].NumElements(); ++i)
    bits.push_back(c.int_inputs[k].GetBits(i));
  c.int_inputs[k] = IntegerBits(t, bits);
  return c;
}

struct Pair {
  std::function<OpCase()> negative, twin;
};

const std::map<std::string, Pair>& RuleCases() {
  static const auto* cases = new std::map<std::string, Pair>{
      // SpaceToBatch-2
      {"s2b.data.rank",
       {[] { return S2B({4}, {1}, {0}, {0}); },
        [] {
          return S2B({4, 1}, {1, 1}, {0, 0}, {0, 0});
        }}},
      {"s2b.inputs.integer_type",
       {[] { return WithInputType(S2B(), 0, ElementType::kBoolean); },
        [] { return WithInputType(S2B(), 0, ElementType::kU8); }}},
      {"s2b.inputs.shape",
       {[] {
          return S2B({2, 4, 6}, {1, 2, 3}, {0, 0}, {0, 0, 0});
        },
        [] { return S2B(); }}},
      {"s2b.block_shape.positive",
       {[] {
          return S2B({2, 4, 6}, {1, 0, 3});
        },
        [] { return S2B(); }}},
      {"s2b.pads_begin.nonnegative",
       {[] {
          return S2B({2, 4, 6}, {1, 2, 3}, {0, -2, 0}, {0, 2, 0});
        },
        [] {
          return S2B({2, 4, 6}, {1, 2, 3}, {0, 2, 0}, {0, 2, 0});
        }}},
      {"s2b.pads_end.nonnegative",
       {[] {
          return S2B({2, 4, 6}, {1, 2, 3}, {0, 0, 3}, {0, 0, -3});
        },
        [] {
          return S2B({2, 4, 6}, {1, 2, 3}, {0, 0, 3}, {0, 0, 3});
        }}},
      {"s2b.block_shape.divides",
       {[] {
          return S2B({2, 4, 6}, {1, 2, 3}, {0, 0, 0}, {0, 1, 0});
        },
        [] {
          return S2B({2, 4, 6}, {1, 2, 3}, {0, 0, 0}, {0, 2, 0});
        }}},
      {"s2b.output.representable",
       {[] {
          return S2B({2, 4, 6}, {1, 1, 3}, {0, INT64_MAX, 0}, {0, 0, 0});
        },
        [] {
          return S2B({2, 4, 6}, {1, 1, 3}, {0, 0, 0}, {0, 0, 0});
        }}},
      {"s2b.block_shape.batch_one",
       {[] {
          return S2B({2, 4, 6}, {2, 2, 3});
        },
        [] { return S2B(); }}},
      {"s2b.pads_begin.batch_zero",
       {[] {
          return S2B({2, 4, 6}, {1, 2, 3}, {1, 0, 0});
        },
        [] { return S2B(); }}},
      {"s2b.pads_end.batch_zero",
       {[] {
          return S2B({2, 4, 6}, {1, 2, 3}, {0, 0, 0}, {1, 0, 0});
        },
        [] { return S2B(); }}},
      // BatchToSpace-2
      {"b2s.data.rank",
       {[] { return B2S({4}, {1}, {0}, {0}); },
        [] {
          return B2S({4, 1}, {1, 1}, {0, 0}, {0, 0});
        }}},
      {"b2s.inputs.integer_type",
       {[] {
          OpCase c = B2S();
          for (size_t k = 0; k < 3; ++k)
            c = WithInputType(c, k, k == 0 ? ElementType::kBoolean : ElementType::kU8);
          return c;
        },
        [] {
          OpCase c = B2S();
          for (size_t k = 0; k < 3; ++k) c = WithInputType(c, k, ElementType::kU8);
          return c;
        }}},
      {"b2s.inputs.same_type",
       {[] { return WithInputType(B2S(), 1, ElementType::kI32); }, [] { return B2S(); }}},
      {"b2s.inputs.shape",
       {[] {
          return B2S({12, 2, 3}, {1, 2, 3}, {0, 0, 0}, {0, 0, 0, 0});
        },
        [] { return B2S(); }}},
      {"b2s.block_shape.positive",
       {[] {
          return B2S({12, 2, 3}, {1, -2, 3});
        },
        [] { return B2S(); }}},
      {"b2s.crops_begin.nonnegative",
       {[] {
          return B2S({12, 2, 3}, {1, 2, 3}, {0, -1, 0});
        },
        [] { return B2S(); }}},
      {"b2s.crops_end.nonnegative",
       {[] {
          return B2S({12, 2, 3}, {1, 2, 3}, {0, 0, 0}, {0, 0, -1});
        },
        [] { return B2S(); }}},
      {"b2s.batch.divisible",
       {[] {
          return B2S({10, 2, 3});
        },
        [] {
          return B2S({12, 2, 3});
        }}},
      {"b2s.crops.fit",
       {[] {
          return B2S({12, 2, 3}, {1, 2, 3}, {0, 3, 0}, {0, 2, 0});
        },
        [] {
          return B2S({12, 2, 3}, {1, 2, 3}, {0, 2, 0}, {0, 2, 0});
        }}},  // 4 <= 2 * 2
      {"b2s.output.representable",
       {[] {
          return B2S({12, 2, 3}, {1, kBig, 4});
        },
        [] {
          return B2S({12, 2, 3}, {1, 2, 3});
        }}},
      {"b2s.block_shape.batch_one",
       {[] {
          return B2S({24, 2, 3}, {2, 2, 3});
        },
        [] {
          return B2S({24, 2, 3}, {1, 2, 3});
        }}},
      {"b2s.crops_begin.batch_zero",
       {[] {
          return B2S({12, 2, 3}, {1, 2, 3}, {1, 0, 0});
        },
        [] { return B2S(); }}},
      {"b2s.crops_end.batch_zero",
       {[] {
          return B2S({12, 2, 3}, {1, 2, 3}, {0, 0, 0}, {1, 0, 0});
        },
        [] { return B2S(); }}},
      // SpaceToDepth-1
      {"s2d.data.rank",
       {[] {
          return S2D({2, 4});
        },
        [] {
          return S2D({2, 4, 2});
        }}},
      {"s2d.block_size.positive",
       {[] {
          return S2D({1, 2, 4, 6}, 0);
        },
        [] { return S2D(); }}},
      {"s2d.mode.required",
       {[] {
          return S2D({1, 2, 4, 6}, 2, std::nullopt);
        },
        [] { return S2D(); }}},
      {"s2d.mode.enum",
       {[] {
          return S2D({1, 2, 4, 6}, 2, "blocks-first");
        },
        [] { return S2D(); }}},
      {"s2d.block_size.divides",
       {[] {
          return S2D({1, 2, 4, 5});
        },
        [] {
          return S2D({1, 2, 4, 6});
        }}},
      {"s2d.output.representable",
       {[] {
          return S2D({0, kBig, 2, 2});
        },
        [] {
          return S2D({0, kBig / 4, 2, 2});
        }}},
      // DepthToSpace-1
      {"d2s.data.rank",
       {[] {
          return D2S({2, 4});
        },
        [] {
          return D2S({2, 4, 2});
        }}},
      {"d2s.block_size.positive",
       {[] {
          return D2S({1, 8, 2, 3}, -1);
        },
        [] { return D2S(); }}},
      {"d2s.mode.required",
       {[] {
          return D2S({1, 8, 2, 3}, 2, std::nullopt);
        },
        [] { return D2S(); }}},
      {"d2s.mode.enum",
       {[] {
          return D2S({1, 8, 2, 3}, 2, "DEPTH_FIRST");
        },
        [] { return D2S(); }}},
      {"d2s.block_size.divides",
       {[] {
          return D2S({1, 6, 2, 3});
        },
        [] {
          return D2S({1, 8, 2, 3});
        }}},
      {"d2s.output.representable",
       {[] {
          return D2S({0, 4, kBig, 1});
        },
        [] {
          return D2S({0, 4, kBig / 2, 1});
        }}},
      // ExtractImagePatches-3
      {"eip.data.rank",
       {[] {
          return EIP({2, 5, 5});
        },
        [] {
          return EIP({1, 2, 5, 5});
        }}},
      {"eip.sizes.length",
       {[] {
          return EIP({1, 2, 5, 5}, {2});
        },
        [] { return EIP(); }}},
      {"eip.strides.length",
       {[] {
          return EIP({1, 2, 5, 5}, {2, 2}, {1, 1, 1});
        },
        [] { return EIP(); }}},
      {"eip.rates.length",
       {[] {
          return EIP({1, 2, 5, 5}, {2, 2}, {1, 1}, {});
        },
        [] { return EIP(); }}},
      {"eip.sizes.nonnegative",
       {[] {
          return EIP({1, 2, 5, 5}, {-1, 2});
        },
        [] { return EIP(); }}},
      {"eip.strides.positive",
       {[] {
          return EIP({1, 2, 5, 5}, {2, 2}, {0, 1});
        },
        [] { return EIP(); }}},
      {"eip.rates.positive",
       {[] {
          return EIP({1, 2, 5, 5}, {2, 2}, {1, 1}, {1, 0});
        },
        [] { return EIP(); }}},
      {"eip.auto_pad.required",
       {[] {
          return EIP({1, 2, 5, 5}, {2, 2}, {1, 1}, {1, 1}, std::nullopt);
        },
        [] { return EIP(); }}},
      {"eip.auto_pad.enum",
       {[] {
          return EIP({1, 2, 5, 5}, {2, 2}, {1, 1}, {1, 1}, "SAME_UPPER");
        },
        [] { return EIP(); }}},
      {"eip.output.representable",
       {[] {
          return EIP({1, 2, 5, 5}, {3, 2}, {1, 1}, {kBig, 1});
        },
        [] {
          return EIP({1, 2, 5, 5}, {3, 2}, {1, 1}, {1, 1});
        }}},
      {"eip.sizes.zero",
       {[] {
          return EIP({1, 2, 5, 5}, {0, 2});
        },
        [] {
          return EIP({1, 2, 5, 5}, {1, 2});
        }}},
  };
  return *cases;
}

// Malformed rules: a call that must fail with a status whose message starts with the id.
const std::map<std::string, std::function<absl::Status()>>& MalformedCases() {
  static const auto* cases = new std::map<std::string, std::function<absl::Status()>>{
      {"case.op.known", [] { return ParseOp("SpaceToBatch-1").status(); }},
      {"case.element_type.known", [] { return ParseElementType("f128").status(); }},
      {"case.tensor.dims_nonnegative",
       [] {
         OpCase c = S2D();
         c.data.shape = {1, 2, -4, 6};
         return Validate(c).status();
       }},
      {"case.tensor.size_representable",
       [] {
         OpCase c = S2D();
         c.data.shape = {kBig, 2, 4, 6};
         return Validate(c).status();
       }},
      {"case.tensor.byte_size",
       [] {
         OpCase c = S2D();
         c.data.bytes.pop_back();
         return Evaluate(c).status();
       }},
      {"case.tensor.integer_values",
       [] {
         return MakeIntegerTensor(ElementType::kU8, {1, 256}).status();
       }},
      {"case.tensor.too_large",
       [] { return Tensor::Zeros(ElementType::kF32, {int64_t{1} << 40}).status(); }},
      {"case.inputs.count",
       [] {
         OpCase c = S2B();
         c.int_inputs.pop_back();
         return Validate(c).status();
       }},
      {"case.partial.not_static",
       [] {
         PartialCase p;
         p.op = Op::kSpaceToDepth;
         p.data = PartialShape::Of({Dim::Exact(1), Dim::Range(1, 2), Dim::Exact(2)});
         return p.ToShapeOnlyCase().status();
       }},
      {"case.output.too_large",
       [] {
         EvalOptions o;
         o.max_bytes = 64;
         return Evaluate(S2B(), o).status();  // 48 f32 = 192 bytes
       }},
  };
  return *cases;
}

TEST(RulesTest, EveryRuleHasACase) {
  for (const Rule& r : AllRules()) {
    const std::string id(r.id);
    if (r.kind == RuleKind::kMalformed) {
      EXPECT_EQ(MalformedCases().count(id), 1u) << "no malformed case for rule " << id;
    } else {
      EXPECT_EQ(RuleCases().count(id), 1u) << "no negative case for rule " << id;
    }
  }
  // And no case for a rule that is not in the table.
  for (const auto& [id, pair] : RuleCases()) EXPECT_NE(FindRule(id), nullptr) << id;
  for (const auto& [id, f] : MalformedCases()) EXPECT_NE(FindRule(id), nullptr) << id;
}

class RuleCase : public ::testing::TestWithParam<std::string> {};

TEST_P(RuleCase, BreaksExactlyThisRuleBesideAValidTwin) {
  const Rule* rule = FindRule(GetParam());
  ASSERT_NE(rule, nullptr);
  const Pair& p = RuleCases().at(GetParam());
  const OpCase bad = p.negative();
  ASSERT_EQ(rule->op, bad.op) << "the case is for another op";
  absl::StatusOr<Validation> v = Validate(bad);
  ASSERT_TRUE(v.ok()) << v.status();
  ASSERT_EQ(v->violations.size(), 1u) << testing::Describe(bad) << ": first "
                                      << (v->violations.empty() ? "" : v->violations[0].message);
  EXPECT_EQ(v->violations[0].rule, rule) << v->violations[0].message;
  EXPECT_TRUE(absl::StartsWith(v->violations[0].message, absl::StrCat(rule->id, ": ")))
      << v->violations[0].message;
  const ExpectationKind want = rule->kind == RuleKind::kMustReject ? ExpectationKind::kMustReject
                                                                   : ExpectationKind::kUnspecified;
  EXPECT_EQ(v->kind(), want);
  if (want == ExpectationKind::kMustReject) {
    EXPECT_TRUE(v->output_shape.empty());
  }
  // Evaluate agrees (without evaluating anything for these small, zero-filled cases).
  if (bad.data.Validate("data").ok()) {
    absl::StatusOr<Expectation> e = Evaluate(bad);
    ASSERT_TRUE(e.ok()) << e.status();
    EXPECT_EQ(e->kind, want);
    EXPECT_EQ(e->rule, rule);
    EXPECT_FALSE(e->output.has_value());
  }

  const OpCase good = p.twin();
  absl::StatusOr<Validation> w = Validate(good);
  ASSERT_TRUE(w.ok()) << w.status();
  EXPECT_TRUE(w->violations.empty()) << testing::Describe(good) << ": " << w->violations[0].message;
  EXPECT_EQ(w->kind(), ExpectationKind::kValid);
}

std::vector<std::string> RuleIds(bool malformed) {
  std::vector<std::string> ids;
  for (const Rule& r : AllRules()) {
    if ((r.kind == RuleKind::kMalformed) == malformed) ids.emplace_back(r.id);
  }
  return ids;
}

std::string TestName(const ::testing::TestParamInfo<std::string>& i) {
  std::string s = i.param;
  for (char& ch : s) {
    if (ch == '.') ch = '_';
  }
  return s;
}

INSTANTIATE_TEST_SUITE_P(Rules, RuleCase, ::testing::ValuesIn(RuleIds(false)), TestName);

class MalformedRule : public ::testing::TestWithParam<std::string> {};

TEST_P(MalformedRule, GivesAStatusNamingTheRule) {
  const auto it = MalformedCases().find(GetParam());
  ASSERT_NE(it, MalformedCases().end()) << "no case for " << GetParam();
  const absl::Status s = it->second();
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(absl::StartsWith(s.message(), GetParam() + ": ")) << s;
}

INSTANTIATE_TEST_SUITE_P(Rules, MalformedRule, ::testing::ValuesIn(RuleIds(true)), TestName);

}  // namespace
}  // namespace dmconf
