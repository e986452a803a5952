// How the copy primitives store elements: whole bytes (1, 2, 4 or 8 per element), or packed
// sub-byte elements of 1, 2 or 4 bits in one of OpenVINO's packing orders (element_type.h):
// the first element of a byte in its most significant bits (u1, u2) or in its low bits (the
// 4-bit types). Packed elements are addressed by element index from the buffer's start, so
// the primitives never form pointers into the middle of a byte.
//
// Example:
//   StridedCopy(dst, ds, src, ss, shape, 4);                                 // f32
//   StridedCopy(dst, ds, src, ss, shape, Elem::Packed(4, /*msb_first=*/false));  // u4
#ifndef DMCONF_ORACLE_PRIMITIVES_ELEM_H_
#define DMCONF_ORACLE_PRIMITIVES_ELEM_H_

namespace dmconf {

struct Elem {
  int bytes = 1;           // bytes per element; 0 for packed elements
  int bits = 8;            // bits per element: 8 * bytes, or 1, 2, 4 when packed
  bool msb_first = false;  // packed: the first element of a byte in its high bits

  // Whole-byte elements of elem_size bytes (implicit: the primitives took an int before).
  constexpr Elem(int elem_size) : bytes(elem_size), bits(8 * elem_size) {}  // NOLINT
  static constexpr Elem Packed(int bits, bool msb_first) {
    Elem e(1);
    e.bytes = 0;
    e.bits = bits;
    e.msb_first = msb_first;
    return e;
  }
  constexpr bool packed() const { return bytes == 0; }
  constexpr int per_byte() const { return packed() ? 8 / bits : 1; }
};

}  // namespace dmconf

#endif  // DMCONF_ORACLE_PRIMITIVES_ELEM_H_
