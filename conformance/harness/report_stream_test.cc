// The streamed report writers (harness/report/report.h StreamJsonReport, StreamJunit) and the
// streaming atomic writer under them (harness/base/files.h AtomicFileWriter):
// - the streamed JSON report is byte for byte the dump of the whole document (JsonReport, a
//   separate path through nlohmann's DOM), for runs with every optional part of a case, no
//   case, no backend, and bytes that are not UTF-8;
// - the memory the writers hold while they write does not grow with the number of cases
//   (the heap in use, read at every piece they write, stays within a bound fixed in advance);
// - an AtomicFileWriter publishes only on Commit; abandoned, it leaves the target untouched and
//   no temporary behind.
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/base/files.h"
#include "harness/report/report.h"
#include "harness/report/report_reader.h"

namespace dmconf {
namespace {

namespace fs = std::filesystem;

CaseResult Passing(int i) {
  CaseResult c;
  c.id = absl::StrCat("sweep/valid/d2s.f32.1x8x2x2.b2.blocks_first.pos.s1i", i);
  c.op = i % 2 == 0 ? Op::kDepthToSpace : Op::kSpaceToBatch;
  c.type = ElementType::kF32;
  c.rank = 4;
  c.expected = ExpectedClass::kValid;
  c.verdict = Verdict::kPass;
  return c;
}

// A failing case with every optional part the report writes.
CaseResult Rich(const KnownFailure* known) {
  CaseResult c = Passing(7);
  c.verdict = Verdict::kWrongValues;
  c.failure = known == nullptr;
  c.known = known;
  c.rule = "d2s.block_size.positive";
  c.detail = "bad byte \xff here, and \"quotes\" <tags> & a\ttab";
  c.invocation = Invocation{"block_size=2 mode=blocks_first",
                            {{"data", ElementType::kF32, {1, 8, 2, 2}, ""},
                             {"block_shape", ElementType::kI64, {}, "?[4]"}}};
  Mismatch m;
  m.index = {0, 1, 2, 3};
  m.expected_bits = 0x3f800000;
  m.actual_bits = 0x40000000;
  m.differing = 3;
  m.total = 32;
  m.shape = {1, 2, 4, 4};
  m.listed = {{5, 0x3f800000, 0x40000000}, {6, 0, 0x7fc00000}};
  c.mismatch = m;
  c.diagnosis = Diagnosis{"depth.mode_swapped", "the modes swapped", true};
  c.vector_file = "failures/x.json";
  c.repro = "dmconf run --backend x --vectors failures/x.json";
  c.lane = CaseLane::kShapePartial;
  c.replays = CaseResult::Replays{5, 2, Verdict::kCrash};
  CaseResult::Witness w;
  w.instance = "data [1,8,6], block_shape [1,1] (not constant): output [1,2,12]";
  w.output = {1, 2, 12};
  w.case_file = "failures/x.witness.json";
  w.repro = "dmconf run --backend x --vectors failures/x.witness.json";
  c.witness = w;
  CaseResult::Shrunk s;
  s.id = "shrunk/1";
  s.vector_file = "failures/s.json";
  s.repro = "dmconf run --vectors failures/s.json";
  s.from_elements = 1080;
  s.to_elements = 4;
  s.case_text = "block_size=2; data f32 1..3,?";
  s.thresholds = {{"block_size", 5, 4}, {"dim 1", 3, 0}};
  s.attempts = 12;
  s.budget_exhausted = true;
  s.diagnosis = Diagnosis{"depth.mode_swapped", "shrunk summary", false};
  s.source_map = CaseResult::Shrunk::SourceMap{{1, 2}, {1, 2}, {1, 0}, {0, -1}};
  c.shrunk = s;
  return c;
}

std::string Streamed(const ReportInput& in) {
  std::string text;
  StreamJsonReport(in,
                   [&text](absl::string_view piece) { text.append(piece.data(), piece.size()); });
  return text;
}

struct Fixture {
  KnownFailure known{
      "k.json: /known_failures/0", "b", "*", "", Verdict::kWrongValues, "known reason",
      "https://example.org/1"};
  std::vector<BackendRun> runs;
  ReportInput in;
  Fixture() {
    BackendRun a;
    a.backend = "alpha";
    a.library = "./libalpha.so";
    a.capabilities.ops.push_back(
        {Op::kDepthToSpace, {ElementType::kF32}, 4, 4, {"blocks_first"}, ""});
    a.capabilities.infer_static = true;
    for (int i = 0; i < 5; ++i) a.results.push_back(Passing(i));
    a.results.push_back(Rich(nullptr));
    a.results.push_back(Rich(&known));
    a.slices = DeclaredSlices(a.capabilities);
    a.seconds = 1.5;
    BackendRun b;  // did not start: no case at all
    b.backend = "beta";
    b.startup_error = "no such library";
    b.capabilities.kernels = false;
    runs = {a, b};
    in.runs = &runs;
    in.options = {{"seed", 1}, {"nested", {{"cases", nlohmann::ordered_json::array()}}}};
    in.run_info = DefaultRunInfo("dmconf run \xfe");
    in.file_errors = {{"v/bad.json", "vector.field.type", "v/bad.json: bad"}};
    in.stale = {{&known}};
    in.mutants = {{"alpha", "a mutant", {Verdict::kWrongValues}}};
  }
};

// How many times `needle` occurs in `text`.
int Occurrences(const std::string& text, const std::string& needle) {
  int n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++n;
  }
  return n;
}

TEST(StreamJsonReport, SameBytesAsTheWholeDocument) {
  Fixture f;
  EXPECT_EQ(Streamed(f.in), JsonReportText(f.in));
  // No file errors, stale entries or mutants: no key after "backends".
  f.in.file_errors.clear();
  f.in.stale.clear();
  f.in.mutants.clear();
  EXPECT_EQ(Streamed(f.in), JsonReportText(f.in));
  // One backend with cases, one without, and none at all.
  std::vector<BackendRun> one = {f.runs[0]}, none_started = {f.runs[1]}, no_runs;
  for (std::vector<BackendRun>* runs : {&one, &none_started, &no_runs}) {
    f.in.runs = runs;
    EXPECT_EQ(Streamed(f.in), JsonReportText(f.in)) << runs->size();
  }
}

// Every part of a failing case, the witness of an unsound_shape included, is read back as it
// was written (DecodeCase, the counterpart of CaseJson), and the reader refuses a witness
// without its instance.
TEST(CaseJson, EveryPartComesBackFromTheReader) {
  CaseResult c = Rich(nullptr);
  c.id = "shape/partial/1";  // Rich's id and detail hold bytes that are not UTF-8
  c.detail = "answered [1,2,11]";
  const nlohmann::ordered_json j = CaseJson(c);
  ASSERT_TRUE(j.contains("witness"));
  EXPECT_EQ(j["witness"]["output"], nlohmann::ordered_json::parse("[1,2,12]"));
  std::deque<KnownFailure> known;
  const nlohmann::json plain = nlohmann::json::parse(j.dump());
  absl::StatusOr<CaseResult> back = DecodeCase(plain, io::JsonLoc{"t.json", ""}, known);
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_TRUE(back->witness.has_value());
  EXPECT_EQ(back->witness->instance, c.witness->instance);
  EXPECT_EQ(back->witness->output, c.witness->output);
  EXPECT_EQ(back->witness->case_file, c.witness->case_file);
  EXPECT_EQ(back->witness->repro, c.witness->repro);
  EXPECT_EQ(CaseJson(*back).dump(), j.dump());
  nlohmann::json bad = plain;
  bad["witness"].erase("instance");
  absl::StatusOr<CaseResult> refused = DecodeCase(bad, io::JsonLoc{"t.json", ""}, known);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("witness"), absl::string_view::npos)
      << refused.status();
}

