// dmconf-shape-case/1 files (harness/io/shape_case_file.h, docs/shape-case-format.md):
// canonical round trip over the shape sweep, hand-written files read field by field, every
// reader rule with its exact rule id and JSON location, u64 and 2^63-1 exactness, the staleness
// check against the oracle, the schema sniff, and the golden set vectors/shapes.
#include "harness/io/shape_case_file.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "harness/base/files.h"
#include "harness/gen/partial.h"
#include "harness/io/shape_case_verify.h"
#include "harness/io/vector_file.h"

namespace dmconf::io {
namespace {

constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();

// DepthToSpace on [1, [8,20], [3,inf)], block 2, blocks_first: the example of
// oracle/partial/partial_infer.h. Hand derivation (spec: C' = C / block^K, K = 1 spatial dim;
// D' = D * block): C' in [8/2, 20/2] = [4, 10], D' in [3*2, inf) = [6, inf).
constexpr char kD2S[] = R"({
  "schema": "dmconf-shape-case/1",
  "id": "hand.d2s.partial",
  "origin": "hand-written",
  "op": "DepthToSpace",
  "attributes": {
    "block_size": 2,
    "mode": "blocks_first"
  },
  "data": {
    "type": "f32",
    "shape": [
      1,
      [8, 20],
      [3, null]
    ]
  },
  "expected": {
    "kind": "shape",
    "output": [
      1,
      [4, 10],
      [6, null]
    ]
  }
}
)";

// BatchToSpace with a constant i64 block_shape, a constant u64 crops_begin holding 2^64-1, a
// non-constant i32 crops_end of shape [3], a saved failure. (The parse does not consult the
// oracle; the stored answer is only read.)
constexpr char kB2S[] = R"({
  "schema": "dmconf-shape-case/1",
  "id": "hand.b2s.partial",
  "origin": "hand-written",
  "op": "BatchToSpace",
  "attributes": {},
  "data": {
    "type": "f16",
    "shape": [
      [8, 16],
      9223372036854775807,
      [2, null]
    ]
  },
  "inputs": [
    {
      "name": "block_shape",
      "type": "i64",
      "values": [1, 2, 9223372036854775807]
    },
    {
      "name": "crops_begin",
      "type": "u64",
      "values": [0, 18446744073709551615, 1]
    },
    {
      "name": "crops_end",
      "type": "i32",
      "shape": [3]
    }
  ],
  "expected": {
    "kind": "must_reject",
    "rule": "b2s.inputs.same_type"
  },
  "failure": {
    "backend": "mutant:b2s",
    "verdict": "false_accept",
    "detail": "answered [[2,4],[0,6],[0,inf)]"
  }
}
)";

std::string Replace(const std::string& base, absl::string_view from, absl::string_view to) {
  std::string out = absl::StrReplaceAll(base, {{from, to}});
  EXPECT_NE(out, base) << "pattern not found: " << from;
  return out;
}

TEST(ShapeCaseFile, HandWrittenPartialFileReadsFieldByField) {
  absl::StatusOr<ShapeCaseFile> f = ParseShapeCase(kD2S, "d2s.json");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->id, "hand.d2s.partial");
  EXPECT_EQ(f->origin, "hand-written");
  EXPECT_EQ(f->c.op, Op::kDepthToSpace);
  EXPECT_EQ(f->c.type, ElementType::kF32);
  EXPECT_EQ(f->c.block_size, 2);
  EXPECT_EQ(f->c.mode, "blocks_first");
  ASSERT_TRUE(f->c.data.dims.has_value());
  EXPECT_EQ(*f->c.data.dims, (std::vector<Dim>{Dim::Exact(1), Dim::Range(8, 20), Dim::AtLeast(3)}));
  EXPECT_EQ(f->expected.kind, PartialKind::kShape);
  ASSERT_TRUE(f->expected.has_output);
  EXPECT_EQ(*f->expected.output.dims,
            (std::vector<Dim>{Dim::Exact(1), Dim::Range(4, 10), Dim::AtLeast(6)}));
  EXPECT_EQ(f->expected.rule, nullptr);
  EXPECT_TRUE(f->backend.empty() && f->verdict.empty() && f->detail.empty());
  EXPECT_EQ(SerializeShapeCase(*f), kD2S);  // the hand-written text is canonical
}

