// The backend the ctest conformance suites run against, shared by the catalogue suite
// (backend_conformance_test.cc) and the per-file vector suite (conformance/vectors).
//
// The backend is the environment variable DMCONF_BACKEND if set, else the one chosen at
// configure time (-DDMCONF_BACKEND=<registry name or path to a plugin .so>). DMCONF_EXPECTATIONS
// names a known-failure file (else -DDMCONF_EXPECTATIONS); DMCONF_TIMEOUT the per-case timeout
// in seconds (default 10); DMCONF_FAILURES_DIR, when set, receives failing cases as vector
// files. Cases run in an isolated worker (one per test process).
//
// Example (in a TEST):
//   SelectedBackend& b = GetSelectedBackend();
//   ASSERT_TRUE(b.error.empty()) << b.error;
//   CheckCase(b, prepared_case);   // skips unsupported / known failures, fails on new ones
#ifndef DMCONF_CONFORMANCE_HARNESS_SELECTED_BACKEND_H_
#define DMCONF_CONFORMANCE_HARNESS_SELECTED_BACKEND_H_

#include <memory>
#include <string>

#include "harness/isolation/worker.h"
#include "harness/runner/expectations.h"
#include "harness/runner/runner.h"

namespace dmconf {

struct SelectedBackend {
  std::string name;
  std::unique_ptr<IsolatedBackend> isolated;
  Capabilities capabilities;
  Expectations expectations;
  std::string error;  // the backend or the expectations file could not be loaded
};

// Created on first use, from the environment and the configure-time defaults.
SelectedBackend& GetSelectedBackend();

// Runs one case (output and, where the backend has it, shape inference) and reports through
// GoogleTest: GTEST_SKIP for unsupported cases and listed known failures, ADD_FAILURE with the
// verdict, detail, diagnosis and a repro line for new failures.
void CheckCase(SelectedBackend& b, const PreparedCase& p);

}  // namespace dmconf

#endif  // DMCONF_CONFORMANCE_HARNESS_SELECTED_BACKEND_H_
