// EvalOptions::threads: evaluations with 2, 3 and 5 threads give the same bits as with 1 (and,
// for f32 and u4, as the direct index formulas of oracle/direct), on odd shapes (odd extents, odd
// pads and crops, packed rows and planes that do not start on a byte) large enough (outputs of
// 1 MiB or more) that the copies are really split, for element widths 1, 4, 8, 16, 32 and 64
// bits.
#include <limits>
#include <vector>

#include "conformance/oracle/case_builders.h"
#include "gtest/gtest.h"
#include "oracle/direct/direct.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

using testing::Describe;

Tensor I64(const std::vector<int64_t>& v) { return *MakeIntegerTensor(ElementType::kI64, v); }

// Any bits: each byte a function of its position.
Tensor Data(ElementType t, Shape shape) {
  Tensor x = *Tensor::Zeros(t, std::move(shape));
  for (size_t k = 0; k < x.bytes.size(); ++k) {
    x.bytes[k] = static_cast<uint8_t>((k * 2654435761u) >> 13);
  }
  // Sub-byte tensors: the padding bits of the last byte stay zero.
  if (IsSubByte(t) && !x.bytes.empty()) {
    const int64_t n = x.NumElements();
    Tensor clean = *Tensor::Zeros(t, x.shape);
    for (int64_t i = 0; i < n; ++i) clean.SetBits(i, x.GetBits(i));
    return clean;
  }
  return x;
}

// The cases of one element type; `scale` multiplies the innermost extent so that every output
// passes 1 MiB (packed, for u1 and u4).
std::vector<OpCase> OddCases(ElementType t) {
  const int64_t scale = BitWidth(t) >= 32 ? 1 : 32 / BitWidth(t);
  std::vector<OpCase> out;
  for (const char* mode : {"blocks_first", "depth_first"}) {
    OpCase d2s;
    d2s.op = Op::kDepthToSpace;
    d2s.data = Data(t, {3, 8, 117, 181 * scale});
    d2s.block_size = 2;
    d2s.mode = mode;
    out.push_back(d2s);
    // Block 3 moves element by element (slow under the sanitizers at the size packed types
    // need): block 2, odd extents, for those.
    const int64_t b = IsSubByte(t) ? 2 : 3;
    OpCase s2d;
    s2d.op = Op::kSpaceToDepth;
    s2d.data = Data(t, {1, b == 2 ? 7 : 5, b * 87, b * 113 * scale});
    s2d.block_size = b;
    s2d.mode = mode;
    out.push_back(s2d);
  }
  OpCase s2b;  // [3, 37, 91, 29]: padded 40 / 2, 93 / 3
  s2b.op = Op::kSpaceToBatch;
  s2b.data = Data(t, {3, 37, 91, 29 * scale});
  s2b.int_inputs = {I64({1, 2, 3, 1}), I64({0, 1, 2, 0}), I64({0, 2, 0, 0})};
  out.push_back(s2b);
  OpCase b2s;  // [30, 21, 31, 29] -> [5, 2 * 21 - 3, 3 * 31 - 2, 29]
  b2s.op = Op::kBatchToSpace;
  b2s.data = Data(t, {30, 21, 31, 29 * scale});
  b2s.int_inputs = {I64({1, 2, 3, 1}), I64({0, 1, 2, 0}), I64({0, 2, 0, 0})};
  out.push_back(b2s);
  OpCase eip;
  eip.op = Op::kExtractImagePatches;
  // Odd rows: packed output planes (151 x 257 * scale + 3) do not end on a byte, so the parts
  // of a split begin inside planes and rows.
  eip.data = Data(t, {2, 3, 301, 257 * scale + 3});
  eip.sizes = {3, 2};
  eip.strides = {2, 1};
  eip.rates = {1, 2};
  eip.auto_pad = "same_lower";
  out.push_back(eip);
  return out;
}

TEST(Threads, OutputsAreBitIdenticalForAnyThreadCount) {
  for (ElementType t : {ElementType::kU1, ElementType::kU4, ElementType::kU8, ElementType::kF16,
                        ElementType::kF32, ElementType::kF64}) {
    for (const OpCase& c : OddCases(t)) {
      absl::StatusOr<Expectation> one = Evaluate(c);
      ASSERT_TRUE(one.ok()) << Describe(c) << ": " << one.status();
      ASSERT_EQ(one->kind, ExpectationKind::kValid) << Describe(c) << ": " << one->message;
      ASSERT_GE(static_cast<int64_t>(one->output->bytes.size()), 1 << 20)
          << Describe(c) << ": too small to be split between threads";
      if (t == ElementType::kF32 || t == ElementType::kU4) {
        // Per element, so only two widths (the rest: dmconf_bench_check, direct_agreement);
        // the test must stay short under the sanitizers.
        absl::StatusOr<Tensor> want = direct::DirectEvaluate(c);
        ASSERT_TRUE(want.ok()) << Describe(c) << ": " << want.status();
        ASSERT_EQ(one->output->bytes, want->bytes) << Describe(c) << " (1 thread vs direct)";
      }
      // 5 threads: the cropped BatchToSpace output's batch of 5 is shared between them (each
      // thread does every box of its batch range); 3 share SpaceToBatch's padded batch of 3.
      for (int threads : {2, 3, 5}) {
        EvalOptions o;
        o.threads = threads;
        absl::StatusOr<Expectation> many = Evaluate(c, o);
        ASSERT_TRUE(many.ok()) << Describe(c) << ": " << many.status();
        ASSERT_EQ(many->output->bytes, one->output->bytes)
            << Describe(c) << " (" << threads << " threads vs 1)";
      }
    }
  }
}

TEST(Threads, CountsBelowOneMeanOneAndAboveTheBoundMeanTheBound) {
  // A count of 2^31 - 1 must not start that many threads (each primitive would split its copy
  // into one part per thread: the patch gather into one per output element).
  for (OpCase c : {OddCases(ElementType::kF32)[4], OddCases(ElementType::kU1)[6]}) {
    absl::StatusOr<Expectation> one = Evaluate(c);
    ASSERT_TRUE(one.ok());
    for (int threads : {0, -3, kMaxEvalThreads + 1, std::numeric_limits<int>::max()}) {
      EvalOptions o;
      o.threads = threads;
      absl::StatusOr<Expectation> e = Evaluate(c, o);
      ASSERT_TRUE(e.ok());
      EXPECT_EQ(e->output->bytes, one->output->bytes) << Describe(c) << ", " << threads;
    }
  }
}

}  // namespace
}  // namespace dmconf
