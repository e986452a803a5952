#include "conformance/oracle/case_builders.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace dmconf::testing {

uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

Tensor Pattern(ElementType t, const Shape& shape, uint64_t salt) {
  return *MakeTensor(t, shape, [salt](int64_t i) { return Mix(static_cast<uint64_t>(i) + salt); });
}

Tensor Positions(const Shape& shape) {
  return *MakeTensor(ElementType::kI64, shape, [](int64_t i) { return i + 1; });
}

Tensor IntegerBits(ElementType t, const std::vector<uint64_t>& bits) {
  Tensor out = *Tensor::Zeros(t, {static_cast<int64_t>(bits.size())});
  for (size_t i = 0; i < bits.size(); ++i) out.SetBits(static_cast<int64_t>(i), bits[i]);
  return out;
}

OpCase BlockCase(Op op, Tensor data, const std::vector<int64_t>& block,
                 const std::vector<int64_t>& begin, const std::vector<int64_t>& end,
                 ElementType int_type) {
  OpCase c;
  c.op = op;
  c.data = std::move(data);
  for (const auto* v : {&block, &begin, &end}) {
    std::vector<uint64_t> bits(v->begin(), v->end());
    c.int_inputs.push_back(IntegerBits(int_type, bits));
  }
  return c;
}

OpCase DepthCase(Op op, Tensor data, std::optional<int64_t> block_size,
                 std::optional<std::string> mode) {
  OpCase c;
  c.op = op;
  c.data = std::move(data);
  c.block_size = block_size;
  c.mode = std::move(mode);
  return c;
}

OpCase PatchCase(Tensor data, std::vector<int64_t> sizes, std::vector<int64_t> strides,
                 std::vector<int64_t> rates, std::optional<std::string> auto_pad) {
  OpCase c;
  c.op = Op::kExtractImagePatches;
  c.data = std::move(data);
  c.sizes = std::move(sizes);
  c.strides = std::move(strides);
  c.rates = std::move(rates);
  c.auto_pad = std::move(auto_pad);
  return c;
}

Gen::Gen(uint64_t seed) : state_(seed) {}

int64_t Gen::In(int64_t lo, int64_t hi) {
  state_ = Mix(state_);
  return lo + static_cast<int64_t>(state_ % static_cast<uint64_t>(hi - lo + 1));
}

std::string Describe(const OpCase& c) {
  return absl::StrCat(OpName(c.op), " ", ElementTypeName(c.data.type), ShapeToString(c.data.shape),
                      " ", AttributesToString(c));
}

std::vector<ElementType> OnePerWidth() {
  return {ElementType::kU1,  ElementType::kU2,  ElementType::kU3,
          ElementType::kI4,  ElementType::kU6,  ElementType::kU8,
          ElementType::kF16, ElementType::kF32, ElementType::kI64};
}

}  // namespace dmconf::testing
