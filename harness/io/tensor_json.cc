#include "harness/io/tensor_json.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/io/element_json.h"

namespace dmconf::io {

nlohmann::ordered_json TensorToJson(const Tensor& t, TensorRefs* refs) {
  nlohmann::ordered_json j;
  j["type"] = std::string(ElementTypeName(t.type));
  j["shape"] = t.shape;
  if (refs != nullptr && t.NumElements() > static_cast<int64_t>(refs->threshold)) {
    j["data"] = nlohmann::ordered_json::binary({}, refs->tensors.size());
    refs->tensors.push_back(&t);
    return j;
  }
  nlohmann::ordered_json data = nlohmann::ordered_json::array();
  const int64_t n = t.NumElements();
  for (int64_t i = 0; i < n; ++i) data.push_back(EncodeElement(t.type, t.GetBits(i)));
  j["data"] = std::move(data);
  return j;
}

namespace {

using Json = nlohmann::json;

// The members of a tensor object: type, shape, data and `extra_keys`, no other.
absl::Status CheckTensorMembers(const Json& j, const JsonLoc& loc,
                                std::initializer_list<absl::string_view> extra_keys) {
  if (!j.is_object()) {
    return LocError(
        "vector.field.type", loc,
        absl::StrCat("a tensor is an object {type, shape, data}, found ", j.type_name()));
  }
  std::vector<absl::string_view> allowed = {"type", "shape", "data"};
  allowed.insert(allowed.end(), extra_keys.begin(), extra_keys.end());
  for (const auto& [key, value] : j.items()) {
    bool known = false;
    for (absl::string_view a : allowed) known = known || a == key;
    if (!known) {
      return LocError("vector.field.unknown", loc.Key(key),
                      absl::StrCat("unknown member '", key, "' of a tensor"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<ElementType> ReadTensorType(const Json& j, const JsonLoc& loc) {
  absl::StatusOr<const Json*> type_j = Member(j, loc, "type", true);
  if (!type_j.ok()) return type_j.status();
  absl::StatusOr<std::string> type_name = ReadString(**type_j, loc.Key("type"));
  if (!type_name.ok()) return type_name.status();
  absl::StatusOr<ElementType> type = ParseElementType(*type_name);
  if (!type.ok()) {
    return LocError("case.element_type.known", loc.Key("type"),
                    absl::StrCat("unknown element type '", type_name->substr(0, 40),
                                 "' (expected an OpenVINO name: boolean, u1, ..., f64)"));
  }
  return *type;
}

// The tensor's shape; `*count` is set to its element count, which must fit in int64 unless a
// dim is 0.
absl::StatusOr<std::vector<int64_t>> ReadTensorShape(const Json& j, const JsonLoc& loc,
                                                     int64_t* count) {
  absl::StatusOr<const Json*> shape_j = Member(j, loc, "shape", true);
  if (!shape_j.ok()) return shape_j.status();
  absl::StatusOr<std::vector<int64_t>> shape = ReadInt64List(**shape_j, loc.Key("shape"), kMaxRank);
  if (!shape.ok()) return shape.status();
  *count = 1;
  bool overflow = false;
  for (size_t k = 0; k < shape->size(); ++k) {
    const int64_t d = (*shape)[k];
    if (d < 0) {
      return LocError("case.tensor.dims_nonnegative", loc.Key("shape").Index(k),
                      absl::StrCat("dim ", d, " is negative"));
    }
    if (!overflow) {
      std::optional<int64_t> p = CheckedMul(*count, d);
      if (p) {
        *count = *p;
      } else {
        overflow = true;
      }
    }
  }
  // A zero dim anywhere makes the tensor empty even when other dims' product overflows.
  bool has_zero = false;
  for (int64_t d : *shape) has_zero = has_zero || d == 0;
  if (has_zero) {
    *count = 0;
  } else if (overflow) {
    return LocError("case.tensor.size_representable", loc.Key("shape"),
                    absl::StrCat("the element count of shape ", ShapeToString(*shape),
                                 " does not fit in int64"));
  }
  return shape;
}

// Decodes the elements of a data array the parsed document left out (json_location.h,
// DeferredArrays) from the text into t.
absl::Status DecodeDeferredElements(const JsonLoc& data_loc, const DeferredArrays& deferred,
                                    ElementType type, Tensor* t) {
  absl::Status error = absl::OkStatus();
  VisitArrayElements(deferred.text, data_loc.pointer, [&](size_t i, const Json& value) {
    absl::StatusOr<uint64_t> bits = DecodeElement(type, value);
    if (!bits.ok()) {
      error = LocError("vector.element.value", data_loc.Index(i), bits.status().message());
      return false;
    }
    t->SetBits(static_cast<int64_t>(i), *bits);
    return true;
  });
  return error;
}

// Decodes the elements of a parsed data array into t.
absl::Status DecodeElements(const Json& data, const JsonLoc& data_loc, ElementType type,
                            Tensor* t) {
  for (size_t i = 0; i < data.size(); ++i) {
    absl::StatusOr<uint64_t> bits = DecodeElement(type, data[i]);
    if (!bits.ok()) {
      return LocError("vector.element.value", data_loc.Index(i), bits.status().message());
    }
    t->SetBits(static_cast<int64_t>(i), *bits);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Tensor> TensorFromJson(const Json& j, const JsonLoc& loc,
                                      std::initializer_list<absl::string_view> extra_keys) {
  absl::Status s = CheckTensorMembers(j, loc, extra_keys);
  if (!s.ok()) return s;
  absl::StatusOr<ElementType> type = ReadTensorType(j, loc);
  if (!type.ok()) return type.status();
  int64_t count = 0;
  absl::StatusOr<std::vector<int64_t>> shape = ReadTensorShape(j, loc, &count);
  if (!shape.ok()) return shape.status();

  absl::StatusOr<const Json*> data_j = Member(j, loc, "data", true);
  if (!data_j.ok()) return data_j.status();
  const Json& data = **data_j;
  if (!data.is_array()) {
    return LocError("vector.field.type", loc.Key("data"),
                    absl::StrCat("expected an array of elements, found ", data.type_name()));
  }
  // A big array was left out of the parsed document (json_location.h, DeferredArrays): its
  // length was noted, and its elements are decoded from the text.
  const JsonLoc data_loc = loc.Key("data");
  const uint64_t* deferred = nullptr;
  if (loc.deferred != nullptr && data.empty()) {
    auto it = loc.deferred->counts.find(data_loc.pointer);
    if (it != loc.deferred->counts.end()) deferred = &it->second;
  }
  const uint64_t length = deferred != nullptr ? *deferred : data.size();
  if (static_cast<uint64_t>(count) != length) {
    return LocError("case.tensor.byte_size", data_loc,
                    absl::StrCat(length, " values, but shape ", ShapeToString(*shape), " has ",
                                 count, " elements"));
  }
  // Storage is bounded by the data array the file holds (at most 8 bytes per value) and by
  // the limit for one tensor.
  absl::StatusOr<Tensor> t = Tensor::Zeros(
      *type, *shape, std::min<int64_t>(static_cast<int64_t>(length) * 8 + 8, kMaxTensorBytes));
  if (!t.ok()) return LocError("case.tensor.too_large", loc, t.status().message());
  s = deferred != nullptr ? DecodeDeferredElements(data_loc, *loc.deferred, *type, &*t)
                          : DecodeElements(data, data_loc, *type, &*t);
  if (!s.ok()) return s;
  return t;
}

}  // namespace dmconf::io
