// What the comparator needs to know about floating-point bit patterns: which patterns are NaN,
// which are -0, where the quiet bit is. Data movement never interprets values; these only
// classify differences (nan_payload_changed, "-0 flushed to +0") and build special inputs.
//
// Example:
//   IsNaNBits(ElementType::kF32, 0x7f800001) == true   // a signalling NaN
//   QuietBit(ElementType::kF32) == 0x00400000
#ifndef DMCONF_HARNESS_BASE_FLOAT_BITS_H_
#define DMCONF_HARNESS_BASE_FLOAT_BITS_H_

#include <cstdint>
#include <vector>

#include "oracle/element_type.h"

namespace dmconf {

// f16, bf16, f32, f64, f8e5m2 (IEEE-style NaNs with a payload); f8e4m3 and f8e8m0 have a single
// NaN pattern per sign; other types have none.
bool IsFloatType(ElementType t);
bool IsNaNBits(ElementType t, uint64_t bits);
// The sign bit's value, 0 for non-float types.
uint64_t SignBit(ElementType t);
// The top mantissa bit (quiet NaN marker) for IEEE-style types; 0 otherwise.
uint64_t QuietBit(ElementType t);
}  // namespace dmconf

#endif  // DMCONF_HARNESS_BASE_FLOAT_BITS_H_
