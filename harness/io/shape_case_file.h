// `dmconf-shape-case/1` files: one shape-inference case (shape_case.h) per JSON document, with the
// oracle's answer (docs/shape-case-format.md, vectors/schema/dmconf-shape-case-1.schema.json). The
// sibling of `dmconf-vector/1` (vector_file.h) for cases without data: partial shapes
// (interval dims, unknown rank) and SpaceToBatch / BatchToSpace inputs that are not constants.
//
// SerializeShapeCase is canonical: the same ShapeCaseFile always gives the same bytes. Reading
// never crashes and never trusts the file: every error is an absl::Status whose message starts
// with a rule id and names the file and the JSON location, e.g.
//   "shape_case.dim.interval: x.json: /data/shape/1: lo 8 is above hi 2"
//
// Example:
//   absl::StatusOr<ShapeCaseFile> f = ReadShapeCaseFile("vectors/shapes/x.json");
//   ShapeCaseFile g;  g.id = "my-case";  g.origin = "hand";  g.c = c;
//   if (FillShapeExpectation(g).ok()) WriteShapeCaseFile("/tmp/my-case.json", g);
//   (FillShapeExpectation and VerifyShapeCaseExpectation: shape_case_verify.h.)
#ifndef DMCONF_HARNESS_IO_SHAPE_CASE_FILE_H_
#define DMCONF_HARNESS_IO_SHAPE_CASE_FILE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/io/shape_case.h"

namespace dmconf::io {

// Largest shape-case file read or written (bytes). Refused before parsing, so a parse takes at
// most a few times this much memory.
inline constexpr int64_t kMaxShapeCaseFileBytes = int64_t{1} << 20;

// Canonical text (DumpCanonical, members in a fixed order).
std::string SerializeShapeCase(const ShapeCaseFile& f);

// Parses a shape case from its text; `file` is used in messages only.
absl::StatusOr<ShapeCaseFile> ParseShapeCase(absl::string_view text, absl::string_view file);

// Reads a file of at most kMaxShapeCaseFileBytes (io.read, io.read.too_large) and parses it.
absl::StatusOr<ShapeCaseFile> ReadShapeCaseFile(const std::string& path);

// Writes atomically (io::WriteFileAtomically); creates no folders. A text above
// kMaxShapeCaseFileBytes is not written (shape_case.write.too_large), so every file written
// can be read back by the repro line that names it.
absl::Status WriteShapeCaseFile(const std::string& path, const ShapeCaseFile& f);

// True when the text's top-level "schema" is dmconf-shape-case/1: a cheap sniff of the text (or
// of its first few KiB), for loaders that route a file to the vector reader or to this one.
bool LooksLikeShapeCase(absl::string_view text);

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_IO_SHAPE_CASE_FILE_H_
