#include "harness/backend/case_class.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace dmconf {
namespace {

constexpr CaseLane kLanes[] = {CaseLane::kKernel, CaseLane::kShapeStatic, CaseLane::kShapePartial};
constexpr ExpectedClass kClasses[] = {ExpectedClass::kValid, ExpectedClass::kMustReject,
                                      ExpectedClass::kUnspecified, ExpectedClass::kMalformed};

}  // namespace

absl::string_view CaseLaneName(CaseLane l) {
  switch (l) {
    case CaseLane::kKernel:
      return "kernel";
    case CaseLane::kShapeStatic:
      return "shape_static";
    case CaseLane::kShapePartial:
      return "shape_partial";
  }
  return "?";
}

absl::StatusOr<CaseLane> ParseCaseLane(absl::string_view name) {
  for (CaseLane l : kLanes) {
    if (name == CaseLaneName(l)) return l;
  }
  return absl::InvalidArgumentError(absl::StrCat("case.lane.known: unknown lane '", name,
                                                 "' (known: kernel, shape_static, shape_partial)"));
}

absl::string_view ExpectedClassName(ExpectedClass e) {
  switch (e) {
    case ExpectedClass::kValid:
      return "valid";
    case ExpectedClass::kMustReject:
      return "must_reject";
    case ExpectedClass::kUnspecified:
      return "unspecified";
    case ExpectedClass::kMalformed:
      return "malformed";
  }
  return "?";
}

absl::StatusOr<ExpectedClass> ParseExpectedClass(absl::string_view name) {
  for (ExpectedClass e : kClasses) {
    if (name == ExpectedClassName(e)) return e;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("case.expected.known: unknown expected class '", name,
                   "' (known: valid, must_reject, unspecified, malformed)"));
}

ExpectedClass ExpectedClassOf(ExpectationKind k) {
  switch (k) {
    case ExpectationKind::kValid:
      return ExpectedClass::kValid;
    case ExpectationKind::kMustReject:
      return ExpectedClass::kMustReject;
    case ExpectationKind::kUnspecified:
      return ExpectedClass::kUnspecified;
  }
  return ExpectedClass::kMalformed;
}

ExpectedClass ExpectedClassOf(PartialKind k) {
  switch (k) {
    case PartialKind::kShape:
      return ExpectedClass::kValid;
    case PartialKind::kMustReject:
      return ExpectedClass::kMustReject;
    case PartialKind::kUnspecified:
      return ExpectedClass::kUnspecified;
  }
  return ExpectedClass::kMalformed;
}

}  // namespace dmconf
