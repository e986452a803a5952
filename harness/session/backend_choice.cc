#include "harness/session/backend_choice.h"

#include <memory>
#include <set>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "harness/backend/identity.h"
#include "harness/base/output_paths.h"
#include "harness/isolation/worker.h"

namespace dmconf {

absl::StatusOr<int64_t> ParseMemoryLimit(const std::string& text) {
  if (text == "auto") return DefaultWorkerMemoryLimit();
  if (text == "none" || text == "0") return 0;
  const absl::Status bad = absl::InvalidArgumentError(absl::StrCat(
      "cli.memory_limit: '", text, "' is not a size (such as 512M, 4G, 1T), 'auto' or 'none'"));
  int64_t shift = 0;
  std::string digits = text;
  if (!digits.empty()) {
    switch (digits.back()) {
      case 'K':
      case 'k':
        shift = 10;
        break;
      case 'M':
      case 'm':
        shift = 20;
        break;
      case 'G':
      case 'g':
        shift = 30;
        break;
      case 'T':
      case 't':
        shift = 40;
        break;
      default:
        break;
    }
    if (shift > 0) digits.pop_back();
  }
  int64_t n = 0;
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos ||
      !absl::SimpleAtoi(digits, &n) || n <= 0 || n > (INT64_MAX >> shift)) {
    return bad;
  }
  const int64_t bytes = n << shift;
  if (bytes < (int64_t{16} << 20)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cli.memory_limit: ", text, " is below 16M, too little for any worker to start"));
  }
  return bytes;
}

std::string ShellQuote(const std::string& s) {
  if (!s.empty() && s.find_first_of(" '\"$*?[]()&;|<>\\`!#~{}") == std::string::npos) return s;
  std::string out = "'";
  for (char ch : s) {
    if (ch == '\'') {
      out += "'\\''";
    } else {
      out += ch;
    }
  }
  return out + "'";
}

absl::Status CheckBackendStarts(const std::string& name, const BackendFactory& factory,
                                const RunOptions& options, std::string* declared_name,
                                std::vector<std::string>* worker_errors) {
  std::string error;
  std::string declared;
  if (options.isolate) {
    IsolatedBackend b(name, factory, IsolationFor(options));
    declared = b.GetCapabilities().declared_name;  // starts the worker; then StartupError()
    error = b.StartupError();
    if (worker_errors != nullptr) *worker_errors = b.TakeUnattributedErrors();
  } else {
    absl::StatusOr<std::unique_ptr<Backend>> made = factory();
    if (!made.ok()) {
      error = std::string(made.status().message());
    } else {
      declared = (*made)->GetCapabilities().declared_name;
    }
  }
  if (declared_name != nullptr) *declared_name = declared;
  if (error.empty()) return absl::OkStatus();
  std::string note;
  // Below 1 GiB a limit is a likely cause (a plugin needs room to be mapped); above, naming it
  // would only mislead.
  if (options.isolate && options.memory_limit_bytes > 0 &&
      options.memory_limit_bytes < (int64_t{1} << 30) && kMemoryLimitApplies) {
    note = absl::StrCat(" (the worker ran under a memory limit of ", options.memory_limit_bytes,
                        " bytes, --memory-limit: a limit this low can keep a backend from "
                        "loading; raise it or use 'auto')");
  }
  return absl::FailedPreconditionError(
      absl::StrCat("backend.startup: ", name, " did not start: ", error, note));
}

absl::StatusOr<Capabilities> DeclaredCapabilities(const BackendInfo& b, const RunOptions& options) {
  if (options.isolate) {
    IsolatedBackend isolated(b.name, b.factory, IsolationFor(options));
    Capabilities caps = isolated.GetCapabilities();
    const std::string error = isolated.StartupError();
    if (!error.empty()) {
      return absl::FailedPreconditionError(
          absl::StrCat("backend.startup: ", b.name, " did not start: ", error));
    }
    return caps;
  }
  absl::StatusOr<std::unique_ptr<Backend>> made = b.factory();
  if (!made.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("backend.startup: ", b.name, " did not start: ", made.status().message()));
  }
  return (*made)->GetCapabilities();
}

absl::Status CheckPluginName(const BackendInfo& b, const std::string& declared) {
  const std::string name = SafeBackendName(declared);
  if (name.empty() || !IsBuiltinBackendName(name)) return absl::OkStatus();
  for (const BackendInfo& own : RegisteredBackends()) {
    // The same file as dmconf's own plugin of that name (io.path.same between the two).
    if (own.name == name && !own.library.empty() &&
        !io::CheckInputsDistinct({own.library, b.library}).ok()) {
      return absl::OkStatus();
    }
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "plugin.name.builtin: ", b.library, " declares the name '", name,
      "', which is the name of one of dmconf's own backends (dmconf backends --all lists them); "
      "its results would be reported and compared as that backend's: give the plugin a name "
      "of its own (dmconf_plugin.name)"));
}

std::string BackendLibSpec(const std::string& lib) {
  return lib.find('/') == std::string::npos ? "./" + lib : lib;
}

std::string ReproFlag(const std::string& name, const std::string& spec, bool by_path) {
  return by_path ? absl::StrCat("--backend-lib ", ShellQuote(spec))
                 : absl::StrCat("--backend ", ShellQuote(name));
}

absl::StatusOr<std::string> OneBackendSpec(const std::string& backend,
                                           const std::string& backend_lib) {
  if (backend.empty() == backend_lib.empty()) {
    return absl::InvalidArgumentError("name one backend, --backend NAME or --backend-lib PATH");
  }
  return backend.empty() ? BackendLibSpec(backend_lib) : backend;
}

absl::StatusOr<RunOptions> StartOneBackend(BackendInfo& b, const std::string& memory_limit,
                                           double timeout_seconds) {
  absl::StatusOr<int64_t> limit = ParseMemoryLimit(memory_limit);
  if (!limit.ok()) return limit.status();
  RunOptions ro;
  ro.timeout_seconds = timeout_seconds;
  ro.memory_limit_bytes = *limit;
  std::string declared;
  if (absl::Status started = CheckBackendStarts(b.name, b.factory, ro, &declared); !started.ok()) {
    return started;
  }
  if (!b.library.empty() && !IsBuiltinBackendName(b.name)) {
    if (absl::Status named = CheckPluginName(b, declared); !named.ok()) return named;
    // The name `dmconf run` gives it (StartSessionPlugins): what it declares, else its path.
    std::set<std::string> taken;
    b.name = BackendIdentity(declared, b.name, &taken);
  }
  return ro;
}

absl::StatusOr<BackendInfo> ResolveOneBackend(const std::string& spec) {
  absl::StatusOr<std::vector<BackendInfo>> backends = ResolveBackends(spec);
  if (!backends.ok()) return backends.status();
  if (backends->size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", spec, "' names ", backends->size(), " backends; name one"));
  }
  return backends->front();
}

}  // namespace dmconf
