#include "harness/suites/curated.h"

#include <cstdint>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "harness/gen/fills.h"
#include "oracle/case_factory.h"

namespace dmconf {
namespace {

constexpr int64_t kHuge = int64_t{1} << 62;
const char* const kModes[] = {"blocks_first", "depth_first"};

Tensor X(Shape s) { return PositionalTensor(ElementType::kF32, s); }

// A 1-D tensor of the given type holding raw bits (for non-integer block_shape types).
Tensor Bits1D(ElementType t, const std::vector<uint64_t>& bits) {
  absl::StatusOr<Tensor> out = Tensor::Zeros(t, {static_cast<int64_t>(bits.size())});
  for (size_t i = 0; i < bits.size(); ++i) out->SetBits(static_cast<int64_t>(i), bits[i]);
  return *std::move(out);
}

}  // namespace

std::vector<SpecExample> SpecExamples() {
  std::vector<SpecExample> out;
  out.push_back({"s2b.ir_layer", "SpaceToBatch-2, Example (IR layer)",
                 BlockOpCase(Op::kSpaceToBatch, X({2, 6, 10, 3, 3}), {1, 2, 4, 3, 1},
                             {0, 0, 1, 0, 0}, {0, 0, 1, 0, 0})});
  out.push_back({"b2s.ir_layer", "BatchToSpace-2, Example (IR layer)",
                 BlockOpCase(Op::kBatchToSpace, X({48, 3, 3, 1, 3}), {1, 2, 4, 3, 1},
                             {0, 0, 1, 0, 0}, {0, 0, 1, 0, 0})});
  for (const char* mode : kModes) {
    out.push_back({absl::StrCat("s2d.ir_layer.", mode), "SpaceToDepth-1, Example (IR layer)",
                   DepthOpCase(Op::kSpaceToDepth, X({5, 7, 4, 6}), 2, mode)});
    out.push_back({absl::StrCat("d2s.ir_layer.", mode), "DepthToSpace-1, Example (IR layer)",
                   DepthOpCase(Op::kDepthToSpace, X({5, 28, 2, 3}), 2, mode)});
  }
  out.push_back({"eip.ir_layer", "ExtractImagePatches-3, Example (IR layer)",
                 PatchOpCase(X({64, 3, 10, 10}), {3, 3}, {5, 5}, {1, 1}, "valid")});
  // The worked examples: a 10 x 10 image holding 1..100 (row-major), then a 1 x 2 x 5 x 5 one.
  struct Worked {
    Shape shape;
    std::vector<int64_t> sizes, strides, rates;
    const char* pad;
  } const worked[] = {{{1, 1, 10, 10}, {3, 3}, {5, 5}, {1, 1}, "valid"},
                      {{1, 1, 10, 10}, {4, 4}, {8, 8}, {1, 1}, "valid"},
                      {{1, 1, 10, 10}, {4, 4}, {9, 9}, {1, 1}, "same_upper"},
                      {{1, 1, 10, 10}, {3, 3}, {5, 5}, {2, 2}, "valid"},
                      {{1, 2, 5, 5}, {2, 2}, {3, 3}, {1, 1}, "valid"}};
  int n = 0;
  for (const Worked& w : worked) {
    ++n;
    out.push_back({absl::StrCat("eip.example", n),
                   absl::StrCat("ExtractImagePatches-3, Examples, example ", n),
                   PatchOpCase(X(w.shape), w.sizes, w.strides, w.rates, w.pad)});
  }
  return out;
}

std::vector<RulePair> RulePairs(int rank) {
  std::vector<RulePair> out;
  auto pair = [&](std::string rule, OpCase negative, OpCase twin) {
    out.push_back({std::move(rule), std::move(negative), std::move(twin)});
  };
  const Op s2b = Op::kSpaceToBatch, b2s = Op::kBatchToSpace;
  const ElementType f32 = ElementType::kF32;
  // At a given rank, every pair of the block ops is its 2-D pair with dims of 3 appended to
  // the data, 1s to block_shape and 0s to pads or crops (the 2-D pairs: rank 0).
  const int extra = rank > 2 ? rank - 2 : 0;
  auto D = [&](Shape s) {  // data
    s.insert(s.end(), static_cast<size_t>(extra), 3);
    return X(std::move(s));
  };
  auto V = [&](std::vector<int64_t> v, int64_t fill) {  // block_shape, pads, crops
    v.insert(v.end(), static_cast<size_t>(extra), fill);
    return v;
  };
  auto B = [&](Op op, Shape s, std::vector<int64_t> block, std::vector<int64_t> begin,
               std::vector<int64_t> end, ElementType it = ElementType::kI64) {
    return BlockOpCase(op, D(std::move(s)), V(std::move(block), 1), V(std::move(begin), 0),
                       V(std::move(end), 0), it);
  };
  // Each "inputs.shape" negative has one input of length N + 1; its twin, at its own rank
  // (rank 0), data of rank N + 1; at a given rank, data of rank N with inputs of length N.
  auto shape_twin = [&](Op op, Shape s) {
    if (rank == 0) {
      s.push_back(1);
      return BlockOpCase(op, X(s), {1, 2, 1}, {0, 0, 0}, {0, 0, 0});
    }
    return B(op, s, {1, 2}, {0, 0}, {0, 0});
  };
  // data.rank is broken only below rank 2: not at a given rank of 2 or more.
  const bool block_rank_breakable = rank < 2;
  // The pairs both block ops share, on the op's valid base `s` with block [1, 2].
  auto data_rank = [&](Op op, Shape s) {
    if (!block_rank_breakable) return;
    pair(absl::StrCat(OpPrefix(op), ".data.rank"), BlockOpCase(op, X({4}), {2}, {0}, {0}),
         BlockOpCase(op, X(s), {1, 2}, {0, 0}, {0, 0}));
  };
  auto shape_and_positive = [&](Op op, Shape s) {
    const std::string p(OpPrefix(op));
    pair(p + ".inputs.shape",
         BlockOpCase(op, D(s), V({1, 2, 1}, 1), V({0, 0, 0}, 0), V({0, 0, 0}, 0)),
         shape_twin(op, s));
    pair(p + ".block_shape.positive", B(op, s, {1, 0}, {0, 0}, {0, 0}),
         B(op, s, {1, 1}, {0, 0}, {0, 0}));
  };
  auto batch_pairs = [&](Op op, Shape s, const char* begin, const char* end) {
    const std::string p(OpPrefix(op));
    pair(p + ".block_shape.batch_one", B(op, s, {2, 2}, {0, 0}, {0, 0}),
         B(op, s, {1, 2}, {0, 0}, {0, 0}));
    pair(absl::StrCat(p, ".", begin, ".batch_zero"), B(op, s, {1, 2}, {1, 0}, {0, 0}),
         B(op, s, {1, 2}, {0, 0}, {0, 0}));
    pair(absl::StrCat(p, ".", end, ".batch_zero"), B(op, s, {1, 2}, {0, 0}, {1, 0}),
         B(op, s, {1, 2}, {0, 0}, {0, 0}));
  };
  // SpaceToBatch: valid base [1, 4] block [1, 2].
  data_rank(s2b, {1, 4});
  {
    OpCase neg = B(s2b, {1, 4}, {1, 2}, {0, 0}, {0, 0});
    std::vector<uint64_t> bits = {0x3F800000, 0x40000000};  // f32 [1, 2, 1, ...]
    bits.insert(bits.end(), static_cast<size_t>(extra), 0x3F800000);
    neg.int_inputs[0] = Bits1D(f32, bits);
    pair("s2b.inputs.integer_type", std::move(neg), B(s2b, {1, 4}, {1, 2}, {0, 0}, {0, 0}));
  }
  shape_and_positive(s2b, {1, 4});
  if (rank == 0) {
    pair("s2b.pads_begin.nonnegative", B(s2b, {1, 4}, {1, 2}, {0, -1}, {0, 1}),
         B(s2b, {1, 4}, {1, 2}, {0, 1}, {0, 1}));
    pair("s2b.pads_end.nonnegative", B(s2b, {1, 4}, {1, 2}, {0, 1}, {0, -1}),
         B(s2b, {1, 4}, {1, 2}, {0, 1}, {0, 1}));
  } else {
    // A pad of -2 on a dim of 4 with block 2: read as 0, or added as it is, the padded dim
    // still divides by the block, so only the sign check refuses it (the 2-D pair's -1 beside
    // +1 is refused for divisibility by a backend that reads -1 as 0).
    pair("s2b.pads_begin.nonnegative", B(s2b, {1, 4}, {1, 2}, {0, -2}, {0, 0}),
         B(s2b, {1, 4}, {1, 2}, {0, 2}, {0, 0}));
    pair("s2b.pads_end.nonnegative", B(s2b, {1, 4}, {1, 2}, {0, 0}, {0, -2}),
         B(s2b, {1, 4}, {1, 2}, {0, 0}, {0, 2}));
  }
  pair("s2b.block_shape.divides", B(s2b, {1, 3}, {1, 2}, {0, 0}, {0, 0}),
       B(s2b, {1, 3}, {1, 2}, {0, 1}, {0, 0}));
  pair("s2b.output.representable", B(s2b, {1, 2}, {1, 1}, {0, 0}, {0, INT64_MAX - 1}),
       B(s2b, {1, 2}, {1, 1}, {0, 0}, {0, 2}));
  batch_pairs(s2b, {1, 4}, "pads_begin", "pads_end");
  // BatchToSpace: valid base [4, 1] block [1, 2].
  data_rank(b2s, {4, 1});
  {
    OpCase neg = B(b2s, {4, 1}, {1, 2}, {0, 0}, {0, 0});
    for (Tensor& t : neg.int_inputs) {
      std::vector<uint64_t> bits;
      for (int64_t i = 0; i < t.shape[0]; ++i) {
        const uint64_t v = t.GetBits(i);
        bits.push_back(v == 0 ? 0u : v == 1 ? 0x3F800000u : 0x40000000u);  // as f32
      }
      t = Bits1D(f32, bits);
    }
    pair("b2s.inputs.integer_type", std::move(neg), B(b2s, {4, 1}, {1, 2}, {0, 0}, {0, 0}));
  }
  {
    OpCase neg = B(b2s, {4, 1}, {1, 2}, {0, 0}, {0, 0});
    neg.int_inputs[1] = IntegerInput(ElementType::kI32, V({0, 0}, 0));
    pair("b2s.inputs.same_type", std::move(neg),
         B(b2s, {4, 1}, {1, 2}, {0, 0}, {0, 0}, ElementType::kI32));
  }
  shape_and_positive(b2s, {4, 1});
  pair("b2s.crops_begin.nonnegative", B(b2s, {4, 2}, {1, 2}, {0, -1}, {0, 1}),
       B(b2s, {4, 2}, {1, 2}, {0, 1}, {0, 1}));
  pair("b2s.crops_end.nonnegative", B(b2s, {4, 2}, {1, 2}, {0, 1}, {0, -1}),
       B(b2s, {4, 2}, {1, 2}, {0, 1}, {0, 1}));
  pair("b2s.batch.divisible", B(b2s, {3, 1}, {1, 2}, {0, 0}, {0, 0}),
       B(b2s, {4, 1}, {1, 2}, {0, 0}, {0, 0}));
  pair("b2s.crops.fit", B(b2s, {4, 1}, {1, 2}, {0, 2}, {0, 1}),
       B(b2s, {4, 1}, {1, 2}, {0, 1}, {0, 1}));
  pair("b2s.output.representable", B(b2s, {0, 4}, {1, kHuge}, {0, 0}, {0, 0}),
       B(b2s, {0, 4}, {1, 2}, {0, 0}, {0, 0}));
  batch_pairs(b2s, {4, 1}, "crops_begin", "crops_end");
  // The depth ops and ExtractImagePatches have their pairs at rank 4 (data.rank's aside):
  // other ranks add none.
  if (rank != 0 && rank != 4) return out;
  // SpaceToDepth / DepthToSpace: valid bases [1, 2, 4, 4] and [1, 8, 2, 2], block 2.
  for (Op op : {Op::kSpaceToDepth, Op::kDepthToSpace}) {
    const bool s2d = op == Op::kSpaceToDepth;
    const std::string p(OpPrefix(op));
    const Shape base = s2d ? Shape{1, 2, 4, 4} : Shape{1, 8, 2, 2};
    auto ok = [&] { return DepthOpCase(op, X(base), 2, "blocks_first"); };
    if (rank == 0) {
      pair(p + ".data.rank", DepthOpCase(op, X(s2d ? Shape{2, 4} : Shape{4, 2}), 2, "blocks_first"),
           DepthOpCase(op, X({2, 4, 2}), 2, "blocks_first"));
    }
    pair(p + ".block_size.positive", DepthOpCase(op, X(base), 0, "blocks_first"), ok());
    pair(p + ".mode.required", DepthOpCase(op, X(base), 2, std::nullopt), ok());
    pair(p + ".mode.enum", DepthOpCase(op, X(base), 2, "DCR"), ok());
    pair(p + ".block_size.divides",
         DepthOpCase(op, X(s2d ? Shape{1, 2, 3, 4} : Shape{1, 6, 2, 2}), 2, "depth_first"),
         DepthOpCase(op, X(base), 2, "depth_first"));
    pair(p + ".output.representable",
         DepthOpCase(op, X(s2d ? Shape{0, kHuge, 2, 2} : Shape{0, 4, kHuge, 2}), 2, "blocks_first"),
         DepthOpCase(op, X(s2d ? Shape{0, 2, 2, 2} : Shape{0, 4, 2, 2}), 2, "blocks_first"));
  }
  // ExtractImagePatches: valid base [1, 1, 5, 5], sizes 2, strides 1, rates 1, valid.
  auto eip = [&](std::vector<int64_t> sizes, std::vector<int64_t> strides,
                 std::vector<int64_t> rates, std::optional<std::string> pad,
                 Shape s = {1, 1, 5, 5}) {
    return PatchOpCase(X(s), std::move(sizes), std::move(strides), std::move(rates),
                       std::move(pad));
  };
  const std::vector<int64_t> two = {2, 2}, one = {1, 1};
  if (rank == 0) {
    pair("eip.data.rank", eip(two, one, one, "valid", {1, 5, 5}), eip(two, one, one, "valid"));
  }
  pair("eip.sizes.length", eip({2}, one, one, "valid"), eip(two, one, one, "valid"));
  pair("eip.strides.length", eip(two, {1, 1, 1}, one, "valid"), eip(two, one, one, "valid"));
  pair("eip.rates.length", eip(two, one, {}, "valid"), eip(two, one, one, "valid"));
  pair("eip.sizes.nonnegative", eip({-1, 2}, one, one, "valid"), eip({1, 2}, one, one, "valid"));
  pair("eip.strides.positive", eip(two, {0, 1}, one, "valid"), eip(two, one, one, "valid"));
  pair("eip.rates.positive", eip(two, one, {1, 0}, "valid"), eip(two, one, one, "valid"));
  pair("eip.auto_pad.required", eip(two, one, one, std::nullopt), eip(two, one, one, "valid"));
  pair("eip.auto_pad.enum", eip(two, one, one, "SAME_UPPER"), eip(two, one, one, "same_upper"));
  pair("eip.output.representable", eip({int64_t{1} << 32, int64_t{1} << 32}, one, one, "valid"),
       eip({5, 5}, one, one, "valid"));
  pair("eip.sizes.zero", eip({0, 2}, one, one, "valid"), eip({1, 2}, one, one, "valid"));
  return out;
}

}  // namespace dmconf
