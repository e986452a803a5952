// dmconf vectors run-onnx: the exported ONNX node tests run by an ONNX runtime installed through
// the project's own script (docs/vector-format.md, "Running the node tests").
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/backends/registry/builtin_files.h"
#include "harness/cli/child_process.h"
#include "harness/cli/commands.h"
#include "harness/cli/option_checks.h"
#include "harness/io/vector_file.h"
#include "harness/onnx/onnx_export.h"

namespace dmconf::cli {
namespace {

namespace fs = std::filesystem;

constexpr const char* kInstallCommand = "scripts/install-optional-backends.sh node";
// The npm packages run_onnx_tests.js loads (harness/backends/subprocess/node/package.json).
constexpr const char* kPackages[] = {"onnxruntime-node", "onnx-proto"};

// Empty when the adapter in `dir` can run; else why not.
std::string AdapterProblem(const std::string& dir) {
  if (!OnPath("node")) return "node is not on PATH (Debian package nodejs)";
  std::error_code ec;
  if (!fs::is_regular_file(fs::path(dir) / "run_onnx_tests.js", ec)) {
    return absl::StrCat(dir, "/run_onnx_tests.js not found");
  }
  for (const char* p : kPackages) {
    if (!fs::is_regular_file(fs::path(dir) / "node_modules" / p / "package.json", ec)) {
      return absl::StrCat("npm package ", p, " is not installed in ", dir, "/node_modules");
    }
  }
  return "";
}

// The project's install script beside an adapter folder of a source tree
// (<root>/harness/backends/subprocess/node -> <root>/scripts/...), or "" when there is none.
std::string InstallScriptFor(const std::string& dir) {
  const fs::path script =
      fs::path(dir) / ".." / ".." / ".." / ".." / "scripts" / "install-optional-backends.sh";
  std::error_code ec;
  return fs::is_regular_file(script, ec) ? fs::weakly_canonical(script, ec).string() : "";
}

// The adapter folder to use: --adapter when given, else NodeAdapterFolder(): the folder of this
// binary's own files ($DMCONF_NODE_ADAPTER_DIR when set; harness/backends/registry/
// builtin_files.h: the source tree's for the build tree's dmconf, PREFIX/share/dmconf/node for
// an installed one). One folder, never a second one to fall back on.
std::string ChooseAdapter(const std::string& given) {
  return given.empty() ? NodeAdapterFolder() : given;
}

// True when `path` is a folder of ONNX node tests (a sub-folder holds model.onnx).
bool IsNodeTestFolder(const std::string& path) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return false;
  for (const fs::directory_entry& e : fs::directory_iterator(path, ec)) {
    if (fs::is_regular_file(e.path() / "model.onnx", ec)) return true;
  }
  return false;
}

struct Counts {
  int passed = 0, failed = 0, unsupported = 0, known = 0;
};

// One line of `run_onnx_tests.js --each`: "<folder>: <verdict>[: detail]" or its totals line.
void CountLine(const std::string& line, bool quiet, Counts* c, bool* totals_seen) {
  if (absl::StartsWith(line, "run_onnx_tests: ")) {
    *totals_seen = true;
    return;
  }
  const size_t colon = line.find(": ");
  if (colon == std::string::npos) {
    std::cout << line << "\n";
    return;
  }
  const std::string folder = line.substr(0, colon), verdict = line.substr(colon + 2);
  std::string tag;
  if (verdict == "pass") {
    ++c->passed;
    if (quiet) return;
    tag = "passed";
  } else if (absl::StartsWith(verdict, "unsupported")) {
    ++c->unsupported;
    tag = "unsupported";
  } else if (absl::StartsWith(verdict, "known")) {
    ++c->known;
    tag = "known";
  } else {
    ++c->failed;
    tag = "FAILED";
  }
  // The adapter's verdicts read "fail: why" / "unsupported: why": the why is kept.
  const size_t why = verdict.find(": ");
  std::cout << tag << std::string(12 - tag.size(), ' ') << folder
            << (why == std::string::npos ? "" : absl::StrCat(" (", verdict.substr(why + 2), ")"))
            << "\n";
}

struct Opts {
  std::vector<std::string> paths;
  std::string runtime = "onnxruntime";
  std::string adapter;
  bool install = false, quiet = false;
  int timeout = 1800;
};

// Exports the vectors of o.paths into `tmp` (or uses an export folder as it is); the folder to
// run, or "" (error printed) on failure. `skipped` counts the vectors ONNX cannot express.
// `skipped` is -1 for an export folder run as it is.
std::string PrepareFolder(const Opts& o, const std::string& tmp, int64_t* skipped) {
  if (o.paths.size() == 1 && IsNodeTestFolder(o.paths[0])) return o.paths[0];
  std::vector<std::string> files;
  for (const std::string& p : o.paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      absl::StatusOr<std::vector<std::string>> list = io::ListVectorFiles(p);
      if (!list.ok()) {
        std::cerr << "dmconf vectors run-onnx: " << list.status().message() << "\n";
        return "";
      }
      files.insert(files.end(), list->begin(), list->end());
    } else {
      files.push_back(p);
    }
  }
  std::vector<io::VectorCase> vectors;
  for (const std::string& f : files) {
    absl::StatusOr<io::VectorCase> v = io::ReadVectorFile(f);
    if (!v.ok()) {
      std::cerr << "dmconf vectors run-onnx: " << v.status().message() << "\n";
      return "";
    }
    vectors.push_back(*std::move(v));
  }
  absl::StatusOr<io::OnnxExport> e = io::ExportOnnx(vectors, tmp);
  if (!e.ok()) {
    std::cerr << "dmconf vectors run-onnx: " << e.status().message() << "\n";
    return "";
  }
  *skipped = static_cast<int64_t>(e->skipped.size());
  std::cout << "dmconf vectors run-onnx: " << e->exported.size() << " vector(s) exported as ONNX "
            << "node tests, " << e->skipped.size() << " skipped (not expressible in ONNX)\n";
  return tmp;
}

