// A JSON object that repeats a key is ambiguous (nlohmann keeps the last, other readers the
// first): every file dmconf reads refuses it with a rule of its own and the key's location.
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
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
