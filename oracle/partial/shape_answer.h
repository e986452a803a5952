// The oracle's answer to a shape-inference question: for a static case the static oracle's
// (Validate, with an exact output shape), otherwise the partial oracle's (InferPartialShape).
// What a backend's InferStatic / InferPartial answer is judged against
// (harness/compare/shape_judge.h), and what shape-case files record as expected.
//
// Example:
//   absl::StatusOr<PartialResult> o = OracleShapeAnswer(c);
//   if (o.ok() && o->kind == PartialKind::kMustReject) std::cout << o->rule << "\n";
#ifndef DMCONF_ORACLE_PARTIAL_SHAPE_ANSWER_H_
#define DMCONF_ORACLE_PARTIAL_SHAPE_ANSWER_H_

#include "absl/status/statusor.h"
#include "oracle/partial/partial_infer.h"

namespace dmconf {

// The oracle's answer: for a static case (c.IsStatic()) the static oracle's, as a
// PartialResult with an exact output shape; otherwise InferPartialShape(c). The output
// element type is the data type for every op. Errors: malformed cases (`case.*`).
absl::StatusOr<PartialResult> OracleShapeAnswer(const PartialCase& c);

}  // namespace dmconf

#endif  // DMCONF_ORACLE_PARTIAL_SHAPE_ANSWER_H_
