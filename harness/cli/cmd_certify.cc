// dmconf certify: runs a conformance profile (harness/suites/conformance_profiles.h) against
// one backend and writes a conformance statement (harness/report/certificate.h) beside the
// run's report, JUnit and HTML page.
//
// The statement is bound to what ran: a plugin's file is read and hashed once, before the run,
// and every worker loads those bytes from a sealed copy in memory (PluginCopyFactory), never
// the path again; a file that no longer holds them after the run gets no statement
// (certify.plugin.changed; the pinning, hashing and digest are harness/report/certificate_seal.h).
// The statement is written with the run's outputs as one set, last, naming their SHA-256 and a run
// id the report records (SessionOptions::companion_paths): a certify that fails after its run
// leaves no statement, never an older one beside its report.
#include <sys/random.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>
#include <memory>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "harness/backends/registry/registry.h"
#include "harness/base/files.h"
#include "harness/cli/commands.h"
#include "harness/cli/option_checks.h"
#include "harness/cli/pipeline_options.h"
#include "harness/plugin/plugin_backend.h"
#include "harness/report/certificate.h"
#include "harness/report/certificate_seal.h"
#include "harness/report/report.h"
#include "harness/session/backend_choice.h"
#include "harness/session/run_request.h"
#include "harness/suites/conformance_profiles.h"

namespace dmconf::cli {
namespace {

struct CertifyFlags {
  std::string profile;
  std::string ops;  // --ops: some of the profile's ops; empty: all of them
  std::string backend, backend_lib;
  std::vector<std::string> expectations;
  std::string out;
  std::string signed_off_by;
  double timeout = 10.0;
  std::string memory_limit = "auto";
  int jobs = 1;
  bool list = false;
  bool quiet = false;
};

nlohmann::ordered_json ProfileJson(const ConformanceProfile& p) {
  nlohmann::ordered_json ops = nlohmann::ordered_json::array();
  for (Op op : p.ops) ops.push_back(std::string(OpName(op)));
  nlohmann::ordered_json types = nlohmann::ordered_json::array();
  for (ElementType t : p.types) types.push_back(std::string(ElementTypeName(t)));
  nlohmann::ordered_json lanes = nlohmann::ordered_json::array();
  if (p.kernels) lanes.push_back("kernel");
  if (p.shapes) lanes.push_back("shape");
  nlohmann::ordered_json j = {
      {"id", p.Id()},
      {"name", p.name},
      {"version", p.version},
      {"description", p.description},
      {"ops", ops},
      {"element_types", types.empty() ? nlohmann::ordered_json("all") : types},
      {"ranks", {p.min_rank, p.max_rank}},
      {"lanes", lanes},
      {"cases",
       {{"catalogue_edition", p.catalogue_edition},
        {"seed", p.seed},
        {"count", p.count},
        {"shape_count", p.shape_count},
        {"directed_count", p.directed_count}}},
      {"rules_required", p.rules_required}};
  if (!p.superseded_by.empty()) j["superseded_by"] = p.superseded_by;
  return j;
}

// The ops a statement is about: --ops (each one of the profile's, each once), or all of the
// profile's.
absl::StatusOr<std::vector<Op>> ScopeOps(const ConformanceProfile& p, const std::string& text) {
  if (text.empty()) return p.ops;
  std::vector<Op> out;
  for (absl::string_view name : absl::StrSplit(text, ',')) {
    absl::StatusOr<Op> op = ParseOp(name);
    if (!op.ok())
      return absl::InvalidArgumentError(absl::StrCat("certify.ops: ", op.status().message()));
    if (std::find(p.ops.begin(), p.ops.end(), *op) == p.ops.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("certify.ops: ", OpName(*op), " is not an op of profile ", p.Id()));
    }
    if (std::find(out.begin(), out.end(), *op) != out.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("certify.ops: ", OpName(*op), " is given twice"));
    }
    out.push_back(*op);
  }
  // In the profile's order, so that `--ops b2s,s2b` and `--ops s2b,b2s` state the same.
  std::vector<Op> ordered;
  for (Op op : p.ops) {
    if (std::find(out.begin(), out.end(), op) != out.end()) ordered.push_back(op);
  }
  return ordered;
}

int ListProfiles() {
  for (const ConformanceProfile& p : ConformanceProfiles()) {
    std::cout << p.Id() << "  " << p.description;
    if (!p.superseded_by.empty()) std::cout << " (superseded by " << p.superseded_by << ")";
    std::cout << "\n";
  }
  return 0;
}

