// The float formats' numbers, exactly: the value of a float-type element's bits, and the bits of
// a value the type holds exactly (f16, bf16, f32, f64, f8e4m3, f8e5m2, f8e8m0, f4e2m1). The one
// codec of numbers into float formats: vector files (harness/io/element_json.h), the command
// line's iota data and the generators' fills.
//
// Example:
//   FloatValue(ElementType::kF32, 0x40400000) == 3.0
//   ExactFloatBits(ElementType::kF16, 0.5) == 0x3800
//   ExactFloatBits(ElementType::kF16, 0.1) == std::nullopt   // f16 does not hold 0.1 exactly
#ifndef DMCONF_HARNESS_BASE_FLOAT_CODEC_H_
#define DMCONF_HARNESS_BASE_FLOAT_CODEC_H_

#include <cstdint>
#include <optional>

#include "oracle/element_type.h"

namespace dmconf {

// The numeric value of a float-type element (f16, bf16, f32, f64, f8e4m3, f8e5m2, f8e8m0,
// f4e2m1); std::nullopt for the other types. NaN for NaN codes.
std::optional<double> FloatValue(ElementType t, uint64_t bits);

// The bits of the float-type element whose value is exactly v (f16, bf16, f32, f64 and the 4-
// and 8-bit formats), or std::nullopt when the type does not hold v exactly. The one encoder
// of numbers into float formats (vector files, the command line's iota data).
std::optional<uint64_t> ExactFloatBits(ElementType t, double v);

// True for the types whose JSON numbers are float values (see above).
bool IsFloatEncoded(ElementType t);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BASE_FLOAT_CODEC_H_
