#include "harness/gen/boundary_shapes.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "oracle/case_factory.h"
#include "oracle/partial/partial_infer.h"

namespace dmconf {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();  // 2^63 - 1
constexpr int64_t k2p16 = int64_t{1} << 16;
constexpr int64_t k2p31 = int64_t{1} << 31;
constexpr int64_t k2p32 = int64_t{1} << 32;
constexpr int64_t k2p60 = int64_t{1} << 60;
constexpr int64_t k2p61 = int64_t{1} << 61;
constexpr int64_t k2p62 = int64_t{1} << 62;
// 2^53 + 1, the smallest integer a double does not hold, and (2^27 + 1)^2 = 2^54 + 2^28 + 1,
// which a double rounds to 2^54 + 2^28.
constexpr int64_t k2p53p1 = (int64_t{1} << 53) + 1;
constexpr int64_t kOdd27 = (int64_t{1} << 27) + 1;
constexpr int64_t kOdd27Squared = kOdd27 * kOdd27;
// (2^63 - 2) / 3: 3 * kThird = 2^63 - 2, so 3 * (kThird + 1) = 2^63 + 1.
constexpr int64_t kThird = 3074457345618258602;

using Ints = std::vector<int64_t>;

std::string Dims(const Ints& v) { return absl::StrJoin(v, "x"); }

// f32 data of `shape` without bytes: a shape-only case (dims up to 2^63-1).
Tensor NoData(const Shape& shape) {
  Tensor t;
  t.type = ElementType::kF32;
  t.shape = shape;
  return t;
}

class Table {
 public:
  // SpaceToBatch / BatchToSpace: block_shape and the two pads / crops inputs (i64).
  void Blocks(Op op, const Shape& data, const Ints& block, const Ints& begin, const Ints& end,
              const char* rule, bool breaks) {
    Add(BlockOpCase(op, NoData(data), block, begin, end), rule, breaks,
        absl::StrCat(Dims(data), ".B", Dims(block), op == Op::kSpaceToBatch ? ".p" : ".c",
                     Dims(begin), "+", Dims(end)));
  }
  // SpaceToDepth / DepthToSpace; block_size nullopt: absent (the spec default 1).
  void Depth(Op op, const Shape& data, std::optional<int64_t> block_size, const char* rule,
             bool breaks) {
    Add(DepthOpCase(op, NoData(data), block_size, "blocks_first"), rule, breaks,
        absl::StrCat(Dims(data), block_size ? absl::StrCat(".b", *block_size) : ".b_absent"));
  }
  // ExtractImagePatches, auto_pad valid.
  void Patches(const Shape& data, const Ints& sizes, const Ints& strides, const Ints& rates,
               const char* rule, bool breaks) {
    Add(PatchOpCase(NoData(data), sizes, strides, rates, "valid"), rule, breaks,
        absl::StrCat(Dims(data), ".k", Dims(sizes), ".s", Dims(strides), ".r", Dims(rates)));
  }
  // The cases added from now on are about a product that wraps modulo 2^64 (BoundaryCase::wraps).
  void Wrapping(bool on) { wrapping_ = on; }
  std::vector<BoundaryCase> cases;

