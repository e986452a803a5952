// Bugs whose outputs, on weak evidence, look like other bugs: an output-size formula without
// its +1 (on cases whose outputs are empty either way, the shape alone looks like rates and
// strides swapped), a kernel that reads and writes 1-bit data least significant bit first (on
// two-valued data, its output can equal cropping at the other end), and a depth_first
// permutation with the two block offsets swapped (on a period-6 fill, its output can equal the
// other mode's). They are in no known-mistake list (harness/compare/mistakes.h): a diagnosis
// must not name another bug for them (conformance/harness/diagnosis_measure_test.cc). Two more,
// written after the models that name them: 8-byte elements copied as two swapped 4-byte halves
// (elem.word_halves_swapped), and a DepthToSpace that reads every batch from batch 0
// (batch.fixed_zero).
#include "harness/backends/mutants/mutant_support.h"
#include "harness/compare/mistakes.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

absl::StatusOr<Validation> ValidParsed(const OpCase& c) {
  absl::StatusOr<Validation> v = Validate(c);
  if (!v.ok()) return v.status();
  if (v->kind() != ExpectationKind::kValid) return absl::FailedPreconditionError("not valid");
  return v;
}

// Valid padding, output size floor((in - eff) / stride) instead of floor((in - eff) / stride)
// + 1 (at least 0): the patches of the spec's first rows and columns, one fewer of each.
RunOutcome EipValidNoPlusOne(const OpCase& c) {
  if (c.op != Op::kExtractImagePatches || c.auto_pad != "valid" || c.data.shape.size() != 4) {
    return CorrectOutcome(c);
  }
  absl::StatusOr<Validation> v = ValidParsed(c);
  if (!v.ok()) return CorrectOutcome(c);
  const ParsedCase& p = v->parsed;
  int64_t out[2], pads[2] = {0, 0};
  for (int a = 0; a < 2; ++a) {
    // the spec: out = floor((in - eff) / stride) + 1 when in >= eff, else 0
    out[a] = p.in[a] >= p.eff[a] ? (p.in[a] - p.eff[a]) / p.stride[a] : 0;
  }
  return OutcomeOf(
      PatchesWithPads(c.data, p.size.data(), p.stride.data(), p.rate.data(), pads, out, true));
}

// 1-bit data read and written least significant bit first: logical element i sits at bit
// i % 8 of byte i / 8, where the spec's packing puts element 8 * (i / 8) + 7 - i % 8 (an
// element past the end reads as 0, and one written past the end is lost).
int64_t LsbPartner(int64_t i, int64_t n) {
  const int64_t j = 8 * (i / 8) + 7 - i % 8;
  return j < n ? j : -1;
}
RunOutcome U1LsbFirstThroughout(const OpCase& c) {
  if (c.data.type != ElementType::kU1) return CorrectOutcome(c);
  const int64_t n = c.data.NumElements();
  OpCase m = c;
  absl::StatusOr<Tensor> x =
      Gather(c.data, c.data.shape, [n](int64_t i) { return LsbPartner(i, n); });
  if (!x.ok()) return CorrectOutcome(c);
  m.data = *std::move(x);
  RunOutcome r = CorrectOutcome(m);
  if (!r.output.has_value()) return r;
  const Tensor& y = *r.output;
  const int64_t k = y.NumElements();
  return OutcomeOf(Gather(y, y.shape, [k](int64_t i) { return LsbPartner(i, k); }));
}

// DepthToSpace depth_first, 4-D: the spec's out[n, c, h * b + i, w * b + j] =
// data[n, c * b * b + i * b + j, h, w]; the kernel swaps the two block offsets and reads
// data[n, c * b * b + j * b + i, h, w].
RunOutcome D2sDepthFirstOffsetsSwapped(const OpCase& c) {
  if (c.op != Op::kDepthToSpace || c.mode != "depth_first" || c.data.shape.size() != 4 ||
      !ValidParsed(c).ok()) {
    return CorrectOutcome(c);
  }
  const int64_t b = c.block_size.value_or(1);
  const Shape& s = c.data.shape;
  const int64_t C = s[1] / (b * b), H = s[2], W = s[3];
  const Shape out = {s[0], C, H * b, W * b};
  return OutcomeOf(Gather(c.data, out, [&](int64_t k) {
    const int64_t x = k % (W * b), y = k / (W * b) % (H * b), ch = k / (W * b * H * b) % C;
    const int64_t n = k / (W * b * H * b * C);
    const int64_t i = y % b, j = x % b, h = y / b, w = x / b;
    return ((n * s[1] + ch * b * b + j * b + i) * H + h) * W + w;
  }));
}

// 8-byte elements copied as two 4-byte words, the words in swapped order.
RunOutcome WordHalvesSwapped(const OpCase& c) {
  RunOutcome o = CorrectOutcome(c);
  if (o.output.has_value()) o.output = SwapWordHalves(*std::move(o.output));
  return o;
}

// DepthToSpace reading every output batch from input batch 0 (the batch index left at 0).
RunOutcome D2sBatchFixedZero(const OpCase& c) {
  if (c.op != Op::kDepthToSpace || c.data.shape.size() < 2 || c.data.shape[0] < 2 ||
      c.data.NumElements() == 0 || !ValidParsed(c).ok()) {
    return CorrectOutcome(c);
  }
  const int64_t inner = c.data.NumElements() / c.data.shape[0];
  OpCase m = c;
  absl::StatusOr<Tensor> x = Gather(c.data, c.data.shape, [&](int64_t k) { return k % inner; });
  if (!x.ok()) return CorrectOutcome(c);
  m.data = *std::move(x);
  return CorrectOutcome(m);
}

}  // namespace

std::vector<MutantInfo> LookalikeMutants() {
  return {
      {"eip_valid_no_plus_one",
       "ExtractImagePatches: valid output size without its +1",
       {Verdict::kWrongShape},
       EipValidNoPlusOne},
      {"u1_lsb_first_throughout",
       "all ops: 1-bit data read and written least significant bit first",
       {Verdict::kWrongValues},
       U1LsbFirstThroughout},
      {"d2s_depth_first_offsets_swapped",
       "DepthToSpace: depth_first with the two block offsets swapped (4-D)",
       {Verdict::kWrongValues},
       D2sDepthFirstOffsetsSwapped},
      {"word_halves_swapped",
       "all ops: 8-byte elements copied as two 4-byte halves in swapped order",
       {Verdict::kWrongValues},
       WordHalvesSwapped},
      {"d2s_batch_fixed_zero",
       "DepthToSpace: every output batch read from input batch 0",
       {Verdict::kWrongValues},
       D2sBatchFixedZero},
  };
}

}  // namespace dmconf
