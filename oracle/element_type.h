// Element types of OpenVINO, as data movement sees them: a name and a bit width.
//
// Data-movement ops only copy bits, so every type works in every op; the oracle never
// interprets values. Sub-byte types are stored packed, in OpenVINO's own order (see
// docs/element-types.md and tensor.h):
//   u1, u2            first element in the most significant bits of a byte;
//   u4, i4, nf4,
//   f4e2m1            first element in the low nibble;
//   u3, u6            "split" layout: 24/bits elements in 3 bytes; bytes 0-1 hold the low
//                     2 (u3) or 4 (u6) bits of each element, first element most significant;
//                     byte 2 holds the high bit(s), first element most significant.
//
// Example:
//   absl::StatusOr<ElementType> t = ParseElementType("f16");  // ElementType::kF16
//   BitWidth(*t) == 16;  ElementTypeName(*t) == "f16"
#ifndef DMCONF_ORACLE_ELEMENT_TYPE_H_
#define DMCONF_ORACLE_ELEMENT_TYPE_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace dmconf {

enum class ElementType : uint8_t {
  kBoolean,
  kU1,
  kU2,
  kU3,
  kU4,
  kU6,
  kI4,
  kNf4,
  kF4e2m1,
  kU8,
  kI8,
  kF8e4m3,
  kF8e5m2,
  kF8e8m0,
  kU16,
  kI16,
  kF16,
  kBf16,
  kU32,
  kI32,
  kF32,
  kU64,
  kI64,
  kF64,
};

// Every element type, in the order above.
absl::Span<const ElementType> AllElementTypes();

// OpenVINO's name of the type ("boolean", "u1", ..., "f64").
absl::string_view ElementTypeName(ElementType t);

// Parses OpenVINO's name. Unknown names are rejected with rule `case.element_type.known`.
absl::StatusOr<ElementType> ParseElementType(absl::string_view name);

// Bits per element: 1, 2, 3, 4, 6, 8, 16, 32 or 64 (boolean is stored in 8 bits).
int BitWidth(ElementType t);

// True for the integer types (u*, i*), the only types allowed for SpaceToBatch/BatchToSpace's
// block_shape, pads and crops inputs. boolean is not an integer type (ERRATA E11).
bool IsIntegerType(ElementType t);
bool IsSignedIntegerType(ElementType t);

// True for types whose elements are not whole bytes (u1, u2, u3, u4, u6, i4, nf4, f4e2m1).
inline bool IsSubByte(ElementType t) { return BitWidth(t) < 8; }

// Packed storage layout of a type.
enum class Packing : uint8_t {
  kBytes,           // whole bytes per element (little-endian for multi-byte types)
  kMsbFirst,        // u1, u2: first element in the most significant bits
  kLowNibbleFirst,  // 4-bit types: first element in bits 0-3
  kSplit,           // u3, u6: 3-byte groups, see above
};
Packing PackingOf(ElementType t);

}  // namespace dmconf

#endif  // DMCONF_ORACLE_ELEMENT_TYPE_H_