TEST(ShapeCaseFile, U64AndInt64MaxRoundTripExactly) {
  absl::StatusOr<ShapeCaseFile> f = ParseShapeCase(kB2S, "b2s.json");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->c.op, Op::kBatchToSpace);
  EXPECT_EQ(f->c.type, ElementType::kF16);
  EXPECT_EQ(*f->c.data.dims,
            (std::vector<Dim>{Dim::Range(8, 16), Dim::Exact(kI64Max), Dim::AtLeast(2)}));
  ASSERT_TRUE(f->c.int_inputs[0].has_value());
  EXPECT_EQ(f->c.int_inputs[0]->type, ElementType::kI64);
  EXPECT_EQ(f->c.int_inputs[0]->shape, (Shape{3}));
  EXPECT_EQ(f->c.int_inputs[0]->GetBits(2), uint64_t{0x7fffffffffffffff});
  ASSERT_TRUE(f->c.int_inputs[1].has_value());
  EXPECT_EQ(f->c.int_inputs[1]->type, ElementType::kU64);
  EXPECT_EQ(f->c.int_inputs[1]->GetBits(1), std::numeric_limits<uint64_t>::max());
  EXPECT_EQ(f->c.int_inputs[1]->GetBits(2), 1u);
  EXPECT_FALSE(f->c.int_inputs[2].has_value());
  EXPECT_EQ(f->c.int_types[2], ElementType::kI32);
  EXPECT_EQ(*f->c.int_shapes[2].dims, (std::vector<Dim>{Dim::Exact(3)}));
  EXPECT_EQ(f->expected.kind, PartialKind::kMustReject);
  ASSERT_NE(f->expected.rule, nullptr);
  EXPECT_EQ(f->expected.rule->id, "b2s.inputs.same_type");
  EXPECT_FALSE(f->expected.message.empty());
  EXPECT_EQ(f->backend, "mutant:b2s");
  EXPECT_EQ(f->verdict, "false_accept");
  EXPECT_EQ(f->detail, "answered [[2,4],[0,6],[0,inf)]");
  const std::string back = SerializeShapeCase(*f);
  EXPECT_EQ(back, kB2S);
  EXPECT_NE(back.find("18446744073709551615"), std::string::npos);
  EXPECT_NE(back.find("9223372036854775807,"), std::string::npos);
}

TEST(ShapeCaseFile, ConstantOfAnotherShapeKeepsItsShape) {
  // A 2-D block_shape (a must_reject case of s2b.inputs.shape) and an f32 one keep shape and type.
  const std::string text =
      Replace(Replace(kB2S, "\"values\": [1, 2, 9223372036854775807]",
                      "\"values\": [1, 2, 3, 4],\n      \"shape\": [2, 2]"),
              "\"type\": \"u64\",\n      \"values\": [0, 18446744073709551615, 1]",
              "\"type\": \"f32\",\n      \"values\": [\"0x3f000000\", 0]");
  absl::StatusOr<ShapeCaseFile> f = ParseShapeCase(text, "b2s.json");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(f->c.int_inputs[0]->shape, (Shape{2, 2}));
  EXPECT_EQ(f->c.int_inputs[0]->GetBits(3), 4u);
  EXPECT_EQ(f->c.int_inputs[1]->type, ElementType::kF32);
  EXPECT_EQ(f->c.int_inputs[1]->GetBits(0), 0x3f000000u);  // 0.5
  EXPECT_EQ(SerializeShapeCase(*f), text);
}

TEST(ShapeCaseFile, ConstantsOfAnOpThatTakesNoneAreKept) {
  // A malformed case (case.inputs.count) gives DepthToSpace an integer constant: it is kept,
  // in the first slot, named input_1.
  const std::string text = Replace(kD2S, "  \"expected\": {",
                                   "  \"inputs\": [\n    {\n      \"name\": \"input_1\",\n"
                                   "      \"type\": \"i32\",\n      \"values\": [7]\n    }\n  ],\n"
                                   "  \"expected\": {");
  absl::StatusOr<ShapeCaseFile> f = ParseShapeCase(text, "d2s.json");
  ASSERT_TRUE(f.ok()) << f.status();
  ASSERT_TRUE(f->c.int_inputs[0].has_value());
  EXPECT_EQ(f->c.int_inputs[0]->type, ElementType::kI32);
  EXPECT_EQ(f->c.int_inputs[0]->GetBits(0), 7u);
  EXPECT_FALSE(f->c.int_inputs[1].has_value());
  EXPECT_EQ(SerializeShapeCase(*f), text);
}

