// The subprocess adapter protocol (dmconf-subprocess/1): encoding round trips, decoding errors,
// and the process side against fake_subprocess_adapter (greeting, bit-exact tensors of every
// element type, outcome mapping, garbage, a wrong case id, crash, hang, exit, missing command,
// another protocol version).
#include "conformance/backends/backend_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "harness/backends/subprocess/protocol.h"
#include "harness/backends/subprocess/subprocess_backend.h"
#include "harness/compare/shape_judge.h"
#include "harness/gen/partial.h"
#include "harness/runner/expectations.h"
#include "harness/runner/runner.h"
#include "harness/runner/shape_lane.h"

namespace dmconf {
namespace {

using ::dmconf::testing::DepthCase;
using ::dmconf::testing::PositionTensor;
using ::dmconf::testing::SpaceToBatchCase;
using ::testing::HasSubstr;
using ::testing::StartsWith;

SubprocessBackend Fake(int timeout_ms = 20000, std::string arg = "") {
  std::vector<std::string> argv = {DMCONF_FAKE_ADAPTER};
  if (!arg.empty()) argv.push_back(arg);
  return SubprocessBackend("fake", argv, SubprocessBackend::Options{timeout_ms});
}

OpCase Identity(ElementType t, std::string mode = "blocks_first") {
  OpCase c = DepthCase(Op::kDepthToSpace, PositionTensor(t, {1, 2, 3, 1}, true), 1, mode);
  c.id = absl::StrCat("identity_", ElementTypeName(t));
  return c;
}

TEST(SubprocessProtocol, RunRequestRoundTrips) {
  OpCase c = SpaceToBatchCase(PositionTensor(ElementType::kU4, {1, 3, 2, 1}), {1, 1, 2, 1},
                              {0, 0, 1, 0}, {0, 0, 1, 0});
  c.id = "s2b case";
  absl::StatusOr<OpCase> back = subprocess::DecodeRunRequest(subprocess::EncodeRunRequest(c));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->op, c.op);
  EXPECT_EQ(back->id, c.id);
  EXPECT_EQ(back->data, c.data);
  ASSERT_EQ(back->int_inputs.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(back->int_inputs[i], c.int_inputs[i]);
  EXPECT_THAT(subprocess::EncodeRunRequest(c), HasSubstr(R"("name":"pads_begin")"));
  EXPECT_THAT(subprocess::EncodeRunRequest(c), HasSubstr(R"("values":[1,1,2,1])"));
  EXPECT_EQ(subprocess::EncodeRunRequest(c).find('\n'), std::string::npos);
}

TEST(SubprocessProtocol, ResponseErrorsNameTheRule) {
  const auto error = [](const std::string& line) {
    absl::StatusOr<RunOutcome> r = subprocess::DecodeRunResponse(line, "a");
    return r.ok() ? std::string("ok") : std::string(r.status().message());
  };
  EXPECT_EQ(error(R"({"id":"a","outcome":"rejected","message":"no"})"), "ok");
  EXPECT_THAT(error("nope"), StartsWith("subprocess.protocol: "));
  EXPECT_THAT(error(R"({"id":"b","outcome":"rejected"})"), StartsWith("subprocess.protocol: "));
  EXPECT_THAT(error(R"({"id":"a","outcome":"maybe"})"), StartsWith("subprocess.protocol: "));
  EXPECT_THAT(error(R"({"id":7,"outcome":"rejected"})"), StartsWith("subprocess.protocol: "));
  // Bad base64, and 3 bytes for a [2] f16 tensor.
  EXPECT_THAT(
      error(R"({"id":"a","outcome":"output","output":{"type":"f16","shape":[2],"data":"!!"}})"),
      StartsWith("subprocess.protocol: "));
  EXPECT_THAT(
      error(R"({"id":"a","outcome":"output","output":{"type":"f16","shape":[2],"data":"AAAA"}})"),
      StartsWith("subprocess.protocol: "));
  EXPECT_THAT(
      error(R"({"id":"a","outcome":"output","output":{"type":"q9","shape":[1],"data":"AA=="}})"),
      StartsWith("subprocess.protocol: "));
}

TEST(SubprocessBackend, GreetsAndLearnsCapabilities) {
  SubprocessBackend b = Fake();
  EXPECT_EQ(b.Describe(), "fake 1");
  const Capabilities caps = b.GetCapabilities();
  ASSERT_EQ(caps.ops.size(), 1u);
  EXPECT_EQ(caps.ops[0].op, Op::kDepthToSpace);
  EXPECT_EQ(caps.ops[0].min_rank, 3);
  EXPECT_EQ(caps.ops[0].element_types.size(), AllElementTypes().size());
}

TEST(SubprocessBackend, TensorsOfEveryTypeComeBackBitExact) {
  SubprocessBackend b = Fake();
  for (ElementType t : AllElementTypes()) {
    const OpCase c = Identity(t);
    RunOutcome r = b.Run(c);
    ASSERT_EQ(r.kind, RunOutcome::Kind::kOutput) << ElementTypeName(t) << ": " << r.message;
    EXPECT_EQ(*r.output, c.data) << ElementTypeName(t);
  }
}

TEST(SubprocessBackend, MapsRejectedAndUnsupported) {
  SubprocessBackend b = Fake();
  RunOutcome r = b.Run(Identity(ElementType::kF32, "reject"));
  EXPECT_EQ(r.kind, RunOutcome::Kind::kRejected);
  EXPECT_EQ(r.message, "fake: refused");
  r = b.Run(Identity(ElementType::kF32, "unsupported"));
  EXPECT_EQ(r.kind, RunOutcome::Kind::kUnsupported);
  EXPECT_EQ(r.message, "fake: not here");
}

TEST(SubprocessBackend, ProtocolBreachesAreReportedAndTheAdapterRestarts) {
  SubprocessBackend b = Fake();
  RunOutcome r = b.Run(Identity(ElementType::kF32, "garbage"));
  EXPECT_EQ(r.kind, RunOutcome::Kind::kHarnessError);
  EXPECT_THAT(r.message, StartsWith("subprocess.protocol: "));
  r = b.Run(Identity(ElementType::kF32, "wrong_id"));
  EXPECT_EQ(r.kind, RunOutcome::Kind::kHarnessError);
  EXPECT_THAT(r.message, StartsWith("subprocess.protocol: "));
  EXPECT_EQ(b.Run(Identity(ElementType::kF32)).kind, RunOutcome::Kind::kOutput);
}

TEST(SubprocessBackend, CrashAndExitAreReportedAndTheAdapterRestarts) {
  SubprocessBackend b = Fake();
  RunOutcome r = b.Run(Identity(ElementType::kF32, "crash"));
  EXPECT_EQ(r.kind, RunOutcome::Kind::kCrash);
  EXPECT_EQ(r.message, "subprocess.died: adapter killed by SIGABRT (signal 6)");
  r = b.Run(Identity(ElementType::kF32, "partial"));
  EXPECT_EQ(r.kind, RunOutcome::Kind::kCrash);
  EXPECT_EQ(r.message, "subprocess.died: adapter killed by SIGABRT (signal 6)");
  r = b.Run(Identity(ElementType::kF32, "exit"));
  EXPECT_EQ(r.kind, RunOutcome::Kind::kCrash);
  EXPECT_EQ(r.message, "subprocess.died: adapter exited with status 0");
  EXPECT_EQ(b.Run(Identity(ElementType::kI8)).kind, RunOutcome::Kind::kOutput);
}

TEST(SubprocessBackend, HangTimesOut) {
  SubprocessBackend b = Fake(/*timeout_ms=*/300);
  RunOutcome r = b.Run(Identity(ElementType::kF32, "hang"));
  EXPECT_EQ(r.kind, RunOutcome::Kind::kHang);
  EXPECT_THAT(r.message, StartsWith("subprocess.timeout: "));
  EXPECT_EQ(b.Run(Identity(ElementType::kF32)).kind, RunOutcome::Kind::kOutput);
}

TEST(SubprocessBackend, MissingCommandSupportsNothing) {
  SubprocessBackend b("none", {"/nonexistent/dmconf-adapter"});
  EXPECT_TRUE(b.GetCapabilities().ops.empty());
  RunOutcome r = b.Run(Identity(ElementType::kF32));
  EXPECT_EQ(r.kind, RunOutcome::Kind::kUnsupported);
  EXPECT_THAT(r.message, HasSubstr("adapter not available"));
}

TEST(SubprocessBackend, OtherProtocolVersionSupportsNothing) {
  SubprocessBackend b = Fake(20000, "--other-version");
  EXPECT_TRUE(b.GetCapabilities().ops.empty());
  EXPECT_THAT(b.Describe(), HasSubstr("does not speak dmconf-subprocess/1"));
}

// Through the runner: the mode names the fake's misbehaviour, and is also not a DepthToSpace mode,
// so every case below is must_reject (d2s mode rule). A dying or silent adapter must not count as
// the correct refusal: crash and hang verdicts, failures unless listed as known.
PreparedCase MustReject(const std::string& mode) {
  OpCase c = Identity(ElementType::kF32, mode);
  c.id = absl::StrCat("fake.", mode);
  return PrepareCases({c})[0];
}

BackendFactory FakeFactory(int timeout_ms) {
  return [timeout_ms]() -> absl::StatusOr<std::unique_ptr<Backend>> {
    return std::make_unique<SubprocessBackend>("fake",
                                               std::vector<std::string>{DMCONF_FAKE_ADAPTER},
                                               SubprocessBackend::Options{timeout_ms});
  };
}

// dmconf-subprocess/2: shape inference over the protocol. The fake adapter (--shapes) answers
// with dmconf's own partial inference, so the shape lane of a run over the wire must pass every
// case; its one deliberate mistake (DepthToSpace block 3: last dim + 1) must be wrong_shape. A
// version-1 adapter declares neither entry.
TEST(SubprocessBackend, ShapeInferenceOverProtocolVersion2) {
  SubprocessBackend v1 = Fake();
  EXPECT_FALSE(v1.GetCapabilities().infer_static);
  EXPECT_FALSE(v1.GetCapabilities().infer_partial);
  EXPECT_EQ(v1.InferStatic(PartialCase{}).kind, ShapeOutcome::Kind::kUnsupported);

  SubprocessBackend v2 = Fake(20000, "--shapes");
  ASSERT_TRUE(v2.GetCapabilities().infer_static);
  ASSERT_TRUE(v2.GetCapabilities().infer_partial);
  // DepthToSpace [1, 18, 2, 2], block 3: 18 / 9 = 2 channels, 2 * 3 = 6 -> [1, 2, 6, 6]; the
  // fake answers [1, 2, 6, 7].
  const PartialCase b3 = PartialCase::FromStatic(DepthCase(
      Op::kDepthToSpace, PositionTensor(ElementType::kF32, {1, 18, 2, 2}), 3, "blocks_first"));
  const ShapeOutcome wrong = v2.InferStatic(b3);
  ASSERT_EQ(wrong.kind, ShapeOutcome::Kind::kOutput) << wrong.message;
  EXPECT_EQ(wrong.shape.ToString(), "[1,2,6,7]");
  EXPECT_EQ(JudgeShapeAnswer(b3, *OracleShapeAnswer(b3), wrong).verdict, Verdict::kWrongShape);
  // Block 2: [1, 8, 2, 2] -> [1, 2, 4, 4], answered right.
  const PartialCase b2 = PartialCase::FromStatic(DepthCase(
      Op::kDepthToSpace, PositionTensor(ElementType::kF32, {1, 8, 2, 2}), 2, "blocks_first"));
  const ShapeOutcome right = v2.InferStatic(b2);
  EXPECT_EQ(right.shape.ToString(), "[1,2,4,4]");

  // The shape lane of a run, over the wire: every case passes (or is unspecified).
  ShapeLaneOptions lane;
  lane.count = 60;
  const std::vector<PreparedShapeCase> shapes = PrepareShapeCases(BuildShapeCases({}, lane));
  ASSERT_GT(shapes.size(), 60u);
  RunOptions o;
  const ShapeCaseList shape_list(shapes);
  o.shape_cases = &shape_list;
  const BackendRun run = RunBackend(
      "fake",
      []() -> absl::StatusOr<std::unique_ptr<Backend>> {
        return std::make_unique<SubprocessBackend>(
            "fake", std::vector<std::string>{DMCONF_FAKE_ADAPTER, "--shapes"},
            SubprocessBackend::Options{20000});
      },
      CaseList{}, o);
  ASSERT_FALSE(run.results.empty());
  int judged = 0;
  for (const CaseResult& r : run.results) {
    EXPECT_FALSE(r.failure) << r.id << ": " << VerdictName(r.verdict) << " " << r.detail;
    judged += r.verdict == Verdict::kPass;
  }
  EXPECT_GT(judged, 30);
}

TEST(SubprocessBackend, DyingOrHangingAdapterIsACrashOrHangVerdictNotARefusal) {
  const std::vector<PreparedCase> cases = {MustReject("reject"),  MustReject("crash"),
                                           MustReject("partial"), MustReject("exit"),
                                           MustReject("hang"),    MustReject("garbage")};
  for (const PreparedCase& p : cases) {
    ASSERT_TRUE(p.expectation.ok()) << p.c.id;
    ASSERT_EQ(p.expectation->kind, ExpectationKind::kMustReject) << p.c.id;
  }
  for (const bool isolate : {true, false}) {
    RunOptions o;
    o.isolate = isolate;
    // The isolation's limit; the adapter's own is 1500 ms (a restart after the hang must say
    // hello within it, even on a loaded machine under ASan).
    o.timeout_seconds = 20;
    const BackendRun run = RunBackend("fake", FakeFactory(1500), cases, o);
    ASSERT_EQ(run.results.size(), cases.size());
    auto verdict = [&](size_t i) {
      return absl::StrCat(VerdictName(run.results[i].verdict), " ", run.results[i].detail);
    };
    SCOPED_TRACE(isolate ? "isolated" : "in-process");
    EXPECT_EQ(verdict(0), "pass ");  // the library's refusal: correct
    EXPECT_EQ(verdict(1), "crash subprocess.died: adapter killed by SIGABRT (signal 6)");
    EXPECT_EQ(verdict(2), "crash subprocess.died: adapter killed by SIGABRT (signal 6)");
    EXPECT_EQ(verdict(3), "crash subprocess.died: adapter exited with status 0");
    EXPECT_EQ(verdict(4), "hang subprocess.timeout: no response within 1500 ms");
    EXPECT_THAT(verdict(5), StartsWith("harness_error subprocess.protocol: "));
    for (size_t i = 1; i < cases.size(); ++i) EXPECT_TRUE(run.results[i].failure) << i;
  }
}

TEST(SubprocessBackend, KnownAdapterCrashesAreKnownFailures) {
  absl::StatusOr<Expectations> e = ParseExpectations(R"({
    "format": "dmconf-expectations/1",
    "known_failures": [{"backend": "fake", "case": "fake.crash", "verdict": "crash",
                        "reason": "test"}]})",
                                                     "t.json");
  ASSERT_TRUE(e.ok()) << e.status();
  RunOptions o;
  o.expectations = &*e;
  const PreparedCase p = MustReject("crash");
  RunOutcome died;
  died.kind = RunOutcome::Kind::kCrash;
  died.message = "subprocess.died: adapter killed by SIGABRT (signal 6)";
  const CaseResult r = Judge("fake", p, died, o);
  EXPECT_EQ(r.verdict, Verdict::kCrash);
  EXPECT_FALSE(r.failure);
  EXPECT_NE(r.known, nullptr);
}

}  // namespace
}  // namespace dmconf
