// Whole-byte element buffers for the primitives.
//
// The primitives move elements of 1, 2, 4 or 8 bytes, and packed elements of 1, 2 or 4 bits
// (elem.h). A byte-type tensor and a tensor of u1, u2 or a 4-bit type is used in place (no
// copy); u3 and u6 (3-byte groups, element_type.h) are unpacked to one byte per element first
// and packed again at the end.
//
// Example:
//   PlainView in = PlainView::Of(data, &scratch);   // no copy for f32
//   PlainResult out = PlainResult::Make(data.type, out_shape, max_bytes);
//   Transpose(in.data, shape, perm, in.elem_size, out->data());
//   Tensor y = std::move(*out).Finish();
#ifndef DMCONF_ORACLE_PRIMITIVES_PLAIN_H_
#define DMCONF_ORACLE_PRIMITIVES_PLAIN_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "oracle/primitives/elem.h"
#include "oracle/tensor.h"

namespace dmconf {

// How the primitives see an element of type t: packed for u1, u2 and the 4-bit types, else
// whole bytes (1 for u3, u6 and the 8-bit types).
Elem PlainElementSize(ElementType t);

struct PlainView {
  const uint8_t* data = nullptr;
  Elem elem_size = 1;
  // A byte-type or packed tensor is viewed in place; a u3 or u6 one is unpacked into *scratch.
  static PlainView Of(const Tensor& t, std::vector<uint8_t>* scratch);
};

// An output under construction, in plain form; Finish() packs it into a Tensor.
class PlainResult {
 public:
  // Errors: `case.output.too_large` when the output needs more than max_bytes.
  // With `storage` (EvalOptions::output_storage), the output bytes are moved out of it and
  // resized, not zero-filled (sub-byte outputs: the padding bits of the last byte are
  // cleared; u3 / u6 outputs wholly, since packing ORs bits in).
  static absl::StatusOr<PlainResult> Make(ElementType t, Shape shape, int64_t max_bytes,
                                          std::vector<uint8_t>* storage = nullptr);
  uint8_t* data() { return plain_ != nullptr ? plain_->data() : tensor_.bytes.data(); }
  Elem elem_size() const { return PlainElementSize(tensor_.type); }
  Tensor Finish() &&;

 private:
  Tensor tensor_;
  std::unique_ptr<std::vector<uint8_t>> plain_;  // u3 and u6 only
};

}  // namespace dmconf

#endif  // DMCONF_ORACLE_PRIMITIVES_PLAIN_H_
