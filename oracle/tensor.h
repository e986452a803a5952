// Tensor = element type + shape + packed bytes. Equality is bit equality.
//
// Bytes hold the elements in row-major order, packed as OpenVINO packs them (element_type.h).
// Padding bits at the end of the last byte (or 3-byte group) of a sub-byte tensor are zero in
// every tensor the oracle produces, and ignored by equality.
//
// Example:
//   absl::StatusOr<Tensor> t = Tensor::Zeros(ElementType::kU4, {3});   // 2 bytes
//   t->SetBits(2, 0xF);  t->GetBits(2) == 0xF;  t->bytes[1] == 0x0F
#ifndef DMCONF_ORACLE_TENSOR_H_
#define DMCONF_ORACLE_TENSOR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "oracle/element_type.h"
#include "oracle/shape.h"

namespace dmconf {

// Bytes needed for n packed elements of type t; std::nullopt on overflow.
std::optional<int64_t> PackedByteSize(ElementType t, int64_t n);

// The limit for one tensor, input or output, everywhere dmconf allocates one (the oracle's
// outputs and intermediates, inputs built from the command line, a plugin's output buffer):
// 2 GiB. Errors that hit it say "the limit for one tensor (2147483648 bytes)".
inline constexpr int64_t kMaxTensorBytes = int64_t{1} << 31;

struct Tensor {
  ElementType type = ElementType::kF32;
  Shape shape;
  std::vector<uint8_t> bytes;

  // A zero-filled tensor. Errors name a rule (negative dims, unrepresentable size) or
  // `case.tensor.too_large` when more than max_bytes would be allocated.
  static absl::StatusOr<Tensor> Zeros(ElementType t, Shape shape,
                                      int64_t max_bytes = kMaxTensorBytes);
  // The bytes Zeros would allocate, or its error; nothing is allocated.
  static absl::StatusOr<int64_t> ByteSize(ElementType t, const Shape& shape,
                                          int64_t max_bytes = kMaxTensorBytes);

  // Number of elements; the shape must be valid (checked by Validate()).
  int64_t NumElements() const;

  // Checks dims are non-negative, the size is representable and bytes.size() matches
  // (rule `case.tensor.byte_size`). `what` names the tensor in messages ("data").
  absl::Status Validate(absl::string_view what) const;

  // Raw bits of element i (0 <= i < NumElements()), zero-extended.
  uint64_t GetBits(int64_t i) const;
  void SetBits(int64_t i, uint64_t bits);

  // Value of element i of an integer tensor, sign-extended for signed types. For u64 values
  // above INT64_MAX returns std::nullopt.
  std::optional<int64_t> GetInteger(int64_t i) const;

  // Bit equality: same type, same shape, same element bits (padding bits ignored).
  friend bool operator==(const Tensor& a, const Tensor& b);
  friend bool operator!=(const Tensor& a, const Tensor& b) { return !(a == b); }
};

// Builds a 1-D integer tensor (for block_shape, pads, crops). Values must fit the type.
absl::StatusOr<Tensor> MakeIntegerTensor(ElementType t, const std::vector<int64_t>& values);

// Builds a tensor of the given shape whose element i has bits bits_of(i) (masked to the width).
template <typename F>
absl::StatusOr<Tensor> MakeTensor(ElementType t, Shape shape, F bits_of) {
  absl::StatusOr<Tensor> out = Tensor::Zeros(t, std::move(shape));
  if (!out.ok()) return out;
  const int64_t n = out->NumElements();
  for (int64_t i = 0; i < n; ++i) out->SetBits(i, static_cast<uint64_t>(bits_of(i)));
  return out;
}

}  // namespace dmconf

#endif  // DMCONF_ORACLE_TENSOR_H_
