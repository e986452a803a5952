// One golden test vector in memory: a case, the expected outcome, where it comes from and the
// equivalence classes it belongs to. Files hold it as `dmconf-vector/1` JSON (vector_file.h,
// docs/vector-format.md).
//
// Example (save an OpCase with the oracle's verdict, e.g. a minimised failure):
//   Provenance p;
//   p.kind = "regression";
//   p.found_by = "backend:foo";
//   p.note = "depth_first read as blocks_first";
//   absl::StatusOr<VectorCase> v = VectorCaseFromOracle(c, p, {});
//   WriteVectorFile("vectors/regressions/" + v->c.id + ".json", *v);
#ifndef DMCONF_HARNESS_IO_VECTOR_CASE_H_
#define DMCONF_HARNESS_IO_VECTOR_CASE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "oracle/op_case.h"
#include "oracle/oracle.h"

namespace dmconf::io {

// Where a vector comes from. Only the members that apply are written.
struct Provenance {
  // "generated" (generator, profile, seed), "spec_example" (source: the spec section),
  // "external" (source: the external set and test; path: the file it was converted from),
  // "regression" (found_by: property | fuzz | backend:NAME; note: what it found; seed and
  // index: those of the generated case it was, when it was one), "hand_written" (note).
  std::string kind = "generated";
  std::string generator;
  std::string profile;
  std::optional<uint64_t> seed;
  // The case's index in its generator's stream of that seed (its id ends in them too).
  std::optional<uint64_t> index;
  std::string source;
  std::string path;
  std::string found_by;
  std::string note;
};

// The provenance kinds above.
bool IsKnownProvenanceKind(absl::string_view kind);

struct VectorCase {
  // op, attributes and inputs; c.id is the vector's stable id (also its file name less
  // ".json"); c.origin is set on reading to "vector <file>".
  OpCase c;
  // One flag per input, data first: true when the input is a constant of the graph (known at
  // compile time), false for a runtime input. Defaults: data runtime, the other inputs constant.
  std::vector<bool> constant;
  // The expected outcome: kind, rule (must_reject / unspecified) and output (valid).
  Expectation expected;
  Provenance provenance;
  // Equivalence classes ("op:SpaceToDepth", "type:f16", "special:nan", ...), sorted, unique.
  std::vector<std::string> classes;
};

// Input names of an op, data first: {"data"} or {"data", "block_shape", "pads_begin",
// "pads_end"} (SpaceToBatch) / {..., "crops_begin", "crops_end"} (BatchToSpace).
std::vector<std::string> InputNames(Op op);

// The default constant flags for a case (data runtime, the rest constant).
std::vector<bool> DefaultConstantFlags(const OpCase& c);

// Ids are 1-200 characters of [A-Za-z0-9._+-] (they are file names).
bool IsValidVectorId(absl::string_view id);

// The classes that follow from the case and its expectation alone: op:, type:, rank:, mode:,
// auto_pad:, int_type:, expect:, rule:, zero_sized, special:nan / snan / inf / neg_zero /
// subnormal, special:int_min / int_max.
std::vector<std::string> DerivedClasses(const OpCase& c, const Expectation& e);

// Builds a vector from a case with the oracle's expectation; classes = derived + extra, sorted.
// `eval` is passed to Evaluate (threads; the expectation does not depend on it).
// Errors: the oracle's (malformed cases), or an invalid id.
absl::StatusOr<VectorCase> VectorCaseFromOracle(OpCase c, const Provenance& provenance,
                                                const std::vector<std::string>& extra_classes,
                                                const EvalOptions& eval = {});

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_IO_VECTOR_CASE_H_
