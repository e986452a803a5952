#include "harness/shrink/shrink_common.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

namespace dmconf::shrink_internal {

int64_t SatAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return b > 0 ? kMax : std::numeric_limits<int64_t>::min();
  return r;
}

int64_t Abs(int64_t v) { return v == std::numeric_limits<int64_t>::min() ? kMax : std::abs(v); }

std::vector<int64_t> Reductions(int64_t v, int64_t floor, int64_t step) {
  std::vector<int64_t> out;
  for (int64_t x : {floor, int64_t{1}, v / 2, v - 1, step > 0 ? v - step : int64_t{-1}}) {
    if (x >= floor && x < v && std::find(out.begin(), out.end(), x) == out.end()) {
      out.push_back(x);
    }
  }
  return out;
}

std::optional<int64_t> Power(int64_t b, int64_t k) {
  int64_t p = 1;
  for (int64_t i = 0; i < k; ++i) {
    if (b != 0 && p > kMax / b) return std::nullopt;
    p *= b;
  }
  return p;
}

std::vector<int64_t> Ints(const Tensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(t.GetInteger(i).value_or(0));
  return v;
}

int TypeOrder(ElementType t) {
  switch (t) {
    case ElementType::kU8:
      return 0;
    case ElementType::kI32:
      return 1;
    case ElementType::kF32:
      return 2;
    default:
      return 3;
  }
}

// Element count of a shape; nullopt when not representable.
std::optional<int64_t> Count(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) {
    if (d < 0 || (d != 0 && n > kMax / d)) return std::nullopt;
    n *= d;
  }
  return n;
}

// `c` with data of `shape`: two candidates, its elements the current data's first ones and its
// last ones (cycled), so that an element that matters survives wherever it sits (a signalling
// NaN at the end of positional f8 data). None when the new shape is not representable or holds
// more elements than the current data (never allocate more than the failing case already had).
std::vector<OpCase> WithShape(const OpCase& c, const Shape& shape) {
  const std::optional<int64_t> n = Count(shape);
  const int64_t have = c.data.NumElements();
  if (!n || *n > have || shape == c.data.shape) return {};
  std::vector<OpCase> out;
  std::vector<int64_t> offsets = {0};
  if (*n > 0 && have > *n) offsets.push_back(have - *n);
  for (const int64_t offset : offsets) {
    absl::StatusOr<Tensor> t = Tensor::Zeros(c.data.type, shape);
    if (!t.ok()) return {};
    for (int64_t i = 0; i < *n; ++i) t->SetBits(i, c.data.GetBits((offset + i) % have));
    OpCase x = c;
    x.data = *std::move(t);
    out.push_back(std::move(x));
  }
  return out;
}

// `c` with integer input k replaced by `v` in its own element type (nullopt if it cannot hold it).
std::optional<OpCase> WithInts(OpCase c, size_t k, const std::vector<int64_t>& v) {
  absl::StatusOr<Tensor> t = MakeIntegerTensor(c.int_inputs[k].type, v);
  if (!t.ok()) return std::nullopt;
  c.int_inputs[k] = *std::move(t);
  return c;
}

int64_t DivisibilityStep(Op op, size_t rank, size_t k,
                         const std::optional<std::vector<int64_t>>& block_shape,
                         std::optional<int64_t> block_size) {
  if (BlockOp(op)) {
    if (!block_shape || block_shape->size() != rank) return 0;
    if (op == Op::kSpaceToBatch) return (*block_shape)[k];
    if (k != 0) return 0;
    int64_t p = 1;
    for (int64_t x : *block_shape) {
      if (x <= 0 || p > kMax / x) return 0;
      p *= x;
    }
    return p;
  }
  if (DepthOp(op)) {
    const int64_t b = block_size.value_or(1);
    if (op == Op::kSpaceToDepth) return k >= 2 ? b : 0;
    if (k == 1 && rank >= 2) return Power(b, static_cast<int64_t>(rank) - 2).value_or(0);
  }
  return 0;
}

int64_t Step(const OpCase& c, size_t k) {
  std::optional<std::vector<int64_t>> block;
  if (!c.int_inputs.empty()) block = Ints(c.int_inputs[0]);
  return DivisibilityStep(c.op, c.data.shape.size(), k, block, c.block_size);
}

std::vector<OpAttributes> SmallerPatchAttributes(const OpAttributes& a) {
  std::vector<OpAttributes> out;
  for (auto field : {&OpAttributes::sizes, &OpAttributes::strides, &OpAttributes::rates}) {
    const std::vector<int64_t>& v = a.*field;
    for (size_t i = 0; i < v.size(); ++i) {
      for (int64_t x : Reductions(v[i], 1)) {
        OpAttributes y = a;
        (y.*field)[i] = x;
        out.push_back(std::move(y));
      }
    }
  }
  if (a.auto_pad && *a.auto_pad != "valid") {
    OpAttributes y = a;
    y.auto_pad = "valid";
    out.push_back(std::move(y));
  }
  return out;
}

int64_t AttributesWeight(const OpAttributes& a) {
  int64_t w = Abs(a.block_size.value_or(0));
  for (const std::vector<int64_t>* v : {&a.sizes, &a.strides, &a.rates}) {
    for (int64_t x : *v) w = SatAdd(w, Abs(x));
  }
  if (a.auto_pad && *a.auto_pad != "valid") w = SatAdd(w, 1);
  return w;
}

}  // namespace dmconf::shrink_internal
