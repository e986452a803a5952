// Choices shared by the per-op builders, and BuildValidCase's dispatch.
#include <algorithm>

#include "absl/status/statusor.h"
#include "harness/gen/builders_internal.h"

namespace dmconf {
namespace gen_internal {

int64_t Count(Chooser& ch, int64_t lo, int64_t hi) {
  switch (ch.Weighted({6, 3, 1})) {
    case 0:
      return ch.Int(lo, std::min(hi, lo + 2));
    case 1:
      return ch.Int(lo, std::min(hi, lo + 7));
    default:
      return ch.Int(lo, hi);
  }
}

int64_t Dim(Chooser& ch, const BuildOptions& o, int64_t cap) {
  cap = AtLeast1(cap);
  if (o.zero_size && ch.Weighted({12, 1}) == 1) return 0;
  return Count(ch, 1, cap);
}

int64_t Batch(Chooser& ch, const BuildOptions& o, int64_t cap) {
  cap = AtLeast1(cap);
  switch (ch.Weighted({6, 3, 1})) {
    case 0:
      return 1;
    case 1:
      return std::min(cap, ch.Int(2, 3));
    default:
      return o.zero_size ? 0 : 1;
  }
}

int64_t Channels(Chooser& ch, const BuildOptions& o, int64_t cap) {
  cap = AtLeast1(cap);
  int64_t c;
  switch (ch.Weighted({5, 2, 2, 1})) {
    case 0:
      c = ch.Int(1, 3);
      break;
    case 1:
      c = ch.Int(7, 9);
      break;
    case 2:
      c = ch.Int(15, 17);
      break;
    default:
      return o.zero_size ? 0 : 1;
  }
  return std::min(c, cap);
}

int64_t Block(Chooser& ch, int64_t cap) {
  cap = AtLeast1(cap);
  switch (ch.Weighted({4, 4, 2})) {
    case 0:
      return 1;
    case 1:
      return ch.Int(std::min<int64_t>(2, cap), std::min<int64_t>(4, cap));
    default:
      return cap >= 5 ? Count(ch, 5, cap) : cap;
  }
}

std::pair<int64_t, int64_t> Pads(Chooser& ch, const BuildOptions& o, int64_t total) {
  // A non-empty dim keeps one element unless zero-sized dims are allowed.
  const int64_t room = (o.zero_size || total == 0) ? total : total - 1;
  switch (ch.Weighted({3, 2, 2, 2})) {
    case 0:
      return {0, 0};
    case 1:
      if (room < 1) return {0, 0};
      return {Count(ch, 1, room), 0};
    case 2:
      if (room < 1) return {0, 0};
      return {0, Count(ch, 1, room)};
    default: {
      if (room < 2) return {0, 0};
      const int64_t b = Count(ch, 1, room - 1);
      return {b, Count(ch, 1, room - b)};
    }
  }
}

int Rank(Chooser& ch, const BuildOptions& o, int lo, int hi) {
  const int a = std::clamp(o.min_rank == 0 ? lo : o.min_rank, lo, hi);
  const int b = std::clamp(o.max_rank == 0 ? hi : o.max_rank, a, hi);
  return static_cast<int>(ch.Int(a, b));
}

ElementType DataType(Chooser& ch, const BuildOptions& o) {
  if (!o.data_types.empty()) return ch.Pick<ElementType>(o.data_types);
  // f32 first (the simplest answer), then every other type in table order.
  static const std::vector<ElementType> kOrder = [] {
    std::vector<ElementType> v = {ElementType::kF32};
    for (ElementType t : AllElementTypes()) {
      if (t != ElementType::kF32) v.push_back(t);
    }
    return v;
  }();
  return ch.Pick<ElementType>(kOrder);
}

ElementType IntType(Chooser& ch) {
  static const std::vector<ElementType> kInts = {
      ElementType::kI64, ElementType::kI32, ElementType::kU8,  ElementType::kI8, ElementType::kU16,
      ElementType::kI16, ElementType::kU32, ElementType::kU64, ElementType::kU4, ElementType::kI4,
      ElementType::kU1,  ElementType::kU2,  ElementType::kU3,  ElementType::kU6};
  // Mostly i64 / i32 (what models use), sometimes any integer type.
  switch (ch.Weighted({5, 3, 2})) {
    case 0:
      return ElementType::kI64;
    case 1:
      return ElementType::kI32;
    default:
      return ch.Pick<ElementType>(kInts);
  }
}

Tensor IntTensor(ElementType t, const std::vector<int64_t>& values) {
  absl::StatusOr<Tensor> x = MakeIntegerTensor(t, values);
  if (x.ok()) return *std::move(x);
  return *MakeIntegerTensor(ElementType::kI64, values);
}

std::string Mode(Chooser& ch, const BuildOptions& o, const std::vector<std::string>& all) {
  std::vector<std::string> allowed;
  for (const std::string& m : all) {
    if (std::find(o.modes.begin(), o.modes.end(), m) != o.modes.end()) allowed.push_back(m);
  }
  if (allowed.empty()) allowed = all;
  return ch.Pick<std::string>(allowed);
}

Tensor Data(const BuildOptions& o, ElementType t, const Shape& shape) {
  if (!o.with_data) return Tensor{t, shape, {}};
  if (o.positional) return PositionalTensor(t, shape);
  absl::StatusOr<Tensor> zeros = Tensor::Zeros(t, shape);  // PositionalTensor's bytes, unfilled
  return zeros.ok() ? *std::move(zeros) : Tensor{t, shape, {}};
}

}  // namespace gen_internal

OpCase BuildValidCase(Chooser& ch, Op op, const BuildOptions& o) {
  OpCase c;
  switch (op) {
    case Op::kSpaceToBatch:
      c = gen_internal::BuildSpaceToBatch(ch, o);
      break;
    case Op::kBatchToSpace:
      c = gen_internal::BuildBatchToSpace(ch, o);
      break;
    case Op::kSpaceToDepth:
      c = gen_internal::BuildSpaceToDepth(ch, o);
      break;
    case Op::kDepthToSpace:
      c = gen_internal::BuildDepthToSpace(ch, o);
      break;
    case Op::kExtractImagePatches:
      c = gen_internal::BuildExtractImagePatches(ch, o);
      break;
  }
  c.origin = "gen:valid";
  return c;
}

}  // namespace dmconf
