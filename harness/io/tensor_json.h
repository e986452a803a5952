// JSON form of a Tensor: {"type": "f32", "shape": [2, 3], "data": [0, 1, 2, 3, 4, 5]}.
//
// `data` lists the elements in row-major order, one JSON value each (element_json.h), whatever
// the packing: sub-byte tensors are unpacked on writing and packed again on reading, so the
// element bits round-trip exactly (padding bits of the last byte are zero after reading).
//
// Reading never allocates from an untrusted shape: dims are checked (non-negative, product
// representable) and the element count must equal the length of `data`, which the file itself
// holds, before any tensor storage is made.
//
// Example:
//   nlohmann::ordered_json j = TensorToJson(t);
//   absl::StatusOr<Tensor> back = TensorFromJson(json(j), JsonLoc{"x.json", "/output"}, {});
//   *back == t
#ifndef DMCONF_HARNESS_IO_TENSOR_JSON_H_
#define DMCONF_HARNESS_IO_TENSOR_JSON_H_

#include <initializer_list>

#include "absl/status/statusor.h"
#include "harness/base/json_location.h"
#include "harness/io/canonical_json.h"
#include "nlohmann/json.hpp"
#include "oracle/tensor.h"

namespace dmconf::io {

// Most dims a tensor in a file may have.
inline constexpr size_t kMaxRank = 64;

// With `refs`, a tensor above refs->threshold elements gets a placeholder for its data that
// DumpCanonical(j, refs) writes out (canonical_json.h, TensorRefs); `t` must outlive that.
nlohmann::ordered_json TensorToJson(const Tensor& t, TensorRefs* refs = nullptr);

// Reads {"type", "shape", "data"}; `extra_keys` are further members the caller reads itself
// (an input's "name" and "constant"). Errors name a rule, the file and the JSON pointer:
// case.element_type.known, case.tensor.dims_nonnegative, case.tensor.size_representable,
// case.tensor.byte_size (data length differs from the shape's element count),
// vector.element.value, vector.field.*.
absl::StatusOr<Tensor> TensorFromJson(const nlohmann::json& j, const JsonLoc& loc,
                                      std::initializer_list<absl::string_view> extra_keys);

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_IO_TENSOR_JSON_H_
