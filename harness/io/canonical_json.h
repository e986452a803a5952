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

#include "nlohmann/json.hpp"

namespace dmconf::io {

std::string DumpCanonical(const nlohmann::ordered_json& j);

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_IO_CANONICAL_JSON_H_
