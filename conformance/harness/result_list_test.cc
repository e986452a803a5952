// ResultList (harness/runner/result_list.h): a spooling list reads back every result as it was
// written, whichever way it was kept (spooled or held), by every way of reading; it holds only
// the results that are not plain passes; and a spool that cannot be made or written loses
// nothing (the results are held instead).
#include "harness/runner/result_list.h"

#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace dmconf {
namespace {

// Result i of a list of `n`: every 7th a failure, every 11th unsupported, every 13th
// unspecified_ok, every 17th unsupported and failing, the rest passes; ids, rules and details
// of varied lengths (the 300-byte one spans a varint's second byte), ops,
// types, ranks (a shape case's -1 too) and lanes varied.
CaseResult Made(size_t i) {
  CaseResult r;
  r.id = absl::StrCat("case/", i, std::string(i % 5 == 0 ? 300 : i % 13, 'x'));
  r.op = static_cast<Op>(i % 5);
  r.type = static_cast<ElementType>(i % 3);
  r.rank = static_cast<int>(i % 9) - 1;
  r.expected = static_cast<ExpectedClass>(i % 4);
  r.rule = i % 3 == 0 ? "" : absl::StrCat("rule.", i);
  r.lane = static_cast<CaseLane>(i % 3);
  r.verdict = Verdict::kPass;
  r.detail = i % 2 == 0 ? "" : absl::StrCat("detail ", i, "\n\x01\xff");
  if (i % 7 == 0) {
    r.verdict = Verdict::kWrongValues;
    r.failure = true;
  } else if (i % 11 == 0) {
    r.verdict = Verdict::kUnsupported;
  } else if (i % 13 == 0) {
    r.verdict = Verdict::kUnspecifiedOk;
  } else if (i % 17 == 0) {  // unsupported as a failure (--unsupported-fails)
    r.verdict = Verdict::kUnsupported;
    r.failure = true;
  }
  return r;
}

// Whether Made(i) is spooled: it does not fail (its verdict is pass, unsupported or
// unspecified_ok) and carries nothing else.
bool Spooled(size_t i) { return i % 7 != 0 && (i % 11 == 0 || i % 13 == 0 || i % 17 != 0); }

void ExpectSame(const CaseResult& want, const CaseResult& got, size_t i) {
  EXPECT_EQ(got.id, want.id) << i;
  EXPECT_EQ(got.op, want.op) << i;
  EXPECT_EQ(got.type, want.type) << i;
  EXPECT_EQ(got.rank, want.rank) << i;
  EXPECT_EQ(got.expected, want.expected) << i;
  EXPECT_EQ(got.rule, want.rule) << i;
  EXPECT_EQ(got.lane, want.lane) << i;
  EXPECT_EQ(got.verdict, want.verdict) << i;
  EXPECT_EQ(got.detail, want.detail) << i;
  EXPECT_EQ(got.failure, want.failure) << i;
}

// n results written by two threads, each a Writer per chunk of 1000 (the lanes' way), chunks
// taken alternately so that neither thread's chunks are contiguous.
ResultList Written(ResultList list, size_t n) {
  list.resize(n);
  constexpr size_t kChunk = 1000;
  std::vector<std::thread> threads;
  for (size_t t = 0; t < 2; ++t) {
    threads.emplace_back([&list, n, t] {
      for (size_t begin = t * kChunk; begin < n; begin += 2 * kChunk) {
        ResultList::Writer w(list);
        for (size_t i = begin; i < std::min(n, begin + kChunk); ++i) w.Put(i, Made(i));
      }
    });
  }
  for (std::thread& t : threads) t.join();
  return list;
}

// Every way of reading gives the results written: operator[] (in order, backwards, and from the
// middle), iteration, ForEach over a range, VerdictAt; ForEachHeld walks exactly the results
// that are held: the results that are not plain passes when `spooled`, else every one.
void ExpectReadsBack(const ResultList& list, size_t n, bool spooled) {
  ASSERT_EQ(list.size(), n);
  for (size_t i = 0; i < n; ++i) ExpectSame(Made(i), list[i], i);
  for (size_t i = n; i-- > 0;) {
    if (i % 97 == 0) ExpectSame(Made(i), list[i], i);
  }
  size_t i = 0;
  for (const CaseResult& r : list) {
    ExpectSame(Made(i), r, i);
    ++i;
  }
  EXPECT_EQ(i, n);
  size_t next = n / 3;
  list.ForEach(n / 3, n / 2, [&](size_t k, const CaseResult& r) {
    EXPECT_EQ(k, next++);
    ExpectSame(Made(k), r, k);
  });
  EXPECT_EQ(next, n / 2);
  size_t held = 0, plain = 0;
  for (size_t k = 0; k < n; ++k) {
    EXPECT_EQ(list.VerdictAt(k), Made(k).verdict) << k;
    const bool is_plain = Spooled(k);
    EXPECT_EQ(IsPlainResult(Made(k)), is_plain) << k;
    plain += is_plain;
    EXPECT_EQ(list.Held(k) == nullptr, spooled && is_plain) << k;
  }
  size_t last = 0;
  list.ForEachHeld([&](size_t k, const CaseResult& r) {
    if (held > 0) {
      EXPECT_GT(k, last);
    }
    last = k;
    ++held;
    ExpectSame(Made(k), r, k);
  });
  EXPECT_EQ(held, spooled ? n - plain : n);
  EXPECT_GT(plain, n / 2);
}

TEST(ResultList, HeldAndSpooledReadBackTheResultsWritten) {
  constexpr size_t kN = 20000;  // several 256 KiB blocks
  ExpectReadsBack(Written(ResultList(), kN), kN, false);
  const ResultList spooled = Written(ResultList::Spooling(), kN);
  EXPECT_TRUE(spooled.spooling());
  ExpectReadsBack(spooled, kN, true);
  // A copy reads the same spool.
  const ResultList copy = spooled;
  ExpectSame(Made(12345), copy[12345], 12345);
}

// A result set again (a budget's skip) or changed (a shrunk failure) is held from then on and
// read instead of its spooled record; the results around it are unchanged.
TEST(ResultList, SetAndMutableHoldTheResult) {
  constexpr size_t kN = 3000;
  ResultList list = Written(ResultList::Spooling(), kN);
  ASSERT_EQ(list.Held(1), nullptr);
  CaseResult skip = Made(1);
  skip.verdict = Verdict::kSkippedAfterHangs;
  list.Set(1, skip);
  ASSERT_NE(list.Held(1), nullptr);
  EXPECT_EQ(list[1].verdict, Verdict::kSkippedAfterHangs);
  EXPECT_EQ(list.VerdictAt(1), Verdict::kSkippedAfterHangs);
  ASSERT_EQ(list.Held(2), nullptr);
  list.Mutable(2).repro = "dmconf run --case-id case/2";
  ASSERT_NE(list.Held(2), nullptr);
  EXPECT_EQ(list[2].repro, "dmconf run --case-id case/2");
  EXPECT_EQ(list[2].id, Made(2).id);
  size_t i = 0;
  for (const CaseResult& r : list) {
    if (i > 2) ExpectSame(Made(i), r, i);
    ++i;
  }
  list.push_back(Made(kN));
  ASSERT_EQ(list.size(), kN + 1);
  ExpectSame(Made(kN), list.back(), kN);
}

// The open file descriptors of this process.
size_t OpenFiles() {
  size_t n = 0;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    (void)entry;
    ++n;
  }
  return n;
}

