// dmconf vectors generate-shapes | check-shapes: the golden set of shape-inference cases
// (`dmconf-shape-case/1` files, docs/shape-case-format.md) and its staleness check.
//
//   dmconf vectors generate-shapes --out vectors/shapes --seed 1
//   dmconf vectors check-shapes vectors/shapes saved-failures/
//
// Which cases the set holds: harness/suites/shape_set.h.
#include <filesystem>
#include <iostream>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/cli/commands.h"
#include "harness/cli/option_checks.h"
#include "harness/gen/partial.h"
#include "harness/io/manifest.h"
#include "harness/io/shape_case_file.h"
#include "harness/io/shape_case_verify.h"
#include "harness/io/vector_file.h"
#include "harness/runner/runner.h"
#include "harness/suites/shape_set.h"
#include "harness/suites/vector_set_files.h"

namespace dmconf::cli {
namespace {

namespace fs = std::filesystem;

void RegisterGenerateShapes(CLI::App* vectors, int* exit_code) {
  struct Opts {
    std::string out;
    uint64_t seed = 1;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = vectors->add_subcommand(
      "generate-shapes",
      "Write the golden set of shape-inference cases (one dmconf-shape-case/1 file per case and\n"
      "MANIFEST.json) into --out: static cases (valid, must_reject, unspecified, dims near\n"
      "2^63) and partial ones (intervals, unknown rank, non-constant block inputs), each with\n"
      "the oracle's answer. Deterministic: the same seed gives byte-identical files.");
  cmd->add_option("--out", o->out, "output folder")->required()->check(NonEmptyPath());
  cmd->add_option("--seed", o->seed, "seed of the shape sweep")
      ->check(Unsigned64())
      ->capture_default_str();
  cmd->callback([o, exit_code] {
    absl::StatusOr<ShapeSet> set = BuildShapeSet(o->seed);
    absl::Status s = set.ok() ? RefuseForeignShapeSet(o->out) : set.status();
    if (s.ok()) s = io::WriteSet(o->out, set->files);
    if (!s.ok()) {
      std::cerr << "dmconf vectors generate-shapes: " << s.message() << "\n";
      *exit_code = 2;
      return;
    }
    std::cout << "dmconf vectors generate-shapes: " << set->cases << " shape cases in " << o->out
              << "\n";
  });
}

void RegisterCheckShapes(CLI::App* vectors, int* exit_code) {
  auto paths = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = vectors->add_subcommand(
      "check-shapes",
      "Read every dmconf-shape-case/1 file under the given files and folders and check that the\n"
      "oracle still gives the answer each one stores; a folder made by generate-shapes (its\n"
      "MANIFEST.json) is also regenerated and compared byte for byte. Exit status 1 when a file\n"
      "is stale, missing, extra or unreadable.");
  cmd->add_option("PATH", *paths, "shape-case files or folders")->required()->check(NonEmptyPath());
  cmd->callback([paths, exit_code] {
    size_t checked = 0, bad = 0;
    for (const std::string& p : *paths) {
      std::error_code ec;
      std::vector<std::string> files;
      if (fs::is_directory(p, ec)) {
        absl::StatusOr<std::vector<std::string>> listed = io::ListVectorFiles(p);
        if (!listed.ok()) {
          std::cerr << "dmconf vectors check-shapes: " << Printable(listed.status().message())
                    << "\n";
          *exit_code = 2;
          return;
        }
        files = *std::move(listed);
        if (fs::exists(fs::path(p) / io::kManifestName, ec)) {
          for (const std::string& line : CompareShapeSetWithRegenerated(p)) {
            std::cout << Printable(line) << "\n";
            ++bad;
          }
        }
      } else {
        files.push_back(p);
      }
      for (const std::string& f : files) {
        ++checked;
        absl::StatusOr<io::ShapeCaseFile> sc = io::ReadShapeCaseFile(f);
        absl::Status s = sc.ok() ? io::VerifyShapeCaseExpectation(*sc, f) : sc.status();
        if (!s.ok()) {
          std::cout << (absl::StartsWith(s.message(), "shape_case.expected.stale") ? "STALE "
                                                                                   : "BAD ")
                    << Printable(s.message()) << "\n";
          ++bad;
        }
      }
    }
    std::cout << "dmconf vectors check-shapes: " << checked << " file(s), " << bad << " problem(s)"
              << (bad > 0 ? "; regenerate with scripts/regenerate.sh" : "") << "\n";
    if (bad > 0) *exit_code = std::max(*exit_code, 1);
  });
}

}  // namespace

void RegisterShapeVectors(CLI::App* vectors, int* exit_code) {
  RegisterGenerateShapes(vectors, exit_code);
  RegisterCheckShapes(vectors, exit_code);
}

}  // namespace dmconf::cli
