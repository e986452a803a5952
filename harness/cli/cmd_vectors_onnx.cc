// dmconf vectors run-onnx: the exported ONNX node tests run by an ONNX runtime installed through
// the project's own script (docs/vector-format.md, "Running the node tests").
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/backends/registry/builtin_files.h"
#include "harness/base/files.h"
#include "harness/cli/commands.h"
#include "harness/cli/guarded_temp_folder.h"
#include "harness/cli/option_checks.h"
#include "harness/io/vector_file.h"
#include "harness/isolation/child_process.h"
#include "harness/onnx/onnx_export.h"
#include "harness/onnx/onnx_parse.h"

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

// The node tests the runner will run in `root`, as run_onnx_tests.js finds them: every entry
// with a `model.onnx` (links followed, whatever its kind), sorted.
std::vector<std::string> NodeTestNames(const std::string& root) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(root, ec)) {
    if (fs::exists(e.path() / "model.onnx", ec)) names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// The files the runner reads from one test folder, checked by stat before it sees them, with
// the limits of dmconf's own ONNX readers (harness/onnx/onnx_parse.h): a FIFO or device would
// block it, an oversized file would be read whole. Errors: io.read, io.read.too_large.
absl::Status CheckNodeTest(const std::string& dir) {
  if (absl::Status s = io::CheckReadableFile(dir + "/model.onnx", onnx_io::kMaxOnnxModelBytes);
      !s.ok()) {
    return s;
  }
  for (const char* f : {"/test_data_set_0/input_0.pb", "/test_data_set_0/output_0.pb"}) {
    absl::Status s = io::CheckReadableFile(dir + f, onnx_io::kMaxOnnxTensorFileBytes);
    if (!s.ok()) return s;
  }
  return absl::OkStatus();
}

struct Counts {
  int passed = 0, failed = 0, unsupported = 0, known = 0;
};

// What the run has read from the runner so far.
struct Progress {
  Counts c;
  bool totals_seen = false;
  std::string running;  // the folder it began last ("<folder>: begin")
};

// One line of `run_onnx_tests.js --each`: "<folder>: begin", "<folder>: <verdict>[: detail]" or
// its totals line. `where` names a folder for the messages (its source, for an exported one).
void CountLine(const std::string& line, bool quiet, Progress* p,
               const std::function<std::string(const std::string&)>& where) {
  if (absl::StartsWith(line, "run_onnx_tests: ")) {
    p->totals_seen = true;
    return;
  }
  const size_t colon = line.find(": ");
  if (colon == std::string::npos) {
    std::cout << line << "\n";
    return;
  }
  const std::string folder = line.substr(0, colon), verdict = line.substr(colon + 2);
  if (verdict == "begin") {
    p->running = folder;
    return;
  }
  std::string tag;
  if (verdict == "pass") {
    ++p->c.passed;
    if (quiet) return;
    tag = "passed";
  } else if (absl::StartsWith(verdict, "unsupported")) {
    ++p->c.unsupported;
    tag = "unsupported";
  } else if (absl::StartsWith(verdict, "known")) {
    ++p->c.known;
    tag = "known";
  } else {
    ++p->c.failed;
    tag = "FAILED";
  }
  // The adapter's verdicts read "fail: why" / "unsupported: why": the why is kept.
  const size_t why = verdict.find(": ");
  std::cout << tag << std::string(12 - tag.size(), ' ') << where(folder)
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

// What run-onnx runs: one folder of node tests as it is, or vectors to export first.
struct Inputs {
  std::string folder;  // a node-test folder given as it is; else empty
  std::vector<io::VectorCase> vectors;
  std::map<std::string, std::string> source_of;  // exported test folder name -> vector file
};

constexpr const char* kPrefix = "dmconf vectors run-onnx: ";

// The inputs read and checked before the runtime is looked for: a folder of node tests (a
// sub-folder holds a model.onnx) has each test's files checked by stat; anything else is read
// as vector files or folders. Nothing to run is onnx.run.empty. False (error printed) on
// failure.
bool ReadInputs(const Opts& o, Inputs* in) {
  if (o.paths.size() == 1) {
    std::error_code ec;
    const std::vector<std::string> tests =
        fs::is_directory(o.paths[0], ec) ? NodeTestNames(o.paths[0]) : std::vector<std::string>{};
    if (!tests.empty()) {
      for (const std::string& t : tests) {
        if (absl::Status s = CheckNodeTest(absl::StrCat(o.paths[0], "/", t)); !s.ok()) {
          std::cerr << kPrefix << s.message() << " (node test " << o.paths[0] << "/" << t
                    << "; not run)\n";
          return false;
        }
      }
      in->folder = o.paths[0];
      return true;
    }
  }
  std::vector<std::string> files;
  for (const std::string& p : o.paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) {
      absl::StatusOr<std::vector<std::string>> list = io::ListVectorFiles(p);
      if (!list.ok()) {
        std::cerr << kPrefix << list.status().message() << "\n";
        return false;
      }
      files.insert(files.end(), list->begin(), list->end());
    } else {
      files.push_back(p);
    }
  }
  if (files.empty()) {
    std::cerr << kPrefix << "onnx.run.empty: " << absl::StrJoin(o.paths, ", ")
              << ": no ONNX node test (no sub-folder holds a model.onnx) and no vector file to "
                 "export; nothing to run\n";
    return false;
  }
  for (const std::string& f : files) {
    absl::StatusOr<io::VectorCase> v = io::ReadVectorFile(f);
    if (!v.ok()) {
      std::cerr << kPrefix << v.status().message() << "\n";
      return false;
    }
    in->source_of[io::OnnxTestFolderName(v->c.id)] = f;
    in->vectors.push_back(*std::move(v));
  }
  return true;
}

// Exports the vectors into `out` (a folder of the guarded temporary folder); false (error
// printed) on failure or when ONNX can express none of them. `skipped` counts those it cannot.
bool ExportInputs(const Inputs& in, const std::string& out, int64_t* skipped) {
  absl::StatusOr<io::OnnxExport> e = io::ExportOnnx(in.vectors, out);
  if (!e.ok()) {
    std::cerr << kPrefix << e.status().message() << "\n";
    return false;
  }
  *skipped = static_cast<int64_t>(e->skipped.size());
  std::cout << kPrefix << e->exported.size() << " vector(s) exported as ONNX node tests, "
            << e->skipped.size() << " skipped (not expressible in ONNX)\n";
  if (e->exported.empty()) {
    std::cerr << kPrefix << "onnx.run.empty: ONNX can express none of the " << in.vectors.size()
              << " vector(s) given (" << e->skipped.front().first << ": "
              << e->skipped.front().second << "); nothing to run\n";
    return false;
  }
  return true;
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
  std::cout << kPrefix << "installing the adapter: " << what << "\n";
  absl::StatusOr<ChildResult> r =
      RunChild(argv, timeout, [](const std::string& l) { std::cout << l << "\n"; });
  if (!r.ok() || r->timed_out || !WIFEXITED(r->status) || WEXITSTATUS(r->status) != 0) {
    std::cerr << kPrefix << "onnx.runtime.install: " << what << " failed\n";
    return false;
  }
  return true;
}

int RunOnnx(const Opts& o) {
  Inputs in;
  if (!ReadInputs(o, &in)) return 2;
  // The temporary folder, removed however dmconf ends (the runtime killed with it).
  absl::StatusOr<std::unique_ptr<GuardedTempFolder>> tmp = GuardedTempFolder::Create("run-onnx");
  if (!tmp.ok()) {
    std::cerr << kPrefix << "onnx.runtime.tmp: " << tmp.status().message() << "\n";
    return 2;
  }
  int64_t skipped = -1;
  std::string folder = in.folder;
  if (folder.empty()) {
    folder = (*tmp)->path() + "/onnx";
    if (!ExportInputs(in, folder, &skipped)) return 2;
  }
  const std::string dir = ChooseAdapter(o.adapter);
  std::string problem = AdapterProblem(dir);
  if (!problem.empty() && o.install) {
    if (!InstallAdapter(dir, o.timeout)) return 2;
    problem = AdapterProblem(dir);
  }
  if (!problem.empty()) {
    const std::string script = InstallScriptFor(dir);
    std::cerr << kPrefix << "onnx.runtime.unavailable: the onnxruntime adapter is not installed ("
              << problem << "); install it with `" << kInstallCommand
              << "` in the dmconf source tree (needs node and npm; about 340 MB), or add "
                 "--install ("
              << (script.empty() ? absl::StrCat("an installed dmconf: `npm ci` in ", dir)
                                 : absl::StrCat("it runs ", script, " node"))
              << ")\n";
    return 2;
  }
  // A test folder in messages: its path, or for an exported one its name and vector file.
  auto where = [&](const std::string& name) {
    if (!in.folder.empty()) return absl::StrCat(in.folder, "/", name);
    auto it = in.source_of.find(name);
    return it == in.source_of.end() ? name : absl::StrCat(name, " (", it->second, ")");
  };
  std::cout << kPrefix << "adapter " << dir << "\n";
  Progress p;
  absl::StatusOr<ChildResult> r = RunChild(
      {"node", (fs::path(dir) / "run_onnx_tests.js").string(), "--each", folder}, o.timeout,
      [&](const std::string& l) { CountLine(l, o.quiet, &p, where); },
      [&](pid_t pid) { (*tmp)->ChildStarted(pid); });
  (*tmp)->ChildDone();
  if (!r.ok()) {
    std::cerr << kPrefix << r.status().message() << "\n";
    return 2;
  }
  const std::string running =
      p.running.empty() ? "" : absl::StrCat(" while running ", where(p.running));
  if (r->timed_out) {
    std::cerr << kPrefix << "onnx.runtime.timeout: the runtime did not finish in " << o.timeout
              << " s (--timeout)" << running << "; killed\n";
    return 2;
  }
  const bool exited = WIFEXITED(r->status);
  const int code = exited ? WEXITSTATUS(r->status) : -1;
  if (!p.totals_seen || !exited || code > 1) {
    std::cerr << kPrefix << "onnx.runtime.failed: node run_onnx_tests.js "
              << WaitStatusText(r->status) << (p.totals_seen ? "" : " before its totals line")
              << running << "\n";
    return 2;
  }
  const Counts& c = p.c;
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
      "afterwards, also when dmconf is interrupted or killed; vectors ONNX cannot express are\n"
      "counted as skipped), or one folder written by export-onnx (or any ONNX node-test folder:\n"
      "its model.onnx and test_data_set_0/{input,output}_0.pb are checked by stat first, regular\n"
      "files of at most 64 KiB and 256 MiB). Nothing to run (no node test, no vector ONNX can\n"
      "express) is onnx.run.empty, exit 2.\n"
      "--runtime onnxruntime: ONNX Runtime for Node (onnxruntime-node, pinned), through\n"
      "run_onnx_tests.js of the Node adapter folder. Install it once with\n"
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
