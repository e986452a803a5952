#include "harness/io/vector_file.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "absl/strings/match.h"
#include "absl/strings/str_replace.h"
#include "harness/base/files.h"

namespace dmconf::io {
namespace {

// DepthToSpace blocks_first, block 2, on a [1,4,1,1] iota: output channel 0 at (i, j) is input
// channel i * 2 + j (spec: reshape [N, b, b, C/b^2, H, W], transpose [0,3,4,1,5,2]).
const char* kD2S = R"({
  "schema": "dmconf-vector/1",
  "id": "d2s.hand.bf.b2",
  "op": "DepthToSpace",
  "version": 1,
  "attributes": {
    "block_size": 2,
    "mode": "blocks_first"
  },
  "inputs": [
    {
      "name": "data",
      "constant": false,
      "type": "u8",
      "shape": [1, 4, 1, 1],
      "data": [0, 1, 2, 3]
    }
  ],
  "expectation": {
    "kind": "valid",
    "output": {
      "type": "u8",
      "shape": [1, 1, 2, 2],
      "data": [
        0, 1,
        2, 3
      ]
    }
  },
  "provenance": {
    "kind": "hand_written",
    "note": "derived by hand from the spec formula"
  },
  "classes": ["mode:blocks_first", "op:DepthToSpace"]
}
)";

const char* kS2BReject = R"({
  "schema": "dmconf-vector/1",
  "id": "s2b.reject",
  "op": "SpaceToBatch",
  "version": 2,
  "attributes": {},
  "inputs": [
    {"name": "data", "constant": false, "type": "f32", "shape": [1, 3], "data": [1, 2, 3]},
    {"name": "block_shape", "constant": true, "type": "i64", "shape": [2], "data": [1, 2]},
    {"name": "pads_begin", "constant": true, "type": "i64", "shape": [2], "data": [0, 0]},
    {"name": "pads_end", "constant": false, "type": "i32", "shape": [2], "data": [0, 0]}
  ],
  "expectation": {"kind": "must_reject", "rule": "s2b.block_shape.divides"},
  "provenance": {"kind": "generated", "generator": "test", "seed": 18446744073709551615,
                 "index": 42}
}
)";

TEST(VectorFile, HandWrittenFileIsCanonicalAndRoundTrips) {
  absl::StatusOr<VectorCase> v = ParseVector(kD2S, "d2s.json");
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->c.op, Op::kDepthToSpace);
  EXPECT_EQ(v->c.block_size, 2);
  EXPECT_EQ(v->c.mode, "blocks_first");
  EXPECT_EQ(v->constant, std::vector<bool>{false});
  EXPECT_EQ(v->expected.kind, ExpectationKind::kValid);
  ASSERT_TRUE(v->expected.output.has_value());
  EXPECT_EQ(v->expected.output->bytes, (std::vector<uint8_t>{0, 1, 2, 3}));
  EXPECT_EQ(v->c.origin, "vector d2s.json");
  EXPECT_EQ(SerializeVector(*v), kD2S);  // the text above is in canonical form
}

TEST(VectorFile, RejectCaseKeepsRuleTypesConstantsSeedAndIndex) {
  absl::StatusOr<VectorCase> v = ParseVector(kS2BReject, "s2b.json");
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->expected.kind, ExpectationKind::kMustReject);
  ASSERT_NE(v->expected.rule, nullptr);
  EXPECT_EQ(v->expected.rule->id, "s2b.block_shape.divides");
  ASSERT_EQ(v->c.int_inputs.size(), 3u);
  EXPECT_EQ(v->c.int_inputs[2].type, ElementType::kI32);
  EXPECT_EQ(v->constant, (std::vector<bool>{false, true, true, false}));
  EXPECT_EQ(v->provenance.seed, 18446744073709551615ull);
  EXPECT_EQ(v->provenance.index, uint64_t{42});
  const std::string text = SerializeVector(*v);
  absl::StatusOr<VectorCase> again = ParseVector(text, "again.json");
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(SerializeVector(*again), text);
}

TEST(VectorFile, WriteIsAtomicAndReadBack) {
  const std::string dir = ::testing::TempDir() + "/vector_file_test";
  std::filesystem::create_directories(dir);
  absl::StatusOr<VectorCase> v = ParseVector(kD2S, "d2s.json");
  ASSERT_TRUE(v.ok());
  const std::string path = dir + "/d2s.hand.bf.b2.json";
  ASSERT_TRUE(WriteVectorFile(path, *v).ok());
  absl::StatusOr<std::string> bytes = ReadFileToString(path, 1 << 20);
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(*bytes, kD2S);
  absl::StatusOr<std::vector<std::string>> files = ListVectorFiles(dir);
  ASSERT_TRUE(files.ok());
  EXPECT_EQ(*files, std::vector<std::string>{path});
  EXPECT_FALSE(ReadVectorFile(dir + "/missing.json").ok());
  EXPECT_FALSE(WriteVectorFile(dir + "/no/such/dir/x.json", *v).ok());
  std::filesystem::remove_all(dir);
}