// Fields compared one by one (PartialCase has no ==).
void ExpectSameCase(const PartialCase& a, const PartialCase& b, const std::string& what) {
  EXPECT_EQ(a.op, b.op) << what;
  EXPECT_EQ(a.type, b.type) << what;
  EXPECT_EQ(a.data.dims, b.data.dims) << what;
  for (size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(a.int_inputs[k].has_value(), b.int_inputs[k].has_value()) << what;
    if (a.int_inputs[k] && b.int_inputs[k]) {
      EXPECT_TRUE(*a.int_inputs[k] == *b.int_inputs[k]) << what;
    } else if (a.op == Op::kSpaceToBatch || a.op == Op::kBatchToSpace) {
      EXPECT_EQ(a.int_types[k], b.int_types[k]) << what;
      EXPECT_EQ(a.int_shapes[k].dims, b.int_shapes[k].dims) << what;
    }
  }
  EXPECT_EQ(a.block_size, b.block_size) << what;
  EXPECT_EQ(a.mode, b.mode) << what;
  EXPECT_EQ(a.sizes, b.sizes) << what;
  EXPECT_EQ(a.strides, b.strides) << what;
  EXPECT_EQ(a.rates, b.rates) << what;
  EXPECT_EQ(a.auto_pad, b.auto_pad) << what;
}

TEST(ShapeCaseFile, SeededCasesRoundTripByteForByte) {
  int cases = 0, partial_cases = 0;
  for (uint64_t seed : {1u, 7u}) {
    for (bool partial : {false, true}) {
      for (uint64_t index = 0; index < 400; ++index) {
        const ShapeCase s = SeededShapeCase(seed, index, partial);
        ShapeCaseFile f;
        f.id = s.id;
        f.origin = s.origin;
        f.c = s.c;
        if (index % 5 == 0) {
          f.backend = "mutant:x";
          f.verdict = "unsound_shape";
          f.detail = "dim 1: \"quoted\" \\ \n\x01 text";
        }
        if (!FillShapeExpectation(f).ok()) continue;  // a malformed case: nothing to save
        const std::string text = SerializeShapeCase(f);
        absl::StatusOr<ShapeCaseFile> back = ParseShapeCase(text, f.id);
        ASSERT_TRUE(back.ok()) << back.status() << "\n" << text;
        EXPECT_EQ(SerializeShapeCase(*back), text);
        ExpectSameCase(back->c, f.c, f.id);
        EXPECT_EQ(back->expected.kind, f.expected.kind) << f.id;
        EXPECT_EQ(back->expected.rule, f.expected.rule) << f.id;
        EXPECT_EQ(back->detail, f.detail);
        absl::Status fresh = VerifyShapeCaseExpectation(*back, f.id);
        EXPECT_TRUE(fresh.ok()) << fresh << "\n" << text;
        EXPECT_TRUE(LooksLikeShapeCase(text)) << f.id;
        ++cases;
        partial_cases += partial && !f.c.IsStatic();
      }
    }
  }
  EXPECT_GT(cases, 1000);
  EXPECT_GT(partial_cases, 400);
}

TEST(ShapeCaseFile, VerifyComparesWithTheOracle) {
  absl::StatusOr<ShapeCaseFile> f = ParseShapeCase(kD2S, "d2s.json");
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE(VerifyShapeCaseExpectation(*f, "d2s.json").ok());
  // A wrong upper bound (11, not 10) is stale.
  absl::StatusOr<ShapeCaseFile> g = ParseShapeCase(Replace(kD2S, "[4, 10]", "[4, 11]"), "d2s.json");
  ASSERT_TRUE(g.ok());
  absl::Status s = VerifyShapeCaseExpectation(*g, "d2s.json");
  EXPECT_TRUE(absl::StartsWith(s.message(), "shape_case.expected.stale: d2s.json: ")) << s;
  EXPECT_NE(s.message().find("[1,[4,11],[6,inf)]"), std::string::npos) << s;
  EXPECT_NE(s.message().find("[1,[4,10],[6,inf)]"), std::string::npos) << s;
  // The static D2S of docs/vector-format.md: [1, 8, 2, 3], block 2 -> [1, 2, 4, 6].
  const std::string static_text = Replace(
      Replace(kD2S, "      1,\n      [8, 20],\n      [3, null]\n",
              "      1,\n      8,\n      2,\n      3\n"),
      "      1,\n      [4, 10],\n      [6, null]\n", "      1,\n      2,\n      4,\n      6\n");
  absl::StatusOr<ShapeCaseFile> st = ParseShapeCase(static_text, "s.json");
  ASSERT_TRUE(st.ok()) << st.status();
  EXPECT_TRUE(st->c.IsStatic());
  EXPECT_TRUE(VerifyShapeCaseExpectation(*st, "s.json").ok());
  // Block size 3 does not divide C = 8: must_reject, so the stored shape is stale.
  st->c.block_size = 3;
  s = VerifyShapeCaseExpectation(*st, "s.json");
  EXPECT_TRUE(absl::StartsWith(s.message(), "shape_case.expected.stale: s.json: ")) << s;
  EXPECT_NE(s.message().find("must_reject"), std::string::npos) << s;
  // Fill then gives the oracle's answer, and the file verifies again.
  ASSERT_TRUE(FillShapeExpectation(*st).ok());
  EXPECT_EQ(st->expected.kind, PartialKind::kMustReject);
  EXPECT_TRUE(VerifyShapeCaseExpectation(*st, "s.json").ok());
}

