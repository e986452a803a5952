#include "harness/onnx/onnx_parse.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include "absl/strings/str_cat.h"
#include "harness/base/files.h"

namespace dmconf::onnx_io {
namespace {

using ::google::protobuf::internal::WireFormatLite;
using ::google::protobuf::io::CodedInputStream;

absl::Status Malformed(absl::string_view file, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("onnx.protobuf: ", file, ": ", what));
}

// TensorProto field numbers (onnx.proto).
enum TensorField : uint32_t {
  kDims = 1,
  kDataType = 2,
  kSegment = 3,
  kFloatData = 4,
  kInt32Data = 5,
  kStringData = 6,
  kInt64Data = 7,
  kName = 8,
  kRawData = 9,
  kDoubleData = 10,
  kUint64Data = 11,
  kDocString = 12,
  kExternalData = 13,
  kDataLocation = 14,
};

constexpr int kMaxDims = 64;

// The walk before the parse (onnx_parse.h): fields, dims count, no expanding repeated fields.
absl::Status CheckTensorFields(absl::string_view bytes, absl::string_view file) {
  CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                      static_cast<int>(bytes.size()));
  // An upper bound on the dims' count (a packed dim takes at least one byte); the exact
  // count is checked after the parse (TensorFromProto).
  uint64_t dim_bound = 0;
  constexpr uint64_t kMaxDimBound = uint64_t{kMaxDims} * 10;
  while (true) {
    const uint32_t tag = in.ReadTag();
    if (tag == 0) break;
    const uint32_t number = WireFormatLite::GetTagFieldNumber(tag);
    switch (number) {
      case kDims:
        if (WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
          uint32_t length = 0;
          if (!in.ReadVarint32(&length)) return Malformed(file, "dims cut off");
          dim_bound += length;
          if (dim_bound > kMaxDimBound || !in.Skip(static_cast<int>(length))) {
            return Malformed(file, absl::StrCat("dims cut off or more than ", kMaxDims));
          }
          continue;
        }
        if (++dim_bound > kMaxDimBound) {
          return Malformed(file, absl::StrCat("more than ", kMaxDims, " dims"));
        }
        break;
      case kInt32Data:
      case kStringData:
      case kInt64Data:
      case kDoubleData:
      case kUint64Data:
      case kExternalData:
        return absl::InvalidArgumentError(
            absl::StrCat("onnx.tensor.storage: ", file, ": TensorProto field ", number,
                         " holds the data; only raw_data (or float_data for float) is read"));
      case kDataType:
      case kSegment:
      case kFloatData:
      case kName:
      case kRawData:
      case kDocString:
      case kDataLocation:
        break;
      default:
        return Malformed(file, absl::StrCat("TensorProto has no field ", number));
    }
    if (!WireFormatLite::SkipField(&in, tag)) {
      return Malformed(file, absl::StrCat("field ", number, " is malformed or cut off"));
    }
  }
  if (!in.ConsumedEntireMessage() || in.CurrentPosition() != static_cast<int>(bytes.size())) {
    return Malformed(file, "not a TensorProto (bad field key)");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<::onnx::ModelProto> ParseOnnxModel(absl::string_view bytes, absl::string_view file) {
  if (static_cast<int64_t>(bytes.size()) > kMaxOnnxModelBytes) {
    return absl::InvalidArgumentError(absl::StrCat("io.read.too_large: ", file, ": ", bytes.size(),
                                                   " bytes, a model may have ",
                                                   kMaxOnnxModelBytes));
  }
  ::onnx::ModelProto m;
  if (!m.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Malformed(file, "not a ModelProto");
  }
  return m;
}

absl::StatusOr<::onnx::TensorProto> ParseOnnxTensorProto(absl::string_view bytes,
                                                         absl::string_view file) {
  if (static_cast<int64_t>(bytes.size()) > kMaxOnnxTensorFileBytes) {
    return absl::InvalidArgumentError(absl::StrCat("io.read.too_large: ", file, ": ", bytes.size(),
                                                   " bytes, a tensor may have ",
                                                   kMaxOnnxTensorFileBytes));
  }
  absl::Status s = CheckTensorFields(bytes, file);
  if (!s.ok()) return s;
  ::onnx::TensorProto t;
  if (!t.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return Malformed(file, "not a TensorProto");
  }
  return t;
}

absl::StatusOr<::onnx::ModelProto> ReadOnnxModel(const std::string& path) {
  absl::StatusOr<std::string> bytes = io::ReadFileToString(path, kMaxOnnxModelBytes);
  if (!bytes.ok()) return bytes.status();
  return ParseOnnxModel(*bytes, path);
}

absl::StatusOr<::onnx::TensorProto> ReadOnnxTensor(const std::string& path) {
  absl::StatusOr<std::string> bytes = io::ReadFileToString(path, kMaxOnnxTensorFileBytes);
  if (!bytes.ok()) return bytes.status();
  return ParseOnnxTensorProto(*bytes, path);
}

}  // namespace dmconf::onnx_io
