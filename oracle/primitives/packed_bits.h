// Internal to the primitives: moving packed sub-byte elements (Elem::Packed) by element index.
//
// Element i of a packed buffer is in byte i / per_byte, at the bit position its packing order
// gives (element_type.h). Byte-aligned stretches go through memcpy / memset or 64-bit word
// kernels; only the elements before and after them are read and written one by one (a
// read-modify-write of their byte), so two calls on the same buffer may share a byte only if
// they run one after the other.
//
// Example (u4, copy 7 elements from element 3 of src to element 10 of dst):
//   packed::RunCopy(dst, 10, src, 3, 7, Elem::Packed(4, false));
#ifndef DMCONF_ORACLE_PRIMITIVES_PACKED_BITS_H_
#define DMCONF_ORACLE_PRIMITIVES_PACKED_BITS_H_

#include <cstdint>

#include "oracle/primitives/elem.h"

namespace dmconf::packed {

// The shift of element i's bits inside its byte.
inline int Shift(Elem e, int64_t i) {
  const int k = static_cast<int>(i % e.per_byte());
  return e.msb_first ? 8 - e.bits * (k + 1) : e.bits * k;
}
inline unsigned Get(const uint8_t* p, int64_t i, Elem e) {
  return (p[i / e.per_byte()] >> Shift(e, i)) & ((1u << e.bits) - 1);
}
inline void Set(uint8_t* p, int64_t i, unsigned v, Elem e) {
  const int s = Shift(e, i);
  const unsigned mask = ((1u << e.bits) - 1) << s;
  uint8_t& b = p[i / e.per_byte()];
  b = static_cast<uint8_t>((b & ~mask) | ((v << s) & mask));
}

// dst[doff + k] = src[soff + k] for k < n (element indices).
void RunCopy(uint8_t* dst, int64_t doff, const uint8_t* src, int64_t soff, int64_t n, Elem e);

// dst[off + k] = 0 for k < n.
void Zero(uint8_t* dst, int64_t off, int64_t n, Elem e);

// dst[doff + 2j] = src[s0 + j], dst[doff + 2j + 1] = src[s1 + j] for j < n.
void Interleave2(uint8_t* dst, int64_t doff, const uint8_t* src, int64_t s0, int64_t s1, int64_t n,
                 Elem e);

// dst[d0 + i] = src[soff + 2i], dst[d1 + i] = src[soff + 2i + 1] for i < n.
void Deinterleave2(uint8_t* dst, int64_t d0, int64_t d1, const uint8_t* src, int64_t soff,
                   int64_t n, Elem e);

}  // namespace dmconf::packed

#endif  // DMCONF_ORACLE_PRIMITIVES_PACKED_BITS_H_