// Installs the adapter: with the project's script in a source tree, else (an installed
// adapter) with the same pinned `npm ci` in its folder. False (error printed) on failure.
bool InstallAdapter(const std::string& dir, int timeout) {
  const std::string script = InstallScriptFor(dir);
  std::vector<std::string> argv = {"bash", script, "node"};
  if (script.empty()) {
    argv = {"bash", "-c", "cd \"$0\" && ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund",
            dir};
  }
  const std::string what =
      script.empty() ? absl::StrCat("npm ci in ", dir) : absl::StrCat(script, " node");
  std::cout << "dmconf vectors run-onnx: installing the adapter: " << what << "\n";
  absl::StatusOr<ChildResult> r =
      RunChild(argv, timeout, [](const std::string& l) { std::cout << l << "\n"; });
  if (!r.ok() || r->timed_out || !WIFEXITED(r->status) || WEXITSTATUS(r->status) != 0) {
    std::cerr << "dmconf vectors run-onnx: onnx.runtime.install: " << what << " failed\n";
    return false;
  }
  return true;
}

int RunOnnx(const Opts& o) {
  const std::string dir = ChooseAdapter(o.adapter);
  std::string problem = AdapterProblem(dir);
  if (!problem.empty() && o.install) {
    if (!InstallAdapter(dir, o.timeout)) return 2;
    problem = AdapterProblem(dir);
  }
  if (!problem.empty()) {
    const std::string script = InstallScriptFor(dir);
    std::cerr << "dmconf vectors run-onnx: onnx.runtime.unavailable: the onnxruntime adapter is "
              << "not installed (" << problem << "); install it with `" << kInstallCommand
              << "` in the dmconf source tree (needs node and npm; about 340 MB), or add "
                 "--install ("
              << (script.empty() ? absl::StrCat("an installed dmconf: `npm ci` in ", dir)
                                 : absl::StrCat("it runs ", script, " node"))
              << ")\n";
    return 2;
  }
  char tmpl[] = "/tmp/dmconf-run-onnx-XXXXXX";
  if (mkdtemp(tmpl) == nullptr) {
    std::cerr << "dmconf vectors run-onnx: onnx.runtime.tmp: cannot create a temporary folder\n";
    return 2;
  }
  const std::string tmp = tmpl;
  struct Cleanup {
    std::string path;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  } cleanup{tmp};
  int64_t skipped = -1;
  const std::string folder = PrepareFolder(o, tmp + "/onnx", &skipped);
  if (folder.empty()) return 2;
  std::cout << "dmconf vectors run-onnx: adapter " << dir << "\n";
  Counts c;
  bool totals_seen = false;
  absl::StatusOr<ChildResult> r =
      RunChild({"node", (fs::path(dir) / "run_onnx_tests.js").string(), "--each", folder},
               o.timeout, [&](const std::string& l) { CountLine(l, o.quiet, &c, &totals_seen); });
  if (!r.ok()) {
    std::cerr << "dmconf vectors run-onnx: " << r.status().message() << "\n";
    return 2;
  }
  if (r->timed_out) {
    std::cerr << "dmconf vectors run-onnx: onnx.runtime.timeout: the runtime did not finish in "
              << o.timeout << " s (--timeout); killed\n";
    return 2;
  }
  const bool exited = WIFEXITED(r->status);
  const int code = exited ? WEXITSTATUS(r->status) : -1;
  if (!totals_seen || !exited || code > 1) {
    std::cerr << "dmconf vectors run-onnx: onnx.runtime.failed: node run_onnx_tests.js "
              << (exited ? absl::StrCat("exited with status ", code)
                         : absl::StrCat("died of signal ", WTERMSIG(r->status)))
              << (totals_seen ? "" : " before its totals line") << "\n";
    return 2;
  }
  std::cout << "run-onnx (onnxruntime): " << c.passed << " passed, " << c.failed << " failed, "
            << c.unsupported << " unsupported, " << c.known << " known (F8)"
            << (skipped >= 0 ? absl::StrCat("; ", skipped, " skipped by the export") : "") << "\n";
  return c.failed > 0 || code == 1 ? 1 : 0;
}

}  // namespace

