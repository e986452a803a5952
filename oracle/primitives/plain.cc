#include "oracle/primitives/plain.h"

#include <algorithm>
#include <memory>

#include "absl/strings/str_cat.h"

namespace dmconf {

namespace {

// u3 and u6: the one layout the primitives do not move in place.
bool Unpacked(ElementType t) { return IsSubByte(t) && PackingOf(t) == Packing::kSplit; }

}  // namespace

Elem PlainElementSize(ElementType t) {
  if (!IsSubByte(t)) return BitWidth(t) / 8;
  if (Unpacked(t)) return 1;
  return Elem::Packed(BitWidth(t), PackingOf(t) == Packing::kMsbFirst);
}

PlainView PlainView::Of(const Tensor& t, std::vector<uint8_t>* scratch) {
  PlainView v;
  v.elem_size = PlainElementSize(t.type);
  if (!Unpacked(t.type)) {
    v.data = t.bytes.data();
    return v;
  }
  const int64_t n = t.NumElements();
  scratch->resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    (*scratch)[static_cast<size_t>(i)] = static_cast<uint8_t>(t.GetBits(i));
  v.data = scratch->data();
  return v;
}

absl::StatusOr<PlainResult> PlainResult::Make(ElementType t, Shape shape, int64_t max_bytes,
                                              std::vector<uint8_t>* storage) {
  PlainResult r;
  if (storage == nullptr) {
    absl::StatusOr<Tensor> zeros = Tensor::Zeros(t, shape, max_bytes);
    if (!zeros.ok()) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "case.output.too_large: the output ", ShapeToString(shape), " of type ",
          ElementTypeName(t), " is above the limit for one tensor (", max_bytes, " bytes)"));
    }
    r.tensor_ = *std::move(zeros);
  } else {
    // The caller's buffer: no allocation when it is large enough, and no zero fill, since
    // every evaluation writes every output element.
    absl::StatusOr<int64_t> n = NumElements(shape);
    std::optional<int64_t> size = n.ok() ? PackedByteSize(t, *n) : std::nullopt;
    if (!size || *size > max_bytes) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "case.output.too_large: the output ", ShapeToString(shape), " of type ",
          ElementTypeName(t), " is above the limit for one tensor (", max_bytes, " bytes)"));
    }
    r.tensor_.type = t;
    r.tensor_.shape = std::move(shape);
    r.tensor_.bytes = std::move(*storage);
    storage->clear();
    r.tensor_.bytes.resize(static_cast<size_t>(*size));
    // u3 / u6 packing ORs bits in: start from zeros. Packed types are written element by
    // element or byte by byte, every element's bits; only the padding bits after the last
    // element (in the last byte) would keep the old content.
    if (Unpacked(t)) {
      std::fill(r.tensor_.bytes.begin(), r.tensor_.bytes.end(), uint8_t{0});
    } else if (IsSubByte(t) && !r.tensor_.bytes.empty()) {
      r.tensor_.bytes.back() = 0;
    }
  }
  if (Unpacked(t)) {
    r.plain_ = std::make_unique<std::vector<uint8_t>>(static_cast<size_t>(r.tensor_.NumElements()));
  }
  return r;
}

Tensor PlainResult::Finish() && {
  if (plain_ != nullptr) {
    const int64_t n = static_cast<int64_t>(plain_->size());
    for (int64_t i = 0; i < n; ++i) tensor_.SetBits(i, (*plain_)[static_cast<size_t>(i)]);
  }
  return std::move(tensor_);
}

}  // namespace dmconf
