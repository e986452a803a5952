#include "harness/onnx/onnx_types.h"

#include <array>
#include <utility>

#include "onnx/onnx_pb.h"

namespace dmconf::onnx_io {
namespace {

using P = ::onnx::TensorProto;

constexpr std::array<std::pair<ElementType, int32_t>, 13> kPairs = {{
    {ElementType::kBoolean, P::BOOL},
    {ElementType::kU8, P::UINT8},
    {ElementType::kI8, P::INT8},
    {ElementType::kU16, P::UINT16},
    {ElementType::kI16, P::INT16},
    {ElementType::kU32, P::UINT32},
    {ElementType::kI32, P::INT32},
    {ElementType::kU64, P::UINT64},
    {ElementType::kI64, P::INT64},
    {ElementType::kF16, P::FLOAT16},
    {ElementType::kBf16, P::BFLOAT16},
    {ElementType::kF32, P::FLOAT},
    {ElementType::kF64, P::DOUBLE},
}};

}  // namespace

std::optional<int32_t> OnnxDataType(ElementType t) {
  for (const auto& [e, d] : kPairs) {
    if (e == t) return d;
  }
  return std::nullopt;
}

std::optional<ElementType> ElementTypeOfOnnx(int32_t data_type) {
  for (const auto& [e, d] : kPairs) {
    if (d == data_type) return e;
  }
  return std::nullopt;
}

}  // namespace dmconf::onnx_io
