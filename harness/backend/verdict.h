// Verdicts: what the harness concludes about one case run by one backend.
//
//   pass                 the backend did what the specification requires (bit-exact output,
//                        or a refusal of a must_reject case)
//   wrong_values         right type and shape, some element bits differ
//   wrong_shape          output shape differs
//   wrong_type           output element type differs
//   nan_payload_changed  the only differences are NaNs at NaN places, all explained by one
//                        change: quieting or canonicalisation (docs/errata.md D9); its own
//                        class so that the strictness is visible and selectable
//                        (--nan-payload lenient). A NaN moved to another place is wrong_values
//   false_reject         a valid case was refused
//   false_accept         a must_reject case produced an output
//   unspecified_ok       the spec leaves the case unspecified; the backend did not crash or hang
//   crash                the backend's worker died (any signal, abort, exit)
//   hang                 the backend exceeded the per-case timeout
//   unsupported          the case is outside the backend's declared capabilities
//   harness_error        dmconf itself could not decide (malformed case, worker protocol
//                        error, fork): dmconf's own fault, never the backend's
//   invalid_answer       the backend's result is malformed (negative or non-exact dims from
//                        infer_static, lo > hi, a wrong rank, an unknown element type, output
//                        bytes of the wrong length, a write past the output buffer, a
//                        return code outside the ABI): a failure of the backend
//   skipped_after_hangs  not run: the backend hung on --max-consecutive-hangs cases of this op
//                        in a row (a failure: the cases' outcome is unknown)
//   skipped_after_crashes  not run: likewise after --max-consecutive-crashes crashes in a row
//   out_of_memory        the worker ran out of its memory limit (--memory-limit)
//   unsound_shape        shape inference (partial) answered a shape that leaves out the
//                        output of an instance the spec accepts, or refused a partial case
//                        that has a valid instance (harness/compare/shape_judge.h)
//   loose_shape          shape inference answered a sound shape, but wider than the oracle's
//                        at a finite bound (or an unknown rank where the rank is known): not
//                        a failure unless --strict-shapes
//   undecided_shape      shape inference (partial) answered a shape the oracle suspects of
//                        leaving out an accepted instance's output (below a bound the
//                        oracle's interval arithmetic gives, D-P6), or refused a partial case,
//                        but the search found no instance to prove it: never a failure, since
//                        a failure needs its witness (harness/compare/shape_judge.h)
//   flaky                the case failed, but replaying it gave other results (some replays
//                        passed, or failed otherwise): a failure of the backend, whose repro
//                        cannot claim determinism, so it is not shrunk (harness/shrink/replay.h)
//
// Example:
//   IsFailure(Verdict::kWrongValues, {}) == true;  VerdictName(Verdict::kHang) == "hang"
#ifndef DMCONF_HARNESS_BACKEND_VERDICT_H_
#define DMCONF_HARNESS_BACKEND_VERDICT_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace dmconf {

enum class Verdict : uint8_t {
  kPass,
  kWrongValues,
  kWrongShape,
  kWrongType,
  kNanPayloadChanged,
  kFalseReject,
  kFalseAccept,
  kUnspecifiedOk,
  kCrash,
  kHang,
  kUnsupported,
  kHarnessError,
  kSkippedAfterHangs,
  kSkippedAfterCrashes,
  kOutOfMemory,
  kUnsoundShape,
  kLooseShape,
  kInvalidAnswer,
  kFlaky,
  kUndecidedShape,
};

absl::Span<const Verdict> AllVerdicts();
absl::string_view VerdictName(Verdict v);
std::optional<Verdict> ParseVerdict(absl::string_view name);

struct StrictnessOptions {
  // When true (the default), nan_payload_changed is a failure; when false it is accepted.
  bool nan_payload_strict = true;
  // When true (--fail-unsupported, for a backend that claims full coverage), unsupported is a
  // failure; by default it is not.
  bool unsupported_fails = false;
  // When true (--strict-shapes), loose_shape is a failure; by default it is counted and
  // reported only.
  bool strict_shapes = false;
};

// True for verdicts that fail the run (unless listed in an expectations file): the table's
// `fails`, or the strictness option its `decided_by` names.
bool IsFailure(Verdict v, const StrictnessOptions& o);

// ---- The verdict table: one row per verdict, the one home of a verdict's properties --------
//
// Everything that treats verdicts apart (whether one fails, whether its case counts as ran,
// whether it is shrunk, which class a mutant's expectation counts it in, where the reports'
// columns show it) reads a column here. conformance/harness/tables_test.cc fails when a verdict
// lacks a row, or the schema's verdict enum or the HTML page disagrees with the table.
//
// Example:
//   VerdictRowOf(Verdict::kSkippedAfterHangs).mutant_class == Verdict::kHang

// The strictness option that decides whether a verdict fails, if any.
enum class DecidedBy : uint8_t {
  kNothing,       // `fails` alone
  kNanPayload,    // StrictnessOptions::nan_payload_strict (--nan-payload)
  kUnsupported,   // StrictnessOptions::unsupported_fails (--fail-unsupported)
  kStrictShapes,  // StrictnessOptions::strict_shapes (--strict-shapes)
};

struct VerdictRow {
  Verdict verdict;
  absl::string_view name;  // as reports, expectations files and flags spell it
  bool fails;              // under the default strictness
  DecidedBy decided_by;
  // The case ran: not unsupported, not skipped after a budget (slice coverage's `ran`).
  bool ran;
  // A failure of this verdict is shrunk (not a skip, which only follows from other cases).
  bool shrunk;
  // A second failure of a kind already shrunk is shrunk too, after the first of every kind (not
  // a hang or an out_of_memory, whose every attempt waits the timeout or fills the memory).
  bool repeats_shrunk;
  // The verdict a mutant's expected classes count it as (a skip follows from its cause).
  Verdict mutant_class;
  // Its column among the reports' verdicts (the HTML page's order): the failures of an output
  // first, then of the process, of shape inference, then the verdicts that do not fail.
  int column;
};

// Every verdict's row, in the order of enum Verdict (row i is Verdict i).
absl::Span<const VerdictRow> VerdictTable();
const VerdictRow& VerdictRowOf(Verdict v);
// The verdicts in column order.
std::vector<Verdict> VerdictsInColumnOrder();

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BACKEND_VERDICT_H_
