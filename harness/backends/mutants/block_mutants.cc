// Layout bugs of SpaceToBatch / BatchToSpace kernels, written from the spec's formula with one
// term changed: where the padding (crop) goes, the order in which the block offsets are
// flattened into the batch, and the order in which the data is read. They are not in the
// known-mistake list (harness/compare/mistakes.h): only the fitted diagnosis can name them.
#include "harness/backends/mutants/mutant_support.h"
#include "harness/compare/mistakes.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

std::vector<int64_t> Ints(const Tensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(t.GetInteger(i).value_or(0));
  return v;
}

bool ValidBlockCase(const OpCase& c, Op op) {
  if (c.op != op || c.int_inputs.size() != 3 || c.data.shape.size() < 2) return false;
  absl::StatusOr<Validation> v = Validate(c);
  return v.ok() && v->kind() == ExpectationKind::kValid;
}

// The whole pad (crop) at the end: begin' = 0, end' = begin + end. A kernel that computes the
// total and applies it after the data.
RunOutcome AllAtEnd(const OpCase& c, Op op) {
  if (!ValidBlockCase(c, op)) return CorrectOutcome(c);
  std::vector<int64_t> begin = Ints(c.int_inputs[1]), end = Ints(c.int_inputs[2]);
  for (size_t i = 0; i < begin.size() && i < end.size(); ++i) {
    end[i] += begin[i];  // a valid case's pads (crops) add up to at most a representable dim
    begin[i] = 0;
  }
  OpCase m = c;
  absl::StatusOr<Tensor> b = MakeIntegerTensor(c.int_inputs[1].type, begin);
  absl::StatusOr<Tensor> e = MakeIntegerTensor(c.int_inputs[2].type, end);
  if (!b.ok() || !e.ok()) return CorrectOutcome(c);
  m.int_inputs[1] = *std::move(b);
  m.int_inputs[2] = *std::move(e);
  return CorrectOutcome(m);
}
RunOutcome S2bPadsAtEnd(const OpCase& c) { return AllAtEnd(c, Op::kSpaceToBatch); }
RunOutcome B2sCropsAtEnd(const OpCase& c) { return AllAtEnd(c, Op::kBatchToSpace); }

// Block offsets (o_1, ..., o_K) flattened with o_1 fastest instead of o_K fastest: the batch
// slot f of the spec holds, in the mutant, the offsets whose reversed flattening is f.
// Returns, for every spec slot f, the slot the mutant uses.
std::vector<int64_t> ReversedSlots(const std::vector<int64_t>& block) {
  int64_t p = 1;
  for (size_t i = 1; i < block.size(); ++i) p *= block[i];
  std::vector<int64_t> slot(static_cast<size_t>(p));
  for (int64_t f = 0; f < p; ++f) {
    // o from f, last axis fastest (the spec's flat order)
    std::vector<int64_t> o(block.size(), 0);
    int64_t rest = f;
    for (size_t i = block.size(); i-- > 1;) {
      o[i] = rest % block[i];
      rest /= block[i];
    }
    int64_t g = 0;  // o flattened first axis fastest
    for (size_t i = block.size(); i-- > 1;) g = g * block[i] + o[i];
    slot[static_cast<size_t>(f)] = g;
  }
  return slot;
}

// At least two axes with a block larger than 1 (else both orders agree), and a block product
// small enough to tabulate (a valid case with a non-empty output has at most 2^22 slots).
bool ReversibleBlocks(const std::vector<int64_t>& block) {
  int axes = 0;
  int64_t p = 1;
  for (size_t i = 1; i < block.size(); ++i) {
    axes += block[i] > 1;
    if (__builtin_mul_overflow(p, block[i], &p)) return false;
  }
  return axes >= 2 && p <= (int64_t{1} << 22);
}

