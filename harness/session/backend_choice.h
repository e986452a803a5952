// How a session names and starts its backends, shared by every command that runs one (run,
// vectors verify, certify, fuzz, shrink): the --memory-limit value, the startup check, the
// spec a --backend-lib path stands for, and the flag a repro line names the backend with.
//
// Example:
//   absl::StatusOr<int64_t> limit = ParseMemoryLimit("4G");          // 4 << 30
//   absl::Status ok = CheckBackendStarts(info.name, info.factory, options);
//   std::string repro = "dmconf run " + ReproFlag(info.name, spec, true) + " --vectors f.json";
#ifndef DMCONF_HARNESS_SESSION_BACKEND_CHOICE_H_
#define DMCONF_HARNESS_SESSION_BACKEND_CHOICE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "harness/backends/registry/registry.h"
#include "harness/runner/runner.h"

namespace dmconf {

// --memory-limit: "auto" (DefaultWorkerMemoryLimit()), "none" or "0" (0: no limit), or a
// size with an optional K/M/G/T suffix (binary units), at least 16M.
// Errors: "cli.memory_limit: ...".
absl::StatusOr<int64_t> ParseMemoryLimit(const std::string& text);

// Quotes an argument for a POSIX shell when it needs it.
std::string ShellQuote(const std::string& s);

// The startup check of every command that runs a backend (run, vectors verify, fuzz, shrink):
// the backend is made as its cases would be (in a worker when `options.isolate`, under the
// same limits) and asked its capabilities, before any case runs and before anything is
// written. One that cannot start (a plugin the loader cannot load or that lacks the entry
// point) is a usage error, exit 2: "backend.startup: <name> did not start: <the loader's
// message>", with a note when a memory limit was set (too low a limit keeps a plugin from
// loading).
// With `declared_name`, the name the backend declares for itself (Capabilities::declared_name);
// with `worker_errors`, the check's harness errors that belong to no case (a first start that
// failed before the second succeeded: Backend::TakeUnattributedErrors), for the run's report.
absl::Status CheckBackendStarts(const std::string& name, const BackendFactory& factory,
                                const RunOptions& options, std::string* declared_name = nullptr,
                                std::vector<std::string>* worker_errors = nullptr);

// What a backend declares (its capabilities), asked as a run asks it: in a worker when
// `options.isolate`, under the same limits. Error: "backend.startup: ..." as above.
absl::StatusOr<Capabilities> DeclaredCapabilities(const BackendInfo& b, const RunOptions& options);

// A plugin named by its path (`b.library`) may not go by the name of one of dmconf's own
// backends (IsBuiltinBackendName: oracle, example, mutant.*, all, ...): its results would be
// reported, diffed and merged as that backend's. `declared` is the name it declares, compared
// as the run would use it (SafeBackendName). Allowed only when the library is that backend's
// own file (the example plugin given by its path). Error: "plugin.name.builtin: ...".
absl::Status CheckPluginName(const BackendInfo& b, const std::string& declared);

// The spec a --backend-lib PATH stands for: a bare file name is the file in the current folder
// ("libmine.so" -> "./libmine.so"), never one on the loader's search path.
std::string BackendLibSpec(const std::string& lib);

// The flag a repro line names a backend with: "--backend-lib SPEC" for a backend named by its
// path, else "--backend NAME" (each quoted for a shell when it needs it).
std::string ReproFlag(const std::string& name, const std::string& spec, bool by_path);

// The spec of the one backend a command (fuzz, shrink) names with --backend NAME or
// --backend-lib PATH (BackendLibSpec). Error when neither or both are given: "name one
// backend, --backend NAME or --backend-lib PATH".
absl::StatusOr<std::string> OneBackendSpec(const std::string& backend,
                                           const std::string& backend_lib);

// The run options of a command that runs one backend in a worker (fuzz, shrink): its per-case
// timeout and --memory-limit, once the backend passed the startup check (CheckBackendStarts)
// and, for a plugin named by its path, CheckPluginName. Such a plugin is renamed as `dmconf run`
// names it: the name it declares (harness/backend/identity.h), so that findings are saved
// under failures/<declared name>/ by every command.
// Errors: cli.memory_limit, backend.startup, plugin.name.builtin.
absl::StatusOr<RunOptions> StartOneBackend(BackendInfo& b, const std::string& memory_limit,
                                           double timeout_seconds);

// The one backend `spec` names. Errors: the registry's, or "'SPEC' names N backends; name one".
absl::StatusOr<BackendInfo> ResolveOneBackend(const std::string& spec);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_SESSION_BACKEND_CHOICE_H_
