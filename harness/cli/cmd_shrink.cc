// dmconf shrink FILE --backend NAME | --backend-lib PATH: a failing vector file (or shape-case
// file) reduced to a minimal case of the same verdict class (harness/shrink), through an
// isolated worker, saved beside the file as <name>.min.json with its repro line.
#include <filesystem>
#include <iostream>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/backends/registry/registry.h"
#include "harness/base/files.h"
#include "harness/base/output_paths.h"
#include "harness/cli/commands.h"
#include "harness/cli/option_checks.h"
#include "harness/cli/pipeline_options.h"
#include "harness/io/shape_case_file.h"
#include "harness/io/shape_case_verify.h"
#include "harness/io/vector_file.h"
#include "harness/isolation/worker.h"
#include "harness/runner/shape_lane.h"
#include "harness/runner/vector_cases.h"
#include "harness/session/backend_choice.h"
#include "harness/shrink/replay.h"
#include "harness/shrink/shrink.h"
#include "harness/shrink/shrink_shape.h"

namespace dmconf::cli {
namespace {

struct ShrinkFlags {
  std::string memory_limit = "auto";
  std::string file, backend, backend_lib, out;
  double timeout = 10.0;
  double seconds = 60.0;
  int64_t attempts = 5000;
};

// The shrink's outcome: sizes, the verdict kept, both diagnoses, the file and its repro line.
void PrintShrunk(const ShrunkCase& s, const CaseResult& first, const std::string& out,
                 const std::string& repro_flag) {
  CaseResult::Shrunk info;
  info.from_elements = s.stats.from_elements;
  info.to_elements = s.stats.to_elements;
  info.thresholds = s.thresholds;
  std::cout << (s.stats.accepted == 0 ? "already minimal: " : "minimal: ") << ShrunkText(info)
            << ", " << VerdictName(s.result.verdict) << " kept, " << s.stats.attempts
            << " attempts in " << absl::StrFormat("%.3f", s.stats.seconds) << " s"
            << (s.stats.budget_exhausted ? " (budget ran out: a smaller case may exist)" : "")
            << "\n"
            << "  " << s.result.detail << "\n";
  // Each line one operand ending in its newline (harness/base/shown_text.h).
  if (first.diagnosis) std::cout << "diagnosis: " << first.diagnosis->summary << "\n";
  if (s.result.diagnosis) std::cout << "shrunk diagnosis: " << s.result.diagnosis->summary << "\n";
  std::cout << "written: " << out << "\n"
            << "repro: dmconf run " << repro_flag << " --vectors " << ShellQuote(out) << "\n";
}

// The one case of FILE: a kernel case (dmconf-vector/1) or a shape case
// (dmconf-shape-case/1). Errors: the file's, or a file that holds neither.
absl::StatusOr<LoadedVectors> LoadOneCase(const std::string& file) {
  absl::StatusOr<LoadedVectors> loaded = LoadVectorCases({file});
  if (!loaded.ok()) return loaded.status();
  if (!loaded->errors.empty()) return absl::InvalidArgumentError(loaded->errors.front().message);
  if (loaded->cases.size() + loaded->shape_cases.size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat(file, " holds no dmconf-vector/1 or dmconf-shape-case/1 case"));
  }
  return loaded;
}

// Where the minimal case goes (--out, else beside FILE as <name>.min.json), checked before
// any case runs.
absl::StatusOr<std::string> OutPathOf(const ShrinkFlags& f) {
  const std::filesystem::path file(f.file);
  const std::string out =
      !f.out.empty() ? f.out : (file.parent_path() / (file.stem().string() + ".min.json")).string();
  if (absl::Status s = io::CheckWriteTarget(out); !s.ok()) return s;
  if (absl::Status s = io::CheckDistinctPaths({{"FILE", f.file}}, {{"--out", out}}); !s.ok()) {
    return s;
  }
  return out;
}

// The case's first verdict, replayed: 1 (printed why) when it does not fail or fails flakily.
int ConfirmToShrink(Backend& backend, const std::string& name, const Capabilities& caps,
                    const PreparedCase& original, const RunOptions& ro, CaseResult* first) {
  *first = RunCase(backend, name, caps, original, ro);
  if (!IsFailure(first->verdict, ro.strictness)) {
    std::cout << original.c.id << ": " << VerdictName(first->verdict) << " on " << name
              << ": nothing to shrink\n";
    return 1;
  }
  // A failure is shrunk only when its replays agree (harness/shrink/replay.h): a flaky one
  // would give a "minimal" case that claims a determinism the backend does not have.
  if (!ConfirmFailure(backend, name, caps, original, ro, first)) {
    std::cout << original.c.id << ": " << first->detail << "; nothing written\n";
    return 1;
  }
  return 0;
}

// The shrink of a kernel case (a dmconf-vector/1 file); the exit status.
int ShrinkKernelCase(const ShrinkFlags& f, const BackendInfo& b, IsolatedBackend& backend,
                     const RunOptions& ro, const PreparedCase& original, const std::string& out,
                     const std::string& repro_flag) {
  const Capabilities caps = backend.GetCapabilities();
  CaseResult first;
  if (ConfirmToShrink(backend, b.name, caps, original, ro, &first) != 0) return 1;
  std::cout << original.c.id << ": " << VerdictName(first.verdict)
            << (first.rule.empty() ? "" : absl::StrCat(" (", first.rule, ")")) << ", "
            << original.c.data.NumElements() << " data elements; shrinking (budget " << f.seconds
            << " s)...\n";
  ShrinkOptions so;
  so.budget_seconds = f.seconds;
  so.max_attempts = static_cast<int>(f.attempts);
  const ShrunkCase s = ShrinkFailure(backend, b.name, caps, original, first, ro, so);
  absl::StatusOr<io::VectorCase> v =
      FailingCaseVector(b.name, s.minimal, VerdictName(s.result.verdict), s.result.detail);
  absl::Status written = v.ok() ? io::WriteVectorFile(out, *v) : v.status();
  if (!written.ok()) {
    std::cerr << "dmconf shrink: " << written.message() << "\n";
    return 2;
  }
  PrintShrunk(s, first, out, repro_flag);
  return 0;
}

// The shape case's first verdict, replayed: 1 (printed why) when it is no shape-lane failure
// or fails flakily.
int ConfirmShapeToShrink(Backend& backend, const std::string& name, const Capabilities& caps,
                         const PreparedShapeCase& original, const RunOptions& ro,
                         CaseResult* first) {
  *first = RunShapeCase(backend, name, caps, original, ro);
  if (!IsShapeLane(first->lane) || !IsFailure(first->verdict, ro.strictness)) {
    std::cout << original.s.id << ": "
              << (!IsShapeLane(first->lane) ? "no shape inference declared"
                                            : std::string(VerdictName(first->verdict)))
              << " on " << name << ": nothing to shrink\n";
    return 1;
  }
  if (!ConfirmShapeFailure(backend, name, caps, original, ro, first)) {
    std::cout << original.s.id << ": " << first->detail << "; nothing written\n";
    return 1;
  }
  return 0;
}

// The shrink of a shape case (a dmconf-shape-case/1 file, harness/shrink/shrink_shape.h); the
// exit status.
int ShrinkShapeCaseFile(const ShrinkFlags& f, const BackendInfo& b, IsolatedBackend& backend,
                        const RunOptions& ro, const PreparedShapeCase& original,
                        const std::string& out, const std::string& repro_flag) {
  const Capabilities caps = backend.GetCapabilities();
  CaseResult first;
  if (ConfirmShapeToShrink(backend, b.name, caps, original, ro, &first) != 0) return 1;
  std::cout << original.s.id << ": " << VerdictName(first.verdict) << " in "
            << CaseLaneName(first.lane)
            << (first.rule.empty() ? "" : absl::StrCat(" (", first.rule, ")")) << ", "
            << InvocationText(DescribeShapeInvocation(original.s.c)) << "; shrinking (budget "
            << f.seconds << " s)...\n";
  ShrinkOptions so;
  so.budget_seconds = f.seconds;
  so.max_attempts = static_cast<int>(f.attempts);
  const ShrunkShapeCase s = ShrinkShapeFailure(backend, b.name, caps, original, first, ro, so);
  io::ShapeCaseFile file;
  file.id = VectorIdFor(s.minimal.s.id);
  file.origin = s.minimal.s.origin;
  file.c = s.minimal.s.c;
  file.backend = b.name;
  file.verdict = std::string(VerdictName(s.result.verdict));
  file.detail = s.result.detail.substr(0, 2000);
  absl::Status written = io::FillShapeExpectation(file);
  if (written.ok()) written = io::WriteShapeCaseFile(out, file);
  if (!written.ok()) {
    std::cerr << "dmconf shrink: " << written.message() << "\n";
    return 2;
  }
  std::cout << (s.stats.accepted == 0 ? "already minimal: " : "minimal: ")
            << ShrunkText(ShrunkShapeInfo(s)) << ", " << VerdictName(s.result.verdict) << " kept, "
            << s.stats.attempts << " attempts in " << absl::StrFormat("%.3f", s.stats.seconds)
            << " s"
            << (s.stats.budget_exhausted ? " (budget ran out: a smaller case may exist)" : "")
            << "\n"
            << "  " << s.result.detail << "\n"
            << "written: " << out << "\n"
            << "repro: dmconf run " << repro_flag << " --vectors " << ShellQuote(out) << "\n";
  return 0;
}

int Shrink(const ShrinkFlags& f) {
  absl::StatusOr<std::string> spec = OneBackendSpec(f.backend, f.backend_lib);
  absl::StatusOr<BackendInfo> b = spec.ok() ? ResolveOneBackend(*spec) : spec.status();
  absl::StatusOr<LoadedVectors> loaded = b.ok() ? LoadOneCase(f.file) : b.status();
  absl::StatusOr<std::string> out = loaded.ok() ? OutPathOf(f) : loaded.status();
  absl::StatusOr<RunOptions> ro =
      out.ok() ? StartOneBackend(*b, f.memory_limit, f.timeout) : out.status();
  if (!ro.ok()) {
    std::cerr << "dmconf shrink: " << ro.status().message() << "\n";
    return 2;
  }
  IsolatedBackend backend(b->name, b->factory, IsolationFor(*ro));
  const std::string repro_flag = ReproFlag(b->name, *spec, !f.backend_lib.empty());
  if (!loaded->shape_cases.empty()) {
    return ShrinkShapeCaseFile(f, *b, backend, *ro, loaded->shape_cases.front(), *out, repro_flag);
  }
  return ShrinkKernelCase(f, *b, backend, *ro, loaded->cases.front(), *out, repro_flag);
}

}  // namespace

