#include "harness/io/shape_case_verify.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "oracle/partial/shape_answer.h"

namespace dmconf::io {
namespace {

// "<kind> <output> (<rule>)", for the staleness message.
std::string DescribeAnswer(const PartialResult& r) {
  std::string out(PartialKindName(r.kind));
  if (r.kind != PartialKind::kMustReject && r.has_output) {
    absl::StrAppend(&out, " ", r.output.ToString());
  }
  if (r.rule != nullptr) absl::StrAppend(&out, " (", r.rule->id, ")");
  return out;
}

bool SameAnswer(const PartialResult& a, const PartialResult& b) {
  const bool a_out = a.kind != PartialKind::kMustReject && a.has_output;
  const bool b_out = b.kind != PartialKind::kMustReject && b.has_output;
  const absl::string_view a_rule = a.rule != nullptr ? a.rule->id : "";
  const absl::string_view b_rule = b.rule != nullptr ? b.rule->id : "";
  return a.kind == b.kind && a_rule == b_rule && a_out == b_out &&
         (!a_out || a.output.dims == b.output.dims);
}

// The oracle's "case.x: message" as "case.x: <file>: message".
absl::Status WithFile(const absl::Status& s, absl::string_view file) {
  const absl::string_view m = s.message();
  const size_t colon = m.find(": ");
  if (colon == absl::string_view::npos) return absl::Status(s.code(), absl::StrCat(file, ": ", m));
  return absl::Status(s.code(),
                      absl::StrCat(m.substr(0, colon), ": ", file, ": ", m.substr(colon + 2)));
}

}  // namespace

absl::Status FillShapeExpectation(ShapeCaseFile& f) {
  absl::StatusOr<PartialResult> r = OracleShapeAnswer(f.c);
  if (!r.ok()) return r.status();
  f.expected = *std::move(r);
  return absl::OkStatus();
}

absl::Status VerifyShapeCaseExpectation(const ShapeCaseFile& f, absl::string_view file) {
  absl::StatusOr<PartialResult> now = OracleShapeAnswer(f.c);
  if (!now.ok()) return WithFile(now.status(), file);
  if (SameAnswer(f.expected, *now)) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat("shape_case.expected.stale: ", file, ": the file expects ",
                   DescribeAnswer(f.expected), ", the oracle now answers ", DescribeAnswer(*now),
                   "; regenerate it (scripts/regenerate.sh) or review the oracle change"));
}

}  // namespace dmconf::io
