#include "harness/backend/verdict.h"

#include <array>

namespace dmconf {
namespace {

constexpr std::array<Verdict, 20> kAll = {
    Verdict::kPass,
    Verdict::kWrongValues,
    Verdict::kWrongShape,
    Verdict::kWrongType,
    Verdict::kNanPayloadChanged,
    Verdict::kFalseReject,
    Verdict::kFalseAccept,
    Verdict::kUnspecifiedOk,
    Verdict::kCrash,
    Verdict::kHang,
    Verdict::kUnsupported,
    Verdict::kHarnessError,
    Verdict::kSkippedAfterHangs,
    Verdict::kSkippedAfterCrashes,
    Verdict::kOutOfMemory,
    Verdict::kUnsoundShape,
    Verdict::kLooseShape,
    Verdict::kInvalidAnswer,
    Verdict::kFlaky,
    Verdict::kUndecidedShape,
};

}  // namespace

absl::Span<const Verdict> AllVerdicts() { return kAll; }

absl::string_view VerdictName(Verdict v) {
  switch (v) {
    case Verdict::kPass:
      return "pass";
    case Verdict::kWrongValues:
      return "wrong_values";
    case Verdict::kWrongShape:
      return "wrong_shape";
    case Verdict::kWrongType:
      return "wrong_type";
    case Verdict::kNanPayloadChanged:
      return "nan_payload_changed";
    case Verdict::kFalseReject:
      return "false_reject";
    case Verdict::kFalseAccept:
      return "false_accept";
    case Verdict::kUnspecifiedOk:
      return "unspecified_ok";
    case Verdict::kCrash:
      return "crash";
    case Verdict::kHang:
      return "hang";
    case Verdict::kUnsupported:
      return "unsupported";
    case Verdict::kHarnessError:
      return "harness_error";
    case Verdict::kSkippedAfterHangs:
      return "skipped_after_hangs";
    case Verdict::kSkippedAfterCrashes:
      return "skipped_after_crashes";
    case Verdict::kOutOfMemory:
      return "out_of_memory";
    case Verdict::kUnsoundShape:
      return "unsound_shape";
    case Verdict::kLooseShape:
      return "loose_shape";
    case Verdict::kInvalidAnswer:
      return "invalid_answer";
    case Verdict::kFlaky:
      return "flaky";
    case Verdict::kUndecidedShape:
      return "undecided_shape";
  }
  return "harness_error";
}

std::optional<Verdict> ParseVerdict(absl::string_view name) {
  for (Verdict v : kAll) {
    if (VerdictName(v) == name) return v;
  }
  return std::nullopt;
}

bool IsFailure(Verdict v, const StrictnessOptions& o) {
  switch (v) {
    case Verdict::kPass:
    case Verdict::kUnspecifiedOk:
    case Verdict::kUndecidedShape:  // a failure needs its witness
      return false;
    case Verdict::kUnsupported:
      return o.unsupported_fails;
    case Verdict::kNanPayloadChanged:
      return o.nan_payload_strict;
    case Verdict::kLooseShape:
      return o.strict_shapes;
    default:
      return true;
  }
}

}  // namespace dmconf
