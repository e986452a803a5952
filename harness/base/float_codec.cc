#include "harness/base/float_codec.h"

#include <cmath>
#include <cstring>

namespace dmconf {
namespace {

uint64_t Mask(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

double HalfValue(uint64_t h) {
  const int exp = static_cast<int>((h >> 10) & 0x1F);
  const int man = static_cast<int>(h & 0x3FF);
  double v;
  if (exp == 0) {
    v = std::ldexp(man, -24);
  } else if (exp == 31) {
    v = man ? NAN : INFINITY;
  } else {
    v = std::ldexp(man + 1024, exp - 25);
  }
  return (h >> 15) & 1 ? -v : v;
}

// f16 bits of v when f16 holds v exactly.
std::optional<uint64_t> ExactHalf(double v) {
  const uint64_t sign = std::signbit(v) ? 0x8000 : 0;
  const double a = std::fabs(v);
  if (a == 0) return sign;
  int e;
  const double m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  const int unbiased = e - 1;          // a = (2m) * 2^unbiased
  if (unbiased > 15) return std::nullopt;
  double frac;
  uint64_t exp_field;
  if (unbiased >= -14) {
    frac = std::ldexp(2 * m - 1, 10);
    exp_field = static_cast<uint64_t>(unbiased + 15);
  } else {
    frac = std::ldexp(a, 24);  // subnormal: a = frac * 2^-24
    exp_field = 0;
  }
  if (frac != std::floor(frac) || frac >= 1024) return std::nullopt;
  return sign | (exp_field << 10) | static_cast<uint64_t>(frac);
}

}  // namespace

bool IsFloatEncoded(ElementType t) {
  switch (t) {
    case ElementType::kF16:
    case ElementType::kBf16:
    case ElementType::kF32:
    case ElementType::kF64:
    case ElementType::kF8e4m3:
    case ElementType::kF8e5m2:
    case ElementType::kF8e8m0:
    case ElementType::kF4e2m1:
      return true;
    default:
      return false;
  }
}

std::optional<double> FloatValue(ElementType t, uint64_t bits) {
  switch (t) {
    case ElementType::kF16:
      return HalfValue(bits & 0xFFFF);
    case ElementType::kBf16:
    case ElementType::kF32: {
      const uint32_t b = t == ElementType::kBf16 ? static_cast<uint32_t>(bits & 0xFFFF) << 16
                                                 : static_cast<uint32_t>(bits);
      float f;
      std::memcpy(&f, &b, 4);
      return f;
    }
    case ElementType::kF64: {
      double d;
      std::memcpy(&d, &bits, 8);
      return d;
    }
    case ElementType::kF8e4m3: {  // E4M3FN: bias 7, no infinities, S.1111.111 is NaN
      const int exp = static_cast<int>((bits >> 3) & 0xF), man = static_cast<int>(bits & 7);
      double v;
      if (exp == 15 && man == 7) {
        v = NAN;
      } else if (exp == 0) {
        v = std::ldexp(man, -9);
      } else {
        v = std::ldexp(8 + man, exp - 10);
      }
      return (bits >> 7) & 1 ? -v : v;
    }
    case ElementType::kF8e5m2: {  // IEEE-like: bias 15, exponent 31 is inf / NaN
      const int exp = static_cast<int>((bits >> 2) & 0x1F), man = static_cast<int>(bits & 3);
      double v;
      if (exp == 31) {
        v = man ? NAN : INFINITY;
      } else if (exp == 0) {
        v = std::ldexp(man, -16);
      } else {
        v = std::ldexp(4 + man, exp - 17);
      }
      return (bits >> 7) & 1 ? -v : v;
    }
    case ElementType::kF8e8m0: {  // unsigned exponent only: 2^(b - 127); 0xff is NaN
      const int b = static_cast<int>(bits & 0xFF);
      return b == 0xFF ? NAN : std::ldexp(1.0, b - 127);
    }
    case ElementType::kF4e2m1: {  // bias 1, no infinities or NaN
      const int exp = static_cast<int>((bits >> 1) & 3), man = static_cast<int>(bits & 1);
      const double v = exp == 0 ? 0.5 * man : std::ldexp(2 + man, exp - 2);
      return (bits >> 3) & 1 ? -v : v;
    }
    default:
      return std::nullopt;
  }
}

std::optional<uint64_t> ExactFloatBits(ElementType t, double v) {
  switch (t) {
    case ElementType::kF64: {
      uint64_t b;
      std::memcpy(&b, &v, 8);
      return b;
    }
    case ElementType::kF32:
    case ElementType::kBf16: {
      const float f = static_cast<float>(v);
      if (static_cast<double>(f) != v) return std::nullopt;
      uint32_t b;
      std::memcpy(&b, &f, 4);
      if (t == ElementType::kF32) return b;
      if ((b & 0xFFFF) != 0) return std::nullopt;
      return b >> 16;
    }
    case ElementType::kF16:
      return ExactHalf(v);
    default: {
      // 4- and 8-bit formats: search the codes (at most 256).
      const int bits = BitWidth(t);
      for (uint64_t code = 0; code <= Mask(bits); ++code) {
        const std::optional<double> c = FloatValue(t, code);
        if (c && !std::isnan(*c) && *c == v && std::signbit(*c) == std::signbit(v)) return code;
      }
      return std::nullopt;
    }
  }
}

}  // namespace dmconf
