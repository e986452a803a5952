// Literal fuzz inputs (fuzz/literal_case.h): the golden vectors become seeds of the
// structure-aware targets. Checked here: the empty input decodes to the all-lowest case (read
// off the layout by hand); golden vectors and generated cases decode back to themselves
// (compared field by field here, not through SameLiteralCase); arbitrary bytes decode within
// the form's bounds; and the checked-in golden-* seeds are current.
#include "fuzz/literal_case.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "fuzz/fuzz_chooser.h"
#include "gtest/gtest.h"
#include "harness/gen/generate.h"
#include "harness/io/vector_file.h"

namespace dmconf {
namespace {

const std::string kSource = DMCONF_SOURCE_DIR;

OpCase Decode(const std::vector<uint8_t>& input) {
  const uint8_t* data = input.data();
  size_t size = input.size();
  EXPECT_TRUE(StripLiteralMagic(&data, &size));
  FuzzedDataProvider fdp(data, size);
  FuzzChooser ch(&fdp);
  OpCase c = LiteralCase(ch).c;
  EXPECT_EQ(fdp.remaining_bytes(), 0u);
  return c;
}

// Field by field, with the expected data byte count of the original.
void ExpectSame(const OpCase& want, const OpCase& got, const std::string& what) {
  EXPECT_EQ(got.op, want.op) << what;
  EXPECT_EQ(got.data.type, want.data.type) << what;
  EXPECT_EQ(got.data.shape, want.data.shape) << what;
  EXPECT_EQ(got.data.bytes.size(), want.data.bytes.size()) << what;
  ASSERT_EQ(got.int_inputs.size(), want.int_inputs.size()) << what;
  for (size_t k = 0; k < want.int_inputs.size(); ++k) {
    EXPECT_EQ(got.int_inputs[k].type, want.int_inputs[k].type) << what;
    EXPECT_EQ(got.int_inputs[k].shape, want.int_inputs[k].shape) << what;
    EXPECT_EQ(got.int_inputs[k].bytes, want.int_inputs[k].bytes) << what;
  }
  EXPECT_EQ(got.block_size, want.block_size) << what;
  EXPECT_EQ(got.mode, want.mode) << what;
  EXPECT_EQ(got.sizes, want.sizes) << what;
  EXPECT_EQ(got.strides, want.strides) << what;
  EXPECT_EQ(got.rates, want.rates) << what;
  EXPECT_EQ(got.auto_pad, want.auto_pad) << what;
}

std::map<std::string, OpCase> VectorsById() {
  std::map<std::string, OpCase> out;
  for (const char* dir : {"/vectors/golden", "/vectors/regressions"}) {
    absl::StatusOr<std::vector<std::string>> files = io::ListVectorFiles(kSource + dir);
    EXPECT_TRUE(files.ok()) << files.status();
    if (!files.ok()) continue;
    for (const std::string& f : *files) {
      absl::StatusOr<io::VectorCase> v = io::ReadVectorFile(f);
      EXPECT_TRUE(v.ok()) << v.status();
      if (v.ok()) out[v->c.id] = v->c;
    }
  }
  return out;
}

TEST(LiteralCase, EmptyBodyIsTheLowestChoiceOfEveryField) {
  // An exhausted input answers `lo` everywhere: op 0 (SpaceToBatch), the first element type,
  // rank 0 with data form 0 (positional: one element, the scalar), no integer inputs, no
  // block_size, mode absent, empty sizes / strides / rates, auto_pad absent.
  const OpCase c = Decode({'D', 'M', 'C', '1'});
  EXPECT_EQ(c.op, Op::kSpaceToBatch);
  EXPECT_EQ(c.data.type, AllElementTypes()[0]);
  EXPECT_TRUE(c.data.shape.empty());
  EXPECT_EQ(c.data.bytes.size(), PackedByteSize(AllElementTypes()[0], 1).value());
  EXPECT_TRUE(c.int_inputs.empty());
  EXPECT_FALSE(c.block_size.has_value());
  EXPECT_FALSE(c.mode.has_value());
  EXPECT_TRUE(c.sizes.empty() && c.strides.empty() && c.rates.empty());
  EXPECT_FALSE(c.auto_pad.has_value());
}

TEST(LiteralCase, NotLiteralWithoutTheMagic) {
  const std::vector<uint8_t> in = {'D', 'M', 'C', '2', 0};
  const uint8_t* data = in.data();
  size_t size = in.size();
  EXPECT_FALSE(StripLiteralMagic(&data, &size));
  EXPECT_EQ(size, in.size());
}

TEST(LiteralCase, GoldenVectorsDecodeBack) {
  const std::map<std::string, OpCase> vectors = VectorsById();
  ASSERT_GT(vectors.size(), 600u);
  int encoded = 0;
  for (const auto& [id, c] : vectors) {
    absl::StatusOr<std::vector<uint8_t>> in = EncodeLiteralInput(c);
    if (!in.ok()) {
      EXPECT_TRUE(absl::StartsWith(in.status().message(), "fuzz.literal: ")) << id;
      continue;
    }
    ++encoded;
    ExpectSame(c, Decode(*in), id);
  }
  // Only vectors with data beyond kLiteralMaxElements elements are out of the form.
  EXPECT_GE(encoded * 100, static_cast<int>(vectors.size()) * 95) << encoded;
  std::printf("%d of %zu vectors encoded\n", encoded, vectors.size());
}

TEST(LiteralCase, GeneratedCasesOfEveryLaneDecodeBack) {
  int encoded = 0;
  for (uint64_t i = 0; i < 600; ++i) {
    const GeneratedCase g = SeededCase(11, i);
    absl::StatusOr<std::vector<uint8_t>> in = EncodeLiteralInput(g.c);
    if (!in.ok()) continue;  // an overflow-lane or too-large case
    ++encoded;
    ExpectSame(g.c, Decode(*in), g.c.id);
  }
  EXPECT_GE(encoded, 500);
}

TEST(LiteralCase, ArbitraryBytesStayInTheFormsBounds) {
  SeededChooser rng(5);
  for (int i = 0; i < 3000; ++i) {
    std::vector<uint8_t> in = {'D', 'M', 'C', '1'};
    const int64_t n = rng.Int(0, 300);
    for (int64_t k = 0; k < n; ++k) in.push_back(static_cast<uint8_t>(rng.Int(0, 255)));
    const uint8_t* data = in.data();
    size_t size = in.size();
    ASSERT_TRUE(StripLiteralMagic(&data, &size));
    FuzzedDataProvider fdp(data, size);
    FuzzChooser ch(&fdp);
    const OpCase c = LiteralCase(ch).c;
    EXPECT_LE(c.data.shape.size(), 10u);
    EXPECT_LE(c.int_inputs.size(), 4u);
    EXPECT_LE(c.data.bytes.size(), size_t{8} * kLiteralMaxElements + 1);
    for (const Tensor& t : c.int_inputs) EXPECT_TRUE(t.Validate("integer input").ok());
  }
}

// The golden-<id> seeds in fuzz/corpus/ are the literal inputs of the vectors with that id
// (regenerate: docs/fuzzing.md).
TEST(LiteralCase, CheckedInGoldenSeedsAreCurrent) {
  const std::map<std::string, OpCase> vectors = VectorsById();
  int checked = 0;
  for (const auto& target : std::filesystem::directory_iterator(kSource + "/fuzz/corpus")) {
    for (const auto& f : std::filesystem::directory_iterator(target.path())) {
      const std::string name = f.path().filename().string();
      if (name.rfind("golden-", 0) != 0) continue;
      const auto it = vectors.find(name.substr(7));
      ASSERT_NE(it, vectors.end()) << f.path() << ": no vector with that id";
      std::ifstream s(f.path(), std::ios::binary);
      const std::vector<uint8_t> have((std::istreambuf_iterator<char>(s)), {});
      absl::StatusOr<std::vector<uint8_t>> want = EncodeLiteralInput(it->second);
      ASSERT_TRUE(want.ok()) << want.status();
      EXPECT_EQ(have, *want) << f.path() << " is stale";
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace dmconf
