// `dmconf-vector/1` files: one JSON document per case (docs/vector-format.md,
// vectors/schema/dmconf-vector-1.schema.json).
//
// SerializeVector is canonical: the same VectorCase always gives the same bytes. Reading never
// crashes and never trusts the file: every error is an absl::Status whose message starts with
// a rule id and names the file and the JSON location, e.g.
//   "vector.json.syntax: bad.json: line 3, column 1: unexpected end of input"
//   "case.tensor.byte_size: x.json: /inputs/0/data: 5 values, but shape [2,3] has 6 elements"
//
// Example:
//   absl::StatusOr<VectorCase> v = ReadVectorFile("vectors/golden/s2d.example.json");
//   absl::Status s = WriteVectorFile("/tmp/out/" + v->c.id + ".json", *v);
#ifndef DMCONF_HARNESS_IO_VECTOR_FILE_H_
#define DMCONF_HARNESS_IO_VECTOR_FILE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/base/json_location.h"
#include "harness/io/vector_case.h"
#include "nlohmann/json.hpp"

namespace dmconf::io {

// Largest vector file read (bytes).
inline constexpr int64_t kMaxVectorFileBytes = int64_t{256} << 20;
// Deepest JSON nesting accepted (a vector file needs 5).
inline constexpr int kMaxJsonDepth = 32;

// Canonical text of a vector (DumpCanonical of VectorCaseToJson).
std::string SerializeVector(const VectorCase& v);

// Parses JSON text with the depth limit; errors vector.json.syntax / vector.json.nesting,
// naming `file`. For other dmconf JSON files too (manifests).
// With `deferred`, big "data" arrays are left out of the result (json_location.h).
absl::StatusOr<nlohmann::json> ParseJsonText(absl::string_view text, absl::string_view file,
                                             DeferredArrays* deferred = nullptr);

// Parses a vector from its text; `file` is used in messages only.
absl::StatusOr<VectorCase> ParseVector(absl::string_view text, absl::string_view file);

absl::StatusOr<VectorCase> ReadVectorFile(const std::string& path);
// Writes atomically; creates no directories. A file that ReadVectorFile would refuse (above
// kMaxVectorFileBytes) is not written: "vector.write.too_large", so that every vector file
// dmconf writes, a saved failing case above all, can be read back by the repro that names it.
absl::Status WriteVectorFile(const std::string& path, const VectorCase& v);

// Every vector file under dir (recursively): files ending in ".json", except MANIFEST.json and
// "*.schema.json"; sorted by path. Errors: io.read (dir missing or unreadable).
absl::StatusOr<std::vector<std::string>> ListVectorFiles(const std::string& dir);

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_IO_VECTOR_FILE_H_