TEST(ShapeCaseFile, FillReportsTheOraclesCaseError) {
  ShapeCaseFile f;
  f.id = "bad";
  f.c.op = Op::kDepthToSpace;
  f.c.data = PartialShape::Of({Dim::Exact(1), Dim::Range(5, 2), Dim::Exact(3)});  // lo > hi
  absl::Status s = FillShapeExpectation(f);
  EXPECT_TRUE(absl::StartsWith(s.message(), "case.")) << s;
  s = VerifyShapeCaseExpectation(f, "f.json");
  EXPECT_TRUE(absl::StartsWith(s.message(), "case.")) << s;
  EXPECT_NE(s.message().find(": f.json: "), std::string::npos) << s;
}

struct BadFile {
  std::string text;
  const char* rule;
  const char* where;  // the JSON pointer, "(document)", or "line" for syntax errors
};

TEST(ShapeCaseFile, EveryReaderRuleWithItsLocation) {
  const std::string d2s = kD2S, b2s = kB2S;
  std::string rank65 = "[";
  for (int i = 0; i < 65; ++i) absl::StrAppend(&rank65, i ? ", " : "", 1);
  rank65 += "]";
  const std::string d2s_dim0 = "\"shape\": [\n      1,\n";
  auto dim0 = [&](absl::string_view v) {
    return Replace(d2s, d2s_dim0, absl::StrCat("\"shape\": [\n      ", v, ",\n"));
  };
  const BadFile cases[] = {
      {d2s.substr(0, 100), "shape_case.json.syntax", "line"},
      {"", "shape_case.json.syntax", "line"},
      {std::string(1000, '[') + std::string(1000, ']'), "shape_case.json.nesting", ""},
      {Replace(d2s, "\"origin\": \"hand-written\",", "\"id\": \"again\","),
       "shape_case.json.duplicate_key", "/id"},
      {"[]", "shape_case.field.type", "(document)"},
      {Replace(d2s, "\"schema\": \"dmconf-shape-case/1\",\n", ""), "shape_case.field.missing",
       "(document)"},
      {Replace(d2s, "dmconf-shape-case/1", "dmconf-vector/1"), "shape_case.schema.version",
       "/schema"},
      {Replace(d2s, "\"origin\": \"hand-written\",", "\"origin\": \"x\", \"extra\": 1,"),
       "shape_case.field.unknown", "/extra"},
      {Replace(d2s, "\"origin\": \"hand-written\",\n", ""), "shape_case.field.missing",
       "(document)"},
      {Replace(d2s, "\"origin\": \"hand-written\"", "\"origin\": 3"), "shape_case.field.type",
       "/origin"},
      {Replace(d2s, "\"hand.d2s.partial\"", "\"../escape\""), "shape_case.id.syntax", "/id"},
      {Replace(d2s, "\"hand.d2s.partial\"", "7"), "shape_case.field.type", "/id"},
      {Replace(d2s, "\"DepthToSpace\"", "\"Gather\""), "shape_case.op.known", "/op"},
      {Replace(d2s, "\"DepthToSpace\"", "\"depthtospace\""), "shape_case.op.known", "/op"},
      {Replace(d2s, "\"block_size\": 2", "\"sizes\": [2]"), "shape_case.field.unknown",
       "/attributes/sizes"},
      {Replace(d2s, "\"block_size\": 2", "\"block_size\": \"2\""), "shape_case.field.type",
       "/attributes/block_size"},
      {Replace(d2s, "\"block_size\": 2", "\"block_size\": 9223372036854775808"),
       "shape_case.field.type", "/attributes/block_size"},
      {Replace(d2s, "\"type\": \"f32\"", "\"type\": \"f33\""), "shape_case.type.known",
       "/data/type"},
      {Replace(d2s, "\"type\": \"f32\"", "\"type\": \"F32\""), "shape_case.type.known",
       "/data/type"},
      {Replace(d2s, "\"type\": \"f32\",", "\"type\": \"f32\", \"data\": [],"),
       "shape_case.field.unknown", "/data/data"},
      {Replace(d2s, "\"type\": \"f32\",\n    \"shape\"", "\"type\": \"f32\",\n    \"shapes\""),
       "shape_case.field.unknown", "/data/shapes"},
      {dim0("-1"), "shape_case.dim.range", "/data/shape/0"},
      {dim0("9223372036854775808"), "shape_case.dim.range", "/data/shape/0"},
      {dim0("18446744073709551615"), "shape_case.dim.range", "/data/shape/0"},
      {dim0("18446744073709551616"), "shape_case.dim.range", "/data/shape/0"},  // a double
      {dim0("1e300"), "shape_case.dim.range", "/data/shape/0"},
      {dim0("1.5"), "shape_case.dim.type", "/data/shape/0"},
      {dim0("1.0"), "shape_case.dim.type", "/data/shape/0"},
      {dim0("\"1\""), "shape_case.dim.type", "/data/shape/0"},
      {dim0("true"), "shape_case.dim.type", "/data/shape/0"},
      {dim0("null"), "shape_case.dim.type", "/data/shape/0"},
      {dim0("{}"), "shape_case.dim.type", "/data/shape/0"},
      {Replace(d2s, "[8, 20]", "[20, 8]"), "shape_case.dim.interval", "/data/shape/1"},
      {Replace(d2s, "[8, 20]", "[8]"), "shape_case.dim.type", "/data/shape/1"},
      {Replace(d2s, "[8, 20]", "[8, 20, 30]"), "shape_case.dim.type", "/data/shape/1"},
      {Replace(d2s, "[8, 20]", "[null, 20]"), "shape_case.dim.type", "/data/shape/1/0"},
      {Replace(d2s, "[8, 20]", "[8, -1]"), "shape_case.dim.range", "/data/shape/1/1"},
      {Replace(d2s, "[8, 20]", "[8, 2.5]"), "shape_case.dim.type", "/data/shape/1/1"},
      {Replace(d2s, "[8, 20]", "[8, 9223372036854775808]"), "shape_case.dim.range",
       "/data/shape/1/1"},
      {Replace(d2s, "[3, null]", "[3, \"inf\"]"), "shape_case.dim.type", "/data/shape/2/1"},
      {Replace(d2s, "\"shape\": [\n      1,\n      [8, 20],\n      [3, null]\n    ]",
               "\"shape\": \"[1,2]\""),
       "shape_case.field.type", "/data/shape"},
      {Replace(d2s, "\"shape\": [\n      1,\n      [8, 20],\n      [3, null]\n    ]",
               absl::StrCat("\"shape\": ", rank65)),
       "shape_case.shape.rank", "/data/shape"},
      {Replace(d2s, "\"expected\": {", "\"inputs\": [],\n  \"expected\": {"),
       "shape_case.inputs.count", "/inputs"},
      {Replace(d2s, "\"expected\": {",
               "\"inputs\": [{\"name\": \"block_shape\", \"type\": \"i64\", \"values\": []}],\n"
               "  \"expected\": {"),
       "shape_case.inputs.name", "/inputs/0/name"},
      {Replace(d2s, "\"expected\": {",
               "\"inputs\": [{\"name\": \"input_1\", \"type\": \"i64\", \"shape\": [1]}],\n"
               "  \"expected\": {"),
       "shape_case.inputs.constant", "/inputs/0"},
      {Replace(d2s, "\"kind\": \"shape\"", "\"kind\": \"valid\""), "shape_case.expected.kind",
       "/expected/kind"},
      {Replace(d2s, "\"kind\": \"shape\",", "\"kind\": \"shape\", \"rule\": \"d2s.mode.enum\","),
       "shape_case.expected.rule", "/expected/rule"},
      {Replace(d2s,
               "\"kind\": \"shape\",\n    \"output\": [\n      1,\n      [4, 10],\n      [6, "
               "null]\n    ]",
               "\"kind\": \"shape\""),
       "shape_case.field.missing", "/expected"},
      {Replace(d2s, "\"output\":", "\"outputs\":"), "shape_case.field.unknown",
       "/expected/outputs"},
      {Replace(d2s, "[4, 10]", "[10, 4]"), "shape_case.dim.interval", "/expected/output/1"},
      {Replace(d2s,
               "\"expected\": {\n    \"kind\": \"shape\",\n    \"output\": [\n      1,\n      [4, "
               "10],\n      [6, null]\n    ]\n  }",
               "\"expected\": []"),
       "shape_case.field.type", "/expected"},
      {Replace(b2s, "\"rule\": \"b2s.inputs.same_type\"",
               "\"rule\": \"b2s.inputs.same_type\", \"output\": null"),
       "shape_case.expected.output", "/expected/output"},
      {Replace(b2s, ",\n    \"rule\": \"b2s.inputs.same_type\"", ""), "shape_case.field.missing",
       "/expected"},
      {Replace(b2s, "b2s.inputs.same_type", "b2s.no_such_rule"), "shape_case.expected.rule",
       "/expected/rule"},
      {Replace(b2s, "b2s.inputs.same_type", "s2b.inputs.shape"), "shape_case.expected.rule",
       "/expected/rule"},
      {Replace(b2s, "b2s.inputs.same_type", "b2s.block_shape.batch_one"),  // unspecified
       "shape_case.expected.rule", "/expected/rule"},
      {Replace(b2s, "\"rule\": \"b2s.inputs.same_type\"", "\"rule\": 5"), "shape_case.field.type",
       "/expected/rule"},
      {Replace(b2s, "\"inputs\": [", "\"inputz\": ["), "shape_case.field.unknown", "/inputz"},
      {Replace(b2s, "\"inputs\": [", "\"inputs\": 3, \"x\": ["), "shape_case.field.unknown", "/x"},
      {b2s.substr(0, b2s.find("\"inputs\": [")) + "\"inputs\": {},\n" +
           b2s.substr(b2s.find("  \"expected\"")),
       "shape_case.field.type", "/inputs"},
      {Replace(b2s,
               ",\n    {\n      \"name\": \"crops_end\",\n      \"type\": \"i32\",\n      "
               "\"shape\": [3]\n    }",
               ""),
       "shape_case.inputs.count", "/inputs"},
      {Replace(b2s, "\"crops_begin\"", "\"pads_begin\""), "shape_case.inputs.name",
       "/inputs/1/name"},
      {Replace(b2s, "\"name\": \"block_shape\",", "\"name\": \"block_shape\", \"constant\": true,"),
       "shape_case.field.unknown", "/inputs/0/constant"},
      {Replace(b2s, "\"name\": \"block_shape\",", ""), "shape_case.field.missing", "/inputs/0"},
      {Replace(b2s, "\"type\": \"i64\",", "\"type\": \"int64\","), "shape_case.type.known",
       "/inputs/0/type"},
      {Replace(b2s, "\"type\": \"i32\",\n      \"shape\": [3]", "\"type\": \"i32\""),
       "shape_case.field.missing", "/inputs/2"},
      {Replace(b2s, "\"type\": \"i32\",\n      \"shape\": [3]",
               "\"type\": \"i32\",\n      \"shape\": [-3]"),
       "shape_case.dim.range", "/inputs/2/shape/0"},
      {Replace(b2s, "[0, 18446744073709551615, 1]", "[-1, 0, 1]"), "shape_case.input.value",
       "/inputs/1/values/0"},
      {Replace(b2s, "[0, 18446744073709551615, 1]", "[0, 18446744073709551616, 1]"),
       "shape_case.input.value", "/inputs/1/values/1"},
      {Replace(b2s, "[1, 2, 9223372036854775807]", "[1, 2, 9223372036854775808]"),
       "shape_case.input.value", "/inputs/0/values/2"},
      {Replace(b2s, "[1, 2, 9223372036854775807]", "[1, 2.5, 3]"), "shape_case.input.value",
       "/inputs/0/values/1"},
      {Replace(b2s, "[1, 2, 9223372036854775807]", "[1, \"two\", 3]"), "shape_case.input.value",
       "/inputs/0/values/1"},
      {Replace(b2s, "\"values\": [1, 2, 9223372036854775807]", "\"values\": 3"),
       "shape_case.field.type", "/inputs/0/values"},
      {Replace(b2s, "[1, 2, 9223372036854775807]", "[1, 2, 3],\n      \"shape\": [2, 2]"),
       "shape_case.input.shape", "/inputs/0/shape"},
      {Replace(b2s, "[1, 2, 9223372036854775807]", "[1, 2, 3],\n      \"shape\": [2147483648]"),
       "shape_case.input.shape", "/inputs/0/shape"},
      {Replace(b2s, "[1, 2, 9223372036854775807]",
               "[1, 2, 3],\n      \"shape\": [4294967296, 4294967296, 4294967296]"),
       "shape_case.input.shape", "/inputs/0/shape"},
      {Replace(b2s, "[1, 2, 9223372036854775807]",
               "[1, 2, 3],\n      \"shape\": [0, 9223372036854775807]"),
       "shape_case.input.shape", "/inputs/0/shape"},
      {Replace(b2s, "[1, 2, 9223372036854775807]", "[1, 2, 3],\n      \"shape\": [[3, 4]]"),
       "shape_case.input.shape", "/inputs/0/shape/0"},
      {Replace(b2s, "[1, 2, 9223372036854775807]", "[1, 2, 3],\n      \"shape\": null"),
       "shape_case.input.shape", "/inputs/0/shape"},
      {Replace(b2s, "\"verdict\": \"false_accept\"", "\"verdict\": \"bad_luck\""),
       "shape_case.failure.verdict", "/failure/verdict"},
      {Replace(b2s, ",\n    \"detail\": \"answered [[2,4],[0,6],[0,inf)]\"", ""),
       "shape_case.field.missing", "/failure"},
      {Replace(b2s, "\"backend\": \"mutant:b2s\"", "\"backend\": [\"mutant\"]"),
       "shape_case.field.type", "/failure/backend"},
      {Replace(b2s, "\"backend\": \"mutant:b2s\",", "\"backend\": \"m\", \"seed\": 1,"),
       "shape_case.field.unknown", "/failure/seed"},
  };
  for (const BadFile& b : cases) {
    absl::StatusOr<ShapeCaseFile> f = ParseShapeCase(b.text, "x.json");
    ASSERT_FALSE(f.ok()) << b.text.substr(0, 400);
    const std::string msg(f.status().message());
    const std::string want = absl::StrCat(b.rule, ": x.json: ", b.where);
    EXPECT_TRUE(absl::StartsWith(msg, want)) << "want " << want << "\n got " << msg;
  }
}