// A list's spool file is closed when the last copy of the list is gone, also after this
// thread read it by index (a read keeps its place for the next, not the file).
TEST(ResultList, TheSpoolIsClosedWithItsList) {
  const size_t before = OpenFiles();
  {
    const ResultList list = Written(ResultList::Spooling(), 3000);
    EXPECT_EQ(OpenFiles(), before + 1);
    ExpectSame(Made(2000), list[2000], 2000);
    ExpectSame(Made(1), list[1], 1);
  }
  EXPECT_EQ(OpenFiles(), before);
  // A list made afterwards (perhaps at the same address) is read as itself.
  const ResultList next = Written(ResultList::Spooling(), 3000);
  for (size_t i = 0; i < 3000; i += 7) ExpectSame(Made(i), next[i], i);
}

// No spool file can be made ($TMPDIR is not a folder): every result is held.
TEST(ResultList, WithoutASpoolFileEveryResultIsHeld) {
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old != nullptr ? old : "";
  setenv("TMPDIR", "/proc/self/status/not-a-folder", 1);
  ResultList list = ResultList::Spooling();
  if (old != nullptr) {
    setenv("TMPDIR", saved.c_str(), 1);
  } else {
    unsetenv("TMPDIR");
  }
  list = Written(std::move(list), 2500);
  for (size_t i = 0; i < 2500; ++i) ASSERT_NE(list.Held(i), nullptr) << i;
  ExpectReadsBack(list, 2500, false);
}

// The spool cannot grow (a file-size limit stands in for a full disk): the blocks not written
// are held, and every result still reads back.
TEST(ResultList, ABlockNotWrittenIsHeld) {
  rlimit before{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &before), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = before;
  small.rlim_cur = 300 << 10;  // about one block
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  ResultList list = Written(ResultList::Spooling(), 20000);
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &before), 0);
  std::signal(SIGXFSZ, old_handler);
  size_t held_plain = 0;
  for (size_t i = 0; i < 20000; ++i) {
    held_plain += list.Held(i) != nullptr && Spooled(i);
  }
  EXPECT_GT(held_plain, 10000u);  // most blocks were not written
  for (size_t i = 0; i < 20000; ++i) ExpectSame(Made(i), list[i], i);
  size_t i = 0;
  for (const CaseResult& r : list) {
    ExpectSame(Made(i), r, i);
    ++i;
  }
}

}  // namespace
}  // namespace dmconf