// `dmconf run` with the profile's cases and the outputs under --out.
RunRequest RunRequestFor(const ConformanceProfile& p, const std::vector<Op>& scope,
                         const CertifyFlags& c) {
  RunRequest f;
  f.command = "dmconf certify";
  if (!c.backend.empty()) f.session.backends = {c.backend};
  if (!c.backend_lib.empty()) f.session.backend_libs = {c.backend_lib};
  f.session.expectations = c.expectations;
  f.session.report = c.out + "/report.json";
  f.session.junit = c.out + "/junit.xml";
  f.session.html = c.out + "/report.html";
  f.session.failures_dir = c.out + "/failures";
  f.session.timeout = c.timeout;
  f.session.memory_limit = c.memory_limit;
  f.session.jobs = c.jobs;
  f.session.quiet = c.quiet;
  f.session.directed_count = p.directed_count;
  std::vector<std::string> ops, types;
  for (Op op : scope) ops.push_back(std::string(OpName(op)));
  for (ElementType t : p.types) types.push_back(std::string(ElementTypeName(t)));
  f.catalogue_edition = p.catalogue_edition;
  f.ops = absl::StrJoin(ops, ",");
  f.types = absl::StrJoin(types, ",");
  f.min_rank = p.min_rank;
  f.max_rank = p.max_rank;
  f.no_kernels = !p.kernels;
  f.no_shapes = !p.shapes;
  f.seed = p.seed;
  f.count = p.count;
  f.shape_count = p.shape_count;
  return f;
}

// 32 hex digits from the kernel's random source: the id that binds a statement to its run's
// report (the report's options.certificate.id).
std::string NewRunId() {
  unsigned char bytes[16] = {};
  size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = getrandom(bytes + got, sizeof bytes - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  if (got < sizeof bytes) {  // no random source: still distinct per process and moment
    const uint64_t mix[2] = {
        static_cast<uint64_t>(getpid()),
        static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count())};
    std::memcpy(bytes, mix, sizeof bytes);
  }
  return absl::BytesToHexString(absl::string_view(reinterpret_cast<char*>(bytes), sizeof bytes));
}

// The statement, written as the last step of the run's output set (SessionOptions::
// write_companions): after the report, JUnit and HTML page, whose SHA-256 it names.
absl::Status WriteStatement(const ConformanceProfile& p, const std::vector<Op>& scope,
                            const CertifyFlags& c, const PinnedLibrary& plugin,
                            const std::string& run_id, const std::vector<BackendRun>& runs,
                            nlohmann::ordered_json* cert) {
  if (runs.size() != 1) {
    return absl::InternalError(absl::StrCat("certify.backend: ", runs.size(), " runs, not one"));
  }
  // What ran is the bytes read at the start; the statement also names the file, which must
  // still hold them.
  if (plugin.bytes != nullptr) {
    if (absl::Status s = CheckLibraryUnchanged(c.backend_lib, plugin); !s.ok()) return s;
  }
  CertificateInput in;
  in.profile = ProfileJson(p);
  in.run = &runs[0];
  in.signed_off_by = c.signed_off_by;
  in.time = DefaultRunInfo("dmconf certify").value("time", "");
  in.library_sha256 = plugin.sha256;
  in.run_id = run_id;
  for (Op op : scope) in.ops.push_back(std::string(OpName(op)));
  in.whole_profile = scope.size() == p.ops.size();
  for (const ProfileRule& r : ProfileRules(p)) {
    if (std::find(scope.begin(), scope.end(), r.op) == scope.end()) continue;
    in.rules.push_back({std::string(OpName(r.op)), r.rule, r.within_ranks});
  }
  in.rules_required = p.rules_required;
  absl::StatusOr<std::vector<CertifiedFile>> files = HashRunOutputs(c.out);
  if (!files.ok()) return files.status();
  in.files = *std::move(files);
  *cert = SealCertificate(in);
  if (absl::Status s = WriteCertificate(c.out, *cert); !s.ok()) return s;
  return absl::OkStatus();
}

int Certify(const CertifyFlags& c) {
  if (c.list) return ListProfiles();
  const ConformanceProfile* p = FindProfile(c.profile);
  if (p == nullptr) {
    std::vector<std::string> ids;
    for (const ConformanceProfile& q : ConformanceProfiles()) ids.push_back(q.Id());
    std::cerr << "dmconf certify: certify.profile: no profile '" << c.profile
              << "' (profiles: " << absl::StrJoin(ids, ", ") << ")\n";
    return 2;
  }
  if (c.backend.empty() == c.backend_lib.empty()) {
    std::cerr << "dmconf certify: certify.backend: name exactly one backend, with --backend NAME "
                 "or --backend-lib PATH\n";
    return 2;
  }
  if (!c.backend.empty()) {
    absl::StatusOr<std::vector<BackendInfo>> b = ResolveBackends(c.backend);
    if (b.ok() && b->size() != 1) {
      std::cerr << "dmconf certify: certify.backend: '" << c.backend << "' names " << b->size()
                << " backends; a statement is about one\n";
      return 2;
    }
  }
  absl::StatusOr<std::vector<Op>> scope = ScopeOps(*p, c.ops);
  if (!scope.ok()) {
    std::cerr << "dmconf certify: " << scope.status().message() << "\n";
    return 2;
  }
  RunRequest request = RunRequestFor(*p, *scope, c);
  PinnedLibrary plugin;
  if (!c.backend_lib.empty()) {
    absl::StatusOr<PinnedLibrary> pinned = PinLibrary(c.backend_lib);
    if (!pinned.ok()) {
      std::cerr << "dmconf certify: " << pinned.status().message() << "\n";
      return 2;
    }
    plugin = *std::move(pinned);
    request.session.backend_lib_factories[c.backend_lib] =
        PluginCopyFactory(plugin.bytes, BackendLibSpec(c.backend_lib));
  }
  if (absl::Status s = io::CreateDirectories(c.out); !s.ok()) {
    std::cerr << "dmconf certify: " << s.message() << "\n";
    return 2;
  }
  const std::string run_id = NewRunId();
  request.session.options["certificate"] = {{"id", run_id}, {"file", "certificate.json"}};
  request.session.companion_paths = {c.out + "/certificate.json", c.out + "/certificate.md"};
  nlohmann::ordered_json cert;
  request.session.write_companions = [&](const std::vector<BackendRun>& runs) {
    return WriteStatement(*p, *scope, c, plugin, run_id, runs, &cert);
  };
  std::vector<BackendRun> runs;
  const int status = RunRequested(std::move(request), &runs);
  if (status == 2 || runs.size() != 1 || cert.is_null()) return 2;
  std::cout << "certificate: " << c.out << "/certificate.json, " << c.out << "/certificate.md\n"
            << runs[0].backend << " is " << VerdictLine(cert) << "\n";
  if (!p->superseded_by.empty()) {
    std::cout << "note: profile " << p->Id() << " is superseded by " << p->superseded_by << "\n";
  }
  for (const auto& r : cert["reasons"]) std::cout << "  - " << r.get<std::string>() << "\n";
  return Conformant(cert) ? 0 : 1;
}

}  // namespace