struct BadFile {
  std::string text;
  const char* rule;
  const char* where;
};

std::string Replace(const char* base, const char* from, const char* to) {
  std::string out = absl::StrReplaceAll(base, {{from, to}});
  EXPECT_NE(out, base) << "pattern not found: " << from;
  return out;
}

TEST(VectorFile, MalformedFilesGiveRuleFileAndLocation) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const BadFile cases[] = {
      {std::string(kD2S).substr(0, 200), "vector.json.syntax", "bad.json: line"},
      {"{\"schema\": }", "vector.json.syntax", "bad.json: line 1, column"},
      {"", "vector.json.syntax", "bad.json"},
      {deep, "vector.json.nesting", "bad.json"},
      {"[]", "vector.field.type", "bad.json: (document)"},
      {Replace(kD2S, "dmconf-vector/1", "dmconf-vector/9"), "vector.schema.version",
       "bad.json: /schema"},
      {Replace(kD2S, "\"DepthToSpace\"", "\"Gather\""), "case.op.known", "bad.json: /op"},
      {Replace(kD2S, "\"version\": 1", "\"version\": 2"), "vector.op.version", "/version"},
      {Replace(kD2S, "\"type\": \"u8\",\n      \"shape\": [1, 4",
               "\"type\": \"u7\",\n      \"shape\": [1, 4"),
       "case.element_type.known", "/inputs/0/type"},
      {Replace(kD2S, "[1, 4, 1, 1]", "[1, 4, -1, 1]"), "case.tensor.dims_nonnegative",
       "/inputs/0/shape/2"},
      {Replace(kD2S, "[1, 4, 1, 1]", "[1, 4, 1000000000, 1000000000]"), "case.tensor.byte_size",
       "/inputs/0/data"},
      {Replace(kD2S, "\"data\": [0, 1, 2, 3]", "\"data\": [0, 1, 2]"), "case.tensor.byte_size",
       "/inputs/0/data"},
      {Replace(kD2S, "\"data\": [0, 1, 2, 3]", "\"data\": [0, 1, 2, \"x\"]"),
       "vector.element.value", "/inputs/0/data/3"},
      {Replace(kD2S, "\"kind\": \"valid\"", "\"kind\": \"maybe\""), "vector.expectation.kind",
       "/expectation/kind"},
      {Replace(kS2BReject, "s2b.block_shape.divides", "s2b.no_such_rule"),
       "vector.expectation.rule", "/expectation/rule"},
      {Replace(kS2BReject, "s2b.block_shape.divides", "d2s.block_size.divides"),
       "vector.expectation.rule", "/expectation/rule"},
      {Replace(kS2BReject, "\"pads_end\"", "\"crops_end\""), "vector.inputs.name",
       "/inputs/3/name"},
      {Replace(kD2S, "\"mode\": \"blocks_first\"", "\"mode\": 3"), "vector.field.type",
       "/attributes/mode"},
      {Replace(kD2S, "\"block_size\": 2", "\"blocksize\": 2"), "vector.field.unknown",
       "/attributes/blocksize"},
      {Replace(kD2S, "\"id\": \"d2s.hand.bf.b2\"", "\"id\": \"../escape\""), "vector.id.syntax",
       "/id"},
      {Replace(kD2S, "\"kind\": \"hand_written\"", "\"kind\": \"magic\""), "vector.provenance.kind",
       "/provenance/kind"},
      {Replace(kD2S, "\"constant\": false", "\"constant\": 0"), "vector.field.type",
       "/inputs/0/constant"},
      {Replace(kS2BReject, "\"kind\": \"must_reject\", ", ""), "vector.field.missing",
       "/expectation"},
  };
  for (const BadFile& b : cases) {
    absl::StatusOr<VectorCase> v = ParseVector(b.text, "bad.json");
    ASSERT_FALSE(v.ok()) << b.text.substr(0, 300);
    const std::string msg(v.status().message());
    EXPECT_TRUE(absl::StartsWith(msg, b.rule)) << msg;
    EXPECT_NE(msg.find(b.where), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace dmconf::io