TEST(ShapeCaseFile, BigInputsAreRefusedBeforeAllocating) {
  // Above the size limit: refused before parsing.
  std::string big = kD2S;
  big.insert(big.find("\"hand-written\"") + 1, std::string(kMaxShapeCaseFileBytes, 'a'));
  absl::StatusOr<ShapeCaseFile> f = ParseShapeCase(big, "big.json");
  ASSERT_FALSE(f.ok());
  EXPECT_TRUE(absl::StartsWith(f.status().message(), "shape_case.json.too_large: big.json: "))
      << f.status();
  // A constant claiming 2^31 x 2^31 elements with 3 values: refused by its count.
  f = ParseShapeCase(Replace(kB2S, "[1, 2, 9223372036854775807]",
                             "[1, 2, 3],\n      \"shape\": [2147483648, 2147483648]"),
                     "c.json");
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.status().message().find("3 values, but shape [2147483648,2147483648] has more"),
            std::string::npos)
      << f.status();
  // Mutations of a good file (truncation, a byte changed) never crash.
  const std::string base = kB2S;
  for (size_t i = 0; i < base.size(); i += 3) {
    (void)ParseShapeCase(base.substr(0, i), "t.json");
    for (char ch : {'[', '{', '"', '-', '9', 'n', ',', '\\'}) {
      std::string m = base;
      m[i] = ch;
      (void)ParseShapeCase(m, "m.json");
    }
  }
}

