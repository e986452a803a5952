#include "oracle/tensor.h"

#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"

namespace dmconf {
namespace {

uint64_t Mask(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// u3 / u6 split layout: n = 24 / bits elements per 3-byte group; the low 16/n bits of each
// element live in bytes 0-1 (read as a big-endian 16-bit word), the high 8/n bits in byte 2;
// the first element of a group is the most significant in both places.
struct SplitPos {
  int64_t group_byte;
  int low_bits, high_bits, low_shift, high_shift;
};
SplitPos SplitPosition(int bits, int64_t i) {
  const int n = 24 / bits;
  const int k = static_cast<int>(i % n);
  const int s = n - 1 - k;
  SplitPos p;
  p.group_byte = (i / n) * 3;
  p.low_bits = 16 / n;
  p.high_bits = 8 / n;
  p.low_shift = p.low_bits * s;
  p.high_shift = p.high_bits * s;
  return p;
}

}  // namespace

std::optional<int64_t> PackedByteSize(ElementType t, int64_t n) {
  const int bits = BitWidth(t);
  switch (PackingOf(t)) {
    case Packing::kBytes:
      return CheckedMul(n, bits / 8);
    case Packing::kMsbFirst:
    case Packing::kLowNibbleFirst: {
      const int64_t per_byte = 8 / bits;
      return n / per_byte + (n % per_byte != 0 ? 1 : 0);
    }
    case Packing::kSplit: {
      const int64_t per_group = 24 / bits;
      return CheckedMul(n / per_group + (n % per_group != 0 ? 1 : 0), 3);
    }
  }
  return std::nullopt;
}

absl::StatusOr<int64_t> Tensor::ByteSize(ElementType t, const Shape& shape, int64_t max_bytes) {
  absl::StatusOr<int64_t> n = dmconf::NumElements(shape);
  if (!n.ok()) return n.status();
  std::optional<int64_t> size = PackedByteSize(t, *n);
  if (!size || *size > max_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "case.tensor.too_large: a ", ElementTypeName(t), " tensor of shape ", ShapeToString(shape),
        " is above the limit for one tensor (", max_bytes, " bytes)"));
  }
  return *size;
}

absl::StatusOr<Tensor> Tensor::Zeros(ElementType t, Shape shape, int64_t max_bytes) {
  absl::StatusOr<int64_t> size = ByteSize(t, shape, max_bytes);
  if (!size.ok()) return size.status();
  Tensor out;
  out.type = t;
  out.shape = std::move(shape);
  out.bytes.assign(static_cast<size_t>(*size), 0);
  return out;
}

int64_t Tensor::NumElements() const {
  std::optional<int64_t> n = CheckedProduct(shape);
  return n.value_or(0);
}

absl::Status Tensor::Validate(absl::string_view what) const {
  absl::StatusOr<int64_t> n = dmconf::NumElements(shape);
  if (!n.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(n.status().message(), " (", what, ")"));
  }
  std::optional<int64_t> size = PackedByteSize(type, *n);
  if (!size || static_cast<uint64_t>(*size) != bytes.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("case.tensor.byte_size: ", what, " is ", ElementTypeName(type), " of shape ",
                     ShapeToString(shape), " (", *n, " elements, ",
                     size ? absl::StrCat(*size) : std::string("too many"), " bytes) but holds ",
                     bytes.size(), " bytes"));
  }
  return absl::OkStatus();
}

uint64_t Tensor::GetBits(int64_t i) const {
  const int bits = BitWidth(type);
  switch (PackingOf(type)) {
    case Packing::kBytes: {
      uint64_t v = 0;
      const int w = bits / 8;
      // Little-endian: byte k of the element is bits 8k..8k+7.
      for (int k = 0; k < w; ++k) v |= uint64_t{bytes[static_cast<size_t>(i * w + k)]} << (8 * k);
      return v;
    }
    case Packing::kMsbFirst: {
      const int per_byte = 8 / bits;
      const int shift = 8 - bits * (static_cast<int>(i % per_byte) + 1);
      return (bytes[static_cast<size_t>(i / per_byte)] >> shift) & Mask(bits);
    }
    case Packing::kLowNibbleFirst: {
      const int shift = 4 * static_cast<int>(i % 2);
      return (bytes[static_cast<size_t>(i / 2)] >> shift) & 0xF;
    }
    case Packing::kSplit: {
      const SplitPos p = SplitPosition(bits, i);
      const uint8_t* g = &bytes[static_cast<size_t>(p.group_byte)];
      const uint32_t word = (uint32_t{g[0]} << 8) | g[1];
      const uint64_t low = (word >> p.low_shift) & Mask(p.low_bits);
      const uint64_t high = (g[2] >> p.high_shift) & Mask(p.high_bits);
      return low | (high << p.low_bits);
    }
  }
  return 0;
}

