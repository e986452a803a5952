// Test-only helpers for the oracle tests: case builders and data patterns.
//
// Example:
//   OpCase c = BlockCase(Op::kSpaceToBatch, Pattern(ElementType::kF32, {1, 4, 4}),
//                        {1, 2, 2}, {0, 0, 0}, {0, 0, 0});
#ifndef DMCONF_CONFORMANCE_ORACLE_CASE_BUILDERS_H_
#define DMCONF_CONFORMANCE_ORACLE_CASE_BUILDERS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "oracle/case_factory.h"
#include "oracle/op_case.h"
#include "oracle/tensor.h"

namespace dmconf::testing {

// A fixed 64-bit mix (SplitMix64's output for state x, harness/gen/chooser.h): element
// patterns that differ in every bit width.
uint64_t Mix(uint64_t x);

// Element i has bits Mix(i + salt) masked to the type's width.
Tensor Pattern(ElementType t, const Shape& shape, uint64_t salt = 0);

// An i64 tensor whose element i holds i + 1 (0 is left for padding): evaluated through an op,
// it shows which input element every output element came from (harness/gen's positional fill).
Tensor Positions(const Shape& shape);

// 1-D integer tensor from raw bits (values above INT64_MAX for u64 are possible).
Tensor IntegerBits(ElementType t, const std::vector<uint64_t>& bits);

// The shared factories under the names the oracle tests use (oracle/case_factory.h).
inline OpCase BlockCase(Op op, Tensor data, const std::vector<int64_t>& block,
                        const std::vector<int64_t>& begin, const std::vector<int64_t>& end,
                        ElementType int_type = ElementType::kI64) {
  return BlockOpCase(op, std::move(data), block, begin, end, int_type);
}
inline OpCase DepthCase(Op op, Tensor data, std::optional<int64_t> block_size,
                        std::optional<std::string> mode) {
  return DepthOpCase(op, std::move(data), block_size, std::move(mode));
}
inline OpCase PatchCase(Tensor data, std::vector<int64_t> sizes, std::vector<int64_t> strides,
                        std::vector<int64_t> rates, std::optional<std::string> auto_pad) {
  return PatchOpCase(std::move(data), std::move(sizes), std::move(strides), std::move(rates),
                     std::move(auto_pad));
}

// A small deterministic generator (splitmix64 steps; the same sequence on every platform).
class Gen {
 public:
  explicit Gen(uint64_t seed);
  // Uniform-ish in [lo, hi].
  int64_t In(int64_t lo, int64_t hi);

 private:
  uint64_t state_;
};

// "SpaceToBatch f32[2,4] block_shape=[1,2] ..." for failure messages.
std::string Describe(const OpCase& c);

// The element types, one per bit width 1, 2, 3, 4, 6, 8, 16, 32, 64.
std::vector<ElementType> OnePerWidth();

}  // namespace dmconf::testing

#endif  // DMCONF_CONFORMANCE_ORACLE_CASE_BUILDERS_H_
