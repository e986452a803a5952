// Differential: the oracle against any backend, in process. The backend is the built-in one
// named by DMCONF_FUZZ_BACKEND (any name `dmconf backends --all` lists; default eigen) or the
// plugin (C ABI) named by DMCONF_FUZZ_PLUGIN. Each input decodes to a generated case inside one
// of the backend's declared slices (its element types, ranks and modes), valid or breaking one
// rule (or a literal case, fuzz/literal_case.h), judged end to end as `dmconf run` judges it
// (RunCase: unsupported skipped; wrong_values, false_accept, false_reject, wrong_shape, ... are
// findings). A finding is saved in $DMCONF_FUZZ_REPRO_DIR (default: the working directory) as a
// dmconf-vector/1 file, shrunk in process to a minimal case of the same verdict class
// (harness/shrink, 10 s) saved beside it as <id>.min.json, both printed with their repro lines
// (and appended to backend-diff-repro.txt); then the target aborts so that libFuzzer keeps the
// input. A backend that crashes takes the process down: run with -fork=1 -ignore_crashes=1, or
// replay with `dmconf run`, which isolates it (docs/fuzzing.md).
//
// DmconfFuzzCheckOneInput is the same check without the abort (1: a finding), for the
// libFuzzer-free random driver (fuzz_backend_diff_random); DmconfFuzzCasesJudged counts the
// inputs that became a case judged (the driver prints it beside its inputs).
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>

#include "absl/strings/str_cat.h"
#include "fuzz/fuzz_chooser.h"
#include "fuzz/in_process_limits.h"
#include "fuzz/literal_case.h"
#include "harness/backends/registry/registry.h"
#include "harness/base/files.h"
#include "harness/explore/explore.h"
#include "harness/gen/generate.h"
#include "harness/runner/runner.h"
#include "harness/runner/vector_cases.h"
#include "harness/shrink/shrink.h"
#include "oracle/shape.h"

namespace dmconf {
namespace {

struct Target {
  std::unique_ptr<Backend> backend;
  Capabilities caps;
  std::string name, repro_flag, dir;
  uint64_t judged = 0;  // inputs that became a case asked of the backend (unsupported ones too)
};

Target& Loaded() {
  static Target* t = [] {
    const char* plugin = std::getenv("DMCONF_FUZZ_PLUGIN");
    const char* name = std::getenv("DMCONF_FUZZ_BACKEND");
    std::string spec = plugin != nullptr && *plugin != '\0' ? plugin
                       : name != nullptr && *name != '\0'   ? name
                                                            : "eigen";
    if (plugin != nullptr && *plugin != '\0' && spec.find('/') == std::string::npos) {
      spec = "./" + spec;
    }
    absl::StatusOr<std::vector<BackendInfo>> b = ResolveBackends(spec);
    if (!b.ok() || b->size() != 1) {
      std::fprintf(
          stderr, "backend_diff: DMCONF_FUZZ_BACKEND / DMCONF_FUZZ_PLUGIN '%s': %s\n", spec.c_str(),
          b.ok() ? "names more than one backend" : std::string(b.status().message()).c_str());
      std::exit(2);
    }
    ApplyInProcessBackendLimits();  // the workers' limits, for a backend run in this process
    absl::StatusOr<std::unique_ptr<Backend>> made = b->front().factory();
    if (!made.ok()) {
      std::fprintf(stderr, "backend_diff: %s\n", std::string(made.status().message()).c_str());
      std::exit(2);
    }
    auto* n = new Target;
    n->backend = *std::move(made);
    n->caps = n->backend->GetCapabilities();
    n->name = b->front().name;
    n->repro_flag = plugin != nullptr && *plugin != '\0' ? absl::StrCat("--backend-lib ", spec)
                                                         : absl::StrCat("--backend ", n->name);
    const char* dir = std::getenv("DMCONF_FUZZ_REPRO_DIR");
    n->dir = dir != nullptr && *dir != '\0' ? dir : ".";
    return n;
  }();
  return *t;
}

void Report(Target& t, const PreparedCase& p, const CaseResult& r) {
  std::string text = absl::StrCat("dmconf backend_diff finding: ", VerdictName(r.verdict), " ",
                                  t.name, " ", p.c.id, "\n  ", r.detail, "\n");
  absl::StatusOr<std::string> path =
      SaveFailingCase(t.dir, t.name, p, VerdictName(r.verdict), r.detail);
  if (path.ok())
    absl::StrAppend(&text, "  repro: dmconf run ", t.repro_flag, " --vectors ", *path, "\n");
  ShrinkOptions so;
  RunOptions ro;
  ro.isolate = false;
  const ShrunkCase s = ShrinkFailure(*t.backend, t.name, t.caps, p, r, ro, so);
  absl::StatusOr<std::string> min =
      SaveFailingCase(t.dir, t.name, s.minimal, VerdictName(s.result.verdict), s.result.detail);
  if (min.ok()) {
    absl::StrAppend(&text, "  shrunk: ", s.stats.from_elements, " -> ", s.stats.to_elements,
                    " data elements, same verdict; repro: dmconf run ", t.repro_flag, " --vectors ",
                    *min, "\n");
  }
  std::fputs(text.c_str(), stderr);
  // The log of findings: appended, so a run keeps every finding's lines.
  absl::StatusOr<std::string> old =
      io::ReadFileToString(t.dir + "/backend-diff-repro.txt", int64_t{64} << 20);
  (void)io::WriteFileAtomically(t.dir + "/backend-diff-repro.txt",
                                absl::StrCat(old.ok() ? *old : std::string(), text));
}

}  // namespace
}  // namespace dmconf

