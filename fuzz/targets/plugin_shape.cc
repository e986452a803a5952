// Shape inference of any plugin (dmconf_plugin.h, version 2), fuzzed against the oracle. The
// plugin is the shared library named by the environment variable DMCONF_FUZZ_PLUGIN, loaded
// once (LoadPluginBackend). Every input decodes (FuzzChooser) to a generated case without data
// (GenerateCase, any lane: valid, negative, overflow with dims near 2^63), kept static or widened
// into a partial case (WidenToPartial: intervals, "?", unknown rank, non-constant block / pads /
// crops; block_size 1 absent one time in two; a negative case keeps its rule broken:
// KeepRuleBroken). Cases outside the plugin's declared capabilities are skipped, as `dmconf run`
// skips them (ShapeCaseCovered). The plugin is asked InferStatic (a static case, when declared) and
// InferPartial (when declared, static cases too: they must then be exact), and each answer is
// judged against the oracle (JudgeShapeAnswer). A failing verdict (IsFailure, default
// strictness: loose_shape is not one) is a finding: the case is written as a dmconf-shape-case/1
// file under $DMCONF_FUZZ_FINDINGS (default ./dmconf-fuzz-findings), one line to replay it and
// the verdict are printed, then the target aborts so that libFuzzer saves the input.
//
// Example (docs/fuzzing.md, "Fuzzing a plugin's shape inference"):
//   DMCONF_FUZZ_PLUGIN=$PWD/libmine.so ./fuzz_plugin_shape -max_total_time=60
//   dmconf plugin_shape finding: unsound_shape (infer_partial) DepthToSpace [...]
//     answered [...], the outputs of accepted instances span ...
//     repro: dmconf run --backend-lib /abs/libmine.so --vectors dmconf-fuzz-findings/x.json
//
// DmconfFuzzCheckOneInput is the same check without the abort (1: a finding was reported): the
// libFuzzer-free random driver (fuzz/random_driver.cc) calls it.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "fuzz/fuzz_chooser.h"
#include "fuzz/in_process_limits.h"
#include "harness/base/files.h"
#include "harness/compare/shape_judge.h"
#include "harness/gen/generate.h"
#include "harness/gen/partial.h"
#include "harness/io/shape_case_file.h"
#include "harness/io/shape_case_verify.h"
#include "harness/plugin/plugin_backend.h"
#include "harness/runner/shape_lane.h"