// Every integer the reader keeps is an int64: one past INT64_MAX is refused where it stands,
// as a member (mismatch.total) and as an element of a list (mismatch.index), never wrapped.
TEST(CaseJson, TheReaderRefusesIntegersPastInt64) {
  CaseResult c = Rich(nullptr);
  c.id = "depth/1";  // Rich's id and detail hold bytes that are not UTF-8
  c.detail = "wrong values";
  const nlohmann::json good = nlohmann::json::parse(CaseJson(c).dump());
  ASSERT_TRUE(good.contains("mismatch"));
  std::deque<KnownFailure> known;
  const uint64_t past = uint64_t{1} << 63;  // INT64_MAX + 1
  for (const std::string pointer : {"/mismatch/total", "/mismatch/index/0"}) {
    nlohmann::json bad = good;
    bad[nlohmann::json::json_pointer(pointer)] = past;
    absl::StatusOr<CaseResult> r = DecodeCase(bad, io::JsonLoc{"t.json", ""}, known);
    ASSERT_FALSE(r.ok()) << pointer;
    EXPECT_EQ(r.status().message(), "report.field.type: t.json: " + pointer + ": too large");
  }
}

// A case without the parts of a failure is written without nlohmann's DOM (report.cc
// CaseText): its strings, escaped or not, its lanes, ranks and optional keys must still give
// the dump's bytes.
TEST(StreamJsonReport, PlainCasesGiveTheDumpsBytes) {
  Fixture f;
  const std::vector<std::string> texts = {"",
                                          "plain text",
                                          "a \"quote\"",
                                          "back\\slash",
                                          "tab\there",
                                          "nl\nx",
                                          "\x01\x1f control",
                                          "del \x7f",
                                          "caf\xc3\xa9",
                                          "bad \xff\xfe"
                                          " byte",
                                          "\xe2\x82",
                                          "/slash"};
  BackendRun& a = f.runs[0];
  a.results.clear();
  for (size_t i = 0; i < texts.size(); ++i) {
    CaseResult c = Passing(static_cast<int>(i));
    c.id = absl::StrCat(texts[i], "/", i);
    c.rule = texts[(i + 1) % texts.size()];
    c.detail = texts[(i + 2) % texts.size()];
    c.rank = static_cast<int>(i) - 1;
    c.failure = i % 3 == 0;
    c.verdict = i % 3 == 0 ? Verdict::kWrongShape : Verdict::kPass;
    c.expected = i % 2 == 0 ? ExpectedClass::kMustReject : ExpectedClass::kValid;
    c.lane = i % 3 == 0   ? CaseLane::kKernel
             : i % 3 == 1 ? CaseLane::kShapeStatic
                          : CaseLane::kShapePartial;
    if (i % 4 == 1) c.vector_file = texts[(i + 3) % texts.size()];
    if (i % 4 == 2) c.repro = texts[(i + 4) % texts.size()];
    a.results.push_back(c);
  }
  const std::string streamed = Streamed(f.in);
  EXPECT_EQ(streamed, JsonReportText(f.in));
  // The text parses back, and the escaped strings survive (the bad bytes become U+FFFD).
  const nlohmann::json back = nlohmann::json::parse(streamed);
  EXPECT_EQ(back["backends"][0]["cases"][2]["id"], "a \"quote\"/2");
  EXPECT_EQ(back["backends"][0]["cases"][9]["id"], "bad \xef\xbf\xbd\xef\xbf\xbd byte/9");
  EXPECT_EQ(back["backends"][0]["cases"][1]["lane"], "shape_static");
  EXPECT_EQ(back["backends"][0]["cases"][0]["rank"], -1);
}

