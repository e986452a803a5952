// CompactSequence (harness/runner/compact_sequence.h): every value reads back as pushed or set,
// checked against a plain vector of the same values, and a sequence that counts up is held as
// one run.
#include "harness/runner/compact_sequence.h"

#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace dmconf {
namespace {

void ExpectSame(const CompactSequence& s, const std::vector<uint64_t>& want) {
  ASSERT_EQ(s.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(s[i], want[i]) << "value " << i;
}

TEST(CompactSequence, ConsecutiveValuesAreOneRun) {
  CompactSequence s;
  EXPECT_TRUE(s.empty());
  std::vector<uint64_t> want;
  for (uint64_t v = 7; v < 100007; ++v) {
    s.push_back(v);
    want.push_back(v);
  }
  ExpectSame(s, want);
  EXPECT_EQ(s.runs(), 1u);
  // An entry of a shape case (position | sweep index << 29) counts up by 1 + 2^29.
  CompactSequence shape;
  for (uint64_t k = 0; k < 1000; ++k) shape.push_back((40 + k) | (k + 3) << 29);
  EXPECT_EQ(shape.runs(), 1u);
  EXPECT_EQ(shape[999], uint64_t{1039} | uint64_t{1002} << 29);
}

TEST(CompactSequence, ProgressionsOfAnyStepAndBreaksBetweenThem) {
  CompactSequence s;
  std::vector<uint64_t> want;
  auto push = [&](uint64_t v) {
    s.push_back(v);
    want.push_back(v);
  };
  for (uint64_t k = 0; k < 50; ++k) push(1000 - 3 * k);           // a step down
  for (uint64_t k = 0; k < 50; ++k) push(uint64_t{1} << 63 | k);  // a held case's bit
  for (uint64_t k = 0; k < 50; ++k) push(UINT64_MAX - 5 + k);     // wraps past 2^64
  for (uint64_t k = 0; k < 50; ++k) push(42);                     // step 0
  push(5);                                                        // a run of one
  ExpectSame(s, want);
  // 4 progressions of 50; the one value after them opens a run of its own.
  EXPECT_EQ(s.runs(), 5u);
}

TEST(CompactSequence, ValuesWithNoProgressionTakeRunsOfTwo) {
  std::mt19937_64 rng(17);
  CompactSequence s;
  std::vector<uint64_t> want;
  for (int k = 0; k < 10001; ++k) {
    const uint64_t v = rng();
    s.push_back(v);
    want.push_back(v);
  }
  ExpectSame(s, want);
  EXPECT_EQ(s.runs(), 5001u);  // pairs, and the last value alone
}

TEST(CompactSequence, SetChangesOneValueAndLeavesTheRunsAsTheyWere) {
  CompactSequence s;
  std::vector<uint64_t> want;
  for (uint64_t v = 0; v < 1000; ++v) {
    s.push_back(v * 2);
    want.push_back(v * 2);
  }
  for (size_t i : {0, 1, 500, 999}) {
    s.Set(i, 7 + i);
    want[i] = 7 + i;
  }
  s.Set(500, 3);  // set twice: the last holds
  want[500] = 3;
  ExpectSame(s, want);
  EXPECT_EQ(s.runs(), 1u);
  s.push_back(2000);  // the progression goes on after a change
  want.push_back(2000);
  ExpectSame(s, want);
  EXPECT_EQ(s.runs(), 1u);
}

}  // namespace
}  // namespace dmconf
