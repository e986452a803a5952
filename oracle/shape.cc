#include "oracle/shape.h"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace dmconf {

std::optional<int64_t> CheckedAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

std::optional<int64_t> CheckedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

std::optional<int64_t> CheckedPow(int64_t base, int64_t exp) {
  int64_t r = 1;
  for (int64_t i = 0; i < exp; ++i) {
    std::optional<int64_t> next = CheckedMul(r, base);
    if (!next) return std::nullopt;
    r = *next;
    // 0 and 1 stay fixed: no need to run a huge exponent to the end.
    if (r == 0 || r == 1) break;
  }
  return r;
}

std::optional<int64_t> CheckedProduct(absl::Span<const int64_t> dims) {
  int64_t r = 1;
  bool overflow = false;
  for (int64_t d : dims) {
    if (d == 0) return 0;  // a zero dim makes the product 0 whatever the others are
    std::optional<int64_t> next = CheckedMul(r, d);
    if (!next)
      overflow = true;
    else
      r = *next;
  }
  if (overflow) return std::nullopt;
  return r;
}

absl::StatusOr<int64_t> NumElements(absl::Span<const int64_t> shape) {
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0) {
      return absl::InvalidArgumentError(absl::StrCat("case.tensor.dims_nonnegative: dim ", i,
                                                     " of shape ", ShapeToString(shape),
                                                     " is negative"));
    }
  }
  std::optional<int64_t> n = CheckedProduct(shape);
  if (!n) {
    return absl::InvalidArgumentError(absl::StrCat("case.tensor.size_representable: shape ",
                                                   ShapeToString(shape),
                                                   " has more than 2^63-1 elements"));
  }
  return *n;
}

std::string ShapeToString(absl::Span<const int64_t> shape) {
  return absl::StrCat("[", absl::StrJoin(shape, ","), "]");
}

std::vector<int64_t> RowMajorStrides(absl::Span<const int64_t> shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) {
    if (__builtin_mul_overflow(strides[i], shape[i], &strides[i - 1])) strides[i - 1] = INT64_MAX;
  }
  return strides;
}

std::vector<int64_t> MultiIndex(absl::Span<const int64_t> shape, int64_t flat) {
  std::vector<int64_t> idx(shape.size(), 0);
  MultiIndexInto(shape, flat, absl::MakeSpan(idx));
  return idx;
}

void MultiIndexInto(absl::Span<const int64_t> shape, int64_t flat, absl::Span<int64_t> idx) {
  std::fill(idx.begin(), idx.end(), 0);
  for (size_t k = shape.size(); k-- > 0;) {
    if (shape[k] == 0) break;
    idx[k] = flat % shape[k];
    flat /= shape[k];
  }
}

}  // namespace dmconf
