#include "harness/gen/fills.h"

#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "harness/base/float_codec.h"
#include "harness/gen/chooser.h"

namespace dmconf {
namespace {

uint64_t WidthMask(ElementType t) {
  const int w = BitWidth(t);
  return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
}

// The 4- and 8-bit float formats: the code of each positive integer value they hold, read
// once with the one decoder (FloatValue), so a fill does not search 256 codes per element.
const std::map<int64_t, uint64_t>& SmallFloatIntegers(ElementType t) {
  static const auto* tables = [] {
    auto* out = new std::array<std::map<int64_t, uint64_t>, 256>();
    for (ElementType s : AllElementTypes()) {
      if (!IsFloatEncoded(s) || BitWidth(s) > 8) continue;
      for (uint64_t code = 0; code <= WidthMask(s); ++code) {
        const std::optional<double> v = FloatValue(s, code);
        if (v && std::isfinite(*v) && *v >= 1 && *v == std::floor(*v) && *v < 0x1p62) {
          (*out)[static_cast<size_t>(s)].emplace(static_cast<int64_t>(*v), code);
        }
      }
    }
    return out;
  }();
  return (*tables)[static_cast<size_t>(t)];
}

// PositionalBits(t, 0, v) for every v in [0, 2^16) of a float type at most 16 bits wide, made
// once per type on first use (its code per element otherwise takes a conversion or a map
// look-up: about 5% of a run's time). 128 KiB per type.
constexpr int64_t kTableSize = int64_t{1} << 16;
const std::vector<uint16_t>& NarrowCodes(ElementType t) {
  static std::array<std::once_flag, 256> once;
  static std::array<std::vector<uint16_t>, 256> tables;
  const size_t k = static_cast<size_t>(t);
  std::call_once(once[k], [&] {
    tables[k].resize(kTableSize);
    for (int64_t v = 0; v < kTableSize; ++v) {
      tables[k][static_cast<size_t>(v)] = static_cast<uint16_t>(PositionalBits(t, 0, v));
    }
  });
  return tables[k];
}

// Calls put(i, code) for i in [0, n), code the bits of the float F holding first + i (exactly:
// the caller keeps first + i within F's exact integers).
template <typename F, typename Code, typename Put>
void PutFloatCodes(int64_t first, int64_t n, const Put& put) {
  static_assert(sizeof(F) == sizeof(Code));
  for (int64_t i = 0; i < n; ++i) {
    const F f = static_cast<F>(first + i);
    Code code;
    std::memcpy(&code, &f, sizeof code);
    put(i, code);
  }
}

}  // namespace

uint64_t PositionalBits(ElementType t, int64_t first, int64_t i) {
  const int64_t v = first + i;
  if (t == ElementType::kBoolean) {
    return static_cast<uint64_t>(__builtin_parityll(static_cast<unsigned long long>(v)));
  }
  if (IsFloatEncoded(t) && v >= 0) {
    if (BitWidth(t) <= 8) {
      const std::map<int64_t, uint64_t>& codes = SmallFloatIntegers(t);
      if (v == 0) return 0;
      const auto it = codes.find(v);
      if (it != codes.end()) return it->second;
    } else if (std::optional<uint64_t> bits = ExactFloatBits(t, static_cast<double>(v))) {
      return *bits;
    }
  }
  return static_cast<uint64_t>(v) & WidthMask(t);
}

void FillPositional(Tensor& t, int64_t first) {
  const int64_t n = t.NumElements();
  // Element i's code: from the table of a narrow float type while first + i lies in it.
  const bool narrow =
      IsFloatEncoded(t.type) && BitWidth(t.type) <= 16 && first >= 0 && first <= kTableSize - n;
  const std::vector<uint16_t>* codes = narrow ? &NarrowCodes(t.type) : nullptr;
  const auto code_of = [&](int64_t i) -> uint64_t {
    return codes != nullptr ? (*codes)[static_cast<size_t>(first + i)]
                            : PositionalBits(t.type, first, i);
  };
  if (PackingOf(t.type) != Packing::kBytes ||
      t.bytes.size() != static_cast<size_t>(n) * static_cast<size_t>(BitWidth(t.type) / 8)) {
    for (int64_t i = 0; i < n; ++i) t.SetBits(i, code_of(i));
    return;
  }
  // Whole bytes per element: each element's code written little-endian, as SetBits writes it,
  // without SetBits' per-element dispatch on the packing (a sweep fills millions of elements).
  const size_t w = static_cast<size_t>(BitWidth(t.type) / 8);
  uint8_t* out = t.bytes.data();
  const auto put = [&](int64_t i, uint64_t code) {
    for (size_t k = 0; k < w; ++k) out[static_cast<size_t>(i) * w + k] = uint8_t(code >> (8 * k));
  };
  const bool integer = !IsFloatEncoded(t.type) && t.type != ElementType::kBoolean;
  if (integer) {
    // PositionalBits of an integer type: the value, wrapped to the width.
    const uint64_t mask = WidthMask(t.type);
    for (int64_t i = 0; i < n; ++i) put(i, static_cast<uint64_t>(first + i) & mask);
  } else if (t.type == ElementType::kF32 && first >= 0 && first <= (int64_t{1} << 24) - n) {
    PutFloatCodes<float, uint32_t>(first, n, put);  // every integer up to 2^24 is an f32
  } else if (t.type == ElementType::kF64 && first >= 0 && first <= (int64_t{1} << 53) - n) {
    PutFloatCodes<double, uint64_t>(first, n, put);  // every integer up to 2^53 is an f64
  } else {
    for (int64_t i = 0; i < n; ++i) put(i, code_of(i));
  }
}

Tensor PositionalTensor(ElementType t, const Shape& shape) {
  absl::StatusOr<Tensor> x = Tensor::Zeros(t, shape);
  if (!x.ok()) return Tensor{t, shape, {}};
  FillPositional(*x);
  return *std::move(x);
}

std::vector<uint64_t> SpecialBits(ElementType t) {
  switch (t) {
    case ElementType::kF32:
      return {0x7FC00000, 0x7FC00001, 0xFFC12345, 0x7F800001, 0x7FA00000, 0x7F800000,
              0xFF800000, 0x80000000, 0x00000001, 0x807FFFFF, 0x7F7FFFFF, 0x00800000,
              0x3F800000, 0xC0400000, 0x3EAAAAAB, 0x00000000};
    case ElementType::kF64:
      return {0x7FF8000000000000, 0x7FF8000000000001, 0xFFF0000000000001, 0x7FF4000000000000,
              0x7FF0000000000000, 0xFFF0000000000000, 0x8000000000000000, 0x0000000000000001,
              0x800FFFFFFFFFFFFF, 0x7FEFFFFFFFFFFFFF, 0x0010000000000000, 0x3FF0000000000000,
              0xC059000000000000, 0x3FB999999999999A, 0x4340000000000001, 0x0000000000000000};
    case ElementType::kF16:
      return {0x7E00, 0x7E01, 0xFE7F, 0x7C01, 0x7D00, 0x7C00, 0xFC00, 0x8000,
              0x0001, 0x83FF, 0x7BFF, 0x0400, 0x3C00, 0xC200, 0x3555, 0x0000};
    case ElementType::kBf16:
      return {0x7FC0, 0x7FC1, 0xFFC5, 0x7F81, 0x7FA0, 0x7F80, 0xFF80, 0x8000,
              0x0001, 0x807F, 0x7F7F, 0x0080, 0x3F80, 0xC040, 0x3EAB, 0x0000};
    case ElementType::kF8e4m3:  // no infinities; S.1111.111 is NaN
      return {0x7F, 0xFF, 0x80, 0x01, 0x87, 0x7E, 0xFE, 0x08, 0x38, 0xC4, 0x00, 0x37};
    case ElementType::kF8e5m2:
      return {0x7E, 0x7F, 0xFD, 0x7D, 0x7C, 0xFC, 0x80, 0x01, 0x83, 0x7B, 0x3C, 0x00};
    case ElementType::kF8e8m0:
      return {0xFF, 0x00, 0x7F, 0xFE, 0x80, 0x01};
    case ElementType::kF4e2m1:
      return {0x8, 0x1, 0x9, 0x7, 0xF, 0x2, 0x0, 0x3};
    case ElementType::kBoolean:
    case ElementType::kNf4:
      return {};
    default: {  // the integer types
      const uint64_t all = WidthMask(t);
      if (IsSignedIntegerType(t)) {
        const uint64_t min = uint64_t{1} << (BitWidth(t) - 1);
        return {min, all >> 1, all, 0, 1, min | 1, (all >> 1) - 1};
      }
      return {all, 0, 1, all - 1, all >> 1, (all >> 1) + 1};
    }
  }
}

void FillSpecial(Tensor& t, uint64_t seed) {
  std::vector<uint64_t> bits = SpecialBits(t.type);
  if (bits.empty()) return;
  // Fisher-Yates from the back; the draw is SplitMix64's output modulo the range.
  SeededChooser ch(seed);
  for (size_t i = bits.size(); i > 1; --i) std::swap(bits[i - 1], bits[ch.Next() % i]);
  const int64_t n = t.NumElements();
  for (int64_t i = 0; i < n; ++i) t.SetBits(i, bits[static_cast<size_t>(i) % bits.size()]);
}

Tensor SpecialTensor(ElementType t, const Shape& shape, uint64_t seed) {
  absl::StatusOr<Tensor> x = Tensor::Zeros(t, shape);
  if (!x.ok()) return Tensor{t, shape, {}};
  FillSpecial(*x, seed);
  return *std::move(x);
}

}  // namespace dmconf
