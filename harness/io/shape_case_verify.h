// A shape-case file's stored answer and the oracle's: filled in when a file is made, checked
// when one is read (the sibling of vector_verify.h for `dmconf-shape-case/1`).
//
// Example:
//   absl::Status fresh = VerifyShapeCaseExpectation(*f, "vectors/shapes/x.json");
//   // "shape_case.expected.stale: x.json: the file expects [1,[2,4]], the oracle now answers ..."
#ifndef DMCONF_HARNESS_IO_SHAPE_CASE_VERIFY_H_
#define DMCONF_HARNESS_IO_SHAPE_CASE_VERIFY_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "harness/io/shape_case.h"

namespace dmconf::io {

// Fills f.expected from OracleShapeAnswer(f.c) (errors: the oracle's case.* error).
absl::Status FillShapeExpectation(ShapeCaseFile& f);

// Error "shape_case.expected.stale: <file>: ..." when the stored answer (kind, rule, output)
// differs from the oracle's now; the oracle's case.* error when it refuses the case.
absl::Status VerifyShapeCaseExpectation(const ShapeCaseFile& f, absl::string_view file);

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_IO_SHAPE_CASE_VERIFY_H_