TEST(ShapeCaseFile, WriteIsAtomicReadableAndRefusesUnreadableFiles) {
  const std::string dir = ::testing::TempDir() + "/shape_case_file_test";
  std::filesystem::create_directories(dir);
  absl::StatusOr<ShapeCaseFile> f = ParseShapeCase(kB2S, "b2s.json");
  ASSERT_TRUE(f.ok());
  const std::string path = dir + "/hand.b2s.partial.json";
  ASSERT_TRUE(WriteShapeCaseFile(path, *f).ok());
  absl::StatusOr<std::string> bytes = ReadFileToString(path, 1 << 20);
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(*bytes, kB2S);
  absl::StatusOr<ShapeCaseFile> back = ReadShapeCaseFile(path);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->id, "hand.b2s.partial");
  EXPECT_FALSE(ReadShapeCaseFile(dir + "/missing.json").ok());
  EXPECT_FALSE(WriteShapeCaseFile(dir + "/no/such/dir/x.json", *f).ok());
  // An id that is not a safe file name would be refused on reading: not written.
  ShapeCaseFile bad = *f;
  bad.id = "../x";
  absl::Status s = WriteShapeCaseFile(dir + "/bad.json", bad);
  EXPECT_TRUE(absl::StartsWith(s.message(), "shape_case.write.unreadable: ")) << s;
  EXPECT_FALSE(std::filesystem::exists(dir + "/bad.json"));
  // A constant whose bytes do not match its shape.
  bad = *f;
  bad.c.int_inputs[0]->bytes.resize(3);
  s = WriteShapeCaseFile(dir + "/bad.json", bad);
  EXPECT_TRUE(absl::StartsWith(s.message(), "shape_case.write.unreadable: ")) << s;
  // A file above the size limit.
  bad = *f;
  bad.detail = std::string(kMaxShapeCaseFileBytes, 'x');
  s = WriteShapeCaseFile(dir + "/bad.json", bad);
  EXPECT_TRUE(absl::StartsWith(s.message(), "shape_case.write.too_large: ")) << s;
  EXPECT_FALSE(std::filesystem::exists(dir + "/bad.json"));
  std::filesystem::remove_all(dir);
}