 private:
  void Add(OpCase c, const char* rule, bool breaks, std::string values) {
    cases.push_back({std::move(c), rule, breaks, std::move(values), wrapping_});
  }
  bool wrapping_ = false;
};

constexpr bool kBreaks = true;
constexpr bool kHolds = false;

void SpaceToBatchPairs(Table& t) {
  const Op op = Op::kSpaceToBatch;
  // "block_shape[i] divides data_shape[i] + pads_begin[i] + pads_end[i]": one short of a
  // multiple, beside the multiple.
  t.Blocks(op, {1, 6, 5}, {1, 3, 2}, {0, 0, 0}, {0, 0, 0}, "s2b.block_shape.divides", kBreaks);
  t.Blocks(op, {1, 6, 5}, {1, 3, 2}, {0, 0, 0}, {0, 0, 1}, "s2b.block_shape.divides", kHolds);
  t.Blocks(op, {2, 4, 5, 3}, {1, 2, 4, 3}, {0, 0, 0, 0}, {0, 0, 0, 0}, "s2b.block_shape.divides",
           kBreaks);
  t.Blocks(op, {2, 4, 4, 3}, {1, 2, 4, 3}, {0, 0, 0, 0}, {0, 0, 0, 0}, "s2b.block_shape.divides",
           kHolds);
  t.Blocks(op, {1, 7}, {1, 8}, {0, 0}, {0, 0}, "s2b.block_shape.divides", kBreaks);
  t.Blocks(op, {1, 7}, {1, 8}, {0, 1}, {0, 0}, "s2b.block_shape.divides", kHolds);
  // The output batch batch * prod(block_shape): 2^63 - 1 exactly, 2^63, and products that
  // wrap modulo 2^64 to a small value (2^64 + 4, 2^64 + 8, 2^64 + 2, 2^64).
  t.Blocks(op, {1, 1}, {1, kMax}, {0, 0}, {0, kMax - 1}, "s2b.output.representable", kHolds);
  t.Blocks(op, {3, 1}, {1, kThird}, {0, 0}, {0, kThird - 1}, "s2b.output.representable", kHolds);
  t.Blocks(op, {2, 1}, {1, k2p62}, {0, 0}, {0, k2p62 - 1}, "s2b.output.representable", kBreaks);
  t.Blocks(op, {3, 1}, {1, kThird + 1}, {0, 0}, {0, kThird}, "s2b.output.representable", kBreaks);
  t.Wrapping(true);
  t.Blocks(op, {k2p62 + 1, 1}, {1, 4}, {0, 0}, {0, 3}, "s2b.output.representable", kBreaks);
  t.Blocks(op, {k2p61 + 1, 1}, {1, 8}, {0, 0}, {0, 7}, "s2b.output.representable", kBreaks);
  t.Blocks(op, {6, 1}, {1, kThird + 1}, {0, 0}, {0, kThird}, "s2b.output.representable", kBreaks);
  t.Blocks(op, {k2p32, 1, 1}, {1, k2p16, k2p16}, {0, 0, 0}, {0, k2p16 - 1, k2p16 - 1},
           "s2b.output.representable", kBreaks);
  t.Wrapping(false);
  // The padded dim D + pads_begin + pads_end: 2^63 - 1, and 2^63.
  t.Blocks(op, {1, k2p62}, {1, 1}, {0, k2p62 - 1}, {0, 0}, "s2b.output.representable", kHolds);
  t.Blocks(op, {1, k2p62}, {1, 1}, {0, k2p62}, {0, 0}, "s2b.output.representable", kBreaks);
  // The smallest values: -1 and 0, 0 and 1.
  t.Blocks(op, {1, 4}, {1, 2}, {0, -1}, {0, 1}, "s2b.pads_begin.nonnegative", kBreaks);
  t.Blocks(op, {1, 4}, {1, 2}, {0, 0}, {0, -2}, "s2b.pads_end.nonnegative", kBreaks);
  t.Blocks(op, {1, 4}, {1, 2}, {0, 0}, {0, 0}, "s2b.pads_begin.nonnegative", kHolds);
  t.Blocks(op, {1, 4}, {1, 0}, {0, 0}, {0, 0}, "s2b.block_shape.positive", kBreaks);
  t.Blocks(op, {1, 4}, {1, 1}, {0, 0}, {0, 0}, "s2b.block_shape.positive", kHolds);
}

void BatchToSpacePairs(Table& t) {
  const Op op = Op::kBatchToSpace;
  // "batch is divisible by prod(block_shape)": divisible by every B_i but not by the product.
  t.Blocks(op, {4, 2, 2}, {1, 2, 4}, {0, 0, 0}, {0, 0, 0}, "b2s.batch.divisible", kBreaks);
  t.Blocks(op, {8, 2, 2}, {1, 2, 4}, {0, 0, 0}, {0, 0, 0}, "b2s.batch.divisible", kHolds);
  t.Blocks(op, {7, 1}, {1, 8}, {0, 0}, {0, 0}, "b2s.batch.divisible", kBreaks);
  t.Blocks(op, {8, 1}, {1, 8}, {0, 0}, {0, 0}, "b2s.batch.divisible", kHolds);
  // "crops_begin[i] + crops_end[i] <= block_shape[i] * D_i": D * B + 1 beside D * B, at ranks
  // 2 to 5, on one axis or two, and near 2^63.
  t.Blocks(op, {2, 2, 3}, {1, 2, 1}, {0, 3, 0}, {0, 2, 0}, "b2s.crops.fit", kBreaks);
  t.Blocks(op, {2, 2, 3}, {1, 2, 1}, {0, 3, 0}, {0, 1, 0}, "b2s.crops.fit", kHolds);
  t.Blocks(op, {1, 5}, {1, 1}, {0, 6}, {0, 0}, "b2s.crops.fit", kBreaks);
  t.Blocks(op, {1, 5}, {1, 1}, {0, 0}, {0, 5}, "b2s.crops.fit", kHolds);
  t.Blocks(op, {3, 2, 1, 4}, {1, 1, 3, 1}, {0, 0, 2, 0}, {0, 0, 2, 0}, "b2s.crops.fit", kBreaks);
  t.Blocks(op, {2, 3, 3, 3, 3}, {1, 1, 1, 2, 1}, {0, 0, 0, 4, 0}, {0, 0, 0, 3, 0}, "b2s.crops.fit",
           kBreaks);
  t.Blocks(op, {1, 3, 2}, {1, 1, 1}, {0, 2, 1}, {0, 2, 2}, "b2s.crops.fit", kBreaks);
  t.Blocks(op, {2, k2p62 - 1}, {1, 2}, {0, k2p62}, {0, k2p62 - 1}, "b2s.crops.fit", kBreaks);
  t.Blocks(op, {2, k2p62 - 1}, {1, 2}, {0, k2p62}, {0, k2p62 - 2}, "b2s.crops.fit", kHolds);
  // "D_i * B_i representable": 2^63 - 2 beside 2^63 (no data elements: batch dims 0).
  t.Blocks(op, {2, k2p62, 0}, {1, 2, 1}, {0, 0, 0}, {0, 0, 0}, "b2s.output.representable", kBreaks);
  t.Blocks(op, {2, k2p62 - 1, 0}, {1, 2, 1}, {0, 0, 0}, {0, 0, 0}, "b2s.output.representable",
           kHolds);
  // The smallest values.
  t.Blocks(op, {2, 2}, {1, 2}, {0, -1}, {0, 0}, "b2s.crops_begin.nonnegative", kBreaks);
  t.Blocks(op, {2, 2}, {1, 2}, {0, 0}, {0, -1}, "b2s.crops_end.nonnegative", kBreaks);
  t.Blocks(op, {2, 2}, {1, 2}, {0, 0}, {0, 0}, "b2s.crops_begin.nonnegative", kHolds);
  t.Blocks(op, {2, 2}, {1, 0}, {0, 0}, {0, 0}, "b2s.block_shape.positive", kBreaks);
}

void SpaceToDepthPairs(Table& t) {
  const Op op = Op::kSpaceToDepth;
  // "The spatial dimensions must be evenly divided by block_size".
  t.Depth(op, {1, 2, 6, 5}, 2, "s2d.block_size.divides", kBreaks);
  t.Depth(op, {1, 2, 6, 4}, 2, "s2d.block_size.divides", kHolds);
  t.Depth(op, {1, 1, 9, 4}, 3, "s2d.block_size.divides", kBreaks);
  t.Depth(op, {1, 1, 7}, 8, "s2d.block_size.divides", kBreaks);
  t.Depth(op, {1, 1, 8}, 8, "s2d.block_size.divides", kHolds);
  // C * block_size^K: 2^63 - 2 beside 2^63, and products wrapping modulo 2^64 (2^64 + 4,
  // 2^64 + 16, 2^64, 3 * 2^64); batch 0, so the data has no elements.
  t.Depth(op, {0, k2p62 - 1, 2}, 2, "s2d.output.representable", kHolds);
  t.Depth(op, {0, k2p62, 2}, 2, "s2d.output.representable", kBreaks);
  t.Wrapping(true);
  t.Depth(op, {0, k2p62 + 1, 4}, 4, "s2d.output.representable", kBreaks);
  t.Depth(op, {0, k2p60 + 1, 16}, 16, "s2d.output.representable", kBreaks);
  t.Depth(op, {0, 1, k2p16, k2p16, k2p16, k2p16}, k2p16, "s2d.output.representable", kBreaks);
  t.Depth(op, {0, 3, k2p32, k2p32}, k2p32, "s2d.output.representable", kBreaks);
  t.Wrapping(false);
  // The smallest block_size, and the absent one (the default 1) at ranks 3 to 6.
  t.Depth(op, {1, 1, 2, 2}, 0, "s2d.block_size.positive", kBreaks);
  t.Depth(op, {1, 1, 2, 2}, 1, "s2d.block_size.positive", kHolds);
  t.Depth(op, {1, 3, 5}, std::nullopt, "s2d.block_size.positive", kHolds);
  t.Depth(op, {1, 2, 3, 5}, std::nullopt, "s2d.block_size.positive", kHolds);
  t.Depth(op, {2, 1, 1, 3, 1, 1}, std::nullopt, "s2d.block_size.positive", kHolds);
}

void DepthToSpacePairs(Table& t) {
  const Op op = Op::kDepthToSpace;
  // "The depth dimension size must be evenly divided by block_size ^ (len(input.shape) - 2)":
  // depths divisible by block_size and not by block_size^K, beside block_size^K.
  t.Depth(op, {1, 4, 2, 2}, 2, "d2s.block_size.divides", kHolds);
  t.Depth(op, {1, 2, 2, 2}, 2, "d2s.block_size.divides", kBreaks);
  t.Depth(op, {1, 6, 1, 1}, 2, "d2s.block_size.divides", kBreaks);
  t.Depth(op, {1, 8, 1, 1, 1}, 2, "d2s.block_size.divides", kHolds);
  t.Depth(op, {1, 4, 1, 1, 1}, 2, "d2s.block_size.divides", kBreaks);
  t.Depth(op, {1, 10, 3}, 3, "d2s.block_size.divides", kBreaks);
  t.Depth(op, {1, k2p31, 1, 1}, k2p16, "d2s.block_size.divides", kBreaks);
  t.Depth(op, {1, k2p32, 1, 1}, k2p16, "d2s.block_size.divides", kHolds);
  // D_i * block_size: 2^63 - 2 beside 2^63 (batch 0).
  t.Depth(op, {0, 2, k2p62 - 1}, 2, "d2s.output.representable", kHolds);
  t.Depth(op, {0, 2, k2p62}, 2, "d2s.output.representable", kBreaks);
  t.Depth(op, {0, 4, 1, k2p61}, 2, "d2s.output.representable", kHolds);
  t.Depth(op, {0, 4, 1, k2p62}, 2, "d2s.output.representable", kBreaks);
  // The smallest block_size, and the absent one (the default 1) at ranks 3 to 6.
  t.Depth(op, {1, 4, 2, 2}, 0, "d2s.block_size.positive", kBreaks);
  t.Depth(op, {1, 4, 2, 2}, std::nullopt, "d2s.block_size.positive", kHolds);
  t.Depth(op, {1, 1, 3}, std::nullopt, "d2s.block_size.positive", kHolds);
  t.Depth(op, {1, 8, 1, 1, 1}, std::nullopt, "d2s.block_size.positive", kHolds);
  t.Depth(op, {1, 3, 2, 2, 2, 2}, std::nullopt, "d2s.block_size.positive", kHolds);
  t.Depth(op, {2, 5, 1, 1}, std::nullopt, "d2s.block_size.positive", kHolds);
}

void ExtractImagePatchesPairs(Table& t) {
  const char* rep = "eip.output.representable";
  // patch_sizes_eff = rate * (size - 1) + 1: 2^63 - 1 exactly beside 2^63 and 2^63 + 1, on
  // each axis; the patch is larger than the 1 x 1 image (valid: an empty output).
  t.Patches({1, 1, 1, 1}, {k2p62, 1}, {1, 1}, {2, 1}, rep, kHolds);
  t.Patches({1, 1, 1, 1}, {k2p62 + 1, 1}, {1, 1}, {2, 1}, rep, kBreaks);
  t.Patches({1, 1, 1, 1}, {1, k2p62 + 1}, {1, 1}, {1, 2}, rep, kBreaks);
  t.Patches({1, 1, 1, 1}, {kThird + 1, 1}, {1, 1}, {3, 1}, rep, kHolds);
  t.Patches({1, 1, 1, 1}, {kThird + 2, 1}, {1, 1}, {3, 1}, rep, kBreaks);
  t.Patches({1, 1, 1, 1}, {k2p32 + 1, 1}, {1, 1}, {k2p31, 1}, rep, kBreaks);
  t.Patches({1, 1, 1, 1}, {3, 1}, {1, 1}, {k2p62, 1}, rep, kBreaks);
  t.Patches({1, 1, 1, 1}, {1, 2}, {1, 1}, {1, kMax}, rep, kBreaks);
  // size_rows * size_cols * depth: 2^62 beside 2^63.
  t.Patches({1, 1, 1, 1}, {k2p31, k2p31}, {1, 1}, {1, 1}, rep, kHolds);
  t.Patches({1, 2, 1, 1}, {k2p31, k2p31}, {1, 1}, {1, 1}, rep, kBreaks);
  t.Patches({1, 1, 1, 1}, {k2p32, k2p31}, {1, 1}, {1, 1}, rep, kBreaks);
  // The smallest values.
  t.Patches({1, 1, 4, 4}, {2, 2}, {0, 1}, {1, 1}, "eip.strides.positive", kBreaks);
  t.Patches({1, 1, 4, 4}, {2, 2}, {1, 1}, {1, 0}, "eip.rates.positive", kBreaks);
  t.Patches({1, 1, 4, 4}, {-1, 2}, {1, 1}, {1, 1}, "eip.sizes.nonnegative", kBreaks);
  t.Patches({1, 1, 4, 4}, {1, 1}, {1, 1}, {1, 1}, "eip.sizes.nonnegative", kHolds);
}

// Values above 2^53 that a double does not hold (a product or quotient formed in floating
// point is off by one or more there), and output element counts of exactly 2^63.
void PrecisionAndCountPairs(Table& t) {
  const Op s2b = Op::kSpaceToBatch, b2s = Op::kBatchToSpace;
  const Op s2d = Op::kSpaceToDepth, d2s = Op::kDepthToSpace;
  // block_size^K = (2^27 + 1)^2 divides C = (2^27 + 1)^2; it does not divide 2^54 + 2^28.
  t.Depth(d2s, {1, kOdd27Squared, 1, 1}, kOdd27, "d2s.block_size.divides", kHolds);
  t.Depth(d2s, {1, kOdd27Squared - 1, 1, 1}, kOdd27, "d2s.block_size.divides", kBreaks);
  t.Depth(d2s, {0, 3, k2p53p1}, 3, "d2s.output.representable", kHolds);  // D * b = 3 * 2^53 + 3
  t.Depth(s2d, {0, k2p53p1, 3}, 3, "s2d.output.representable", kHolds);  // C * b = 3 * 2^53 + 3
  t.Depth(s2d, {0, kOdd27, kOdd27}, kOdd27, "s2d.output.representable", kHolds);
  // SpaceToBatch: an odd batch product above 2^53; a padded dim 2^53 + 1 that 3 divides, beside
  // 2^53 + 2 that it does not.
  t.Blocks(s2b, {k2p53p1, 3}, {1, 3}, {0, 0}, {0, 0}, "s2b.output.representable", kHolds);
  t.Blocks(s2b, {1, k2p53p1}, {1, 3}, {0, 0}, {0, 0}, "s2b.block_shape.divides", kHolds);
  t.Blocks(s2b, {1, k2p53p1}, {1, 3}, {0, 0}, {0, 1}, "s2b.block_shape.divides", kBreaks);
  // BatchToSpace: batch 3 * (2^53 + 1), divisible by 3, beside 3 * (2^53 + 1) + 1.
  t.Blocks(b2s, {3 * k2p53p1, 1}, {1, 3}, {0, 0}, {0, 0}, "b2s.batch.divisible", kHolds);
  t.Blocks(b2s, {3 * k2p53p1 + 1, 1}, {1, 3}, {0, 0}, {0, 0}, "b2s.batch.divisible", kBreaks);
  // ExtractImagePatches: size_rows * size_cols * depth = 3 * (2^26 + 1)^2, odd, above 2^53.
  const int64_t odd26 = (int64_t{1} << 26) + 1;
  t.Patches({1, 3, 1, 1}, {odd26, odd26}, {1, 1}, {1, 1}, "eip.output.representable", kHolds);
  // The output's element count: exactly 2^63 (every dim fits) beside 2^63 - 2^32.
  t.Patches({1, 1, k2p31 + 1, k2p31}, {2, 1}, {1, 1}, {1, 1}, "eip.output.representable", kBreaks);
  t.Patches({1, 1, k2p31, k2p31}, {2, 1}, {1, 1}, {1, 1}, "eip.output.representable", kHolds);
  const int64_t k2p30 = int64_t{1} << 30;
  t.Patches({2, 1, k2p30 + 1, k2p31}, {2, 1}, {1, 1}, {1, 1}, "eip.output.representable", kBreaks);
  t.Patches({1, 1, k2p32, k2p30 + 1}, {1, 2}, {1, 1}, {1, 1}, "eip.output.representable", kBreaks);
  t.Patches({4, 1, k2p30 + 1, k2p30}, {2, 1}, {1, 1}, {1, 1}, "eip.output.representable", kBreaks);
  t.Blocks(s2b, {1, k2p61, 1}, {1, 1, 1}, {0, 0, 0}, {0, k2p61, 1}, "s2b.output.representable",
           kBreaks);
  t.Blocks(s2b, {1, k2p61, 1}, {1, 1, 1}, {0, 0, 0}, {0, k2p61 - 1, 1}, "s2b.output.representable",
           kHolds);
}

// Products of at least 2^64 that are 0 modulo 2^64 although every single value fits: the class
// of the TensorFlow shape-overflow CVEs. A shape inference that wraps answers a small shape
// (false_accept), or divides by a wrapped 0.
void WrapToZeroPairs(Table& t) {
  const Op s2b = Op::kSpaceToBatch, s2d = Op::kSpaceToDepth;
  const int64_t k2p21 = int64_t{1} << 21, k2p33 = int64_t{1} << 33;
  const char* s2b_rep = "s2b.output.representable";
  t.Wrapping(true);
  // SpaceToBatch: batch * B_2 * B_3 = 2^64, 5 * 2^62 * 4 = 5 * 2^64, 3 * 2^33 * 2^31 = 3 * 2^64;
  // each padded dim 1 + (B_i - 1) is divisible by B_i, so only the batch product breaks a rule.
  t.Blocks(s2b, {1, 1, 1, 1}, {1, 1, k2p32, k2p32}, {0, 0, 0, 0}, {0, 0, k2p32 - 1, k2p32 - 1},
           s2b_rep, kBreaks);
  t.Blocks(s2b, {5, 1, 1, 1}, {1, 1, k2p62, 4}, {0, 0, 0, 0}, {0, 0, k2p62 - 1, 3}, s2b_rep,
           kBreaks);
  t.Blocks(s2b, {3, 1, 1, 1}, {1, 1, k2p33, k2p31}, {0, 0, 0, 0}, {0, 0, k2p33 - 1, k2p31 - 1},
           s2b_rep, kBreaks);
  // BatchToSpace: prod(block_shape) = 2^64: "batch % 0" in wrapping code.
  t.Blocks(Op::kBatchToSpace, {1, 1, 1, 1}, {1, 1, k2p32, k2p32}, {0, 0, 0, 0}, {0, 0, 0, 0},
           "b2s.output.representable", kBreaks);
  // DepthToSpace: block_size^K = (2^32)^2 = 2^64: "depth % 0"; no depth of 1 is divisible by it.
  t.Depth(Op::kDepthToSpace, {1, 1, 1, 1}, k2p32, "d2s.block_size.divides", kBreaks);
  // SpaceToDepth: depth * block_size^K = 2^32 * 2^32 = 2^64, 4 * (2^31)^2 = 2^64 (block_size^K
  // itself fits) and 2 * (2^21)^3 = 2^64 (5-D); the spatial dims are divisible by block_size
  // and the data has no elements (batch 0).
  t.Depth(s2d, {0, 1, k2p32, k2p32}, k2p32, "s2d.output.representable", kBreaks);
  t.Depth(s2d, {0, 4, k2p31, k2p31}, k2p31, "s2d.output.representable", kBreaks);
  t.Depth(s2d, {0, 2, k2p21, k2p21, k2p21}, k2p21, "s2d.output.representable", kBreaks);
  // ExtractImagePatches: size_rows * size_cols * depth = 2^32 * 2^32 * 1 = 2^64; the patch is
  // larger than the 1 x 1 image (valid: out_rows = out_cols = 0).
  t.Patches({1, 1, 1, 1}, {k2p32, k2p32}, {1, 1}, {1, 1}, "eip.output.representable", kBreaks);
  t.Wrapping(false);
}

// The data rank one below the smallest (one above the largest) allowed, beside it; integer
// inputs one longer or shorter than the rank.
void RankPairs(Table& t) {
  const Op s2b = Op::kSpaceToBatch, b2s = Op::kBatchToSpace;
  t.Blocks(s2b, {4}, {1}, {0}, {0}, "s2b.data.rank", kBreaks);
  t.Blocks(s2b, {1, 4}, {1, 2}, {0, 0}, {0, 0}, "s2b.data.rank", kHolds);
  t.Blocks(s2b, {1, 4}, {1, 2, 1}, {0, 0, 0}, {0, 0, 0}, "s2b.inputs.shape", kBreaks);
  t.Blocks(s2b, {1, 4}, {1, 2}, {0, 0}, {0, 0, 0}, "s2b.inputs.shape", kBreaks);
  t.Blocks(s2b, {1, 4, 4}, {1, 2, 2}, {0, 0, 0}, {0, 0, 0}, "s2b.inputs.shape", kHolds);
  t.Blocks(b2s, {4}, {1}, {0}, {0}, "b2s.data.rank", kBreaks);
  t.Blocks(b2s, {2, 4}, {1, 2}, {0, 0}, {0, 0}, "b2s.data.rank", kHolds);
  t.Blocks(b2s, {2, 4}, {2}, {0, 0}, {0, 0}, "b2s.inputs.shape", kBreaks);
  t.Blocks(b2s, {2, 4}, {1, 2}, {0, 0, 0}, {0, 0}, "b2s.inputs.shape", kBreaks);
  t.Blocks(b2s, {4, 4, 4}, {1, 2, 2}, {0, 0, 0}, {0, 0, 0}, "b2s.inputs.shape", kHolds);
  for (const Op op : {Op::kSpaceToDepth, Op::kDepthToSpace}) {
    const char* rank = op == Op::kSpaceToDepth ? "s2d.data.rank" : "d2s.data.rank";
    t.Depth(op, {1, 4}, 1, rank, kBreaks);
    t.Depth(op, {1, 4, 2}, 1, rank, kHolds);
  }
  t.Patches({1, 1, 4}, {1, 1}, {1, 1}, {1, 1}, "eip.data.rank", kBreaks);
  t.Patches({1, 1, 4, 4, 1}, {1, 1}, {1, 1}, {1, 1}, "eip.data.rank", kBreaks);
  t.Patches({1, 1, 4, 4}, {1, 1}, {1, 1}, {1, 1}, "eip.data.rank", kHolds);
}

Dim Down(int64_t d) { return Dim::Range(d > 0 ? d - 1 : 0, d); }
Dim Up(int64_t d) { return Dim::Range(d, d < kMax ? d + 1 : d); }

// The forms of one pair member (see the header), before the oracle reads them.
std::vector<std::pair<const char*, PartialCase>> Forms(const OpCase& c) {
  std::vector<std::pair<const char*, PartialCase>> out;
  const PartialCase s = PartialCase::FromStatic(c);
  out.emplace_back("static", s);
  struct Widening {
    const char* form;
    Dim (*of)(int64_t d);
  };
  for (const Widening& w :
       {Widening{"down", Down}, Widening{"up", Up}, Widening{"unbounded", Dim::AtLeast}}) {
    PartialCase p = s;
    for (size_t i = 0; i < c.data.shape.size(); ++i) (*p.data.dims)[i] = w.of(c.data.shape[i]);
    out.emplace_back(w.form, std::move(p));
  }
  PartialCase r = s;
  r.data = PartialShape::DynamicRank();
  out.emplace_back("rank_unknown", std::move(r));
  if (!c.int_inputs.empty()) {
    PartialCase n = s;
    for (size_t k = 0; k < 3; ++k) {
      n.int_shapes[k] = PartialShape::Static(n.int_inputs[k]->shape);
      n.int_inputs[k].reset();
    }
    out.emplace_back("inputs_unknown", std::move(n));
  }
  return out;
}

}  // namespace

