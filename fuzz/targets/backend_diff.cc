// Differential: the oracle against a backend adapter, in process. The backend is the Eigen
// Tensor adapter (ExtractImagePatches) or, with DMCONF_FUZZ_BACKEND=xnnpack, the XNNPACK
// adapter (DepthToSpace). Cases the backend does not support are skipped. A backend output
// that differs from the oracle's (or a refusal of a valid case) is saved in
// $DMCONF_FUZZ_REPRO_DIR (default: the working directory) as a dmconf-vector/1 file,
// fuzz-backend-diff-<backend>-<hash>.json (replay: dmconf run --backend NAME --vectors FILE),
// with a repro line in backend-diff-repro.txt; then the target aborts, so libFuzzer keeps the
// input too.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdlib>
#include <fstream>
#include <memory>

#include "fuzz/fuzz_chooser.h"
#include "fuzz/literal_case.h"
#include "fuzz/perturb.h"
#include "fuzz/targets/backend_diff_backends.h"
#include "harness/backend/backend.h"
#include "harness/gen/describe.h"
#include "harness/gen/generate.h"
#include "harness/io/vector_file.h"
#include "oracle/oracle.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dmconf;
  static std::unique_ptr<Backend> backend = MakeFuzzBackend();
  if (!backend) return 0;
  const bool literal = StripLiteralMagic(&data, &size);
  FuzzedDataProvider fdp(data, size);
  FuzzChooser ch(&fdp);
  GenerateOptions o;
  o.build.max_elements = 1024;
  for (const OpSupport& s : backend->GetCapabilities().ops) {
    o.ops.push_back(s.op);
    o.build.data_types.assign(s.element_types.begin(), s.element_types.end());
  }
  o.valid_weight = 1;
  o.negative_weight = 0;
  o.overflow_weight = 0;
  GeneratedCase g = literal ? LiteralCase(ch) : GenerateCase(ch, o);
  if (!backend->Supports(g.c)) return 0;
  // Outputs up to 4 MiB: a literal input can spell out a case whose patches take seconds to
  // build (the builders' cases stay under max_elements anyway).
  absl::StatusOr<Expectation> e = Evaluate(g.c, EvalOptions{int64_t{1} << 22});
  if (!e.ok() || e->kind != ExpectationKind::kValid) return 0;
  RunOutcome r = backend->Run(g.c);
  if (r.kind == RunOutcome::Kind::kUnsupported) return 0;
  if (r.kind == RunOutcome::Kind::kOutput && r.output && *r.output == *e->output) return 0;
  const char* env = std::getenv("DMCONF_FUZZ_REPRO_DIR");
  const std::string dir = env != nullptr ? env : ".";
  const std::string what = r.kind == RunOutcome::Kind::kOutput ? "wrong output" : r.message;
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a of the input: one file per distinct input
  for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 0x100000001b3ull;
  OpCase saved = g.c;
  saved.id = "fuzz-backend-diff-" + backend->Name() + "-" + std::to_string(h % 1000000007u);
  io::Provenance p;
  p.kind = "regression";
  p.found_by = "fuzz";
  p.note = "fuzz_backend_diff: " + backend->Name() + ": " + what;
  absl::StatusOr<io::VectorCase> v = io::VectorCaseFromOracle(saved, p, {});
  const std::string path = dir + "/" + saved.id + ".json";
  const bool written = v.ok() && io::WriteVectorFile(path, *v).ok();
  std::ofstream f(dir + "/backend-diff-repro.txt", std::ios::app);
  f << backend->Name() << ": " << what << "\n  " << ReproCommand(g.c) << "\n"
    << (written ? "  saved: " + path + "\n" : "  (vector file not written)\n");
  FuzzFail(g.c, "backend disagrees with the oracle");
}
