// A JSON object that repeats a key is ambiguous (nlohmann keeps the last, other readers the
// first): every file dmconf reads refuses it with a rule of its own and the key's location.
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/base/json_location.h"
#include "harness/io/manifest.h"
#include "harness/io/vector_file.h"
#include "harness/runner/expectations.h"

namespace dmconf {
namespace {

std::string GoldenText(const std::string& name) {
  std::ifstream in(std::string(DMCONF_SOURCE_DIR) + "/vectors/golden/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(DuplicateKeys, LocatedInNestedObjectsAndArrays) {
  io::JsonLoc dup{"f.json", ""};
  io::ParseJsonNotingDuplicates(R"({"a": [1, {"b": 2}, {"c": 3, "d": [{"e": 1, "e": 2}]}]})", &dup);
  EXPECT_EQ(dup.pointer, "/a/2/d/0/e");
  io::JsonLoc none{"f.json", ""};
  io::ParseJsonNotingDuplicates(R"({"a": {"x": 1}, "b": {"x": 1}, "c": [{"x": 1}, {"x": 2}]})",
                                &none);
  EXPECT_EQ(none.pointer, "") << "the same key in two objects is no duplicate";
}

// The reader builds the document itself (SAX events): it must give what nlohmann's own
// parser gives, on every kind of value and nesting, a repeated key keeping its last value.
TEST(DuplicateKeys, TheDocumentIsNlohmannsOwnParse) {
  std::string many = "[";
  for (int i = 0; i < 3000; ++i) {
    absl::StrAppend(&many, i ? "," : "", R"({"case": "c)", i, R"(", "n": )", i, "}");
  }
  many += "]";
  const std::vector<std::string> texts = {
      "7",
      R"("s")",
      "null",
      "[]",
      "{}",
      "[[], [[]], {}]",
      R"({"a": [1, -2, 3.5, 1e300, 18446744073709551615, true, false, null, "x\u00e9"],
          "b": {"c": {"d": [{"e": []}, {}]}}, "a2": {"k": 1, "k": [2]}})",
      many};
  for (const std::string& text : texts) {
    io::JsonLoc dup{"f.json", ""};
    EXPECT_EQ(io::ParseJsonNotingDuplicates(text, &dup), nlohmann::json::parse(text))
        << text.substr(0, 80);
  }
  io::JsonLoc dup{"f.json", ""};
  EXPECT_THROW(io::ParseJsonNotingDuplicates(R"({"a": [1, 2})", &dup), nlohmann::json::parse_error);
}

// A "data" array past the threshold is left out and counted; one at the threshold is kept;
// VisitArrayElements gives the left-out elements, in order, as the full parse has them.
TEST(DuplicateKeys, BigDataArraysAreDeferredAndVisited) {
  io::DeferredArrays deferred;
  deferred.threshold = 4;
  const std::string text =
      R"({"inputs": [{"data": [1, 2, 3, 4]}, {"data": [5, 6, 7, 8, 9], "other": [1, 2, 3, 4, 5]}]})";
  io::JsonLoc dup{"f.json", ""};
  const nlohmann::json j = io::ParseJsonNotingDuplicates(text, &dup, &deferred);
  const nlohmann::json full = nlohmann::json::parse(text);
  EXPECT_EQ(j["inputs"][0]["data"], full["inputs"][0]["data"]);
  EXPECT_EQ(j["inputs"][1]["data"], nlohmann::json::array());
  EXPECT_EQ(j["inputs"][1]["other"], full["inputs"][1]["other"]) << "not a data array";
  EXPECT_EQ(deferred.counts, (std::map<std::string, uint64_t>{{"/inputs/1/data", 5}}));
  std::vector<std::pair<size_t, nlohmann::json>> seen;
  io::VisitArrayElements(text, "/inputs/1/data", [&](size_t i, const nlohmann::json& v) {
    seen.emplace_back(i, v);
    return true;
  });
  ASSERT_EQ(seen.size(), 5u);
  for (size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i].first, i);
    EXPECT_EQ(seen[i].second, full["inputs"][1]["data"][i]);
  }
}

TEST(DuplicateKeys, VectorFileRefused) {
  std::string text = GoldenText("attrs.b2s.asymmetric_crops.json");
  ASSERT_TRUE(io::ParseVector(text, "v.json").ok());
  // A second "op" member at the top: the last one would silently win.
  const size_t at = text.find("\"op\":");
  ASSERT_NE(at, std::string::npos);
  text.insert(at, "\"op\": \"SpaceToDepth\",\n  ");
  absl::StatusOr<io::VectorCase> v = io::ParseVector(text, "v.json");
  ASSERT_FALSE(v.ok());
  EXPECT_TRUE(absl::StartsWith(v.status().message(), "vector.json.duplicate_key: v.json: /op: "))
      << v.status();
}

TEST(DuplicateKeys, ExpectationsFileRefused) {
  const std::string ok = R"({"format": "dmconf-expectations/1", "known_failures": [
      {"backend": "x", "case": "a/*", "reason": "r"}]})";
  ASSERT_TRUE(ParseExpectations(ok, "e.json").ok());
  const std::string dup = R"({"format": "dmconf-expectations/1", "known_failures": [
      {"backend": "x", "case": "a/*", "reason": "r"},
      {"backend": "x", "case": "b/*", "case": "c/*", "reason": "r"}]})";
  absl::StatusOr<Expectations> e = ParseExpectations(dup, "e.json");
  ASSERT_FALSE(e.ok());
  EXPECT_TRUE(absl::StartsWith(e.status().message(),
                               "expectations.duplicate_key: e.json: /known_failures/1/case: "))
      << e.status();
}

TEST(DuplicateKeys, ManifestRefused) {
  std::string text = GoldenText("MANIFEST.json");
  ASSERT_TRUE(io::ParseManifest(text, "MANIFEST.json").ok());
  const size_t at = text.find("\"generator\":");
  ASSERT_NE(at, std::string::npos);
  text.insert(at, "\"generator\": \"other\",\n  ");
  absl::StatusOr<io::ManifestFile> m = io::ParseManifest(text, "MANIFEST.json");
  ASSERT_FALSE(m.ok());
  EXPECT_TRUE(absl::StartsWith(m.status().message(),
                               "vector.json.duplicate_key: MANIFEST.json: /generator: "))
      << m.status();
}

}  // namespace
}  // namespace dmconf
