// The conformance suite against one backend, one GoogleTest case per catalogue case.
//
// The backend is the environment variable DMCONF_BACKEND if set, else the one chosen at
// configure time (-DDMCONF_BACKEND=<name or path to .so>). DMCONF_EXPECTATIONS names a
// known-failure file; DMCONF_TIMEOUT the per-case timeout in seconds (default 10). Cases run in
// an isolated worker. Test names are "<Op>/Conformance.Case/<n>_<id>", so ctest registers one
// test per op (--gtest_filter=<Op>/*) with the op as label; GTEST_TOTAL_SHARDS and
// GTEST_SHARD_INDEX split the cases across machines.
#include <cstdlib>
#include <memory>

#include "gtest/gtest.h"
#include "harness/backends/registry/registry.h"
#include "harness/isolation/worker.h"
#include "harness/runner/catalogue.h"
#include "harness/runner/expectations.h"
#include "harness/runner/runner.h"
#include "harness/util/failure_file.h"

namespace dmconf {
namespace {

std::string Env(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && v[0] != '\0' ? std::string(v) : fallback;
}

const std::vector<PreparedCase>& Cases() {
  static const std::vector<PreparedCase>* const kCases =
      new std::vector<PreparedCase>(PrepareCases(BuildCatalogue(CatalogueOptions{})));
  return *kCases;
}

std::vector<size_t> IndicesFor(Op op) {
  std::vector<size_t> out;
  for (size_t i = 0; i < Cases().size(); ++i) {
    if (Cases()[i].c.op == op) out.push_back(i);
  }
  return out;
}

struct Session {
  std::string backend;
  std::unique_ptr<IsolatedBackend> isolated;
  Expectations expectations;
  std::string error;
};

Session& GetSession() {
  static Session* const s = [] {
    auto* session = new Session;
    session->backend = Env("DMCONF_BACKEND", DMCONF_DEFAULT_BACKEND);
    absl::StatusOr<BackendInfo> b = ResolveBackend(session->backend);
    if (!b.ok()) {
      session->error = std::string(b.status().message());
      return session;
    }
    IsolationOptions io;
    io.timeout_seconds = std::atof(Env("DMCONF_TIMEOUT", "10").c_str());
    session->isolated = std::make_unique<IsolatedBackend>(b->name, b->factory, io);
    const std::string exp = Env("DMCONF_EXPECTATIONS", DMCONF_DEFAULT_EXPECTATIONS);
    if (!exp.empty()) {
      absl::StatusOr<Expectations> e = LoadExpectations(exp);
      if (e.ok()) {
        session->expectations = *std::move(e);
      } else {
        session->error = std::string(e.status().message());
      }
    }
    return session;
  }();
  return *s;
}

class Conformance : public ::testing::TestWithParam<size_t> {};

TEST_P(Conformance, Case) {
  Session& s = GetSession();
  ASSERT_TRUE(s.error.empty()) << s.error;
  const PreparedCase& p = Cases()[GetParam()];
  RunOutcome outcome = s.isolated->Run(p.c);
  RunOptions o;
  o.expectations = &s.expectations;
  CaseResult r = Judge(s.backend, p, outcome, o);
  if (r.verdict == Verdict::kUnsupported) GTEST_SKIP() << "unsupported: " << r.detail;
  if (r.known != nullptr) GTEST_SKIP() << "known failure: " << r.known->reason;
  if (!r.failure) return;
  std::string saved;
  const std::string dir = Env("DMCONF_FAILURES_DIR", "");
  if (!dir.empty()) {
    absl::StatusOr<std::string> path =
        util::SaveFailure(dir, s.backend, p.c, std::string(VerdictName(r.verdict)), r.detail);
    if (path.ok()) saved = "\nsaved: " + *path;
  }
  ADD_FAILURE() << VerdictName(r.verdict) << ": " << p.c.id << "\n"
                << r.detail
                << (r.diagnosis.has_value() ? "\ndiagnosis: " + r.diagnosis->summary : "")
                << "\nrepro: dmconf run --backend " << s.backend << " --case-id '" << p.c.id << "'"
                << saved;
}

std::string Name(const ::testing::TestParamInfo<size_t>& info) {
  std::string id = Cases()[info.param].c.id;
  for (char& ch : id) {
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')))
      ch = '_';
  }
  return std::to_string(info.param) + "_" + id;
}

INSTANTIATE_TEST_SUITE_P(SpaceToBatch, Conformance,
                         ::testing::ValuesIn(IndicesFor(Op::kSpaceToBatch)), Name);
INSTANTIATE_TEST_SUITE_P(BatchToSpace, Conformance,
                         ::testing::ValuesIn(IndicesFor(Op::kBatchToSpace)), Name);
INSTANTIATE_TEST_SUITE_P(SpaceToDepth, Conformance,
                         ::testing::ValuesIn(IndicesFor(Op::kSpaceToDepth)), Name);
INSTANTIATE_TEST_SUITE_P(DepthToSpace, Conformance,
                         ::testing::ValuesIn(IndicesFor(Op::kDepthToSpace)), Name);
INSTANTIATE_TEST_SUITE_P(ExtractImagePatches, Conformance,
                         ::testing::ValuesIn(IndicesFor(Op::kExtractImagePatches)), Name);

}  // namespace
}  // namespace dmconf
