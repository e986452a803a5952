#include "harness/cli/print_tensor.h"

#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace dmconf::cli {
namespace {

double HalfToDouble(uint64_t h) {
  const int sign = (h >> 15) & 1, exp = (h >> 10) & 0x1F;
  const int man = h & 0x3FF;
  double v;
  if (exp == 0)
    v = std::ldexp(man, -24);
  else if (exp == 31)
    v = man ? NAN : INFINITY;
  else
    v = std::ldexp(man + 1024, exp - 25);
  return sign ? -v : v;
}

}  // namespace

std::string FormatElement(const Tensor& t, int64_t i) {
  const uint64_t bits = t.GetBits(i);
  if (IsIntegerType(t.type)) {
    std::optional<int64_t> v = t.GetInteger(i);
    return v ? absl::StrCat(*v) : absl::StrCat(bits);
  }
  double v;
  switch (t.type) {
    case ElementType::kBoolean:
      return absl::StrCat(bits);
    case ElementType::kF16:
      v = HalfToDouble(bits);
      break;
    case ElementType::kBf16: {
      const uint32_t f = static_cast<uint32_t>(bits) << 16;
      float x;
      std::memcpy(&x, &f, 4);
      v = x;
      break;
    }
    case ElementType::kF32: {
      const uint32_t f = static_cast<uint32_t>(bits);
      float x;
      std::memcpy(&x, &f, 4);
      v = x;
      break;
    }
    case ElementType::kF64:
      std::memcpy(&v, &bits, 8);
      break;
    default:
      return absl::StrFormat("0x%0*x", (BitWidth(t.type) + 3) / 4, bits);
  }
  if (std::isnan(v)) return absl::StrFormat("nan(0x%x)", bits);
  if (v == 0 && std::signbit(v)) return "-0";
  return absl::StrFormat("%.17g", v);
}

std::string FormatTensor(const Tensor& t, int64_t max_elements) {
  const int64_t n = t.NumElements();
  const size_t rank = t.shape.size();
  if (rank == 0) return n > 0 ? FormatElement(t, 0) : "[]";
  std::vector<int64_t> strides = RowMajorStrides(t.shape);
  std::string out;
  if (n == 0) {
    std::string empty(rank, '[');
    empty.append(rank, ']');
    return empty;
  }
  for (int64_t i = 0; i < n && i < max_elements; ++i) {
    size_t opens = 0;
    for (size_t k = 0; k < rank; ++k) {
      if (i % (strides[k] * t.shape[k]) == 0) ++opens;
    }
    // Appends in place: g++ 12 at -O3 reports a false -Wrestrict for `"\n" + std::string`.
    if (i > 0 && opens > 0) {
      out.push_back('\n');
      out.append(rank - opens, ' ');
    } else if (i > 0) {
      out.push_back(' ');
    }
    out.append(opens, '[');
    absl::StrAppend(&out, FormatElement(t, i));
    size_t closes = 0;
    for (size_t k = 0; k < rank; ++k) {
      if ((i + 1) % (strides[k] * t.shape[k]) == 0) ++closes;
    }
    out.append(closes, ']');
  }
  if (n > max_elements) absl::StrAppend(&out, " ... (", n - max_elements, " more)");
  return out;
}

}  // namespace dmconf::cli
