// OpenVINO element types <-> ONNX TensorProto.DataType (ONNX 1.12, opsets up to 17).
//
//   boolean BOOL, u8 UINT8, i8 INT8, u16 UINT16, i16 INT16, u32 UINT32, i32 INT32, u64 UINT64,
//   i64 INT64, f16 FLOAT16, bf16 BFLOAT16, f32 FLOAT, f64 DOUBLE.
// The sub-byte types, nf4, f4e2m1 and the f8 types have no ONNX 1.12 type.
//
// Example:
//   OnnxDataType(ElementType::kF16) == onnx::TensorProto::FLOAT16
//   OnnxDataType(ElementType::kU4) == std::nullopt
#ifndef DMCONF_HARNESS_ONNX_ONNX_TYPES_H_
#define DMCONF_HARNESS_ONNX_ONNX_TYPES_H_

#include <cstdint>
#include <optional>

#include "oracle/element_type.h"

namespace dmconf::onnx_io {

// The ONNX data type of an element type, or nullopt when ONNX 1.12 has none.
std::optional<int32_t> OnnxDataType(ElementType t);

// The element type of an ONNX data type, or nullopt (strings, complex numbers, unknown numbers).
std::optional<ElementType> ElementTypeOfOnnx(int32_t data_type);

}  // namespace dmconf::onnx_io

#endif  // DMCONF_HARNESS_ONNX_ONNX_TYPES_H_
