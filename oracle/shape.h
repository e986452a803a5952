// Static shapes with overflow-checked arithmetic.
//
// A Shape is a list of int64_t dims. Every product, sum and power the oracle computes on dims
// goes through the checked helpers below, so shapes near 2^63 give an error, never undefined
// behaviour.
//
// Example:
//   absl::StatusOr<int64_t> n = NumElements({2, 3, 4});   // 24
//   CheckedMul(INT64_MAX, 2)                               // std::nullopt
#ifndef DMCONF_ORACLE_SHAPE_H_
#define DMCONF_ORACLE_SHAPE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace dmconf {

using Shape = std::vector<int64_t>;

// Checked arithmetic on int64_t; std::nullopt on overflow.
std::optional<int64_t> CheckedAdd(int64_t a, int64_t b);
std::optional<int64_t> CheckedMul(int64_t a, int64_t b);
// base^exp for base >= 0, exp >= 0.
std::optional<int64_t> CheckedPow(int64_t base, int64_t exp);

// Product of all dims. Errors: a negative dim (rule `case.tensor.dims_nonnegative`), or a
// product above INT64_MAX (rule `case.tensor.size_representable`).
absl::StatusOr<int64_t> NumElements(absl::Span<const int64_t> shape);

// Product with no dim check; std::nullopt on overflow. Dims must already be non-negative.
std::optional<int64_t> CheckedProduct(absl::Span<const int64_t> dims);

// "[2,3,4]".
std::string ShapeToString(absl::Span<const int64_t> shape);

// Row-major strides (in elements) of a shape. A stride past 2^63-1 saturates there: a shape
// with a 0 dim can hold others whose product overflows (no element is addressed with it).
std::vector<int64_t> RowMajorStrides(absl::Span<const int64_t> shape);

// The row-major multi-index of element `flat` (0 <= flat < product of the dims):
// MultiIndex({2,3}, 4) == {1,1}.
std::vector<int64_t> MultiIndex(absl::Span<const int64_t> shape, int64_t flat);
// The same into `idx` (shape.size() entries), without allocating: for loops over every element.
void MultiIndexInto(absl::Span<const int64_t> shape, int64_t flat, absl::Span<int64_t> idx);

}  // namespace dmconf

#endif  // DMCONF_ORACLE_SHAPE_H_
