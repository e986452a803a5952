// Seed corpora are made by recording seeded-driver choices as FuzzedDataProvider bytes: those
// bytes, fed back through FuzzChooser, rebuild the very same case.
#include "fuzz/fuzz_chooser.h"
#include "gtest/gtest.h"
#include "harness/gen/describe.h"
#include "harness/gen/generate.h"

namespace dmconf {
namespace {

TEST(RecordingChooser, BytesReplayTheRecordedCase) {
  for (uint64_t i = 0; i < 500; ++i) {
    SeededChooser inner(MixSeed(3, i));
    RecordingChooser rec(&inner);
    const GeneratedCase a = GenerateCase(rec);
    const std::vector<uint8_t> bytes = rec.Bytes();
    FuzzedDataProvider fdp(bytes.data(), bytes.size());
    FuzzChooser ch(&fdp);
    const GeneratedCase b = GenerateCase(ch);
    ASSERT_EQ(a.kind, b.kind) << i;
    EXPECT_EQ(ReproCommand(a.c), ReproCommand(b.c)) << i;
    EXPECT_EQ(a.c.data, b.c.data) << i;
    EXPECT_EQ(fdp.remaining_bytes(), 0u) << i;
  }
}

}  // namespace
}  // namespace dmconf