// With ReportInput::threads, the held results' texts are made in blocks of 8192 by several
// threads: the bytes stay the dump's, in case order, across block edges and with a rich case
// in each block.
TEST(StreamJsonReport, ThreadsGiveTheSameBytes) {
  Fixture f;
  BackendRun& a = f.runs[0];
  a.results.clear();
  for (int i = 0; i < 20000; ++i) {
    a.results.push_back(i % 7919 == 5 ? Rich(i % 2 == 0 ? &f.known : nullptr) : Passing(i));
  }
  const std::string whole = JsonReportText(f.in);
  for (int threads : {1, 2, 3}) {
    f.in.threads = threads;
    EXPECT_EQ(Streamed(f.in), whole) << threads << " threads";
  }
}

TEST(StreamJsonReport, FileHoldsTheSameBytes) {
  Fixture f;
  const std::string dir = ::testing::TempDir() + "/report_stream_" + std::to_string(getpid());
  const std::string path = dir + "/out/report.json";
  ASSERT_TRUE(WriteJsonReport(path, f.in).ok());
  absl::StatusOr<std::string> back = io::ReadFileToString(path, 1 << 20);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, JsonReportText(f.in));
  ASSERT_TRUE(WriteJunit(dir + "/out/junit.xml", f.in).ok());
  absl::StatusOr<std::string> xml = io::ReadFileToString(dir + "/out/junit.xml", 1 << 20);
  ASSERT_TRUE(xml.ok()) << xml.status();
  EXPECT_EQ(*xml, JunitXml(f.in));
  // Hand-checked parts of the JUnit text: per-op suites with their counts, in Op order
  // (SpaceToBatch: cases 1 and 3, the new failure and the known one; DepthToSpace: 0, 2, 4).
  EXPECT_NE(xml->find("<testsuite name=\"alpha.SpaceToBatch\" tests=\"4\" failures=\"1\" "
                      "errors=\"0\" skipped=\"1\">"),
            std::string::npos)
      << *xml;
  EXPECT_NE(xml->find("<testsuite name=\"alpha.DepthToSpace\" tests=\"3\" failures=\"0\" "
                      "errors=\"0\" skipped=\"0\">"),
            std::string::npos)
      << *xml;
  EXPECT_LT(xml->find("alpha.SpaceToBatch"), xml->find("alpha.DepthToSpace"));
  fs::remove_all(dir);
}

