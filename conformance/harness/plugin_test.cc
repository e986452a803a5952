// The plugin C ABI: the in-tree example plugin (plain C, shared library) is loaded with dlopen
// and run through the harness; loader errors are named.
#include <cstring>
#include <fstream>
#include <sstream>

#include "gtest/gtest.h"
#include "harness/backend/identity.h"
#include "harness/backends/registry/registry.h"
#include "harness/compare/shape_judge.h"
#include "harness/plugin/plugin_backend.h"
#include "harness/runner/runner.h"
#include "harness/suites/catalogue.h"

namespace dmconf {
namespace {

RunOptions Opts(double timeout, bool silence = false) {
  RunOptions o;
  o.timeout_seconds = timeout;
  o.silence_worker_output = silence;
  return o;
}

OpCase D2s(const char* mode) {
  OpCase c;
  c.op = Op::kDepthToSpace;
  c.data = *MakeTensor(ElementType::kI32, {1, 8, 1, 1}, [](int64_t i) { return i; });
  c.block_size = 2;
  c.mode = mode;
  return c;
}

std::vector<uint64_t> Bits(const Tensor& t) {
  std::vector<uint64_t> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(t.GetBits(i));
  return v;
}

TEST(Plugin, ExampleRunsThroughTheCAbi) {
  absl::StatusOr<std::unique_ptr<Backend>> b = LoadPluginBackend(ExamplePluginPath());
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ((*b)->Name(), "example");
  // [1,8,1,1] block 2, C_out = 2. blocks_first: out[c', y, x] = in[flat(o) * 2 + c'];
  // depth_first: out[c', y, x] = in[c' * 4 + flat(o)], flat(o) = y * 2 + x.
  RunOutcome bf = (*b)->Run(D2s("blocks_first"));
  ASSERT_EQ(bf.kind, RunOutcome::Kind::kOutput) << bf.message;
  EXPECT_EQ(bf.output->shape, (Shape{1, 2, 2, 2}));
  EXPECT_EQ(Bits(*bf.output), (std::vector<uint64_t>{0, 2, 4, 6, 1, 3, 5, 7}));
  RunOutcome df = (*b)->Run(D2s("depth_first"));
  ASSERT_EQ(df.kind, RunOutcome::Kind::kOutput) << df.message;
  EXPECT_EQ(Bits(*df.output), (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  // Refusals and capabilities.
  OpCase bad = D2s("sideways");
  EXPECT_EQ((*b)->Run(bad).kind, RunOutcome::Kind::kRejected);
  OpCase u4 = D2s("blocks_first");
  u4.data = *Tensor::Zeros(ElementType::kU4, {1, 8, 1, 1});
  EXPECT_FALSE((*b)->Supports(u4));
  OpCase s2b;
  s2b.op = Op::kSpaceToBatch;
  s2b.data = *Tensor::Zeros(ElementType::kF32, {1, 2});
  EXPECT_FALSE((*b)->Supports(s2b));
}

TEST(Plugin, MinimalPluginOfTheVendorGuidePasses) {
  CatalogueOptions co;
  co.ops = {Op::kDepthToSpace};
  co.types = {ElementType::kF32};
  co.sweep_count = 200;
  std::vector<PreparedCase> cases = PrepareCases(BuildCatalogue(co));
  BackendRun r = RunBackend("minimal", PluginFactory(DMCONF_MINIMAL_PLUGIN_PATH), cases, Opts(5));
  ASSERT_TRUE(r.startup_error.empty()) << r.startup_error;
  int64_t passed = 0;
  for (const CaseResult& c : r.results) {
    passed += c.verdict == Verdict::kPass;
    EXPECT_FALSE(c.failure) << c.id << ": " << VerdictName(c.verdict) << " " << c.detail;
  }
  EXPECT_GT(passed, 5);
}

// The guide shows the plugin the tests build, from its first #include to its end.
TEST(Plugin, VendorGuideShowsTheMinimalPluginAsBuilt) {
  auto read = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  const std::string source = read(DMCONF_SOURCE_DIR "/harness/plugin/examples/minimal_plugin.c");
  const std::string guide = read(DMCONF_SOURCE_DIR "/docs/vendor-guide.md");
  const size_t from = source.find("#include <stdio.h>");
  ASSERT_NE(from, std::string::npos);
  EXPECT_NE(guide.find("```c\n" + source.substr(from) + "```"), std::string::npos)
      << "docs/vendor-guide.md section 2 differs from minimal_plugin.c";
}

TEST(Plugin, LoaderErrorsAreNamed) {
  absl::StatusOr<std::unique_ptr<Backend>> missing = LoadPluginBackend("/nonexistent/libx.so");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message().substr(0, 12), "plugin.load:");
  // A shared library without the entry point (the C library itself).
  absl::StatusOr<std::unique_ptr<Backend>> no_symbol = LoadPluginBackend("libm.so.6");
  ASSERT_FALSE(no_symbol.ok());
}

int NoInfer(void*, const dmconf_shape_case*, dmconf_shape_result*) { return DMCONF_UNSUPPORTED; }

// run may be NULL only in a version-2 table with shape inference: shape inference without
// kernels (Capabilities::kernels false). Without an inference entry, or in a version-1 table,
// a NULL run is refused by rule.
TEST(Plugin, RunNullMeansShapeInferenceOnly) {
  static const dmconf_op_support kOps[] = {{"DepthToSpace", "f32", 3, 8, nullptr}};
  const dmconf_plugin shape_only = {
      DMCONF_PLUGIN_ABI_VERSION, "shapes", 1, kOps, nullptr, nullptr, nullptr, NoInfer, nullptr};
  absl::StatusOr<std::unique_ptr<Backend>> b = WrapPluginTable(&shape_only, "shapes");
  ASSERT_TRUE(b.ok()) << b.status();
  const Capabilities caps = (*b)->GetCapabilities();
  EXPECT_FALSE(caps.kernels);
  EXPECT_TRUE(caps.infer_static);
  ASSERT_EQ(caps.ops.size(), 1u);
  // Never asked in a run; asked anyway, it is unsupported, not a crash.
  EXPECT_EQ((*b)->Run(D2s("blocks_first")).kind, RunOutcome::Kind::kUnsupported);
  // The runner gives it no kernel case and no slice; its shape lane still runs.
  const std::vector<PreparedShapeCase> shapes =
      PrepareShapeCases({ShapeCase{"s", PartialCase::FromStatic(D2s("blocks_first")), ""}});
  RunOptions o = Opts(5);
  o.isolate = false;
  const ShapeCaseList shape_list(shapes);
  o.shape_cases = &shape_list;
  const BackendRun run = RunBackend(
      "shapes", [&] { return WrapPluginTable(&shape_only, "shapes"); },
      PrepareCases({D2s("blocks_first")}), o);
  ASSERT_EQ(run.results.size(), 1u);
  EXPECT_EQ(run.results[0].lane, CaseLane::kShapeStatic);
  EXPECT_TRUE(run.slices.empty());
  for (const dmconf_plugin& bad :
       {dmconf_plugin{DMCONF_PLUGIN_ABI_VERSION, "none", 1, kOps, nullptr, nullptr, nullptr,
                      nullptr, nullptr},
        dmconf_plugin{1u, "v1", 1, kOps, nullptr, nullptr, nullptr, NoInfer, nullptr}}) {
    absl::StatusOr<std::unique_ptr<Backend>> refused = WrapPluginTable(&bad, bad.name);
    ASSERT_FALSE(refused.ok()) << bad.name;
    EXPECT_NE(refused.status().message().find("plugin.abi:"), std::string::npos);
    EXPECT_NE(refused.status().message().find("run is NULL"), std::string::npos);
  }
}

TEST(Plugin, ExamplePassesEverySupportedCatalogueCase) {
  CatalogueOptions co;
  co.ops = {Op::kDepthToSpace, Op::kSpaceToDepth};
  co.sweep_count = 120;
  std::vector<PreparedCase> cases = PrepareCases(BuildCatalogue(co));
  absl::StatusOr<BackendInfo> b = ResolveBackend("example");
  ASSERT_TRUE(b.ok());
  BackendRun r = RunBackend("example", b->factory, cases, Opts(5));
  int64_t passed = 0;
  for (const CaseResult& c : r.results) {
    EXPECT_FALSE(c.failure) << c.id << ": " << VerdictName(c.verdict) << " " << c.detail;
    passed += c.verdict == Verdict::kPass;
  }
  EXPECT_GT(passed, 50);
}

// A plugin whose answers are malformed, one way per DepthToSpace block_size (the table is in
// memory, wrapped as the loader wraps a library): every one is invalid_answer, the backend's
// failure, never harness_error.
//   2: infer_static answers a negative dim      3: infer_static answers a non-exact dim
//   4: infer_partial answers lo > hi            5: the answer's rank is 17
//   6: the element type is "f33"                7: run() allocates 1 byte for 8 f32 elements
//   8: the entry returns 7, not a DMCONF_* code
int MalformedInfer(void*, const dmconf_shape_case* c, dmconf_shape_result* r) {
  r->element_type = c->block_size == 6 ? "f33" : "f32";
  r->rank = c->block_size == 5 ? 17 : 4;
  for (int i = 0; i < 4; ++i) r->shape[i] = {1, 1};
  if (c->block_size == 2) r->shape[1] = {-2, -2};
  if (c->block_size == 3) r->shape[1] = {1, 2};
  if (c->block_size == 4) r->shape[1] = {3, 2};
  return c->block_size == 8 ? 7 : DMCONF_OK;
}
int MalformedRun(void*, const dmconf_case* c, dmconf_result* r) {
  r->element_type = "f32";
  r->rank = 4;
  for (int i = 0; i < 4; ++i) r->shape[i] = c->data.shape[i];
  if (r->alloc_output(r, c->block_size == 7 ? 1 : c->data.byte_size) == nullptr)
    return DMCONF_REJECTED;
  return c->block_size == 8 ? 7 : DMCONF_OK;
}
const dmconf_op_support kMalformedOps[] = {{"DepthToSpace", "f32", 4, 4, nullptr}};
const dmconf_plugin kMalformed = {DMCONF_PLUGIN_ABI_VERSION,
                                  "malformed",
                                  1,
                                  kMalformedOps,
                                  nullptr,
                                  nullptr,
                                  MalformedRun,
                                  MalformedInfer,
                                  MalformedInfer};

TEST(Plugin, MalformedAnswersAreInvalidAnswerNotHarnessError) {
  absl::StatusOr<std::unique_ptr<Backend>> b = WrapPluginTable(&kMalformed, "malformed");
  ASSERT_TRUE(b.ok()) << b.status();
  auto partial = [](int64_t block) {
    PartialCase c = PartialCase::FromStatic(D2s("blocks_first"));
    c.block_size = block;
    return c;
  };
  for (int64_t block : {2, 3, 5, 6, 8}) {
    const PartialCase c = partial(block);
    const ShapeOutcome o = (*b)->InferStatic(c);
    EXPECT_EQ(o.kind, ShapeOutcome::Kind::kInvalidAnswer) << block << ": " << o.message;
    absl::StatusOr<PartialResult> want = OracleShapeAnswer(c);
    ASSERT_TRUE(want.ok());
    EXPECT_EQ(JudgeShapeAnswer(c, *want, o).verdict, Verdict::kInvalidAnswer) << block;
  }
  for (int64_t block : {4, 5, 6, 8}) {
    PartialCase c = partial(block);
    (*c.data.dims)[1] = Dim::Range(8, 16);
    const ShapeOutcome o = (*b)->InferPartial(c);
    EXPECT_EQ(o.kind, ShapeOutcome::Kind::kInvalidAnswer) << block << ": " << o.message;
  }
  for (int64_t block : {7, 8}) {
    OpCase c = D2s("blocks_first");
    c.block_size = block;
    const RunOutcome o = (*b)->Run(c);
    EXPECT_EQ(o.kind, RunOutcome::Kind::kInvalidAnswer) << block << ": " << o.message;
  }
  EXPECT_TRUE(IsFailure(Verdict::kInvalidAnswer, {}));
  EXPECT_EQ(ParseVerdict("invalid_answer"), Verdict::kInvalidAnswer);
}

// A kernel that writes past its output buffer: block_size picks how far. 2: no stray write (the
// output is the data's bytes, 32 bytes of i32 [1,2,2,2]); 3: a zero at the first byte past the
// end; 4: 0xFF at the 64th; 5: an output of 0 bytes and a write of its first byte.
int OverrunRun(void*, const dmconf_case* c, dmconf_result* r) {
  r->element_type = "i32";
  r->rank = 4;
  const int64_t shape[4] = {1, 2, 2, 2};
  for (int i = 0; i < 4; ++i) r->shape[i] = c->block_size == 5 ? 0 : shape[i];
  const uint64_t bytes = c->block_size == 5 ? 0 : c->data.byte_size;
  auto* dst = static_cast<unsigned char*>(r->alloc_output(r, bytes));
  if (dst == nullptr) return DMCONF_REJECTED;
  std::memcpy(dst, c->data.data, bytes);
  if (c->block_size == 3) dst[bytes] = 0x00;
  if (c->block_size == 4) dst[bytes + 63] = 0xFF;
  if (c->block_size == 5) dst[0] = 0x00;
  return DMCONF_OK;
}
const dmconf_op_support kOverrunOps[] = {{"DepthToSpace", "i32", 4, 4, nullptr}};
const dmconf_plugin kOverrun = {DMCONF_PLUGIN_ABI_VERSION,
                                "overrun",
                                1,
                                kOverrunOps,
                                nullptr,
                                nullptr,
                                OverrunRun,
                                nullptr,
                                nullptr};

TEST(Plugin, AWritePastTheOutputBufferIsAnInvalidAnswer) {
  absl::StatusOr<std::unique_ptr<Backend>> b = WrapPluginTable(&kOverrun, "overrun");
  ASSERT_TRUE(b.ok()) << b.status();
  OpCase in_bounds = D2s("blocks_first");
  const RunOutcome ok = (*b)->Run(in_bounds);
  ASSERT_EQ(ok.kind, RunOutcome::Kind::kOutput) << ok.message;
  // The output is the 32 bytes written, the guard not among them.
  EXPECT_EQ(ok.output->bytes, in_bounds.data.bytes);
  struct Want {
    int64_t block;
    const char* where;
  };
  for (Want w : {Want{3, "byte 0 after the 32 bytes"}, Want{4, "byte 63 after the 32 bytes"},
                 Want{5, "byte 0 after the 0 bytes"}}) {
    OpCase c = D2s("blocks_first");
    c.block_size = w.block;
    const RunOutcome o = (*b)->Run(c);
    EXPECT_EQ(o.kind, RunOutcome::Kind::kInvalidAnswer) << w.block << ": " << o.message;
    EXPECT_NE(o.message.find("plugin.output.bounds"), std::string::npos) << o.message;
    EXPECT_NE(o.message.find(w.where), std::string::npos) << o.message;
    EXPECT_FALSE(o.output.has_value()) << w.block;
  }
}

TEST(Plugin, FaultyPluginsBecomeVerdicts) {
  CatalogueOptions co;
  co.ops = {Op::kDepthToSpace};
  co.sweep_count = 0;
  std::vector<PreparedCase> cases = PrepareCases(BuildCatalogue(co));
  struct Want {
    const char* backend;
    Verdict verdict;
  };
  for (Want w :
       {Want{"fault-crash", Verdict::kCrash}, Want{"fault-abort", Verdict::kCrash},
        Want{"fault-hang", Verdict::kHang}, Want{"fault-garbage", Verdict::kWrongValues}}) {
    absl::StatusOr<BackendInfo> b = ResolveBackend(w.backend);
    ASSERT_TRUE(b.ok());
    BackendRun r = RunBackend(w.backend, b->factory, cases, Opts(1, true));
    int64_t seen = 0, passed = 0;
    for (const CaseResult& c : r.results) {
      seen += c.verdict == w.verdict;
      passed += c.verdict == Verdict::kPass;
    }
    EXPECT_GT(seen, 0) << w.backend;
    // The crash / abort / hang plugins are correct apart from block_size 3: the run went on.
    if (w.verdict != Verdict::kWrongValues) {
      EXPECT_GT(passed, 10) << w.backend;
    }
  }
}

// Capabilities narrow which valid cases run; they cannot hide an illegal mode. Both example
// plugins declare "blocks_first,depth_first": the mode.enum negatives (columns_first, "depth
// first", ...) are run anyway, the correct plugin refuses them, and the one that takes any
// mode string for blocks_first fails them as false_accept.
TEST(Plugin, DeclaredModesDoNotHideIllegalModes) {
  CatalogueOptions co;
  co.ops = {Op::kDepthToSpace, Op::kSpaceToDepth};
  co.sweep_count = 0;
  std::vector<PreparedCase> cases = PrepareCases(BuildCatalogue(co));
  for (const char* name : {"example", "fault-any-mode"}) {
    absl::StatusOr<BackendInfo> b = ResolveBackend(name);
    ASSERT_TRUE(b.ok());
    BackendRun r = RunBackend(name, b->factory, cases, Opts(1, true));
    int64_t illegal_mode = 0, run = 0, false_accepts = 0;
    for (size_t i = 0; i < r.results.size(); ++i) {
      const CaseResult& c = r.results[i];
      const std::optional<std::string>& mode = cases[i].c.mode;
      if (!mode.has_value() || *mode == "blocks_first" || *mode == "depth_first") continue;
      ++illegal_mode;
      run += c.verdict != Verdict::kUnsupported;
      false_accepts += c.verdict == Verdict::kFalseAccept;
      EXPECT_EQ(c.expected, ExpectedClass::kMustReject) << c.id;
    }
    EXPECT_GE(illegal_mode, 2) << "the catalogue has a mode.enum negative per op";
    EXPECT_EQ(run, illegal_mode) << name << ": every illegal-mode case must be run";
    if (std::string(name) == "example") {
      EXPECT_EQ(false_accepts, 0);
    } else {
      EXPECT_GT(false_accepts, 0) << "taking an unknown mode for blocks_first must fail";
    }
  }
}

// A plugin loaded by path goes by the name it declares (harness/backend/identity.h). Expected
// values written out by hand from the rule: [A-Za-z0-9._+-] kept, the rest '_', at most 64
// bytes, no leading '.', "-2" for a second backend of the same name.
TEST(PluginIdentity, DeclaredNameMadeSafeAndUnique) {
  EXPECT_EQ(SafeBackendName("acme-depth_1.2+x"), "acme-depth_1.2+x");
  EXPECT_EQ(SafeBackendName("acme depth/v1"), "acme_depth_v1");
  EXPECT_EQ(SafeBackendName("../etc"), "_._etc");
  EXPECT_EQ(SafeBackendName(".hidden"), "_hidden");
  EXPECT_EQ(SafeBackendName("\x1b[2J"), "__2J");
  EXPECT_EQ(SafeBackendName("<>|"), "");
  EXPECT_EQ(SafeBackendName(".."), "");
  EXPECT_EQ(SafeBackendName(std::string(100, 'a')), std::string(64, 'a'));
  std::set<std::string> taken = {"oracle"};
  EXPECT_EQ(BackendIdentity("oracle", "./liba.so", &taken), "oracle-2");
  EXPECT_EQ(BackendIdentity("acme", "./liba.so", &taken), "acme");
  EXPECT_EQ(BackendIdentity("acme", "./old/liba.so", &taken), "acme-2");
  EXPECT_EQ(BackendIdentity("acme", "./older/liba.so", &taken), "acme-3");
  EXPECT_EQ(BackendIdentity("", "./libx.so", &taken), "./libx.so");
  EXPECT_EQ(BackendIdentity("<>", "./liby.so", &taken), "./liby.so");
}

TEST(PluginIdentity, TheExamplePluginDeclaresItsName) {
  absl::StatusOr<std::unique_ptr<Backend>> b = LoadPluginBackend(ExamplePluginPath());
  ASSERT_TRUE(b.ok()) << b.status();
  // harness/plugin/examples/example_plugin.c: its table names itself "example".
  EXPECT_EQ((*b)->GetCapabilities().declared_name, "example");
}

}  // namespace
}  // namespace dmconf
