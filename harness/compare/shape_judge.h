// Judging a backend's shape inference (Backend::InferStatic / InferPartial) against the
// oracle: the verdicts wrong_shape, wrong_type, false_accept, false_reject, unsound_shape,
// undecided_shape and loose_shape.
//
// The oracle's answer (oracle/partial/shape_answer.h) for a static case comes from the static
// oracle (Validate); for any other case from the partial oracle (InferPartialShape), whose answer
// is sound and tight (docs/errata-partial.md). A backend's answer A for a case whose oracle answer
// is O:
//   O must_reject (every instance rejected)  A a shape -> false_accept; A refused -> pass
//   O a shape, the case static               A refused -> false_reject; A != O -> wrong_shape
//   O a shape, the case partial              A refused -> unsound_shape (a valid instance
//                                            exists; false_reject when the case is static);
//                                            O not inside A -> unsound_shape (an accepted
//                                            instance's output lies outside A; with none
//                                            found, undecided_shape);
//                                            A strictly wider than O at a finite bound of O,
//                                            or of unknown rank where O's is known ->
//                                            loose_shape (a failure only with --strict-shapes)
//   O unspecified                            anything but a crash or hang -> unspecified_ok
//   the output element type differs          -> wrong_type
//   a malformed answer (the plugin loader)   -> invalid_answer
//
// Partial answers are judged over real instances (docs/errata-partial.md, D-P1 / D-P9): every
// dim of an instance, input or output, is at most 2^63-1, and its output has at most 2^63-1
// elements. So 2^63-1 as A's upper bound means "unbounded" (OpenVINO's Interval::s_max); an
// upper bound of A at or above the largest output any accepted instance can have is sound,
// and is loose only where O's finite bound is set by a finite input bound (not by the 2^63-1
// limits: DimCap). unsound_shape always names an accepted instance, as dims, whose output
// lies outside A (shape_witness.h), or for a refusal one accepted instance. Where the oracle's
// bound suspects A but the search finds no such instance (O's bound is not always reached:
// docs/errata-partial.md D-P6), the verdict is undecided_shape, never a failure.
//
// Example:
//   absl::StatusOr<PartialResult> o = OracleShapeAnswer(c);
//   ShapeJudgement j = JudgeShapeAnswer(c, *o, backend.InferPartial(c));
//   if (j.verdict == Verdict::kUnsoundShape) std::cout << j.detail << "\n";
#ifndef DMCONF_HARNESS_COMPARE_SHAPE_JUDGE_H_
#define DMCONF_HARNESS_COMPARE_SHAPE_JUDGE_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "harness/backend/backend.h"
#include "harness/backend/verdict.h"
#include "harness/compare/shape_witness.h"
#include "oracle/partial/partial_infer.h"
#include "oracle/partial/shape_answer.h"

namespace dmconf {

struct ShapeJudgement {
  Verdict verdict = Verdict::kPass;
  std::string detail;  // what was answered against what the oracle says
  // For unsound_shape: the accepted instance that proves it (its output lies outside the
  // answer, or the answer refused a case that has it). Unset for every other verdict.
  std::optional<ShapeInstance> witness;
};

// The verdict of one answer. `answer` comes from InferStatic when c.IsStatic() and the
// backend was asked statically, else from InferPartial; the rules above are the same.
ShapeJudgement JudgeShapeAnswer(const PartialCase& c, const PartialResult& oracle,
                                const ShapeOutcome& answer);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_COMPARE_SHAPE_JUDGE_H_