// The JUnit file against what the fixture must give, derived by hand from it and from JUnit's
// elements, not from JunitXml: alpha's 7 cases and the one unreadable vector file are 8
// <testcase>s; the new failure is the one <failure>, the known failure the one <skipped>, the
// vector file the one <error>; beta, which ran no case, has no testsuite. A passing case is an
// empty element; the others close theirs.
TEST(StreamJunit, FileHoldsTheHandDerivedElements) {
  Fixture f;
  const std::string dir = ::testing::TempDir() + "/junit_hand_" + std::to_string(getpid());
  ASSERT_TRUE(WriteJunit(dir + "/junit.xml", f.in).ok());
  absl::StatusOr<std::string> read = io::ReadFileToString(dir + "/junit.xml", 1 << 20);
  ASSERT_TRUE(read.ok()) << read.status();
  const std::string& xml = *read;
  EXPECT_EQ(
      xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"dmconf\">\n", 0),
      0u)
      << xml;
  EXPECT_EQ(Occurrences(xml, "<testsuite "), 3) << xml;
  EXPECT_EQ(Occurrences(xml, "</testsuite>"), 3) << xml;
  EXPECT_EQ(Occurrences(xml, "<testcase "), 8) << xml;
  EXPECT_EQ(Occurrences(xml, "</testcase>"), 3) << xml;
  EXPECT_EQ(Occurrences(xml, "<failure "), 1) << xml;
  EXPECT_EQ(Occurrences(xml, "<skipped "), 1) << xml;
  EXPECT_EQ(Occurrences(xml, "<error "), 1) << xml;
  EXPECT_EQ(Occurrences(xml, "beta"), 0) << xml;
  const std::string id = "sweep/valid/d2s.f32.1x8x2x2.b2.blocks_first.pos.s1i";
  EXPECT_NE(xml.find("    <testcase classname=\"alpha.DepthToSpace\" name=\"" + id + "4\"/>\n"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("    <testcase classname=\"alpha.SpaceToBatch\" name=\"" + id +
                     "7\">\n      <skipped message=\"known failure (wrong_values): known "
                     "reason\"/>\n    </testcase>\n"),
            std::string::npos)
      << xml;
  // The new failure: its verdict, its detail with XML's five escapes, and a body of the detail,
  // diagnosis, repro and the shrunk case's repro and diagnosis.
  EXPECT_NE(xml.find("      <failure type=\"wrong_values\" message=\"bad byte "), std::string::npos)
      << xml;
  EXPECT_NE(xml.find("and &quot;quotes&quot; &lt;tags&gt; &amp; a\ttab\">"), std::string::npos)
      << xml;
  EXPECT_NE(xml.find("\ndiagnosis: the modes swapped\nrepro: dmconf run --backend x --vectors "
                     "failures/x.json\nshrunk ("),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("): dmconf run --vectors failures/s.json\nshrunk diagnosis: shrunk "
                     "summary</failure>\n    </testcase>\n"),
            std::string::npos)
      << xml;
  EXPECT_TRUE(absl::EndsWith(
      xml,
      "  <testsuite name=\"vector-files\" tests=\"1\" failures=\"0\" errors=\"1\" "
      "skipped=\"0\">\n    <testcase classname=\"vector-files\" name=\"v/bad.json\">\n      "
      "<error type=\"vector.field.type\" message=\"v/bad.json: bad\"/>\n    </testcase>\n  "
      "</testsuite>\n</testsuites>\n"))
      << xml;
  fs::remove_all(dir);
}

