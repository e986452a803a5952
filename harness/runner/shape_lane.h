// The shape-inference lane of a run: shape cases (static, without data, or partial) given to
// a backend's InferStatic / InferPartial and judged against the oracle's answer
// (harness/compare/shape_judge.h). Runs for every backend that declares infer_static or
// infer_partial, after its kernel cases; each case's result has lane kShapeStatic or
// kShapePartial.
//
// The cases (BuildShapeCases): every catalogue case widened into a partial case
// ("shape/<catalogue id>"), each hand-made one also as it is ("shape/<catalogue id>/static"),
// and a seeded sweep of generated shape cases, static ones
// weighted towards the overflow lane (dims and attributes near 2^63, no data) and partial
// ones (intervals, unknown ranks, non-constant inputs): "shape-static-..." / "shape-partial-...".
// Shape-case files (dmconf-shape-case/1, docs/shape-case-format.md) given to --vectors run
// here too, judged against the answer the file records.
//
// Example:
//   std::vector<PreparedShapeCase> shapes =
//       PrepareShapeCases(BuildShapeCases(catalogue, {.seed = 1, .count = 400}));
//   const ShapeCaseList list(std::move(shapes));   // case_list.h
//   RunOptions o;  o.shape_cases = &list;          // RunBackend appends their results
#ifndef DMCONF_HARNESS_RUNNER_SHAPE_LANE_H_
#define DMCONF_HARNESS_RUNNER_SHAPE_LANE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "harness/backend/backend.h"
#include "harness/backend/case_class.h"
#include "harness/gen/partial.h"
#include "oracle/partial/partial_infer.h"

namespace dmconf {

struct CaseResult;
struct Invocation;
struct RunOptions;

struct PreparedShapeCase {
  ShapeCase s;
  absl::StatusOr<PartialResult> expectation = absl::UnknownError("not evaluated");
  std::string source_file;  // the shape-case file it was read from (empty: generated)
};

// Computes each case's oracle answer (OracleShapeAnswer), in `threads` threads (the answers
// depend on neither); cases the oracle calls malformed (`case.*`: negative dims, a wrong
// number of integer inputs) are left out.
std::vector<PreparedShapeCase> PrepareShapeCases(std::vector<ShapeCase> cases, int threads = 1);
// The oracle's answer to each case (OracleShapeAnswer), in `threads` threads.
std::vector<absl::StatusOr<PartialResult>> OracleShapeAnswers(const std::vector<ShapeCase>& cases,
                                                              int threads);
// The same, the prepared cases appended to `out`.
void PrepareShapeCases(std::vector<ShapeCase> cases, int threads,
                       std::vector<PreparedShapeCase>& out);

struct ShapeLaneOptions {
  uint64_t seed = 1;
  // Generated partial cases; half as many static ones. 0: only the widened catalogue cases.
  int count = 400;
  // Empty: every op / element type.
  std::vector<Op> ops;
  std::vector<ElementType> types;
  // The widened catalogue cases are made in this many threads (`dmconf run --jobs`); the cases
  // are the same for any count.
  int threads = 1;
};

std::vector<ShapeCase> BuildShapeCases(const std::vector<OpCase>& catalogue,
                                       const ShapeLaneOptions& o);
// BuildShapeCases in parts, for a catalogue handed over a block at a time
// (harness/suites/catalogue.h ForEachCatalogueBlock): the widened cases of catalogue positions
// [first, first + block.size()) appended to `out`, in order, each hand-made one followed by its
// static form (StaticCatalogueCase); and the cases that follow every widened one (the wrap
// cases, then the generated static and partial cases).
// With `positions`, each widened case's catalogue position is appended to it.
void WidenCatalogueCases(const std::vector<OpCase>& block, size_t first, const ShapeLaneOptions& o,
                         std::vector<ShapeCase>& out, std::vector<size_t>* positions = nullptr);
// Catalogue case `c` widened (its own chooser: MixSeed(seed, CaseIdHash(c.id)), so the same
// whatever --ops), or nullopt (more than three integer inputs, which the partial form cannot
// hold, or not wanted by o.ops / o.types).
std::optional<ShapeCase> WidenCatalogueCase(const OpCase& c, const ShapeLaneOptions& o);
// A hand-made catalogue case (origin example, model, rule or edge) as a static shape case,
// "shape/<id>/static", or nullopt (another origin, more than three integer inputs, not
// wanted). WidenCatalogueCases appends it after the case's widening.
std::optional<ShapeCase> StaticCatalogueCase(const OpCase& c, const ShapeLaneOptions& o);
std::vector<ShapeCase> GeneratedShapeCases(const ShapeLaneOptions& o);

// Whether the backend's declared slices cover the shape case: its op, a declared element
// type, the rank in range (an unknown rank is covered) and a declared mode / auto_pad; a case
// outside only by an illegal mode, auto_pad or rank is covered (it must be refused, whatever
// the backend declares: backend.h OutsideOnlyByIllegalValues).
bool ShapeCaseCovered(const Capabilities& caps, const PartialCase& c);

// Which entry a backend is asked for the case: kShapeStatic (InferStatic: a static case and
// infer_static declared), kShapePartial (InferPartial: declared, and the case is partial or
// the backend has no InferStatic), or nullopt (the backend is not asked).
std::optional<CaseLane> ShapeLaneOf(const Capabilities& caps, const PartialCase& c);
// The same for a case known by whether it is static.
std::optional<CaseLane> ShapeLaneOf(const Capabilities& caps, bool is_static);

// A partial shape as `dmconf infer-shape` takes it: dims N, lo..hi, lo.. or ?, comma-separated
// ("2..5,?"); "..." for an unknown rank.
std::string PartialShapeText(const PartialShape& s);

// What a shape case asked (its failure card): the attributes in a line, with a non-constant
// SpaceToBatch / BatchToSpace input as "?[shape]" ("block_shape=?[4]"), and each input's
// element type and shape as written ("data f32 2..5,?").
Invocation DescribeShapeInvocation(const PartialCase& c);

// One shape case end to end (ShapeLaneOf must name a lane): unsupported when not covered, else
// the answer judged. The result's expected / rule are the oracle's; verdicts as in
// shape_judge.h; failure and known status as for kernel cases; a failing verdict carries its
// invocation (DescribeShapeInvocation).
CaseResult RunShapeCase(Backend& backend, const std::string& name, const Capabilities& caps,
                        const PreparedShapeCase& p, const RunOptions& options);
// The same with the backend's answer given ahead (ShapeBatches, run_ahead.h); a nullopt one is
// asked of the backend here.
CaseResult RunShapeCase(Backend& backend, const std::string& name, const Capabilities& caps,
                        const PreparedShapeCase& p, const RunOptions& options,
                        std::optional<ShapeOutcome> answered);
// What RunShapeCase asks the backend for the case, as a batch item pointing into p.s.c
// (InferStatic or InferPartial), or nullopt when it asks nothing (no lane, not covered, or no
// oracle answer to judge by).
std::optional<BatchItem> ShapeQuestion(const Capabilities& caps, const PreparedShapeCase& p);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_RUNNER_SHAPE_LANE_H_
