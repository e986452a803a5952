// The case record's field guard: every field of a CaseResult (runner/case_result.h) and of the
// parts it holds is carried by each route a result takes, or is named here as one the route
// leaves out, with why:
// - the report: CaseJson writes it and DecodeCase reads it back (report.h, report_reader.h);
// - the spool: a plain result (IsPlainResult) is written to a spooling ResultList's file and
//   read back (result_list.h); every part a failing case sets keeps a result out of the spool.
//
// The guard is at compile time: each struct is taken apart by a structured binding, which
// names every field and does not compile once a field is added. A new field therefore stops
// the build here, where its routes are checked, not in a report that silently lost it.
#include <deque>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "harness/report/report.h"
#include "harness/report/report_reader.h"
#include "harness/runner/result_list.h"

namespace dmconf {
namespace {

// What differs between a result written and the one read back, one line per field.
struct Differences {
  std::vector<std::string> lines;
  template <typename T>
  void Field(const std::string& name, const T& written, const T& read) {
    if (!(written == read)) lines.push_back(name);
  }
};

void Same(Differences& d, const std::string& at, const WrongElement& w, const WrongElement& r) {
  const auto& [flat, expected_bits, actual_bits] = w;
  d.Field(at + ".flat", flat, r.flat);
  d.Field(at + ".expected_bits", expected_bits, r.expected_bits);
  d.Field(at + ".actual_bits", actual_bits, r.actual_bits);
}

void Same(Differences& d, const Mismatch& w, const Mismatch& r) {
  const auto& [index, expected_bits, actual_bits, differing, total, shape, listed] = w;
  d.Field("mismatch.index", index, r.index);
  d.Field("mismatch.expected_bits", expected_bits, r.expected_bits);
  d.Field("mismatch.actual_bits", actual_bits, r.actual_bits);
  d.Field("mismatch.differing", differing, r.differing);
  d.Field("mismatch.total", total, r.total);
  d.Field("mismatch.shape", shape, r.shape);
  d.Field("mismatch.listed.size", listed.size(), r.listed.size());
  for (size_t i = 0; i < listed.size() && i < r.listed.size(); ++i) {
    Same(d, absl::StrCat("mismatch.listed[", i, "]"), listed[i], r.listed[i]);
  }
}

void Same(Differences& d, const std::string& at, const Diagnosis& w, const Diagnosis& r) {
  const auto& [mistake, summary, from_twin] = w;
  d.Field(at + ".mistake", mistake, r.mistake);
  d.Field(at + ".summary", summary, r.summary);
  d.Field(at + ".from_twin", from_twin, r.from_twin);
}

void Same(Differences& d, const Invocation& w, const Invocation& r) {
  const auto& [attributes, inputs] = w;
  d.Field("invocation.attributes", attributes, r.attributes);
  d.Field("invocation.inputs.size", inputs.size(), r.inputs.size());
  for (size_t i = 0; i < inputs.size() && i < r.inputs.size(); ++i) {
    const auto& [name, type, shape, partial_shape] = inputs[i];
    const std::string at = absl::StrCat("invocation.inputs[", i, "]");
    d.Field(at + ".name", name, r.inputs[i].name);
    d.Field(at + ".type", type, r.inputs[i].type);
    d.Field(at + ".shape", shape, r.inputs[i].shape);
    d.Field(at + ".partial_shape", partial_shape, r.inputs[i].partial_shape);
  }
}

void Same(Differences& d, const CaseResult::Shrunk& w, const CaseResult::Shrunk& r) {
  // Not in the report: `seconds`, the time shrinking took (it differs run to run; the shrink
  // budget spends it during the run and the text summary prints it).
  const auto& [id, vector_file, repro, from_elements, to_elements, case_text, thresholds, attempts,
               seconds, budget_exhausted, diagnosis, source_map] = w;
  static_cast<void>(seconds);
  d.Field("shrunk.id", id, r.id);
  d.Field("shrunk.vector_file", vector_file, r.vector_file);
  d.Field("shrunk.repro", repro, r.repro);
  d.Field("shrunk.from_elements", from_elements, r.from_elements);
  d.Field("shrunk.to_elements", to_elements, r.to_elements);
  d.Field("shrunk.case_text", case_text, r.case_text);
  d.Field("shrunk.thresholds.size", thresholds.size(), r.thresholds.size());
  for (size_t i = 0; i < thresholds.size() && i < r.thresholds.size(); ++i) {
    const auto& [what, fails_from, passes_at] = thresholds[i];
    const std::string at = absl::StrCat("shrunk.thresholds[", i, "]");
    d.Field(at + ".what", what, r.thresholds[i].what);
    d.Field(at + ".fails_from", fails_from, r.thresholds[i].fails_from);
    d.Field(at + ".passes_at", passes_at, r.thresholds[i].passes_at);
  }
  d.Field("shrunk.attempts", attempts, r.attempts);
  d.Field("shrunk.budget_exhausted", budget_exhausted, r.budget_exhausted);
  d.Field("shrunk.diagnosis.present", diagnosis.has_value(), r.diagnosis.has_value());
  if (diagnosis && r.diagnosis) Same(d, "shrunk.diagnosis", *diagnosis, *r.diagnosis);
  d.Field("shrunk.source_map.present", source_map.has_value(), r.source_map.has_value());
  if (source_map && r.source_map) {
    const auto& [shape, input_shape, holds, expected] = *source_map;
    d.Field("shrunk.source_map.shape", shape, r.source_map->shape);
    d.Field("shrunk.source_map.input_shape", input_shape, r.source_map->input_shape);
    d.Field("shrunk.source_map.holds", holds, r.source_map->holds);
    d.Field("shrunk.source_map.expected", expected, r.source_map->expected);
  }
}

void Same(Differences& d, const CaseResult::Witness& w, const CaseResult::Witness& r) {
  // Not in the report: `c`, the instance as a case; the report carries it as `instance` (its
  // text) and as the case file the run saved, which `case_file` names.
  const auto& [instance, output, case_file, repro, c] = w;
  static_cast<void>(c);
  d.Field("witness.instance", instance, r.instance);
  d.Field("witness.output", output, r.output);
  d.Field("witness.case_file", case_file, r.case_file);
  d.Field("witness.repro", repro, r.repro);
}

void Same(Differences& d, const CaseResult::Replays& w, const CaseResult::Replays& r) {
  const auto& [count, failed, first] = w;
  d.Field("replays.count", count, r.count);
  d.Field("replays.failed", failed, r.failed);
  d.Field("replays.first", first, r.first);
}

template <typename T, typename Part>
void SamePart(Differences& d, const std::string& name, const T& w, const T& r, Part same) {
  d.Field(name + ".present", w.has_value(), r.has_value());
  if (w.has_value() && r.has_value()) same(*w, *r);
}

// Every field of the report's case, compared; `plain_only`: the fields a spooled record holds.
Differences Compare(const CaseResult& w, const CaseResult& r, bool plain_only) {
  Differences d;
  const auto& [id, op, type, rank, expected, rule, verdict, detail, mismatch, diagnosis, invocation,
               failure, known, backend_output, vector_file, repro, shrunk, witness, replays, lane] =
      w;
  d.Field("id", id, r.id);
  d.Field("op", op, r.op);
  d.Field("type", type, r.type);
  d.Field("rank", rank, r.rank);
  d.Field("expected", expected, r.expected);
  d.Field("rule", rule, r.rule);
  d.Field("verdict", verdict, r.verdict);
  d.Field("detail", detail, r.detail);
  d.Field("lane", lane, r.lane);
  if (plain_only) return d;  // the rest is what IsPlainResult keeps out of the spool
  SamePart(d, "mismatch", mismatch, r.mismatch,
           [&](const Mismatch& a, const Mismatch& b) { Same(d, a, b); });
  SamePart(d, "diagnosis", diagnosis, r.diagnosis,
           [&](const Diagnosis& a, const Diagnosis& b) { Same(d, "diagnosis", a, b); });
  SamePart(d, "invocation", invocation, r.invocation,
           [&](const Invocation& a, const Invocation& b) { Same(d, a, b); });
  d.Field("failure", failure, r.failure);
  // The report carries a known entry's reason and link (where it was read from is the
  // expectations file's business, not the report's).
  d.Field("known.present", known != nullptr, r.known != nullptr);
  if (known != nullptr && r.known != nullptr) {
    d.Field("known.reason", known->reason, r.known->reason);
    d.Field("known.link", known->link, r.known->link);
  }
  SamePart(d, "backend_output", backend_output, r.backend_output,
           [&](const std::string& a, const std::string& b) { d.Field("backend_output", a, b); });
  d.Field("vector_file", vector_file, r.vector_file);
  d.Field("repro", repro, r.repro);
  SamePart(d, "shrunk", shrunk, r.shrunk,
           [&](const CaseResult::Shrunk& a, const CaseResult::Shrunk& b) { Same(d, a, b); });
  SamePart(d, "witness", witness, r.witness,
           [&](const CaseResult::Witness& a, const CaseResult::Witness& b) { Same(d, a, b); });
  SamePart(d, "replays", replays, r.replays,
           [&](const CaseResult::Replays& a, const CaseResult::Replays& b) { Same(d, a, b); });
  return d;
}

// A shape-lane case: every field of the plain record differs from its default.
CaseResult Plain() {
  CaseResult c;
  c.id = "shape/partial/s2b.i32.1x?.pos.s7i3";
  c.op = Op::kSpaceToBatch;
  c.type = ElementType::kI32;
  c.rank = 2;
  c.expected = ExpectedClass::kUnspecified;
  c.rule = "s2b.pads.sum_divisible";
  c.verdict = Verdict::kUnspecifiedOk;
  c.detail = "answered [2,?]";
  c.lane = CaseLane::kShapePartial;
  return c;
}

// Every field, and every field of every part, set to a value other than its default.
CaseResult Every(const KnownFailure* known) {
  CaseResult c = Plain();
  c.verdict = Verdict::kWrongValues;
  c.mismatch = Mismatch{{0, 1}, 0x7, 0x9, 3, 12, {2, 6}, {{1, 0x7, 0x9}, {4, 0x1, 0x2}}};
  c.diagnosis = Diagnosis{"s2b.fit.pads", "pads_begin applied at the end", true};
  c.invocation = Invocation{"block_shape=[1,2] pads_begin=[0,1] pads_end=[0,1]",
                            {{"data", ElementType::kI32, {1, 4}, "1,?"},
                             {"block_shape", ElementType::kI64, {2}, "?[2]"}}};
  c.failure = true;
  c.known = known;
  c.backend_output = std::string("kernel: tile 3\n");
  c.vector_file = "failures/s2b.json";
  c.repro = "dmconf run --backend x --vectors failures/s2b.json";
  CaseResult::Shrunk s;
  s.id = "shrunk/s2b.1";
  s.vector_file = "failures/s2b.min.json";
  s.repro = "dmconf run --backend x --vectors failures/s2b.min.json";
  s.from_elements = 96;
  s.to_elements = 4;
  s.case_text = "block_shape=[1,2]; data i32 1,?";
  s.thresholds = {{"dim 1", 6, 5}};
  s.attempts = 31;
  s.seconds = 0.25;
  s.budget_exhausted = true;
  s.diagnosis = Diagnosis{"s2b.fit.pads", "shrunk: pads_begin applied at the end", true};
  s.source_map = CaseResult::Shrunk::SourceMap{{2, 2}, {1, 4}, {1, 0, 3, 2}, {0, 1, 2, -1}};
  c.shrunk = s;
  CaseResult::Witness w;
  w.instance = "data [1,4], block_shape [1,2] (not constant): output [2,3]";
  w.output = {2, 3};
  w.case_file = "failures/s2b.witness.json";
  w.repro = "dmconf run --backend x --vectors failures/s2b.witness.json";
  c.witness = w;
  c.replays = CaseResult::Replays{4, 3, Verdict::kCrash};
  return c;
}

std::string Lines(const Differences& d) {
  std::string out;
  for (const std::string& l : d.lines) absl::StrAppend(&out, "  ", l, "\n");
  return out;
}

TEST(CaseRecord, EveryFieldComesBackFromTheReport) {
  const KnownFailure entry{
      "k.json: /known_failures/2",  "x", "shape/*", "", Verdict::kWrongValues, "a known reason",
      "https://example.org/known/2"};
  for (const KnownFailure* known : {static_cast<const KnownFailure*>(nullptr), &entry}) {
    const CaseResult written = Every(known);
    std::deque<KnownFailure> read_known;
    const nlohmann::json j = nlohmann::json::parse(CaseJson(written).dump());
    absl::StatusOr<CaseResult> read = DecodeCase(j, io::JsonLoc{"t.json", ""}, read_known);
    ASSERT_TRUE(read.ok()) << read.status();
    const Differences d = Compare(written, *read, false);
    EXPECT_TRUE(d.lines.empty()) << "lost on the way through the report:\n" << Lines(d);
  }
}

TEST(CaseRecord, EveryPlainFieldComesBackFromTheSpool) {
  ResultList list = ResultList::Spooling();
  ASSERT_TRUE(list.spooling());
  const CaseResult written = Plain();
  ASSERT_TRUE(IsPlainResult(written));
  list.resize(3);
  {
    ResultList::Writer w(list);
    for (size_t i = 0; i < 3; ++i) w.Put(i, written);
  }
  ASSERT_EQ(list.Held(1), nullptr) << "the plain result was not spooled";
  const Differences d = Compare(written, list[1], true);
  EXPECT_TRUE(d.lines.empty()) << "lost on the way through the spool:\n" << Lines(d);
}

// Each part that only a failing or noted case has, set alone on a plain result, keeps it held:
// the spool's record does not carry it.
TEST(CaseRecord, EveryPartTheSpoolDoesNotCarryKeepsTheResultHeld) {
  const KnownFailure entry{"k.json: /known_failures/0", "", "*", "", {}, "r", ""};
  const CaseResult every = Every(&entry);
  const std::vector<std::pair<std::string, void (*)(CaseResult&, const CaseResult&)>> parts = {
      {"mismatch", [](CaseResult& c, const CaseResult& e) { c.mismatch = e.mismatch; }},
      {"diagnosis", [](CaseResult& c, const CaseResult& e) { c.diagnosis = e.diagnosis; }},
      {"invocation", [](CaseResult& c, const CaseResult& e) { c.invocation = e.invocation; }},
      {"failure", [](CaseResult& c, const CaseResult& e) { c.failure = e.failure; }},
      {"known", [](CaseResult& c, const CaseResult& e) { c.known = e.known; }},
      {"backend_output",
       [](CaseResult& c, const CaseResult& e) { c.backend_output = e.backend_output; }},
      {"vector_file", [](CaseResult& c, const CaseResult& e) { c.vector_file = e.vector_file; }},
      {"repro", [](CaseResult& c, const CaseResult& e) { c.repro = e.repro; }},
      {"shrunk", [](CaseResult& c, const CaseResult& e) { c.shrunk = e.shrunk; }},
      {"witness", [](CaseResult& c, const CaseResult& e) { c.witness = e.witness; }},
      {"replays", [](CaseResult& c, const CaseResult& e) { c.replays = e.replays; }},
      {"a failing verdict", [](CaseResult& c, const CaseResult& e) { c.verdict = e.verdict; }},
  };
  ResultList list = ResultList::Spooling();
  list.resize(parts.size());
  {
    ResultList::Writer w(list);
    for (size_t i = 0; i < parts.size(); ++i) {
      CaseResult c = Plain();
      parts[i].second(c, every);
      EXPECT_FALSE(IsPlainResult(c)) << parts[i].first;
      w.Put(i, c);
    }
  }
  for (size_t i = 0; i < parts.size(); ++i) {
    ASSERT_NE(list.Held(i), nullptr) << parts[i].first << " was spooled";
    CaseResult expected = Plain();
    parts[i].second(expected, every);
    const Differences d = Compare(expected, *list.Held(i), false);
    EXPECT_TRUE(d.lines.empty()) << parts[i].first << ":\n" << Lines(d);
  }
}

}  // namespace
}  // namespace dmconf