int64_t HeapInUse() {
  const struct mallinfo2 m = mallinfo2();
  return static_cast<int64_t>(m.uordblks + m.hblkhd);
}

// The most heap in use, above what it was before writing, at any piece a writer hands out.
int64_t WriterPeak(const std::vector<BackendRun>& runs, bool junit) {
  ReportInput in;
  in.runs = &runs;
  in.options = {{"seed", 1}};
  in.run_info = {{"time", "t"}};
  const int64_t before = HeapInUse();
  int64_t peak = 0;
  size_t bytes = 0;
  const TextSink sink = [&](absl::string_view piece) {
    bytes += piece.size();
    peak = std::max(peak, HeapInUse() - before);
  };
  junit ? StreamJunit(in, sink) : StreamJsonReport(in, sink);
  EXPECT_GT(bytes, runs[0].results.size() * 100);
  return peak;
}

// What a writer holds while writing must not depend on the number of cases: writing 4N cases
// may not take more than a fixed 256 KiB above writing N (whole-document writers take some
// hundred bytes per case: 8 MB more here).
TEST(StreamedWriters, MemoryDoesNotGrowWithCases) {
  constexpr int kN = 5000;
  std::vector<BackendRun> small(1), large(1);
  small[0].backend = large[0].backend = "oracle";
  for (int i = 0; i < 4 * kN; ++i) {
    if (i < kN) small[0].results.push_back(Passing(i));
    large[0].results.push_back(Passing(i));
  }
  small[0].results.push_back(Rich(nullptr));
  large[0].results.push_back(Rich(nullptr));
  for (bool junit : {false, true}) {
    const int64_t n = WriterPeak(small, junit), n4 = WriterPeak(large, junit);
    EXPECT_LT(n4, n + 256 * 1024) << (junit ? "junit" : "json") << ": N " << n << ", 4N " << n4;
    EXPECT_LT(n4, 1 << 20) << (junit ? "junit" : "json");
  }
}