void Tensor::SetBits(int64_t i, uint64_t v) {
  const int bits = BitWidth(type);
  v &= Mask(bits);
  switch (PackingOf(type)) {
    case Packing::kBytes: {
      const int w = bits / 8;
      for (int k = 0; k < w; ++k) {
        bytes[static_cast<size_t>(i * w + k)] = static_cast<uint8_t>(v >> (8 * k));
      }
      return;
    }
    case Packing::kMsbFirst: {
      const int per_byte = 8 / bits;
      const int shift = 8 - bits * (static_cast<int>(i % per_byte) + 1);
      uint8_t& b = bytes[static_cast<size_t>(i / per_byte)];
      b = static_cast<uint8_t>((b & ~(Mask(bits) << shift)) | (v << shift));
      return;
    }
    case Packing::kLowNibbleFirst: {
      const int shift = 4 * static_cast<int>(i % 2);
      uint8_t& b = bytes[static_cast<size_t>(i / 2)];
      b = static_cast<uint8_t>((b & ~(0xF << shift)) | (v << shift));
      return;
    }
    case Packing::kSplit: {
      const SplitPos p = SplitPosition(bits, i);
      uint8_t* g = &bytes[static_cast<size_t>(p.group_byte)];
      uint32_t word = (uint32_t{g[0]} << 8) | g[1];
      word = (word & ~(static_cast<uint32_t>(Mask(p.low_bits)) << p.low_shift)) |
             (static_cast<uint32_t>(v & Mask(p.low_bits)) << p.low_shift);
      g[0] = static_cast<uint8_t>(word >> 8);
      g[1] = static_cast<uint8_t>(word);
      const uint64_t high = v >> p.low_bits;
      g[2] = static_cast<uint8_t>((g[2] & ~(Mask(p.high_bits) << p.high_shift)) |
                                  (high << p.high_shift));
      return;
    }
  }
}

std::optional<int64_t> Tensor::GetInteger(int64_t i) const {
  const uint64_t bits = GetBits(i);
  const int w = BitWidth(type);
  if (IsSignedIntegerType(type)) {
    // Sign-extend from w bits.
    if (w < 64 && (bits >> (w - 1)) & 1) return static_cast<int64_t>(bits | ~Mask(w));
    return static_cast<int64_t>(bits);
  }
  if (bits > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return std::nullopt;
  return static_cast<int64_t>(bits);
}

bool operator==(const Tensor& a, const Tensor& b) {
  if (a.type != b.type || a.shape != b.shape || a.bytes.size() != b.bytes.size()) return false;
  if (!IsSubByte(a.type)) return a.bytes == b.bytes;
  const int64_t n = a.NumElements();
  for (int64_t i = 0; i < n; ++i) {
    if (a.GetBits(i) != b.GetBits(i)) return false;
  }
  return true;
}

absl::StatusOr<Tensor> MakeIntegerTensor(ElementType t, const std::vector<int64_t>& values) {
  if (!IsIntegerType(t)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "case.tensor.integer_values: ", ElementTypeName(t), " is not an integer type"));
  }
  absl::StatusOr<Tensor> out = Tensor::Zeros(t, {static_cast<int64_t>(values.size())});
  if (!out.ok()) return out;
  const int w = BitWidth(t);
  for (size_t i = 0; i < values.size(); ++i) {
    const int64_t v = values[i];
    bool fits;
    if (IsSignedIntegerType(t)) {
      fits = w == 64 || (v >= -(int64_t{1} << (w - 1)) && v < (int64_t{1} << (w - 1)));
    } else {
      fits = v >= 0 && (w == 64 || v < (int64_t{1} << w));
    }
    if (!fits) {
      return absl::InvalidArgumentError(
          absl::StrCat("case.tensor.integer_values: ", v, " does not fit ", ElementTypeName(t)));
    }
    out->SetBits(static_cast<int64_t>(i), static_cast<uint64_t>(v));
  }
  return out;
}

}  // namespace dmconf
