#include "oracle/partial/shape_answer.h"

#include "oracle/oracle.h"

namespace dmconf {

absl::StatusOr<PartialResult> OracleShapeAnswer(const PartialCase& c) {
  if (!c.IsStatic()) return InferPartialShape(c);
  absl::StatusOr<OpCase> s = c.ToShapeOnlyCase();
  if (!s.ok()) return s.status();
  absl::StatusOr<Validation> v = Validate(*s);
  if (!v.ok()) return v.status();
  PartialResult r;
  switch (v->kind()) {
    case ExpectationKind::kValid:
      r.kind = PartialKind::kShape;
      break;
    case ExpectationKind::kMustReject:
      r.kind = PartialKind::kMustReject;
      break;
    case ExpectationKind::kUnspecified:
      r.kind = PartialKind::kUnspecified;
      break;
  }
  if (const Violation* d = v->deciding()) {
    r.rule = d->rule;
    r.message = d->message;
  }
  if (r.kind != PartialKind::kMustReject && !v->output_shape.empty()) {
    r.has_output = true;
    r.output = PartialShape::Static(v->output_shape);
  }
  return r;
}

}  // namespace dmconf
