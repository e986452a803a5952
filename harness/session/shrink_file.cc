#include "harness/session/shrink_file.h"

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/base/files.h"
#include "harness/base/output_paths.h"
#include "harness/io/shape_case_file.h"
#include "harness/io/vector_file.h"
#include "harness/isolation/worker.h"
#include "harness/runner/shape_lane.h"
#include "harness/runner/vector_cases.h"
#include "harness/session/backend_choice.h"
#include "harness/shrink/replay.h"
#include "harness/shrink/shrink.h"
#include "harness/shrink/shrink_shape.h"

namespace dmconf {
namespace {

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
absl::StatusOr<std::string> OutPathOf(const ShrinkFileRequest& r) {
  const std::filesystem::path file(r.file);
  const std::string out =
      !r.out.empty() ? r.out : (file.parent_path() / (file.stem().string() + ".min.json")).string();
  if (absl::Status s = io::CheckWriteTarget(out); !s.ok()) return s;
  if (absl::Status s = io::CheckDistinctPaths({{"FILE", r.file}}, {{"--out", out}}); !s.ok()) {
    return s;
  }
  return out;
}

// What the session shares between the two kinds of case.
struct Shrinking {
  const ShrinkFileRequest& r;
  const BackendInfo& b;
  IsolatedBackend& backend;
  const RunOptions& ro;
  std::string path, repro_flag;
  std::ostream& out;
  std::ostream& err;

  ShrinkOptions Options() const {
    ShrinkOptions so;
    so.budget_seconds = r.seconds;
    so.max_attempts = static_cast<int>(r.attempts);
    return so;
  }

  // Exit status 1 with why nothing is shrunk: the case's first result is no failure (`why`,
  // its verdict), or the failure's replays disagree (`first.detail` says so). A flaky failure
  // would give a "minimal" case that claims a determinism the backend does not have.
  int NothingToShrink(const std::string& id, absl::string_view why) const {
    out << id << ": " << why << " on " << b.name << ": nothing to shrink\n";
    return 1;
  }
  int Flaky(const std::string& id, const CaseResult& first) const {
    out << id << ": " << first.detail << "; nothing written\n";
    return 1;
  }

  // The minimal case written, and what was kept; the exit status.
  int Written(const absl::Status& written, const ShrinkStats& stats, const CaseResult::Shrunk& info,
              const CaseResult& first, const CaseResult& result) const {
    if (!written.ok()) {
      err << "dmconf shrink: " << written.message() << "\n";
      return 2;
    }
    // Each line one operand ending in its newline (harness/base/shown_text.h).
    out << (stats.accepted == 0 ? "already minimal: " : "minimal: ") << ShrunkText(info) << ", "
        << VerdictName(result.verdict) << " kept, " << stats.attempts << " attempts in "
        << absl::StrFormat("%.3f", stats.seconds) << " s"
        << (stats.budget_exhausted ? " (budget ran out: a smaller case may exist)" : "") << "\n"
        << "  " << result.detail << "\n";
    if (first.diagnosis) out << "diagnosis: " << first.diagnosis->summary << "\n";
    if (result.diagnosis) out << "shrunk diagnosis: " << result.diagnosis->summary << "\n";
    out << "written: " << path << "\n"
        << "repro: dmconf run " << repro_flag << " --vectors " << ShellQuote(path) << "\n";
    return 0;
  }

  int Kernel(const PreparedCase& original) const {
    const Capabilities caps = backend.GetCapabilities();
    CaseResult first = RunCase(backend, b.name, caps, original, ro);
    if (!IsFailure(first.verdict, ro.strictness)) {
      return NothingToShrink(original.c.id, VerdictName(first.verdict));
    }
    if (!ConfirmFailure(backend, b.name, caps, original, ro, &first)) {
      return Flaky(original.c.id, first);
    }
    out << original.c.id << ": " << VerdictName(first.verdict)
        << (first.rule.empty() ? "" : absl::StrCat(" (", first.rule, ")")) << ", "
        << original.c.data.NumElements() << " data elements; shrinking (budget " << r.seconds
        << " s)...\n";
    const ShrunkCase s = ShrinkFailure(backend, b.name, caps, original, first, ro, Options());
    absl::StatusOr<io::VectorCase> v =
        FailingCaseVector(b.name, s.minimal, VerdictName(s.result.verdict), s.result.detail);
    CaseResult::Shrunk info = ShrunkPart(s.minimal.c.id, s.stats, s.result);
    info.thresholds = s.thresholds;
    return Written(v.ok() ? io::WriteVectorFile(path, *v) : v.status(), s.stats, info, first,
                   s.result);
  }

  int Shape(const PreparedShapeCase& original) const {
    const Capabilities caps = backend.GetCapabilities();
    CaseResult first = RunShapeCase(backend, b.name, caps, original, ro);
    if (!IsShapeLane(first.lane))
      return NothingToShrink(original.s.id, "no shape inference declared");
    if (!IsFailure(first.verdict, ro.strictness)) {
      return NothingToShrink(original.s.id, VerdictName(first.verdict));
    }
    if (!ConfirmShapeFailure(backend, b.name, caps, original, ro, &first)) {
      return Flaky(original.s.id, first);
    }
    out << original.s.id << ": " << VerdictName(first.verdict) << " in " << CaseLaneName(first.lane)
        << (first.rule.empty() ? "" : absl::StrCat(" (", first.rule, ")")) << ", "
        << InvocationText(DescribeShapeInvocation(original.s.c)) << "; shrinking (budget "
        << r.seconds << " s)...\n";
    const ShrunkShapeCase s =
        ShrinkShapeFailure(backend, b.name, caps, original, first, ro, Options());
    absl::StatusOr<io::ShapeCaseFile> file =
        FailingShapeCaseFile(b.name, s.minimal, VerdictName(s.result.verdict), s.result.detail);
    return Written(file.ok() ? io::WriteShapeCaseFile(path, *file) : file.status(), s.stats,
                   ShrunkShapeInfo(s), first, s.result);
  }
};

}  // namespace

int ShrinkFile(const ShrinkFileRequest& r, std::ostream& out, std::ostream& err) {
  absl::StatusOr<std::string> spec = OneBackendSpec(r.backend, r.backend_lib);
  absl::StatusOr<BackendInfo> b = spec.ok() ? ResolveOneBackend(*spec) : spec.status();
  absl::StatusOr<LoadedVectors> loaded = b.ok() ? LoadOneCase(r.file) : b.status();
  absl::StatusOr<std::string> path = loaded.ok() ? OutPathOf(r) : loaded.status();
  absl::StatusOr<RunOptions> ro =
      path.ok() ? StartOneBackend(*b, r.memory_limit, r.timeout) : path.status();
  if (!ro.ok()) {
    err << "dmconf shrink: " << ro.status().message() << "\n";
    return 2;
  }
  IsolatedBackend backend(b->name, b->factory, IsolationFor(*ro));
  const Shrinking s{r,   *b, backend, *ro, *path, ReproFlag(b->name, *spec, !r.backend_lib.empty()),
                    out, err};
  if (!loaded->shape_cases.empty()) return s.Shape(loaded->shape_cases.front());
  return s.Kernel(loaded->cases.front());
}

}  // namespace dmconf
