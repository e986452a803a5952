#include "harness/base/float_bits.h"

namespace dmconf {
namespace {

struct Format {
  int exp_bits = 0;
  int mant_bits = 0;
};

// IEEE-style layouts (sign, exponent, mantissa) of the types that have NaN payloads.
Format IeeeFormat(ElementType t) {
  switch (t) {
    case ElementType::kF16:
      return {5, 10};
    case ElementType::kBf16:
      return {8, 7};
    case ElementType::kF32:
      return {8, 23};
    case ElementType::kF64:
      return {11, 52};
    case ElementType::kF8e5m2:
      return {5, 2};
    default:
      return {};
  }
}

}  // namespace

bool IsFloatType(ElementType t) {
  switch (t) {
    case ElementType::kF16:
    case ElementType::kBf16:
    case ElementType::kF32:
    case ElementType::kF64:
    case ElementType::kF8e5m2:
    case ElementType::kF8e4m3:
    case ElementType::kF8e8m0:
    case ElementType::kF4e2m1:
    case ElementType::kNf4:
      return true;
    default:
      return false;
  }
}

bool IsNaNBits(ElementType t, uint64_t bits) {
  if (t == ElementType::kF8e4m3) return (bits & 0x7f) == 0x7f;
  if (t == ElementType::kF8e8m0) return bits == 0xff;
  const Format f = IeeeFormat(t);
  if (f.exp_bits == 0) return false;
  const uint64_t mant_mask = (uint64_t{1} << f.mant_bits) - 1;
  const uint64_t exp_mask = ((uint64_t{1} << f.exp_bits) - 1) << f.mant_bits;
  return (bits & exp_mask) == exp_mask && (bits & mant_mask) != 0;
}

uint64_t SignBit(ElementType t) {
  if (!IsFloatType(t) || t == ElementType::kF8e8m0 || t == ElementType::kNf4) return 0;
  return uint64_t{1} << (BitWidth(t) - 1);
}

uint64_t QuietBit(ElementType t) {
  const Format f = IeeeFormat(t);
  if (f.exp_bits == 0) return 0;
  return uint64_t{1} << (f.mant_bits - 1);
}

}  // namespace dmconf