RunOutcome S2bBlockOrderReversed(const OpCase& c) {
  if (!ValidBlockCase(c, Op::kSpaceToBatch)) return CorrectOutcome(c);
  const std::vector<int64_t> block = Ints(c.int_inputs[0]);
  RunOutcome right = CorrectOutcome(c);
  if (!ReversibleBlocks(block) || !right.output.has_value() || right.output->NumElements() == 0) {
    return right;
  }
  const Tensor& y = *right.output;
  const std::vector<int64_t> slot = ReversedSlots(block);
  const int64_t batch = c.data.shape[0];
  const int64_t inner = y.NumElements() / y.shape[0];
  // mutant[slot(f) * batch + n] = spec[f * batch + n]
  std::vector<int64_t> from(static_cast<size_t>(y.shape[0]));
  for (int64_t f = 0; f < static_cast<int64_t>(slot.size()); ++f)
    for (int64_t n = 0; n < batch; ++n)
      from[static_cast<size_t>(slot[static_cast<size_t>(f)] * batch + n)] = f * batch + n;
  return OutcomeOf(Gather(y, y.shape, [&](int64_t k) {
    return from[static_cast<size_t>(k / inner)] * inner + k % inner;
  }));
}

RunOutcome B2sBlockOrderReversed(const OpCase& c) {
  if (!ValidBlockCase(c, Op::kBatchToSpace)) return CorrectOutcome(c);
  const std::vector<int64_t> block = Ints(c.int_inputs[0]);
  if (!ReversibleBlocks(block) || c.data.NumElements() == 0) return CorrectOutcome(c);
  const std::vector<int64_t> slot = ReversedSlots(block);
  const int64_t batch_out = c.data.shape[0] / static_cast<int64_t>(slot.size());
  const int64_t inner = c.data.NumElements() / c.data.shape[0];
  // The mutant reads X[slot(f) * batch_out + n] where the spec reads X[f * batch_out + n]:
  // the spec's formula on X'[f * batch_out + n] = X[slot(f) * batch_out + n] reproduces it.
  OpCase m = c;
  absl::StatusOr<Tensor> x = Gather(c.data, c.data.shape, [&](int64_t k) {
    const int64_t b = k / inner;
    const int64_t f = b / batch_out, n = b % batch_out;
    return (slot[static_cast<size_t>(f)] * batch_out + n) * inner + k % inner;
  });
  if (!x.ok()) return CorrectOutcome(c);
  m.data = *std::move(x);
  return CorrectOutcome(m);
}

// 4-D data [N, D1, D2, D3] read from a buffer laid out [N, D2, D3, D1] (NHWC): logical element
// (n, d1, d2, d3) is read from ((n * D2 + d2) * D3 + d3) * D1 + d1.
RunOutcome ReadAsNhwc(const OpCase& c, Op op) {
  if (!ValidBlockCase(c, op) || c.data.shape.size() != 4) return CorrectOutcome(c);
  const Shape& s = c.data.shape;
  const int64_t D1 = s[1], D2 = s[2], D3 = s[3];
  OpCase m = c;
  absl::StatusOr<Tensor> x = Gather(c.data, s, [&](int64_t k) {
    const int64_t d3 = k % D3, d2 = k / D3 % D2, d1 = k / (D3 * D2) % D1, n = k / (D3 * D2 * D1);
    return ((n * D2 + d2) * D3 + d3) * D1 + d1;
  });
  if (!x.ok()) return CorrectOutcome(c);
  m.data = *std::move(x);
  return CorrectOutcome(m);
}
RunOutcome S2bNhwc(const OpCase& c) { return ReadAsNhwc(c, Op::kSpaceToBatch); }
RunOutcome B2sNhwc(const OpCase& c) { return ReadAsNhwc(c, Op::kBatchToSpace); }

}  // namespace

std::vector<MutantInfo> BlockLayoutMutants() {
  const std::vector<Verdict> values = {Verdict::kWrongValues};
  return {
      {"s2b_pads_at_end", "SpaceToBatch: all padding applied at the end", values, S2bPadsAtEnd},
      {"b2s_crops_at_end", "BatchToSpace: all cropping taken from the end", values, B2sCropsAtEnd},
      {"s2b_block_order_reversed",
       "SpaceToBatch: block offsets flattened first axis fastest (last axis fastest in the spec)",
       values, S2bBlockOrderReversed},
      {"b2s_block_order_reversed",
       "BatchToSpace: block offsets flattened first axis fastest (last axis fastest in the spec)",
       values, B2sBlockOrderReversed},
      {"s2b_nhwc_as_nchw", "SpaceToBatch: 4-D input read as NHWC", values, S2bNhwc},
      {"b2s_nhwc_as_nchw", "BatchToSpace: 4-D input read as NHWC", values, B2sNhwc},
  };
}

}  // namespace dmconf