void RegisterCertify(CLI::App& app, int* exit_code) {
  auto f = std::make_shared<CertifyFlags>();
  CLI::App* cmd = app.add_subcommand(
      "certify",
      "Run a conformance profile (a named, versioned set of ops, element types, ranks and\n"
      "lanes with a fixed case set) against one backend and write a conformance statement:\n"
      "OUT/certificate.json and OUT/certificate.md (the profile and its version, the backend's\n"
      "declared name and its file's SHA-256, pass counts per op, type and lane, the\n"
      "implementation-status matrix, known failures with their reasons, the verdict), beside\n"
      "the run's OUT/report.json, OUT/junit.xml, OUT/report.html and OUT/failures/.\n"
      "Conformant: every case of the profile ran and passed (none unsupported, no new or known\n"
      "failure), and every rule its ranks can break had a negative case and its valid twin\n"
      "(the statement lists the rules exercised per op, with counts). A profile name alone is\n"
      "its current version; name an id (nchw-core/1) for a superseded one.\n"
      "Examples:\n"
      "  dmconf certify --list-profiles\n"
      "  dmconf certify --profile nchw-core --backend-lib ./libmine.so --out cert\n"
      "  dmconf certify --profile nchw-core --ops d2s,s2d --backend-lib ./libmine.so --out cert\n"
      "Exit status: 0 conformant, 1 not conformant, 2 usage or I/O error.");
  cmd->add_flag("--list-profiles", f->list, "list the profiles and exit");
  cmd->add_option("--profile", f->profile, "profile name or id (name/version)");
  cmd->add_option("--ops", f->ops,
                  "comma-separated ops of the profile to certify (s2b,b2s,...): the statement is "
                  "then \"conformant for <ops> of profile P/v\", and the profile's other ops are "
                  "neither run nor counted");
  cmd->add_option("--backend", f->backend, "a built-in backend's name (one)");
  cmd->add_option("--backend-lib", f->backend_lib, "path to a plugin shared library")
      ->check(NonEmptyPath());
  cmd->add_option("--expectations", f->expectations,
                  "known-failure file (dmconf-expectations/1); repeatable. Known failures are "
                  "listed in the statement with their reasons (and make it not conformant)");
  cmd->add_option("--out", f->out, "folder for the statement and the run's reports")
      ->check(NonEmptyPath());
  cmd->add_option("--signed-off-by", f->signed_off_by,
                  "who signs the statement off, e.g. 'Jane Doe <jane@example.com>'");
  cmd->add_option("--timeout", f->timeout,
                  "per-case timeout in seconds, from the case's request (a worker's start, a "
                  "plugin's load, has 60 s of its own)")
      ->check(SecondsIn(kMaxTimeoutSeconds))
      ->capture_default_str();
  AddMemoryLimitOption(cmd, &f->memory_limit);
  cmd->add_option("--jobs", f->jobs,
                  "isolated workers side by side (1 to 256), as for dmconf run: the same "
                  "statement and reports for any count")
      ->check(IntegerIn(1, kMaxJobs))
      ->capture_default_str();
  cmd->add_flag("--quiet", f->quiet, "no progress display");
  cmd->callback([f, exit_code] {
    if (!f->list && (f->profile.empty() || f->out.empty())) {
      std::cerr << "dmconf certify: --profile and --out are required (or --list-profiles)\n";
      *exit_code = 2;
      return;
    }
    *exit_code = Certify(*f);
  });
}

}  // namespace dmconf::cli