void RegisterRunOnnx(CLI::App* vectors, int* exit_code) {
  auto o = std::make_shared<Opts>();
  CLI::App* cmd = vectors->add_subcommand(
      "run-onnx",
      "Run vectors as ONNX node tests in an ONNX runtime and compare every output bit for bit.\n"
      "PATH: vector files or folders (exported with export-onnx into a temporary folder, removed\n"
      "afterwards; vectors ONNX cannot express are counted as skipped), or one folder written\n"
      "by export-onnx (or any ONNX node-test folder).\n"
      "--runtime onnxruntime: ONNX Runtime for Node (onnxruntime-node, pinned), through\n"
      "harness/backends/subprocess/node/run_onnx_tests.js. Install it once with\n"
      "  scripts/install-optional-backends.sh node     (node + npm; ~340 MB in node_modules)\n"
      "or add --install. --adapter DIR uses the adapter folder DIR (default:\n"
      "$DMCONF_NODE_ADAPTER_DIR when set, else this dmconf's own: the source tree's for the build\n"
      "tree's dmconf, PREFIX/share/dmconf/node for an installed one, where --install runs the\n"
      "pinned npm ci; docs/install.md).\n"
      "Prints one line per test folder (passed / FAILED / unsupported / known; --quiet: all but\n"
      "passed) and 'run-onnx (onnxruntime): N passed, N failed, N unsupported, N known (F8); N\n"
      "skipped by the export'. 'known (F8)': an f16 output that differs only in NaN bits\n"
      "(docs/findings.md, F8). Exit status 0 when none failed, 1 when one failed, 2 when the\n"
      "runtime is not installed, did not finish in --timeout seconds, or an argument is wrong.\n"
      "Example: dmconf vectors run-onnx vectors/golden --runtime onnxruntime");
  cmd->add_option("PATH", o->paths, "vector files or folders, or one export-onnx folder")
      ->required()
      ->check(NonEmptyPath());
  cmd->add_option("--runtime", o->runtime, "the ONNX runtime")
      ->check(CLI::IsMember({"onnxruntime"}))
      ->capture_default_str();
  cmd->add_option("--adapter", o->adapter, "the Node adapter folder (with node_modules/)")
      ->check(NonEmptyPath());
  cmd->add_flag(
      "--install", o->install,
      "install the adapter first when it is missing (runs " + std::string(kInstallCommand) + ")");
  cmd->add_flag("--quiet", o->quiet, "do not list the passed folders");
  cmd->add_option("--timeout", o->timeout, "seconds for the whole run (and for --install)")
      ->check(IntegerIn(1, 86400))
      ->capture_default_str();
  cmd->callback([o, exit_code] { *exit_code = RunOnnx(*o); });
}

}  // namespace dmconf::cli
