#include "oracle/primitives/packed_bits.h"

#include <cstring>

namespace dmconf::packed {
namespace {

// A packed stretch as an integer: msb-first bytes are read big-endian (element 0 in the top
// bits), low-first ones little-endian (element 0 in the bottom bits).
template <typename U>
U Load(const uint8_t* p, bool big) {
  U v;
  std::memcpy(&v, p, sizeof(U));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  const bool swap = !big;
#else
  const bool swap = big;
#endif
  if (swap) {
    if constexpr (sizeof(U) == 8) v = __builtin_bswap64(v);
    if constexpr (sizeof(U) == 4) v = __builtin_bswap32(v);
  }
  return v;
}
template <typename U>
void Store(uint8_t* p, U v, bool big) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  const bool swap = !big;
#else
  const bool swap = big;
#endif
  if (swap) {
    if constexpr (sizeof(U) == 8) v = __builtin_bswap64(v);
    if constexpr (sizeof(U) == 4) v = __builtin_bswap32(v);
  }
  std::memcpy(p, &v, sizeof(U));
}

// 16-byte vectors (SSE2 / NEON width; GCC and clang lower the shuffles and lane-wise shifts).
// The word kernels below read and write vectors with memcpy, in the host's byte order: they
// run on little-endian hosts only (elsewhere every element goes one by one).
typedef uint8_t U8x16 __attribute__((vector_size(16)));
typedef uint16_t U16x8 __attribute__((vector_size(16)));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
constexpr bool kLittleEndian = false;
#else
constexpr bool kLittleEndian = true;
#endif

// In every 16-bit lane holding one byte in its low half: group i of B bits moves to group 2i.
template <int B>
U16x8 Spread(U16x8 x) {
  x = (x | x << 4) & 0x0F0F;
  if constexpr (B <= 2) x = (x | x << 2) & 0x3333;
  if constexpr (B == 1) x = (x | x << 1) & 0x5555;
  return x;
}
// The inverse: group 2i moves to group i of the lane's low byte (the odd groups are dropped).
template <int B>
U16x8 Compact(U16x8 x) {
  if constexpr (B == 1) {
    x &= 0x5555;
    x = (x | x >> 1) & 0x3333;
  }
  if constexpr (B == 2) x &= 0x3333;
  if constexpr (B <= 2) x = (x | x >> 2) & 0x0F0F;
  if constexpr (B == 4) x &= 0x0F0F;
  return (x | x >> 4) & 0x00FF;
}
// Swaps the two bytes of every 16-bit lane.
inline U16x8 SwapPairs(U16x8 x) { return (x >> 8) | (x << 8); }

template <typename To, typename From>
To Cast(From v) {
  To t;
  std::memcpy(&t, &v, sizeof(t));
  return t;
}

// Source byte k of a row becomes 16-bit lane k (a zip with zeros), Spread puts its groups on
// the even positions: in low-first order row 0 takes the lower group of each pair. In
// msb-first order a byte pair read as a 16-bit number with its first byte on top is an
// msb-first sequence: row 0 takes the upper group of each pair, then the lane's bytes are
// swapped into memory order. 16 bytes of each row per step, 32 bytes out.
template <int B, bool Msb>
U16x8 Merge(U8x16 a, U8x16 b, bool high) {
  const U8x16 z = {};
  const U8x16 ua =
      high ? __builtin_shufflevector(a, z, 8, 16, 9, 17, 10, 18, 11, 19, 12, 20, 13, 21, 14, 22, 15,
                                     23)
           : __builtin_shufflevector(a, z, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const U8x16 ub =
      high ? __builtin_shufflevector(b, z, 8, 16, 9, 17, 10, 18, 11, 19, 12, 20, 13, 21, 14, 22, 15,
                                     23)
           : __builtin_shufflevector(b, z, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const U16x8 x = Spread<B>(Cast<U16x8>(ua)), y = Spread<B>(Cast<U16x8>(ub));
  return Msb ? SwapPairs((x << B) | y) : x | (y << B);
}
template <int B, bool Msb>
int64_t InterleaveWords(uint8_t* d, const uint8_t* a, const uint8_t* b, int64_t n) {
  constexpr int64_t kStep = 128 / B, kPer = 8 / B;
  int64_t j = 0;
  if (!kLittleEndian) return 0;
  for (; j + kStep <= n; j += kStep) {
    U8x16 va, vb;
    std::memcpy(&va, a + j / kPer, 16);
    std::memcpy(&vb, b + j / kPer, 16);
    const U16x8 lo = Merge<B, Msb>(va, vb, false), hi = Merge<B, Msb>(va, vb, true);
    std::memcpy(d + 2 * j / kPer, &lo, 16);
    std::memcpy(d + 2 * j / kPer + 16, &hi, 16);
  }
  return j;
}
// 16 source bytes per step: the even and the odd elements of each 16-bit lane compacted into
// its low byte, then the low bytes gathered (8 for each destination row).
template <int B, bool Msb>
int64_t DeinterleaveWords(uint8_t* d0, uint8_t* d1, const uint8_t* s, int64_t n) {
  constexpr int64_t kStep = 64 / B, kPer = 8 / B;
  int64_t i = 0;
  if (!kLittleEndian) return 0;
  for (; i + kStep <= n; i += kStep) {
    U16x8 x;
    std::memcpy(&x, s + 2 * i / kPer, 16);
    if (Msb) x = SwapPairs(x);
    const U8x16 even = Cast<U8x16>(Compact<B>(Msb ? x >> B : x));
    const U8x16 odd = Cast<U8x16>(Compact<B>(Msb ? x : x >> B));
    const U8x16 both = __builtin_shufflevector(even, odd, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22,
                                               24, 26, 28, 30);
    std::memcpy(d0 + i / kPer, &both, 8);
    std::memcpy(d1 + i / kPer, reinterpret_cast<const uint8_t*>(&both) + 8, 8);
  }
  return i;
}

// Copies n whole bytes of elements starting at element offset `sbit` bits into src's first
// byte (0 < sbit < 8) to the byte-aligned dst: a funnel shift over 64-bit words. Every source
// byte read holds elements of the range.
void ShiftedBytes(uint8_t* d, const uint8_t* s, int64_t nbytes, int sbit, bool msb) {
  int64_t k = 0;
  if (msb) {
    for (; k + 8 <= nbytes; k += 8) {
      const uint64_t w = Load<uint64_t>(s + k, true);
      Store<uint64_t>(d + k, (w << sbit) | (s[k + 8] >> (8 - sbit)), true);
    }
    for (; k < nbytes; ++k) d[k] = static_cast<uint8_t>((s[k] << sbit) | (s[k + 1] >> (8 - sbit)));
  } else {
    for (; k + 8 <= nbytes; k += 8) {
      const uint64_t w = Load<uint64_t>(s + k, false);
      Store<uint64_t>(d + k, (w >> sbit) | (uint64_t{s[k + 8]} << (64 - sbit)), false);
    }
    for (; k < nbytes; ++k) d[k] = static_cast<uint8_t>((s[k] >> sbit) | (s[k + 1] << (8 - sbit)));
  }
}

}  // namespace

void RunCopy(uint8_t* dst, int64_t doff, const uint8_t* src, int64_t soff, int64_t n, Elem e) {
  const int64_t g = e.per_byte();
  for (; n > 0 && doff % g != 0; ++doff, ++soff, --n) Set(dst, doff, Get(src, soff, e), e);
  const int64_t nbytes = n / g;
  if (nbytes > 0) {
    if (soff % g == 0) {
      std::memcpy(dst + doff / g, src + soff / g, static_cast<size_t>(nbytes));
    } else {
      // Destination byte k takes the elements soff + k * g .. + g - 1: the end of source byte
      // soff / g + k and the start of the next, both inside the range.
      ShiftedBytes(dst + doff / g, src + soff / g, nbytes, static_cast<int>(soff % g) * e.bits,
                   e.msb_first);
    }
  }
  for (int64_t k = nbytes * g; k < n; ++k) Set(dst, doff + k, Get(src, soff + k, e), e);
}

void Zero(uint8_t* dst, int64_t off, int64_t n, Elem e) {
  const int64_t g = e.per_byte();
  for (; n > 0 && off % g != 0; ++off, --n) Set(dst, off, 0, e);
  const int64_t nbytes = n / g;
  if (nbytes > 0) std::memset(dst + off / g, 0, static_cast<size_t>(nbytes));
  for (int64_t k = nbytes * g; k < n; ++k) Set(dst, off + k, 0, e);
}

void Interleave2(uint8_t* dst, int64_t doff, const uint8_t* src, int64_t s0, int64_t s1, int64_t n,
                 Elem e) {
  const int64_t g = e.per_byte();
  int64_t j = 0;
  if (doff % g == 0 && s0 % g == 0 && s1 % g == 0) {
    uint8_t* d = dst + doff / g;
    const uint8_t* a = src + s0 / g;
    const uint8_t* b = src + s1 / g;
    if (e.bits == 1 && e.msb_first) j = InterleaveWords<1, true>(d, a, b, n);
    if (e.bits == 2 && e.msb_first) j = InterleaveWords<2, true>(d, a, b, n);
    if (e.bits == 4 && !e.msb_first) j = InterleaveWords<4, false>(d, a, b, n);
  }
  for (; j < n; ++j) {
    Set(dst, doff + 2 * j, Get(src, s0 + j, e), e);
    Set(dst, doff + 2 * j + 1, Get(src, s1 + j, e), e);
  }
}

void Deinterleave2(uint8_t* dst, int64_t d0, int64_t d1, const uint8_t* src, int64_t soff,
                   int64_t n, Elem e) {
  const int64_t g = e.per_byte();
  int64_t i = 0;
  if (d0 % g == 0 && d1 % g == 0 && soff % g == 0) {
    uint8_t* a = dst + d0 / g;
    uint8_t* b = dst + d1 / g;
    const uint8_t* s = src + soff / g;
    if (e.bits == 1 && e.msb_first) i = DeinterleaveWords<1, true>(a, b, s, n);
    if (e.bits == 2 && e.msb_first) i = DeinterleaveWords<2, true>(a, b, s, n);
    if (e.bits == 4 && !e.msb_first) i = DeinterleaveWords<4, false>(a, b, s, n);
  }
  for (; i < n; ++i) {
    Set(dst, d0 + i, Get(src, soff + 2 * i, e), e);
    Set(dst, d1 + i, Get(src, soff + 2 * i + 1, e), e);
  }
}

}  // namespace dmconf::packed
