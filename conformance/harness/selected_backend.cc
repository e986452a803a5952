#include "conformance/harness/selected_backend.h"

#include <algorithm>
#include <cstdlib>

#include "gtest/gtest.h"
#include "harness/backends/registry/registry.h"
#include "harness/isolation/worker.h"
#include "harness/runner/vector_cases.h"
#include "harness/session/backend_choice.h"

namespace dmconf {
namespace {

std::string Env(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && v[0] != '\0' ? std::string(v) : fallback;
}

}  // namespace

SelectedBackend& GetSelectedBackend() {
  static SelectedBackend* const s = [] {
    auto* b = new SelectedBackend;
    b->name = Env("DMCONF_BACKEND", DMCONF_DEFAULT_BACKEND);
    absl::StatusOr<BackendInfo> info = ResolveBackend(b->name);
    if (!info.ok()) {
      b->error = std::string(info.status().message());
      return b;
    }
    IsolationOptions io;
    io.timeout_seconds = std::atof(Env("DMCONF_TIMEOUT", "10").c_str());
    if (!(io.timeout_seconds > 0)) io.timeout_seconds = 10;
    // The limits of `dmconf run` (its default --memory-limit auto; DMCONF_MEMORY_LIMIT_BYTES,
    // 0 for none), and its startup check: a backend that cannot start fails every test with
    // the loader's message instead of running cases.
    const std::string limit = Env("DMCONF_MEMORY_LIMIT_BYTES", "");
    io.memory_limit_bytes = limit.empty() ? DefaultWorkerMemoryLimit()
                                          : std::max<int64_t>(0, std::atoll(limit.c_str()));
    b->isolated = std::make_unique<IsolatedBackend>(info->name, info->factory, io);
    b->capabilities = b->isolated->GetCapabilities();
    if (!b->isolated->StartupError().empty()) {
      b->error = "backend.startup: " + b->name + " did not start: " + b->isolated->StartupError();
      return b;
    }
    const std::string exp = Env("DMCONF_EXPECTATIONS", DMCONF_DEFAULT_EXPECTATIONS);
    if (!exp.empty()) {
      absl::StatusOr<Expectations> e = LoadExpectations(exp);
      if (e.ok()) {
        b->expectations = *std::move(e);
      } else {
        b->error = std::string(e.status().message());
      }
    }
    return b;
  }();
  return *s;
}

void CheckCase(SelectedBackend& b, const PreparedCase& p) {
  RunOptions o;
  o.expectations = &b.expectations;
  CaseResult r = RunCase(*b.isolated, b.name, b.capabilities, p, o);
  if (r.verdict == Verdict::kUnsupported) GTEST_SKIP() << "unsupported: " << r.detail;
  if (r.known != nullptr) GTEST_SKIP() << "known failure: " << r.known->reason;
  if (!r.failure) return;
  // The backend named as `dmconf run` names it in its repro lines (harness/session).
  const std::string flag = ReproFlag(b.name, b.name, b.name.find('/') != std::string::npos);
  std::string repro = p.source_file.empty()
                          ? "dmconf run " + flag + " --case-id '" + p.c.id + "'"
                          : "dmconf run " + flag + " --vectors '" + p.source_file + "'";
  const std::string dir = Env("DMCONF_FAILURES_DIR", "");
  std::string saved;
  if (!dir.empty()) {
    absl::StatusOr<std::string> path =
        SaveFailingCase(dir, b.name, p, VerdictName(r.verdict), r.detail);
    if (path.ok()) {
      saved = "\nsaved: " + *path;
      repro = "dmconf run " + flag + " --vectors '" + *path + "'";
    }
  }
  ADD_FAILURE() << VerdictName(r.verdict) << ": " << p.c.id << "\n"
                << r.detail
                << (r.diagnosis.has_value() ? "\ndiagnosis: " + r.diagnosis->summary : "")
                << "\nrepro: " << repro << saved;
}

}  // namespace dmconf
