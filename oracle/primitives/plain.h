// Whole-byte element buffers for the primitives.
//
// The primitives move elements of 1, 2, 4 or 8 bytes. A byte-type tensor is used in place (no
// copy); a sub-byte tensor (u1 ... u6, i4, nf4, f4e2m1) is unpacked to one byte per element
// first and packed again at the end, in OpenVINO's packing order (element_type.h).
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
#include "oracle/tensor.h"

namespace dmconf {

// Bytes per element in the plain (unpacked) form: 1 for sub-byte and 8-bit types.
int PlainElementSize(ElementType t);

struct PlainView {
  const uint8_t* data = nullptr;
  int elem_size = 1;
  // A byte-type tensor is viewed in place; a sub-byte one is unpacked into *scratch.
  static PlainView Of(const Tensor& t, std::vector<uint8_t>* scratch);
};

// An output under construction, in plain form; Finish() packs it into a Tensor.
class PlainResult {
 public:
  // Errors: `case.output.too_large` when the output needs more than max_bytes.
  // With `storage` (EvalOptions::output_storage), the output bytes are moved out of it and
  // resized, not zero-filled (sub-byte outputs are cleared: packing ORs bits in).
  static absl::StatusOr<PlainResult> Make(ElementType t, Shape shape, int64_t max_bytes,
                                          std::vector<uint8_t>* storage = nullptr);
  uint8_t* data() { return plain_ != nullptr ? plain_->data() : tensor_.bytes.data(); }
  int elem_size() const { return PlainElementSize(tensor_.type); }
  Tensor Finish() &&;

 private:
  Tensor tensor_;
  std::unique_ptr<std::vector<uint8_t>> plain_;  // sub-byte types only
};

// A scratch buffer for an intermediate (e.g. the padded x of SpaceToBatch).
absl::StatusOr<std::vector<uint8_t>> AllocateScratch(int64_t elements, int elem_size,
                                                     int64_t max_bytes, absl::string_view what);

}  // namespace dmconf

#endif  // DMCONF_ORACLE_PRIMITIVES_PLAIN_H_
