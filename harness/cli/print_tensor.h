// Prints a tensor for people: nested brackets in row-major order; integer types as integers,
// f16 / bf16 / f32 / f64 as decimal numbers (NaN with its bits), other types as 0x bits.
#ifndef DMCONF_HARNESS_CLI_PRINT_TENSOR_H_
#define DMCONF_HARNESS_CLI_PRINT_TENSOR_H_

#include <string>

#include "oracle/tensor.h"

namespace dmconf::cli {

// At most max_elements are printed; the rest is summarised as "... (N more)".
std::string FormatTensor(const Tensor& t, int64_t max_elements = 4096);
std::string FormatElement(const Tensor& t, int64_t i);

}  // namespace dmconf::cli

#endif  // DMCONF_HARNESS_CLI_PRINT_TENSOR_H_