extern "C" int DmconfFuzzCheckOneInput(const uint8_t* data, size_t size) {
  using namespace dmconf;
  Target& t = Loaded();
  if (t.caps.ops.empty()) return 0;
  const bool literal = StripLiteralMagic(&data, &size);
  FuzzedDataProvider fdp(data, size);
  FuzzChooser ch(&fdp);
  OpCase c;
  if (literal) {
    c = LiteralCase(ch).c;
  } else {
    GenerateOptions o = SliceOptions(t.caps.ops[ch.Index(t.caps.ops.size())]);
    o.overflow_weight = 0;  // no data to move
    c = GenerateCase(ch, o).c;
  }
  c.id = "fuzz-backend-diff";
  // Outputs up to 2^22 elements, known from validation alone (shape inference, no data moved):
  // a literal input can spell out a case whose patches take seconds to build (the builders'
  // cases stay under max_elements anyway). The oracle then evaluates the case once, in
  // PrepareCases; a malformed case (no expectation) is no question for the backend.
  absl::StatusOr<Validation> v = Validate(c);
  if (!v.ok()) return 0;
  const std::optional<int64_t> n = CheckedProduct(v->output_shape);
  if (!n.has_value() || *n > (int64_t{1} << 22)) return 0;
  std::vector<PreparedCase> p = PrepareCases({std::move(c)});
  if (!p[0].expectation.ok()) return 0;
  RunOptions ro;
  ro.isolate = false;
  ++t.judged;
  const CaseResult r = RunCase(*t.backend, t.name, t.caps, p[0], ro);
  if (!IsFailure(r.verdict, ro.strictness)) return 0;
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a of the input: one file per distinct input
  for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 0x100000001b3ull;
  p[0].c.id = absl::StrCat("fuzz-backend-diff-", t.name, "-", h % 1000000007u);
  Report(t, p[0], r);
  return 1;
}

extern "C" uint64_t DmconfFuzzCasesJudged() { return dmconf::Loaded().judged; }

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  dmconf::Loaded();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (DmconfFuzzCheckOneInput(data, size) != 0) std::abort();
  return 0;
}
