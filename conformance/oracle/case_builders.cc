#include "conformance/oracle/case_builders.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "harness/gen/chooser.h"
#include "harness/gen/fills.h"

namespace dmconf::testing {

// harness/gen's SplitMix64 (the one implementation): its first output from state x.
uint64_t Mix(uint64_t x) { return SeededChooser(x).Next(); }

Tensor Pattern(ElementType t, const Shape& shape, uint64_t salt) {
  return *MakeTensor(t, shape, [salt](int64_t i) { return Mix(static_cast<uint64_t>(i) + salt); });
}

Tensor Positions(const Shape& shape) { return PositionalTensor(ElementType::kI64, shape); }

Tensor IntegerBits(ElementType t, const std::vector<uint64_t>& bits) {
  Tensor out = *Tensor::Zeros(t, {static_cast<int64_t>(bits.size())});
  for (size_t i = 0; i < bits.size(); ++i) out.SetBits(static_cast<int64_t>(i), bits[i]);
  return out;
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
