#include "harness/io/vector_verify.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/io/element_json.h"
#include "oracle/oracle.h"

namespace dmconf::io {
namespace {

std::string Kind(const Expectation& e) {
  return e.rule ? absl::StrCat(ExpectationKindName(e.kind), " (", e.rule->id, ")")
                : std::string(ExpectationKindName(e.kind));
}

}  // namespace

std::optional<std::string> OracleMismatch(const VectorCase& v) {
  absl::StatusOr<Expectation> e = Evaluate(v.c);
  if (!e.ok()) return absl::StrCat("the oracle refuses the case: ", e.status().message());
  if (e->kind != v.expected.kind || e->rule != v.expected.rule) {
    return absl::StrCat("the file expects ", Kind(v.expected), ", the oracle says ", Kind(*e));
  }
  if (e->kind != ExpectationKind::kValid) return std::nullopt;
  if (!e->output || !v.expected.output) return "no output to compare";
  const Tensor& want = *v.expected.output;
  const Tensor& got = *e->output;
  if (want.type != got.type || want.shape != got.shape) {
    return absl::StrCat("the file expects ", ElementTypeName(want.type), " ",
                        ShapeToString(want.shape), ", the oracle gives ", ElementTypeName(got.type),
                        " ", ShapeToString(got.shape));
  }
  const int64_t n = want.NumElements();
  for (int64_t i = 0; i < n; ++i) {
    if (want.GetBits(i) != got.GetBits(i)) {
      return absl::StrCat("output element ", i, ": the file expects ",
                          EncodeElement(want.type, want.GetBits(i)).dump(), ", the oracle gives ",
                          EncodeElement(got.type, got.GetBits(i)).dump());
    }
  }
  return std::nullopt;
}

}  // namespace dmconf::io
