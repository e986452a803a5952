// Bounded parsing of ONNX files with the ONNX library's generated classes (protobuf).
//
// A hostile file must not make the parser allocate far beyond its size:
// - model.onnx files are refused above kMaxOnnxModelBytes (64 KiB) before they are read. The
//   models of these ops are a few hundred bytes (an exported ExtractImagePatches with many
//   kernel positions a few KiB); at 64 KiB the densest protobuf (a run of empty sub-messages)
//   parses into under 10 MB (measured: 32,763 empty attributes, 9.0 MB). Protobuf's own
//   recursion limit (100 levels) bounds the nesting.
// - .pb tensor files are refused above kMaxOnnxTensorFileBytes (256 MiB, the vector-file limit)
//   before they are read, and their top level is walked with protobuf's CodedInputStream before
//   the parse: only the fields a TensorProto may hold are accepted, at most 64 dims, and none of
//   the repeated fields that expand in memory (int32_data, int64_data, uint64_data,
//   double_data, string_data, external_data: up to 16 bytes of memory per byte of file); the
//   data is read from raw_data (or float_data for float), which cost what they weigh.
// Errors name the file and a rule: "onnx.protobuf: <file>: ..." (not protobuf, or a field the
// reader does not accept), "onnx.tensor.storage: <file>: ..." (data kept in a field the reader
// does not read), "io.read.too_large: ...".
//
// Example:
//   absl::StatusOr<onnx::ModelProto> m = ReadOnnxModel(dir + "/model.onnx");
//   absl::StatusOr<onnx::TensorProto> t = ReadOnnxTensor(dir + "/test_data_set_0/input_0.pb");
#ifndef DMCONF_HARNESS_ONNX_ONNX_PARSE_H_
#define DMCONF_HARNESS_ONNX_ONNX_PARSE_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "onnx/onnx_pb.h"

namespace dmconf::onnx_io {

inline constexpr int64_t kMaxOnnxModelBytes = int64_t{64} << 10;
inline constexpr int64_t kMaxOnnxTensorFileBytes = int64_t{256} << 20;

// Parses a serialised ModelProto of at most kMaxOnnxModelBytes. `file` names it in errors.
absl::StatusOr<::onnx::ModelProto> ParseOnnxModel(absl::string_view bytes, absl::string_view file);

// Parses a serialised TensorProto after the top-level walk above.
absl::StatusOr<::onnx::TensorProto> ParseOnnxTensorProto(absl::string_view bytes,
                                                         absl::string_view file);

// Reads and parses a file (refused by its size before it is read).
absl::StatusOr<::onnx::ModelProto> ReadOnnxModel(const std::string& path);
absl::StatusOr<::onnx::TensorProto> ReadOnnxTensor(const std::string& path);

}  // namespace dmconf::onnx_io

#endif  // DMCONF_HARNESS_ONNX_ONNX_PARSE_H_
