#include "oracle/oracle.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "oracle/input_names.h"
#include "oracle/ops/op_support.h"

namespace dmconf {

absl::string_view ExpectationKindName(ExpectationKind k) {
  switch (k) {
    case ExpectationKind::kValid:
      return "valid";
    case ExpectationKind::kMustReject:
      return "must_reject";
    case ExpectationKind::kUnspecified:
      return "unspecified";
  }
  return "?";
}

const Violation* Validation::deciding() const {
  return violations.empty() ? nullptr : &violations.front();
}

ExpectationKind Validation::kind() const {
  if (violations.empty()) return ExpectationKind::kValid;
  return violations.front().rule->kind == RuleKind::kMustReject ? ExpectationKind::kMustReject
                                                                : ExpectationKind::kUnspecified;
}

absl::StatusOr<Validation> Validate(const OpCase& c) {
  // The data shape must be a shape at all (its bytes are only read by Evaluate).
  absl::StatusOr<int64_t> n = NumElements(c.data.shape);
  if (!n.ok()) return absl::InvalidArgumentError(absl::StrCat(n.status().message(), " (data)"));
  const bool block_op = c.op == Op::kSpaceToBatch || c.op == Op::kBatchToSpace;
  if (c.int_inputs.size() != (block_op ? 3u : 0u)) {
    return absl::InvalidArgumentError(
        absl::StrCat("case.inputs.count: ", OpName(c.op), " takes ", block_op ? 3 : 0,
                     " integer inputs besides data, the case has ", c.int_inputs.size()));
  }
  const absl::Span<const absl::string_view> names = IntInputNames(c.op);
  for (size_t k = 0; k < c.int_inputs.size(); ++k) {
    if (absl::Status s = c.int_inputs[k].Validate(names[k]); !s.ok()) return s;
  }

  Validation v;
  v.output_type = c.data.type;
  switch (c.op) {
    case Op::kSpaceToBatch:
      internal::ValidateSpaceToBatch(c, &v);
      break;
    case Op::kBatchToSpace:
      internal::ValidateBatchToSpace(c, &v);
      break;
    case Op::kSpaceToDepth:
      internal::ValidateSpaceToDepth(c, &v);
      break;
    case Op::kDepthToSpace:
      internal::ValidateDepthToSpace(c, &v);
      break;
    case Op::kExtractImagePatches:
      internal::ValidateExtractImagePatches(c, &v);
      break;
  }
  // Must-reject rules decide before unspecified ones.
  std::stable_partition(v.violations.begin(), v.violations.end(),
                        [](const Violation& x) { return x.rule->kind == RuleKind::kMustReject; });
  if (v.kind() == ExpectationKind::kMustReject) v.output_shape.clear();
  return v;
}

absl::StatusOr<Expectation> Evaluate(const OpCase& c, const EvalOptions& requested) {
  EvalOptions options = requested;
  options.threads = std::clamp(requested.threads, 1, kMaxEvalThreads);
  if (options.with_output) {
    if (absl::Status s = c.data.Validate("data"); !s.ok()) return s;
  }
  absl::StatusOr<Validation> v = Validate(c);
  if (!v.ok()) return v.status();
  Expectation e;
  e.kind = v->kind();
  if (const Violation* d = v->deciding()) {
    e.rule = d->rule;
    e.message = d->message;
    return e;
  }
  e.output_shape = v->output_shape;
  if (!options.with_output) return e;
  if (CheckedProduct(e.output_shape) == 0) {
    // An empty output has nothing to copy. The formulas are not run: the row-major strides of
    // their operands (e.g. data [0, 2^62, 2^62]) need not be representable, and the patch
    // gather would loop over every (kh, kw) of a 2^20 x 2^20 patch that yields no rows.
    e.output = *Tensor::Zeros(v->output_type, e.output_shape);
    return e;
  }
  absl::StatusOr<Tensor> out;
  switch (c.op) {
    case Op::kSpaceToBatch:
      out = internal::EvaluateSpaceToBatch(c, *v, options);
      break;
    case Op::kBatchToSpace:
      out = internal::EvaluateBatchToSpace(c, *v, options);
      break;
    case Op::kSpaceToDepth:
      out = internal::EvaluateSpaceToDepth(c, *v, options);
      break;
    case Op::kDepthToSpace:
      out = internal::EvaluateDepthToSpace(c, *v, options);
      break;
    case Op::kExtractImagePatches:
      out = internal::EvaluateExtractImagePatches(c, *v, options);
      break;
  }
  if (!out.ok()) return out.status();
  e.output = *std::move(out);
  return e;
}

}  // namespace dmconf
