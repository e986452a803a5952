// Generator-driven random testing of one backend without libFuzzer (`dmconf fuzz`): cases
// from harness/gen's seeded driver, all lanes (valid inside the backend's declared slices,
// one-rule-broken, overflow, and special values: one valid case in four holds the type's
// special values), each run end to end through the given backend (in `dmconf fuzz`, the
// isolated worker) until a time budget runs out. A failing verdict of a new kind (op, verdict,
// rule, diagnosed mistake) is a finding: saved as a vector file, shrunk (harness/shrink) and
// saved again as <id>.min.json, both with a repro line.
//
// A backend that declares infer_static or infer_partial also gets the shape-inference lane
// (explore_shapes.h), judged as `dmconf run`'s shape lane judges it. The two lanes share the
// time: each case goes to the lane that has had less of it so far. A shape finding (its kind
// starts with its lane, "shape_static/..." or "shape_partial/...") is saved as a
// dmconf-shape-case/1 file with a repro line, replayed, shrunk (harness/shrink/shrink_shape.h)
// and saved again as <id>.min.json, a dmconf-shape-case/1 file with its repro line. A backend with
// neither kernel slices nor shape inference has no lane: Explore returns at once with `lanes`
// empty.
//
// Example:
//   ExploreOptions o;  o.seconds = 60;  o.failures_dir = "findings";
//   ExploreResult r = Explore(isolated, "mine", caps, o, nullptr);
//   // r.cases run, r.findings (each with its saved files and repro lines)
#ifndef DMCONF_HARNESS_EXPLORE_EXPLORE_H_
#define DMCONF_HARNESS_EXPLORE_EXPLORE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/gen/generate.h"
#include "harness/runner/runner.h"
#include "harness/shrink/shrink.h"
#include "harness/shrink/shrink_shape.h"

namespace dmconf {

struct ExploreOptions {
  double seconds = 60;
  uint64_t seed = 1;
  std::string failures_dir = "dmconf-fuzz-findings";
  std::string repro_flag;  // "--backend NAME" or "--backend-lib PATH", for the repro lines
  bool shrink = true;
  double shrink_seconds = 10;
  int max_findings = 0;  // stop after this many findings; 0: run the whole time
  RunOptions run;        // timeout, strictness
};

struct Finding {
  CaseResult result;  // the first failing case of this kind (result.lane: its lane)
  // "<op>/<verdict>/<rule>/<mistake>"; a shape-lane finding: "<lane>/<op>/<verdict>/..."
  std::string kind;
  std::string vector_file, repro;
  std::optional<ShrunkCase> shrunk;
  std::optional<ShrunkShapeCase> shrunk_shape;  // a shape-lane finding shrunk (shrink_shape.h)
  std::string shrunk_file, shrunk_repro;
  double found_after_seconds = 0;
};

// The cases one lane ran, and the time they took (throughput: cases / seconds).
struct LaneStats {
  int64_t cases = 0, unsupported = 0, failing = 0;
  double seconds = 0;
};

struct ExploreResult {
  // Both lanes together; failing: every failing case, any kind.
  int64_t cases = 0, unsupported = 0, failing = 0;
  // Generated cases that are no conformance case (RunnableGeneratedCase; shape cases the
  // oracle calls malformed).
  int64_t skipped = 0;
  LaneStats kernel, shape;
  bool kernel_lane = false, shape_lane = false;  // which lanes the backend has
  std::vector<Finding> findings;
  // Harness errors of the backend that belong to no case (Backend::TakeUnattributedErrors),
  // taken when the exploration ends; any fails it as a finding does.
  std::vector<std::string> worker_errors;
  double seconds = 0;
};

// The generator options of one declared slice: its op, element types, ranks and modes, every
// lane, outputs of at most 1024 elements (the cases `dmconf fuzz` and fuzz_backend_diff draw).
GenerateOptions SliceOptions(const OpSupport& s);

// Progress: called about once a second with the result so far.
using ExploreProgress = std::function<void(const ExploreResult&)>;

ExploreResult Explore(Backend& backend, const std::string& name, const Capabilities& caps,
                      const ExploreOptions& o, const ExploreProgress& progress);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_EXPLORE_EXPLORE_H_
