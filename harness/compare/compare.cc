#include "harness/compare/compare.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "harness/base/float_bits.h"

namespace dmconf {
namespace {

Comparison Make(Verdict v, std::string detail) {
  Comparison c;
  c.verdict = v;
  c.detail = std::move(detail);
  return c;
}

}  // namespace

std::string FormatBits(ElementType t, uint64_t bits) {
  const int digits = (BitWidth(t) + 3) / 4;
  return absl::StrFormat("0x%0*x", digits, bits);
}

std::optional<Mismatch> FirstMismatch(const Tensor& expected, const Tensor& actual) {
  // Equal bytes of one type hold equal bits in every element: no element to read (a passing
  // case, nearly every case of a run; reading each element's bits was 9% of a run's time).
  if (expected.type == actual.type && expected.bytes == actual.bytes) return std::nullopt;
  const int64_t n = expected.NumElements();
  std::optional<Mismatch> m;
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t a = expected.GetBits(i), b = actual.GetBits(i);
    if (a == b) continue;
    if (!m.has_value()) {
      m.emplace();
      m->index = MultiIndex(expected.shape, i);
      m->expected_bits = a;
      m->actual_bits = b;
      m->total = n;
      m->shape = expected.shape;
    }
    if (m->differing < kMaxListedWrongElements) m->listed.push_back({i, a, b});
    ++m->differing;
  }
  return m;
}

bool OnlyNaNPayloadsDiffer(const Tensor& expected, const Tensor& actual) {
  // ERRATA L-NAN-1 (docs/errata.md): a NaN's payload may change, never its position. Every
  // difference must be a NaN in both tensors, and one change must explain them all: quieting
  // (each NaN with its quiet bit set, sign and payload kept), or canonicalisation (every NaN
  // at a NaN's place is one canonical pattern, or one per sign). A NaN read from another
  // element's place fits neither unless the tensors cannot tell it from canonicalisation.
  const ElementType t = expected.type;
  const uint64_t quiet = QuietBit(t), sign = SignBit(t);
  bool quieting = true, one_pattern = true, one_per_sign = true;
  std::optional<uint64_t> pattern, per_sign[2];
  const int64_t n = expected.NumElements();
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t a = expected.GetBits(i), b = actual.GetBits(i);
    const bool a_nan = IsNaNBits(t, a);
    if (a == b && !a_nan) continue;
    if (!a_nan || !IsNaNBits(t, b)) return false;
    if (a != b && (quiet == 0 || (a | quiet) != b)) quieting = false;
    // A canonical NaN is quiet with no other payload bit (0x7E00 in f16, 0x7FC00000 in f32):
    // with its quiet bit cleared it is an infinity. Types with one NaN per sign have no other.
    const bool canonical = quiet == 0 || !IsNaNBits(t, b & ~quiet);
    if (!canonical || pattern.value_or(b) != b) one_pattern = false;
    pattern = b;
    std::optional<uint64_t>& s = per_sign[(a & sign) != 0 ? 1 : 0];
    if (!canonical || s.value_or(b) != b || (b & sign) != (a & sign)) one_per_sign = false;
    s = b;
  }
  return quieting || one_pattern || one_per_sign;
}

Comparison Compare(const Expectation& e, const RunOutcome& r, const StrictnessOptions& o) {
  (void)o;  // strictness decides failure (IsFailure), not the verdict itself
  switch (r.kind) {
    case RunOutcome::Kind::kCrash:
      return Make(Verdict::kCrash, r.message);
    case RunOutcome::Kind::kHang:
      return Make(Verdict::kHang, r.message);
    case RunOutcome::Kind::kHarnessError:
      return Make(Verdict::kHarnessError, r.message);
    case RunOutcome::Kind::kInvalidAnswer:
      return Make(Verdict::kInvalidAnswer, r.message);
    case RunOutcome::Kind::kOutOfMemory:
      return Make(Verdict::kOutOfMemory, r.message);
    case RunOutcome::Kind::kUnsupported:
      return Make(Verdict::kUnsupported, r.message);
    case RunOutcome::Kind::kRejected:
    case RunOutcome::Kind::kOutput:
      break;
  }
  const bool produced = r.kind == RunOutcome::Kind::kOutput;
  if (produced && !r.output.has_value()) {
    return Make(Verdict::kHarnessError, "backend reported an output but gave no tensor");
  }
  switch (e.kind) {
    case ExpectationKind::kUnspecified:
      return Make(Verdict::kUnspecifiedOk,
                  produced ? "produced an output (unspecified by the specification)"
                           : absl::StrCat("refused: ", r.message));
    case ExpectationKind::kMustReject:
      if (!produced) return Make(Verdict::kPass, "");
      return Make(Verdict::kFalseAccept,
                  absl::StrCat("produced ", ElementTypeName(r.output->type), " ",
                               ShapeToString(r.output->shape), " but the case breaks ",
                               e.rule != nullptr ? e.rule->id : "a rule"));
    case ExpectationKind::kValid:
      break;
  }
  if (!e.output.has_value()) {
    return Make(Verdict::kHarnessError, "the oracle did not evaluate this valid case");
  }
  if (!produced) {
    return Make(Verdict::kFalseReject, absl::StrCat("refused a valid case: ", r.message));
  }
  const Tensor& want = *e.output;
  const Tensor& got = *r.output;
  if (got.type != want.type) {
    return Make(Verdict::kWrongType,
                absl::StrCat("expected element type ", ElementTypeName(want.type), ", got ",
                             ElementTypeName(got.type)));
  }
  if (got.shape != want.shape) {
    return Make(Verdict::kWrongShape, absl::StrCat("expected shape ", ShapeToString(want.shape),
                                                   ", got ", ShapeToString(got.shape)));
  }
  if (got.Validate("output").ok() == false) {
    return Make(Verdict::kWrongShape,
                absl::StrCat("output holds ", got.bytes.size(), " bytes, its shape needs ",
                             PackedByteSize(want.type, want.NumElements()).value_or(-1)));
  }
  std::optional<Mismatch> m = FirstMismatch(want, got);
  if (!m.has_value()) return Make(Verdict::kPass, "");
  const Verdict v =
      OnlyNaNPayloadsDiffer(want, got) ? Verdict::kNanPayloadChanged : Verdict::kWrongValues;
  Comparison c = Make(v, absl::StrCat(m->differing, " of ", m->total, " elements differ; first at ",
                                      ShapeToString(m->index), ": expected ",
                                      FormatBits(want.type, m->expected_bits), ", got ",
                                      FormatBits(want.type, m->actual_bits)));
  c.mismatch = std::move(m);
  return c;
}

}  // namespace dmconf
