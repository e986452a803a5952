#include "harness/backend/verdict.h"

#include <algorithm>
#include <array>
#include <cstddef>

namespace dmconf {
namespace {

using V = Verdict;
using D = DecidedBy;

// verdict, name, fails, decided_by, ran, shrunk, repeats_shrunk, mutant_class, column
constexpr std::array<VerdictRow, 20> kRows = {{
    {V::kPass, "pass", false, D::kNothing, true, false, false, V::kPass, 0},
    {V::kWrongValues, "wrong_values", true, D::kNothing, true, true, true, V::kWrongValues, 1},
    {V::kWrongShape, "wrong_shape", true, D::kNothing, true, true, true, V::kWrongShape, 2},
    {V::kWrongType, "wrong_type", true, D::kNothing, true, true, true, V::kWrongType, 3},
    {V::kNanPayloadChanged, "nan_payload_changed", true, D::kNanPayload, true, true, true,
     V::kNanPayloadChanged, 4},
    {V::kFalseReject, "false_reject", true, D::kNothing, true, true, true, V::kFalseReject, 5},
    {V::kFalseAccept, "false_accept", true, D::kNothing, true, true, true, V::kFalseAccept, 6},
    {V::kUnspecifiedOk, "unspecified_ok", false, D::kNothing, true, false, false, V::kUnspecifiedOk,
     7},
    {V::kCrash, "crash", true, D::kNothing, true, true, true, V::kCrash, 8},
    {V::kHang, "hang", true, D::kNothing, true, true, false, V::kHang, 9},
    {V::kUnsupported, "unsupported", false, D::kUnsupported, false, true, true, V::kUnsupported,
     18},
    {V::kHarnessError, "harness_error", true, D::kNothing, true, true, true, V::kHarnessError, 19},
    {V::kSkippedAfterHangs, "skipped_after_hangs", true, D::kNothing, false, false, false, V::kHang,
     10},
    {V::kSkippedAfterCrashes, "skipped_after_crashes", true, D::kNothing, false, false, false,
     V::kCrash, 12},
    {V::kOutOfMemory, "out_of_memory", true, D::kNothing, true, true, false, V::kOutOfMemory, 11},
    {V::kUnsoundShape, "unsound_shape", true, D::kNothing, true, true, true, V::kUnsoundShape, 13},
    {V::kLooseShape, "loose_shape", false, D::kStrictShapes, true, true, true, V::kLooseShape, 16},
    {V::kInvalidAnswer, "invalid_answer", true, D::kNothing, true, true, true, V::kInvalidAnswer,
     14},
    {V::kFlaky, "flaky", true, D::kNothing, true, true, true, V::kFlaky, 15},
    // A failure needs its witness: an undecided answer never fails.
    {V::kUndecidedShape, "undecided_shape", false, D::kNothing, true, false, false,
     V::kUndecidedShape, 17},
}};

// The row of each verdict. A new enumerator of Verdict without a case here does not compile
// (-Wswitch, an error in the presets developers and CI build with); one with a case but no row
// fails the static_asserts below.
constexpr size_t kNoRow = static_cast<size_t>(-1);
constexpr size_t RowIndex(Verdict v) {
  switch (v) {
    case V::kPass:
    case V::kWrongValues:
    case V::kWrongShape:
    case V::kWrongType:
    case V::kNanPayloadChanged:
    case V::kFalseReject:
    case V::kFalseAccept:
    case V::kUnspecifiedOk:
    case V::kCrash:
    case V::kHang:
    case V::kUnsupported:
    case V::kHarnessError:
    case V::kSkippedAfterHangs:
    case V::kSkippedAfterCrashes:
    case V::kOutOfMemory:
    case V::kUnsoundShape:
    case V::kLooseShape:
    case V::kInvalidAnswer:
    case V::kFlaky:
    case V::kUndecidedShape:
      return static_cast<size_t>(v);
  }
  return kNoRow;  // not a verdict
}

// Row i is Verdict i, the columns are a permutation of the rows: checked at compile time.
constexpr bool RowsInEnumOrder() {
  for (size_t i = 0; i < kRows.size(); ++i) {
    if (static_cast<size_t>(kRows[i].verdict) != i || RowIndex(kRows[i].verdict) != i) {
      return false;
    }
    for (size_t k = 0; k < i; ++k) {
      if (kRows[k].column == kRows[i].column) return false;
    }
    if (kRows[i].column < 0 || static_cast<size_t>(kRows[i].column) >= kRows.size()) {
      return false;
    }
  }
  return true;
}
static_assert(RowsInEnumOrder(), "verdict table rows must follow enum Verdict, one column each");
static_assert(RowIndex(static_cast<Verdict>(kRows.size())) == kNoRow,
              "a verdict after the last row of the verdict table has no row");

constexpr std::array<Verdict, kRows.size()> AllInEnumOrder() {
  std::array<Verdict, kRows.size()> all{};
  for (size_t i = 0; i < kRows.size(); ++i) all[i] = kRows[i].verdict;
  return all;
}
constexpr std::array<Verdict, kRows.size()> kAll = AllInEnumOrder();

}  // namespace

absl::Span<const VerdictRow> VerdictTable() { return kRows; }
const VerdictRow& VerdictRowOf(Verdict v) { return kRows[static_cast<size_t>(v)]; }

std::vector<Verdict> VerdictsInColumnOrder() {
  std::vector<Verdict> out(kRows.size());
  for (const VerdictRow& row : kRows) out[static_cast<size_t>(row.column)] = row.verdict;
  return out;
}

absl::Span<const Verdict> AllVerdicts() { return kAll; }

absl::string_view VerdictName(Verdict v) { return VerdictRowOf(v).name; }

std::optional<Verdict> ParseVerdict(absl::string_view name) {
  for (const VerdictRow& row : kRows) {
    if (row.name == name) return row.verdict;
  }
  return std::nullopt;
}

bool IsFailure(Verdict v, const StrictnessOptions& o) {
  const VerdictRow& row = VerdictRowOf(v);
  switch (row.decided_by) {
    case DecidedBy::kNothing:
      return row.fails;
    case DecidedBy::kNanPayload:
      return o.nan_payload_strict;
    case DecidedBy::kUnsupported:
      return o.unsupported_fails;
    case DecidedBy::kStrictShapes:
      return o.strict_shapes;
  }
  return true;
}

}  // namespace dmconf