TEST(ShapeCaseFile, SniffFindsTheTopLevelSchema) {
  EXPECT_TRUE(LooksLikeShapeCase(kD2S));
  EXPECT_TRUE(LooksLikeShapeCase(std::string(kD2S).substr(0, 40)));  // a prefix will do
  EXPECT_TRUE(LooksLikeShapeCase(
      R"({"id": "x", "attributes": {"schema": "no", "a": [1, "]}"]}, "schema": "dmconf-shape-case/1"})"));
  EXPECT_FALSE(LooksLikeShapeCase(R"({"schema": "dmconf-vector/1", "id": "x"})"));
  EXPECT_FALSE(LooksLikeShapeCase(R"({"inner": {"schema": "dmconf-shape-case/1"}})"));
  EXPECT_FALSE(LooksLikeShapeCase(R"(["schema", "dmconf-shape-case/1"])"));
  EXPECT_FALSE(LooksLikeShapeCase(R"({"schema": "dmconf-shape-case/10"})"));
  EXPECT_FALSE(LooksLikeShapeCase(R"({"id": "x")"));
  EXPECT_FALSE(LooksLikeShapeCase(""));
  EXPECT_FALSE(LooksLikeShapeCase(std::string(100000, '{')));
}

// The example of docs/shape-case-format.md is a canonical file whose answer is the oracle's.
TEST(ShapeCaseFile, DocumentedExampleVerifies) {
  absl::StatusOr<std::string> doc =
      ReadFileToString(std::string(DMCONF_SOURCE_DIR) + "/docs/shape-case-format.md", 1 << 20);
  ASSERT_TRUE(doc.ok()) << doc.status();
  const size_t begin = doc->find("```json\n");
  ASSERT_NE(begin, std::string::npos);
  const size_t end = doc->find("```", begin + 8);
  ASSERT_NE(end, std::string::npos);
  const std::string text = doc->substr(begin + 8, end - begin - 8);
  absl::StatusOr<ShapeCaseFile> f = ParseShapeCase(text, "doc");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(SerializeShapeCase(*f), text);
  absl::Status s = VerifyShapeCaseExpectation(*f, "doc");
  EXPECT_TRUE(s.ok()) << s;
}

