// dmconf vectors: generate, check, verify, export and import golden test-vector sets
// (docs/vector-format.md).
#include <filesystem>
#include <iostream>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "harness/base/output_paths.h"
#include "harness/cli/commands.h"
#include "harness/cli/option_checks.h"
#include "harness/cli/pipeline_options.h"
#include "harness/io/npy_export.h"
#include "harness/io/shape_case_file.h"
#include "harness/io/vector_file.h"
#include "harness/io/vector_verify.h"
#include "harness/onnx/onnx_export.h"
#include "harness/onnx/onnx_import.h"
#include "harness/runner/vector_cases.h"
#include "harness/session/run_session.h"
#include "harness/session/verify_vectors.h"
#include "harness/suites/vector_set_files.h"
#include "harness/suites/vector_sets.h"

namespace dmconf::cli {
namespace {

namespace fs = std::filesystem;

// Vector files named on the command line: files as given, folders searched recursively.
bool CollectFiles(const std::vector<std::string>& paths, std::vector<std::string>* out) {
  for (const std::string& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      absl::StatusOr<std::vector<std::string>> files = io::ListVectorFiles(p);
      if (!files.ok()) {
        std::cerr << "dmconf vectors: " << files.status().message() << "\n";
        return false;
      }
      out->insert(out->end(), files->begin(), files->end());
    } else {
      out->push_back(p);
    }
  }
  if (absl::Status distinct = io::CheckInputsDistinct(*out); !distinct.ok()) {
    std::cerr << "dmconf vectors: " << distinct.message() << "\n";
    return false;
  }
  return true;
}

void RegisterGenerate(CLI::App* vectors, int* exit_code) {
  struct Opts {
    std::string out, profile = "golden";
    std::string ops, types;
    uint64_t seed = io::kDefaultSeed;
    int threads = 1;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = vectors->add_subcommand(
      "generate",
      "Write a vector set (one dmconf-vector/1 file per case and MANIFEST.json) into --out.\n"
      "Deterministic: the same profile and seed give byte-identical files. Files of an earlier\n"
      "generation that the set no longer has are removed (only those its manifest lists).\n"
      "--ops / --types write a subset (the cases of those ops with data of those element types);\n"
      "the manifest records it, and `vectors check` regenerates the same subset.\n"
      "Example: dmconf vectors generate --out d2s-f16 --ops DepthToSpace --types f16");
  cmd->add_option("--out", o->out, "output folder")->required();
  cmd->add_option("--profile", o->profile, "golden (the checked-in set) or smoke")
      ->capture_default_str();
  cmd->add_option("--seed", o->seed, "seed of the special-value patterns")
      ->check(Unsigned64())
      ->capture_default_str();
  cmd->add_option("--ops", o->ops, "comma-separated ops to keep (default: all)")
      ->check(NonEmptyList());
  cmd->add_option("--types", o->types, "comma-separated data element types to keep (default: all)")
      ->check(NonEmptyList());
  cmd->add_option("--threads", o->threads,
                  "threads the oracle may use for a large case; the files are byte-identical "
                  "for any count")
      ->check(IntegerIn(1, kMaxThreads))
      ->capture_default_str();
  cmd->callback([o, exit_code] {
    io::ManifestInfo info{std::string(io::kGeneratorName), o->profile, o->seed, "", {}, {}};
    for (auto [text, list] : {std::pair{&o->ops, &info.ops}, std::pair{&o->types, &info.types}}) {
      for (absl::string_view name : absl::StrSplit(*text, ',', absl::SkipEmpty())) {
        list->emplace_back(name);
      }
    }
    if (absl::Status s = io::CanonicalSubset(&info.ops, &info.types); !s.ok()) {
      std::cerr << "dmconf vectors generate: " << Printable(s.message()) << "\n";
      *exit_code = 2;
      return;
    }
    EvalOptions eval;
    eval.threads = o->threads;
    absl::StatusOr<std::vector<io::VectorCase>> cases = io::BuildProfile(o->profile, o->seed, eval);
    if (!cases.ok()) {
      std::cerr << "dmconf vectors generate: " << cases.status().message() << "\n";
      *exit_code = 2;
      return;
    }
    *cases = io::SelectSubset(std::move(*cases), info.ops, info.types);
    if (cases->empty()) {
      std::cerr << "dmconf vectors generate: vector.generate.empty: the profile '" << o->profile
                << "' has no case of the ops and types asked for; nothing written\n";
      *exit_code = 2;
      return;
    }
    const std::vector<io::SetFile> files = io::RenderSet(*cases, info);
    absl::Status s = io::WriteSet(o->out, files);
    if (!s.ok()) {
      std::cerr << "dmconf vectors generate: " << s.message() << "\n";
      *exit_code = 2;
      return;
    }
    int64_t bytes = 0;
    for (const io::SetFile& f : files) bytes += static_cast<int64_t>(f.bytes.size());
    std::cout << "dmconf vectors generate: " << cases->size() << " vectors (" << bytes
              << " bytes) in " << o->out << "\n";
  });
}

void RegisterCheck(CLI::App* vectors, int* exit_code) {
  auto dirs = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = vectors->add_subcommand(
      "check",
      "Rebuild each vector set from its MANIFEST.json (the generator's profile and seed, or the\n"
      "ONNX originals) and report every file that is missing, extra or different. When the\n"
      "originals of an imported set are not installed, checks sizes, sha256 and that every file\n"
      "parses instead. Exit status 1 when anything differs.");
  cmd->add_option("DIR", *dirs, "vector set folders (with MANIFEST.json)")
      ->required()
      ->check(NonEmptyPath());
  cmd->callback([dirs, exit_code] {
    for (const std::string& dir : *dirs) {
      absl::StatusOr<std::vector<io::SetFile>> want = io::RegenerateSet(dir);
      absl::StatusOr<std::vector<std::string>> diffs;
      std::string how = "regenerated";
      if (want.ok()) {
        diffs = io::CompareSet(dir, *want);
      } else if (absl::StartsWith(want.status().message(), "vector.check.source")) {
        std::cout << "dmconf vectors check: " << want.status().message()
                  << "; checking sha256 and syntax only\n";
        how = "sha256-checked";
        diffs = io::CheckSetIntegrity(dir);
      } else {
        diffs = want.status();
      }
      if (!diffs.ok()) {
        std::cerr << "dmconf vectors check: " << diffs.status().message() << "\n";
        *exit_code = 2;
        continue;
      }
      for (const std::string& d : *diffs) std::cout << dir << ": " << d << "\n";
      if (!diffs->empty()) {
        std::cout << "dmconf vectors check: " << dir << ": " << diffs->size()
                  << " difference(s); regenerate with scripts/regenerate.sh and commit\n";
        *exit_code = std::max(*exit_code, 1);
      } else {
        std::cout << "dmconf vectors check: " << dir << ": current (" << how << ")\n";
      }
    }
  });
}

void RegisterVerify(CLI::App* vectors, int* exit_code) {
  struct Opts {
    std::vector<std::string> paths;
    SessionOptions pipeline;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = vectors->add_subcommand(
      "verify",
      "Run backends on vector files and judge each against the file's expectation, exactly like\n"
      "`dmconf run` (isolated workers, bit-exact comparison, diagnosis, --expectations, --report,\n"
      "--junit, failing cases saved with a repro line). First checks every file's expectation\n"
      "against the oracle: a file it contradicts is a file error\n"
      "(vector.expectation.contradicts_oracle, with the oracle's answer) and no backend is\n"
      "judged on it. Default backend: oracle.\n"
      "Prints 'vectors: N passed, N failed, N unsupported' (unsupported: some backend did not\n"
      "run it; --fail-unsupported makes that a failure). A file that cannot be read or parsed,\n"
      "or that the oracle contradicts, is listed (stderr, summary, reports) with its rule and "
      "location and counts as failed;\n"
      "the other files still run. Exit status 1 on any failure, 2 when an argument is wrong.\n"
      "Example: dmconf vectors verify vectors/golden --backend xnnpack "
      "--expectations reports/expectations/xnnpack.json");
  cmd->add_option("PATH", o->paths, "vector files or folders")->required()->check(NonEmptyPath());
  AddPipelineOptions(cmd, &o->pipeline);
  cmd->callback([o, exit_code] {
    std::vector<std::string> files;
    if (!CollectFiles(o->paths, &files)) {
      *exit_code = 2;
      return;
    }
    SessionOptions options = o->pipeline;
    options.options = nlohmann::ordered_json{{"paths", o->paths}};
    absl::StatusOr<VectorTally> t = VerifyVectorFiles(files, std::move(options));
    if (!t.ok()) {
      std::cerr << "dmconf vectors verify: " << t.status().message() << "\n";
      *exit_code = 2;
      return;
    }
    std::cout << "vectors: " << t->passed << " passed, " << t->failed << " failed, "
              << t->unsupported << " unsupported"
              << (t->file_errors > 0 ? absl::StrCat(" (", t->file_errors, " file error(s))") : "")
              << "\n";
    if (t->session_status == 2) {
      *exit_code = 2;
    } else if (t->failed > 0 || t->session_status != 0) {
      *exit_code = 1;
    }
  });
}

// Every vector file under `paths` read into `vectors`; false (the error printed, prefixed with
// `command`) when a path or a file cannot be read.
bool ReadVectorsOf(const std::vector<std::string>& paths, const std::string& command,
                   std::vector<io::VectorCase>* vectors) {
  std::vector<std::string> files;
  if (!CollectFiles(paths, &files)) return false;
  for (const std::string& f : files) {
    absl::StatusOr<io::VectorCase> v = io::ReadVectorFile(f);
    if (!v.ok()) {
      std::cerr << command << ": " << v.status().message() << "\n";
      return false;
    }
    vectors->push_back(*std::move(v));
  }
  return true;
}

void RegisterExportNpy(CLI::App* vectors, int* exit_code) {
  struct Opts {
    std::vector<std::string> paths;
    std::string out;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = vectors->add_subcommand(
      "export-npy",
      "Export vectors for Python with numpy alone: OUT/manifest.json and one .npy file per\n"
      "tensor (docs/vector-format.md, scripts/vectors_npy_example.py).");
  cmd->add_option("PATH", o->paths, "vector files or folders")->required()->check(NonEmptyPath());
  cmd->add_option("--out", o->out, "output folder")->required();
  cmd->callback([o, exit_code] {
    std::vector<io::VectorCase> vectors;
    if (!ReadVectorsOf(o->paths, "dmconf vectors export-npy", &vectors)) {
      *exit_code = 2;
      return;
    }
    absl::Status s = io::ExportNpy(vectors, o->out);
    if (!s.ok()) {
      std::cerr << "dmconf vectors export-npy: " << s.message() << "\n";
      *exit_code = 2;
      return;
    }
    std::cout << "dmconf vectors export-npy: " << vectors.size() << " vectors in " << o->out
              << "\n";
  });
}

void RegisterExportOnnx(CLI::App* vectors, int* exit_code) {
  struct Opts {
    std::vector<std::string> paths;
    std::string out;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = vectors->add_subcommand(
      "export-onnx",
      "Export vectors as ONNX node-test folders (OUT/test_dmconf_<id>/model.onnx and\n"
      "test_data_set_0/{input_0,output_0}.pb) for any ONNX runtime's test runner; cases ONNX\n"
      "cannot express are listed as skipped with their reason (docs/vector-format.md).");
  cmd->add_option("PATH", o->paths, "vector files or folders")->required()->check(NonEmptyPath());
  cmd->add_option("--out", o->out, "output folder")->required();
  cmd->callback([o, exit_code] {
    std::vector<io::VectorCase> vectors;
    if (!ReadVectorsOf(o->paths, "dmconf vectors export-onnx", &vectors)) {
      *exit_code = 2;
      return;
    }
    absl::StatusOr<io::OnnxExport> e = io::ExportOnnx(vectors, o->out);
    if (!e.ok()) {
      std::cerr << "dmconf vectors export-onnx: " << e.status().message() << "\n";
      *exit_code = 2;
      return;
    }
    for (const auto& [id, why] : e->skipped) {
      std::cout << "skipped " << id << ": " << why << "\n";
    }
    std::cout << "dmconf vectors export-onnx: " << e->exported.size() << " exported, "
              << e->skipped.size() << " skipped, in " << o->out
              << " (list: " << io::kOnnxExportListName << ")\n";
  });
}

void RegisterImportOnnx(CLI::App* vectors, int* exit_code) {
  struct Opts {
    std::string from = io::kOnnxTestDataDir;
    std::string out;
  };
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = vectors->add_subcommand(
      "import-onnx",
      "Convert the ONNX node tests for DepthToSpace (DCR -> blocks_first, CRD -> depth_first)\n"
      "and SpaceToDepth (-> blocks_first) into dmconf vectors, with their provenance; the\n"
      "expected outputs are ONNX's own. --from an export-onnx folder gives back the exported\n"
      "vectors.");
  cmd->add_option("--from", o->from, "the ONNX node-test folder")
      ->capture_default_str()
      ->check(NonEmptyPath());
  cmd->add_option("--out", o->out, "output folder")->required();
  cmd->callback([o, exit_code] {
    absl::StatusOr<std::vector<io::VectorCase>> cases = io::ImportOnnxSet(o->from);
    if (!cases.ok()) {
      std::cerr << "dmconf vectors import-onnx: " << cases.status().message() << "\n";
      *exit_code = 2;
      return;
    }
    io::ManifestInfo info{io::kOnnxImportGenerator, "", std::nullopt, o->from, {}, {}};
    absl::Status s = io::WriteSet(o->out, io::RenderSet(*cases, info));
    if (!s.ok()) {
      std::cerr << "dmconf vectors import-onnx: " << s.message() << "\n";
      *exit_code = 2;
      return;
    }
    std::cout << "dmconf vectors import-onnx: " << cases->size() << " vectors in " << o->out
              << "\n";
  });
}

}  // namespace

void RegisterVectors(CLI::App& app, int* exit_code) {
  CLI::App* vectors = app.add_subcommand(
      "vectors",
      "Golden test vectors: generate, check, verify, export-npy, export-onnx, import-onnx,\n"
      "run-onnx.");
  vectors->require_subcommand(1);
  RegisterGenerate(vectors, exit_code);
  RegisterCheck(vectors, exit_code);
  RegisterVerify(vectors, exit_code);
  RegisterExportNpy(vectors, exit_code);
  RegisterExportOnnx(vectors, exit_code);
  RegisterImportOnnx(vectors, exit_code);
  RegisterRunOnnx(vectors, exit_code);       // cmd_vectors_onnx.cc
  RegisterShapeVectors(vectors, exit_code);  // generate-shapes, check-shapes
}

}  // namespace dmconf::cli
