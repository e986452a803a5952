// The golden set of shape-inference cases (`dmconf-shape-case/1` files,
// docs/shape-case-format.md): which cases it holds, and its staleness check. What `dmconf vectors
// generate-shapes` writes and `check-shapes` compares (harness/cli/cmd_shape_vectors.cc).
//
// The set is picked from the shape sweep (SeededShapeCase): the first cases, in index order, of
// each class (per op: one static case of each answer kind, one accepted and one refused near
// 2^63, one partial case of each kind, two with non-constant block inputs; two partial cases near
// 2^63, three of unknown rank) until its quota is full, so the same seed always gives the same
// files.
//
// Example:
//   absl::StatusOr<ShapeSet> set = BuildShapeSet(1);
//   io::WriteSet("vectors/shapes", set->files);
#ifndef DMCONF_HARNESS_SUITES_SHAPE_SET_H_
#define DMCONF_HARNESS_SUITES_SHAPE_SET_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/io/manifest.h"
#include "harness/suites/vector_set_files.h"

namespace dmconf {

// The generator named in the set's MANIFEST.json.
inline constexpr absl::string_view kShapeGenerator = "dmconf vectors generate-shapes";

struct ShapeSet {
  std::vector<io::SetFile> files;  // <id>.json in id order, then MANIFEST.json
  size_t cases = 0;
};

// The set for `seed`; every file reads back as written. Errors: a file that does not.
absl::StatusOr<ShapeSet> BuildShapeSet(uint64_t seed);

// WriteSet removes the files an earlier MANIFEST.json listed: a folder whose manifest another
// generator wrote (vectors/golden) must not be written over (`shape_case.set.foreign`).
absl::Status RefuseForeignShapeSet(const std::string& dir);

// The set in dir (made by generate-shapes; its MANIFEST.json says with which seed) against a
// fresh generation: one line per missing, extra or different file ("STALE ..."), or why it
// cannot be made ("BAD ..."). Empty: the set is current.
std::vector<std::string> CompareShapeSetWithRegenerated(const std::string& dir);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_SUITES_SHAPE_SET_H_
