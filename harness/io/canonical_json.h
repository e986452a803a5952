// The canonical text form of dmconf JSON files: the same value always gives the same bytes.
//
// Members keep their insertion order (writers insert in a fixed order); objects are indented by
// two spaces, one member per line; arrays of scalars stay on one line, except a "data" array
// beside a "shape" member, which is broken into rows of the innermost dim (trailing dims of 1
// merged with the next; at most 16 values a line) so a tensor reads like a matrix. Numbers are
// integers only (writers never emit fractions); strings are escaped as JSON requires, UTF-8 kept.
// The text ends with a newline.
//
// Example:
//   nlohmann::ordered_json j = {{"shape", {2, 2}}, {"data", {1, 2, 3, 4}}};
//   DumpCanonical(j) == "{\n  \"shape\": [2, 2],\n  \"data\": [\n    1, 2,\n    3, 4\n  ]\n}\n"
#ifndef DMCONF_HARNESS_IO_CANONICAL_JSON_H_
#define DMCONF_HARNESS_IO_CANONICAL_JSON_H_

#include <string>
#include <vector>

#include "harness/base/json_location.h"
#include "nlohmann/json.hpp"
#include "oracle/tensor.h"

namespace dmconf::io {

// Big tensors written without a parsed copy of their elements (16 bytes or more each): the
// writer (TensorToJson with refs) puts a placeholder in "data", a binary value whose subtype
// indexes `tensors`, and DumpCanonical writes that tensor's elements there, exactly as it would
// write the parsed array.
struct TensorRefs {
  size_t threshold = kStreamedArrayElements;  // tensors with more elements get a placeholder
  std::vector<const Tensor*> tensors;
  // DumpCanonical reserves room for the text of these tensors up to this many bytes, so that
  // the text is not copied as it grows (reserved pages that are never written cost no memory).
  size_t max_reserve = size_t{257} << 20;
};

std::string DumpCanonical(const nlohmann::ordered_json& j, const TensorRefs* refs = nullptr);

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_IO_CANONICAL_JSON_H_