// TallyOf in several threads (each range into a tally of its own, merged) gives the figures of
// counting the cases one by one, derived here by hand from how the cases are made.
TEST(TallyOf, ThreadsGiveTheFiguresOfCountingOneByOne) {
  KnownFailure known{"k.json: /known_failures/0", "b", "*", "", Verdict::kWrongValues, "", ""};
  BackendRun run;
  // Case i: depth_to_space when i is even, else space_to_batch (Passing); by i % 10: 1
  // unsupported, 3 a new wrong_values failure, 7 a known one, else a pass; the shape lane when
  // i % 4 == 0 (all depth_to_space passes): static when i % 8 == 0, else partial.
  for (int i = 0; i < 3000; ++i) {
    CaseResult c = Passing(i);
    if (i % 10 == 1) c.verdict = Verdict::kUnsupported;
    if (i % 10 == 3 || i % 10 == 7) c.verdict = Verdict::kWrongValues;
    c.failure = i % 10 == 3;
    if (i % 10 == 7) c.known = &known;
    if (i % 4 == 0) c.lane = i % 8 == 0 ? CaseLane::kShapeStatic : CaseLane::kShapePartial;
    run.results.push_back(c);
  }
  for (int threads : {1, 2, 3, 8}) {
    const CaseTally t = TallyOf(run, threads);
    EXPECT_EQ(t.cases, 3000) << threads;
    EXPECT_EQ(t.failures, 300) << threads;
    EXPECT_EQ(t.known, 300) << threads;
    EXPECT_EQ(t.run, 2700) << threads;
    EXPECT_EQ(t.ok, 2100) << threads;
    using OkRun = std::pair<int64_t, int64_t>;
    EXPECT_EQ(t.pass_by_op.at(Op::kDepthToSpace), OkRun(1500, 1500)) << threads;
    EXPECT_EQ(t.pass_by_op.at(Op::kSpaceToBatch), OkRun(600, 1200)) << threads;
    const std::map<Verdict, int64_t> s2b = {
        {Verdict::kPass, 600}, {Verdict::kUnsupported, 300}, {Verdict::kWrongValues, 600}};
    EXPECT_EQ(t.counts.at(Op::kSpaceToBatch).at(ElementType::kF32), s2b) << threads;
    EXPECT_EQ(t.failing.at(Verdict::kWrongValues), 600) << threads;
    EXPECT_EQ(t.suites.at(Op::kSpaceToBatch).skipped, 600) << threads;  // unsupported + known
    EXPECT_EQ(t.cells.at({Op::kDepthToSpace, ElementType::kF32, 4, "shape"}).passed, 750)
        << threads;
    EXPECT_EQ(t.cells.at({Op::kDepthToSpace, ElementType::kF32, 4, "kernel"}).passed, 750)
        << threads;
    EXPECT_EQ(t.unsupported, 300) << threads;  // i % 10 == 1, none of them a failure
    const std::map<CaseLane, std::map<Verdict, int64_t>> shape_lanes = {
        {CaseLane::kShapeStatic, {{Verdict::kPass, 375}}},
        {CaseLane::kShapePartial, {{Verdict::kPass, 375}}}};
    EXPECT_EQ(t.shape_lanes, shape_lanes) << threads;
  }
}

TEST(AtomicFileWriter, PublishesOnlyOnCommit) {
  const std::string dir = ::testing::TempDir() + "/atomic_writer_" + std::to_string(getpid());
  fs::create_directories(dir);
  const std::string path = dir + "/f.txt";
  ASSERT_TRUE(io::WriteFileAtomically(path, "old").ok());
  {
    absl::StatusOr<io::AtomicFileWriter> w = io::AtomicFileWriter::Open(path);
    ASSERT_TRUE(w.ok()) << w.status();
    w->Append("half of a new file");
    // Destroyed without Commit.
  }
  EXPECT_EQ(*io::ReadFileToString(path, 100), "old");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  {
    absl::StatusOr<io::AtomicFileWriter> w = io::AtomicFileWriter::Open(path);
    ASSERT_TRUE(w.ok()) << w.status();
    const std::string big(3 << 20, 'x');  // larger than the writer's buffer
    w->Append("a");
    w->Append(big);
    w->Append("b");
    ASSERT_TRUE(w->Commit().ok());
    EXPECT_EQ(*io::ReadFileToString(path, 4 << 20), "a" + big + "b");
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dmconf
