#include "harness/onnx/tensor_proto.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "harness/onnx/onnx_types.h"

namespace dmconf::onnx_io {

absl::StatusOr<::onnx::TensorProto> TensorToProto(const Tensor& t, const std::string& name) {
  const std::optional<int32_t> type = OnnxDataType(t.type);
  if (!type) {
    return absl::InvalidArgumentError(absl::StrCat(
        "onnx.data_type: ONNX 1.12 has no element type for ", ElementTypeName(t.type)));
  }
  ::onnx::TensorProto p;
  p.set_name(name);
  p.set_data_type(*type);
  for (int64_t d : t.shape) p.add_dims(d);
  // Every type ONNX has is a whole number of bytes, little-endian, as dmconf packs it.
  p.set_raw_data(t.bytes.data(), t.bytes.size());
  return p;
}

absl::StatusOr<Tensor> TensorFromProto(const ::onnx::TensorProto& p, absl::string_view file) {
  const std::optional<ElementType> type = ElementTypeOfOnnx(p.data_type());
  if (!type) {
    return absl::InvalidArgumentError(absl::StrCat("onnx.data_type: ", file, ": data_type ",
                                                   p.data_type(), " has no OpenVINO match here"));
  }
  if (p.data_location() == ::onnx::TensorProto::EXTERNAL || p.external_data_size() > 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("onnx.tensor.storage: ", file, ": external data is not read"));
  }
  if (p.dims_size() > 64) {
    return absl::InvalidArgumentError(
        absl::StrCat("onnx.tensor.shape: ", file, ": ", p.dims_size(), " dims, at most 64"));
  }
  Shape dims(p.dims().begin(), p.dims().end());
  absl::StatusOr<int64_t> n = NumElements(dims);
  if (!n.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("onnx.tensor.shape: ", file, ": ", n.status().message()));
  }
  const bool from_floats = !p.has_raw_data() && p.float_data_size() > 0;
  if (from_floats && *type != ElementType::kF32) {
    return absl::InvalidArgumentError(
        absl::StrCat("onnx.tensor.storage: ", file, ": float_data holds the data of a ",
                     ElementTypeName(*type), " tensor; only raw_data is read for it"));
  }
  const std::optional<int64_t> want = PackedByteSize(*type, *n);
  const int64_t have =
      from_floats ? int64_t{p.float_data_size()} * 4 : static_cast<int64_t>(p.raw_data().size());
  if (!want || *want != have) {
    return absl::InvalidArgumentError(absl::StrCat(
        "onnx.tensor.size: ", file, ": shape ", ShapeToString(dims), " of ", ElementTypeName(*type),
        " needs ", want.value_or(-1), " bytes, the data has ", have));
  }
  absl::StatusOr<Tensor> t = Tensor::Zeros(*type, dims);
  if (!t.ok()) return t.status();
  if (from_floats) {
    for (int i = 0; i < p.float_data_size(); ++i) {
      uint32_t bits;
      const float f = p.float_data(i);
      std::memcpy(&bits, &f, 4);
      t->SetBits(i, bits);
    }
  } else if (have > 0) {
    std::memcpy(t->bytes.data(), p.raw_data().data(), static_cast<size_t>(have));
  }
  return t;
}

}  // namespace dmconf::onnx_io
