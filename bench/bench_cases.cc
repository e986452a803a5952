#include "bench/bench_cases.h"

#include <cstring>

#include "absl/strings/str_cat.h"

namespace dmconf::bench {
namespace {

// A tensor filled with a position-dependent pattern (any pattern would do: the oracle only
// moves bits). f32: element i holds the bits of i, which makes a wrong permutation visible in
// a debugger; other types: byte k holds k ^ (k >> 8) ^ (k >> 16), every bit pattern occurring.
Tensor Pattern(ElementType t, Shape shape) {
  Tensor x = *Tensor::Zeros(t, std::move(shape));
  if (t == ElementType::kF32) {
    const int64_t n = x.NumElements();
    for (int64_t i = 0; i < n; ++i) {
      const uint32_t v = static_cast<uint32_t>(i);
      std::memcpy(x.bytes.data() + i * 4, &v, 4);
    }
    return x;
  }
  for (size_t k = 0; k < x.bytes.size(); ++k) {
    x.bytes[k] = static_cast<uint8_t>(k ^ (k >> 8) ^ (k >> 16));
  }
  return x;
}

// `shape` with its innermost axis scaled so that the tensor has as many bytes in type t as it
// has in f32.
Shape Scaled(Shape shape, ElementType t) {
  const int bits = BitWidth(t);
  if (bits <= 32) {
    shape.back() *= 32 / bits;
  } else {
    shape.back() /= bits / 32;
  }
  return shape;
}

OpCase Depth(ElementType t, Op op, Shape shape, const char* mode) {
  OpCase c;
  c.op = op;
  c.data = Pattern(t, Scaled(std::move(shape), t));
  c.block_size = 2;
  c.mode = mode;
  return c;
}

OpCase Block(ElementType t, Op op, Shape shape, std::vector<int64_t> begin,
             std::vector<int64_t> end) {
  OpCase c;
  c.op = op;
  c.data = Pattern(t, Scaled(std::move(shape), t));
  c.int_inputs = {*MakeIntegerTensor(ElementType::kI64, {1, 2, 2, 1}),
                  *MakeIntegerTensor(ElementType::kI64, begin),
                  *MakeIntegerTensor(ElementType::kI64, end)};
  return c;
}

OpCase Patches(ElementType t, const char* auto_pad) {
  OpCase c;
  c.op = Op::kExtractImagePatches;
  c.data = Pattern(t, Scaled({1, 16, 512, 512}, t));
  c.sizes = {3, 3};
  c.strides = {1, 1};
  c.rates = {1, 1};
  c.auto_pad = auto_pad;
  return c;
}

void AddCases(ElementType t, const std::string& suffix, std::vector<BenchCase>* cases) {
  const std::vector<int64_t> zero = {0, 0, 0, 0}, one = {0, 1, 1, 0};
  auto add = [&](const char* name, OpCase c) { cases->push_back({name + suffix, std::move(c)}); };
  add("DepthToSpace/blocks_first", Depth(t, Op::kDepthToSpace, {1, 64, 512, 512}, "blocks_first"));
  add("DepthToSpace/depth_first", Depth(t, Op::kDepthToSpace, {1, 64, 512, 512}, "depth_first"));
  add("SpaceToDepth/blocks_first",
      Depth(t, Op::kSpaceToDepth, {1, 16, 1024, 1024}, "blocks_first"));
  add("SpaceToDepth/depth_first", Depth(t, Op::kSpaceToDepth, {1, 16, 1024, 1024}, "depth_first"));
  add("SpaceToBatch", Block(t, Op::kSpaceToBatch, {4, 256, 256, 64}, zero, zero));
  add("SpaceToBatch/pads", Block(t, Op::kSpaceToBatch, {4, 254, 254, 64}, one, one));
  add("BatchToSpace", Block(t, Op::kBatchToSpace, {16, 128, 128, 64}, zero, zero));
  add("BatchToSpace/crops", Block(t, Op::kBatchToSpace, {16, 128, 128, 64}, one, one));
  add("ExtractImagePatches", Patches(t, "valid"));
  add("ExtractImagePatches/same_upper", Patches(t, "same_upper"));
}

}  // namespace

std::vector<BenchCase> MakeBenchCases(const std::vector<ElementType>& widths) {
  std::vector<BenchCase> cases;
  AddCases(ElementType::kF32, "", &cases);
  for (ElementType t : widths) {
    AddCases(t, absl::StrCat("/", ElementTypeName(t)), &cases);
  }
  return cases;
}

std::vector<BenchCase> MakeBenchCases() {
  return MakeBenchCases(
      {ElementType::kU1, ElementType::kU4, ElementType::kU8, ElementType::kF16, ElementType::kF64});
}

}  // namespace dmconf::bench
