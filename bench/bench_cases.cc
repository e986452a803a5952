#include "bench/bench_cases.h"

#include <cstring>

namespace dmconf::bench {
namespace {

// A 64 MiB f32 tensor whose element i holds the bits of i (any pattern would do: the oracle
// only moves bits; this one makes a wrong permutation visible in a debugger).
Tensor Pattern(Shape shape) {
  Tensor t = *Tensor::Zeros(ElementType::kF32, std::move(shape));
  const int64_t n = t.NumElements();
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t v = static_cast<uint32_t>(i);
    std::memcpy(t.bytes.data() + i * 4, &v, 4);
  }
  return t;
}

OpCase Depth(Op op, Shape shape, const char* mode) {
  OpCase c;
  c.op = op;
  c.data = Pattern(std::move(shape));
  c.block_size = 2;
  c.mode = mode;
  return c;
}

OpCase Block(Op op, Shape shape) {
  OpCase c;
  c.op = op;
  c.data = Pattern(std::move(shape));
  c.int_inputs = {*MakeIntegerTensor(ElementType::kI64, {1, 2, 2, 1}),
                  *MakeIntegerTensor(ElementType::kI64, {0, 0, 0, 0}),
                  *MakeIntegerTensor(ElementType::kI64, {0, 0, 0, 0})};
  return c;
}

}  // namespace

std::vector<BenchCase> MakeBenchCases() {
  std::vector<BenchCase> cases;
  cases.push_back(
      {"DepthToSpace/blocks_first", Depth(Op::kDepthToSpace, {1, 64, 512, 512}, "blocks_first")});
  cases.push_back(
      {"DepthToSpace/depth_first", Depth(Op::kDepthToSpace, {1, 64, 512, 512}, "depth_first")});
  cases.push_back(
      {"SpaceToDepth/blocks_first", Depth(Op::kSpaceToDepth, {1, 16, 1024, 1024}, "blocks_first")});
  cases.push_back(
      {"SpaceToDepth/depth_first", Depth(Op::kSpaceToDepth, {1, 16, 1024, 1024}, "depth_first")});
  cases.push_back({"SpaceToBatch", Block(Op::kSpaceToBatch, {4, 256, 256, 64})});
  cases.push_back({"BatchToSpace", Block(Op::kBatchToSpace, {16, 128, 128, 64})});
  OpCase eip;
  eip.op = Op::kExtractImagePatches;
  eip.data = Pattern({1, 16, 512, 512});
  eip.sizes = {3, 3};
  eip.strides = {1, 1};
  eip.rates = {1, 1};
  eip.auto_pad = "valid";
  cases.push_back({"ExtractImagePatches", std::move(eip)});
  return cases;
}

}  // namespace dmconf::bench