void RegisterShrink(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<ShrinkFlags>();
  CLI::App* cmd = app.add_subcommand(
      "shrink",
      "Shrink a failing vector file (dmconf-vector/1) or shape-case file (dmconf-shape-case/1)\n"
      "to a minimal case with the same verdict class: the same\n"
      "verdict, the same deciding rule for a case that must be refused, at least one wrong\n"
      "element for wrong values. Tries fewer dims, smaller dims, smaller block sizes, pads,\n"
      "crops, sizes, strides and rates, a simpler element type and simpler data, each\n"
      "candidate run through an isolated worker (crashes and hangs shrink too, each attempt\n"
      "within --timeout), until no smaller candidate keeps the failure or the budget runs out.\n"
      "The minimal case is written beside FILE as <name>.min.json (or --out), its provenance\n"
      "naming the original and the verdict kept, and printed with its repro line.\n"
      "Examples:\n"
      "  dmconf shrink failures/xnnpack/directed__d2s...json --backend xnnpack\n"
      "  dmconf shrink bug.json --backend-lib ./libmine.so --seconds 300\n"
      "Before shrinking, the case is replayed 3 times: when the replays disagree (some pass, or\n"
      "fail otherwise), the failure is flaky and nothing is shrunk or written.\n"
      "Exit status: 0 a minimal case was written, 1 the case does not fail on that backend or\n"
      "fails flakily, 2 usage error (bad file, backend or option, or a file whose expectation\n"
      "the oracle contradicts: vector.expectation.contradicts_oracle).");
  cmd->add_option("FILE", f->file,
                  "a dmconf-vector/1 or dmconf-shape-case/1 file that fails on the backend")
      ->required()
      ->check(NonEmptyPath());
  cmd->add_option("--backend", f->backend, "built-in backend name (`dmconf backends`)");
  cmd->add_option("--backend-lib", f->backend_lib, "path to a plugin shared library (C ABI)");
  cmd->add_option("--out", f->out, "where to write the minimal case (default: beside FILE)")
      ->check(NonEmptyPath());
  AddMemoryLimitOption(cmd, &f->memory_limit);
  cmd->add_option("--timeout", f->timeout, "per-attempt timeout in seconds")
      ->check(SecondsIn(kMaxTimeoutSeconds))
      ->capture_default_str();
  cmd->add_option("--seconds", f->seconds, "time budget of the whole shrink")
      ->check(SecondsIn(kMaxTimeoutSeconds))
      ->capture_default_str();
  cmd->add_option("--attempts", f->attempts, "most candidates judged")
      ->check(IntegerIn(1, 1000000))
      ->capture_default_str();
  cmd->callback([f, exit_code] { *exit_code = Shrink(*f); });
}

}  // namespace dmconf::cli