namespace dmconf {
namespace {

struct Target {
  std::unique_ptr<Backend> backend;
  Capabilities caps;
  std::string plugin;    // absolute path, for the repro line
  std::string findings;  // folder for finding files
};

// Loads the plugin on first use; exits 2 with a message when it cannot (no plugin: no target).
Target& Loaded() {
  static Target* t = [] {
    const char* path = std::getenv("DMCONF_FUZZ_PLUGIN");
    if (path == nullptr || *path == '\0') {
      std::fprintf(stderr,
                   "plugin_shape: set DMCONF_FUZZ_PLUGIN to the plugin library to fuzz "
                   "(e.g. DMCONF_FUZZ_PLUGIN=$PWD/libmine.so)\n");
      std::exit(2);
    }
    std::error_code ec;
    const std::filesystem::path abs = std::filesystem::absolute(path, ec);
    auto* n = new Target;
    n->plugin = ec ? std::string(path) : abs.string();
    ApplyInProcessBackendLimits();  // the workers' limits, for a plugin run in this process
    absl::StatusOr<std::unique_ptr<Backend>> b = LoadPluginBackend(n->plugin);
    if (!b.ok()) {
      std::fprintf(stderr, "plugin_shape: %s\n", std::string(b.status().message()).c_str());
      std::exit(2);
    }
    n->backend = *std::move(b);
    n->caps = n->backend->GetCapabilities();
    if (!n->caps.infer_static && !n->caps.infer_partial) {
      std::fprintf(stderr,
                   "plugin_shape: %s declares neither infer_static nor infer_partial "
                   "(ABI version 2): nothing to fuzz\n",
                   n->plugin.c_str());
      std::exit(2);
    }
    const char* dir = std::getenv("DMCONF_FUZZ_FINDINGS");
    n->findings = dir != nullptr && *dir != '\0' ? dir : "dmconf-fuzz-findings";
    return n;
  }();
  return *t;
}

// FNV-1a of the input: a stable name for its finding file.
uint64_t Fnv1a(const uint8_t* data, size_t size) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ull;
  return h;
}

// Writes the finding (dmconf-shape-case/1) and prints the verdict and the repro line.
void Report(Target& t, const PartialCase& c, const char* entry, const ShapeJudgement& j,
            const uint8_t* data, size_t size) {
  io::ShapeCaseFile f;
  f.id = absl::StrFormat("plugin-shape-%s-%016x", OpName(c.op), Fnv1a(data, size));
  f.origin = absl::StrCat("fuzz plugin_shape (", entry, ")");
  f.c = c;
  f.backend = t.backend->Name();
  f.verdict = std::string(VerdictName(j.verdict));
  f.detail = j.detail;
  const std::string path = (std::filesystem::path(t.findings) / (f.id + ".json")).string();
  absl::Status s = io::CreateDirectories(t.findings);
  if (s.ok()) s = io::FillShapeExpectation(f);
  if (s.ok()) s = io::WriteShapeCaseFile(path, f);
  std::fprintf(stderr, "dmconf plugin_shape finding: %s (%s) %s %s\n  %s\n",
               std::string(VerdictName(j.verdict)).c_str(), entry,
               std::string(OpName(c.op)).c_str(), c.data.ToString().c_str(), j.detail.c_str());
  if (s.ok()) {
    std::fprintf(stderr, "  repro: dmconf run --backend-lib %s --vectors %s\n", t.plugin.c_str(),
                 path.c_str());
  } else {
    std::fprintf(stderr, "  (the case could not be saved: %s)\n", std::string(s.message()).c_str());
  }
}

}  // namespace
}  // namespace dmconf

extern "C" int DmconfFuzzCheckOneInput(const uint8_t* data, size_t size) {
  using namespace dmconf;
  Target& t = Loaded();
  FuzzedDataProvider fdp(data, size);
  FuzzChooser ch(&fdp);
  GenerateOptions o;
  o.build.with_data = false;
  GeneratedCase g = GenerateCase(ch, o);
  // The partial form holds three integer inputs at most (as `dmconf run`'s shape lane).
  if (g.c.int_inputs.size() > 3) return 0;
  // block_size 1 absent one time in two ("Default value: 1", as the shape sweep).
  const bool depth = g.c.op == Op::kSpaceToDepth || g.c.op == Op::kDepthToSpace;
  if (depth && g.c.block_size == 1 && ch.Bool()) g.c.block_size.reset();
  const bool widen = ch.Bool();
  PartialCase c = widen ? WidenToPartial(ch, g.c) : PartialCase::FromStatic(g.c);
  // A widened negative case keeps its rule broken (interval dims, unknown rank).
  if (widen && g.kind == GenKind::kNegative) KeepRuleBroken(c, g.c, ch.Bool() ? 0 : 1);
  if (!ShapeCaseCovered(t.caps, c)) return 0;
  absl::StatusOr<PartialResult> oracle = OracleShapeAnswer(c);
  if (!oracle.ok()) return 0;  // malformed (case.*): no shape-inference question
  const StrictnessOptions strictness;
  if (c.IsStatic() && t.caps.infer_static) {
    const ShapeJudgement j = JudgeShapeAnswer(c, *oracle, t.backend->InferStatic(c));
    if (IsFailure(j.verdict, strictness)) {
      Report(t, c, "infer_static", j, data, size);
      return 1;
    }
  }
  if (t.caps.infer_partial) {
    const ShapeJudgement j = JudgeShapeAnswer(c, *oracle, t.backend->InferPartial(c));
    if (IsFailure(j.verdict, strictness)) {
      Report(t, c, "infer_partial", j, data, size);
      return 1;
    }
  }
  return 0;
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  dmconf::Loaded();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (DmconfFuzzCheckOneInput(data, size) != 0) std::abort();
  return 0;
}