const std::vector<BoundaryCase>& BoundaryCases() {
  static const std::vector<BoundaryCase>* cases = [] {
    Table t;
    SpaceToBatchPairs(t);
    BatchToSpacePairs(t);
    SpaceToDepthPairs(t);
    DepthToSpacePairs(t);
    ExtractImagePatchesPairs(t);
    PrecisionAndCountPairs(t);
    WrapToZeroPairs(t);
    RankPairs(t);
    return new std::vector<BoundaryCase>(std::move(t.cases));
  }();
  return *cases;
}

std::vector<ShapeCase> BoundaryShapeCases() {
  std::vector<ShapeCase> out;
  const std::vector<BoundaryCase>& cases = BoundaryCases();
  for (size_t i = 0; i < cases.size(); ++i) {
    const BoundaryCase& b = cases[i];
    for (auto& [form, p] : Forms(b.c)) {
      if (!InferPartialShape(p).ok()) continue;  // a form the oracle cannot read
      ShapeCase s;
      s.id = absl::StrCat("shape-boundary/", b.rule, "/", b.breaks ? "breaks." : "holds.", b.values,
                          ".", form);
      s.origin = absl::StrCat("curated boundary case ", i, " (", form, ")");
      s.c = std::move(p);
      out.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace dmconf
