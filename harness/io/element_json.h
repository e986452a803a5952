// JSON encoding of one tensor element (the `data` arrays of dmconf-vector/1 files). The float
// formats' values come from harness/base/float_codec.h.
//
// Every element round-trips exactly, bit for bit:
//   integer types (u1..u64, i4..i64) and boolean  -> JSON integers (the value; boolean 0..255);
//   f16, bf16, f32, f64, f8e4m3, f8e5m2, f8e8m0, f4e2m1
//       finite, integer-valued, not -0, |v| <= 2^53  -> JSON integer (3, -7, 0);
//       anything else (NaN with its payload, +-inf, -0, fractions, subnormals, huge values)
//                                                    -> "0x" + the bits in hex, zero-padded;
//   nf4 (a 4-bit index into a lookup table)          -> always "0x" + one hex digit.
// Reading also accepts, for the float types, any finite JSON number the type represents
// exactly (0.5, -0.0, 1e-45 for f32).
//
// Example:
//   EncodeElement(ElementType::kF32, 0x40400000) == 3
//   EncodeElement(ElementType::kF32, 0x7fc00001) == "0x7fc00001"
//   DecodeElement(ElementType::kI8, json(-128)) == 0x80
#ifndef DMCONF_HARNESS_IO_ELEMENT_JSON_H_
#define DMCONF_HARNESS_IO_ELEMENT_JSON_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "harness/base/float_codec.h"
#include "nlohmann/json.hpp"
#include "oracle/element_type.h"

namespace dmconf::io {

// The JSON value of an element whose raw bits are `bits` (masked to the type's width).
nlohmann::ordered_json EncodeElement(ElementType t, uint64_t bits);

// The raw bits of an element from its JSON value. Errors (InvalidArgument) explain what is
// wrong with the value without naming where it is; the caller adds the file and location.
absl::StatusOr<uint64_t> DecodeElement(ElementType t, const nlohmann::json& v);

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_IO_ELEMENT_JSON_H_