// The golden set: every file reads, is canonical, is named for its id and verifies.
TEST(ShapeCaseFile, GoldenSetVerifies) {
  const std::string dir = std::string(DMCONF_SOURCE_DIR) + "/vectors/shapes";
  absl::StatusOr<std::vector<std::string>> files = ListVectorFiles(dir);
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_GE(files->size(), 30u);
  int static_cases = 0, partial_cases = 0, reject = 0, huge = 0;
  for (const std::string& path : *files) {
    absl::StatusOr<ShapeCaseFile> f = ReadShapeCaseFile(path);
    ASSERT_TRUE(f.ok()) << f.status();
    EXPECT_EQ(std::filesystem::path(path).filename().string(), f->id + ".json");
    absl::StatusOr<std::string> text = ReadFileToString(path, kMaxShapeCaseFileBytes);
    ASSERT_TRUE(text.ok());
    EXPECT_EQ(SerializeShapeCase(*f), *text) << path;
    absl::Status s = VerifyShapeCaseExpectation(*f, path);
    EXPECT_TRUE(s.ok()) << s;
    (f->c.IsStatic() ? static_cases : partial_cases) += 1;
    reject += f->expected.kind == PartialKind::kMustReject;
    huge += absl::StrContains(*text, "46116860184273879") ||
            absl::StrContains(*text, "922337203685477");
  }
  EXPECT_GT(static_cases, 10);
  EXPECT_GT(partial_cases, 10);
  EXPECT_GT(reject, 5);
  EXPECT_GT(huge, 2);
}

}  // namespace
}  // namespace dmconf::io
