// The case vocabulary shared by the runner and the report formats: which lane a case ran in
// and what the oracle expected of it. Strings appear only where a file is written or read
// (the JSON report, JUnit, the HTML data), each through the one name / parse pair below;
// an unknown name is an error naming the rule.
//
// Example:
//   CaseLaneName(CaseLane::kShapePartial) == "shape_partial";
//   ParseExpectedClass("must_reject").value() == ExpectedClass::kMustReject;
//   ParseCaseLane("gpu").status().message()  // "case.lane.known: unknown lane 'gpu' (...)"
#ifndef DMCONF_HARNESS_BACKEND_CASE_CLASS_H_
#define DMCONF_HARNESS_BACKEND_CASE_CLASS_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "oracle/oracle.h"
#include "oracle/partial/partial_infer.h"

namespace dmconf {

// The lane of a case: the kernel lane (Run, with static shape inference folded in) or the
// shape-inference lane, asked through InferStatic or InferPartial.
enum class CaseLane : uint8_t { kKernel, kShapeStatic, kShapePartial };
// "kernel", "shape_static", "shape_partial". (The JSON report leaves `lane` out for kKernel.)
absl::string_view CaseLaneName(CaseLane l);
// Error "case.lane.known: unknown lane '<name>' (...)" for any other name.
absl::StatusOr<CaseLane> ParseCaseLane(absl::string_view name);
inline bool IsShapeLane(CaseLane l) { return l != CaseLane::kKernel; }

// What the oracle expects of a case: a valid output (or output shape), a refusal, no
// particular answer, or nothing at all because the case itself is malformed (the oracle
// cannot evaluate it).
enum class ExpectedClass : uint8_t { kValid, kMustReject, kUnspecified, kMalformed };
// "valid", "must_reject", "unspecified", "malformed".
absl::string_view ExpectedClassName(ExpectedClass e);
// Error "case.expected.known: unknown expected class '<name>' (...)" for any other name.
absl::StatusOr<ExpectedClass> ParseExpectedClass(absl::string_view name);
// A kernel case's class (kValid, kMustReject, kUnspecified).
ExpectedClass ExpectedClassOf(ExpectationKind k);
// A shape case's class: an output shape (PartialKind::kShape) is kValid, as for kernel cases.
ExpectedClass ExpectedClassOf(PartialKind k);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BACKEND_CASE_CLASS_H_
