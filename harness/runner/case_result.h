// The result of one case against one backend (CaseResult: verdict, rule, mismatch, diagnosis,
// witness, known-failure status), what the runner makes of each outcome (runner.h) and every report
// writes.
//
// The record's field guard is conformance/harness/case_record_test.cc: a field added to any struct
// here stops that test's build until the report and the spool carry it, or the test names why
// a route leaves it out.
#ifndef DMCONF_HARNESS_RUNNER_CASE_RESULT_H_
#define DMCONF_HARNESS_RUNNER_CASE_RESULT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/backend/case_class.h"
#include "harness/backend/verdict.h"
#include "harness/base/boxed.h"
#include "harness/compare/compare.h"
#include "harness/compare/diagnosis.h"
#include "harness/runner/expectations.h"

namespace dmconf {

// What a failing case asked of the backend, for a person reading the report: the attributes
// in a line (AttributesToString) and each input's name, element type and shape.
struct CaseInput {
  std::string name;  // "data", "block_shape", "pads_begin", ...
  ElementType type = ElementType::kF32;
  Shape shape;  // empty for an input of a shape-lane case whose shape is not static
  // A shape-lane case's input as written for `dmconf infer-shape` (PartialShapeText): "2..5,?",
  // "..." (an unknown rank), "?[4]" (a non-constant integer input of shape [4]); empty for
  // kernel cases and constant integer inputs.
  std::string partial_shape;
};
struct Invocation {
  std::string attributes;  // "block_size=2 mode=blocks_first"
  std::vector<CaseInput> inputs;
};

struct CaseResult {
  std::string id;
  Op op = Op::kSpaceToDepth;
  ElementType type = ElementType::kF32;
  int rank = -1;  // the data's rank; -1 for a shape case of unknown rank
  ExpectedClass expected = ExpectedClass::kMalformed;
  std::string rule;  // deciding rule id for must_reject / unspecified
  Verdict verdict = Verdict::kHarnessError;
  std::string detail;
  // The parts a failing case sets are boxed (harness/base/boxed.h): a passing result, most of a
  // large run, holds a pointer for each instead of the whole part.
  Boxed<Mismatch> mismatch;
  Boxed<Diagnosis> diagnosis;
  Boxed<Invocation> invocation;         // set for kernel cases with a failing verdict
  bool failure = false;                 // a failing verdict not listed as known
  const KnownFailure* known = nullptr;  // set when listed in the expectations file
  // What the backend wrote on its standard output and error while it answered a failing case
  // (the isolated worker captures it: at most 64 KiB, with a note of what was cut).
  Boxed<std::string> backend_output;
  std::string vector_file;  // where the failing case was saved (if it was)
  std::string repro;        // one-line command reproducing it
  // A failing case shrunk to a minimal repro of the same verdict class (harness/shrink): the
  // minimal case's id, file, repro line and sizes.
  struct Shrunk {
    std::string id, vector_file, repro;
    int64_t from_elements = 0, to_elements = 0;  // data elements; 0 for a shape case
    // A shape case's minimal case as written (InvocationText: "block_size=2 mode=blocks_first;
    // data f32 1..3,?"); empty for a kernel case.
    std::string case_text;
    // For a crash or a hang: where it starts (harness/shrink/threshold.h). `what` is "rank",
    // "block_size", "block_shape[i]" or "dim i"; the minimal case fails at `fails_from` and, with
    // `what` lowered to `passes_at` (the largest lower value found to pass), does not: "fails
    // from block_size 5; passes at 4".
    struct Threshold {
      std::string what;
      int64_t fails_from = 0, passes_at = 0;
    };
    std::vector<Threshold> thresholds;
    int attempts = 0;
    double seconds = 0;
    bool budget_exhausted = false;
    // The minimal case's own diagnosis (it keeps the original's diagnosis class unless no
    // smaller case did: harness/shrink/shrink.h).
    std::optional<Diagnosis> diagnosis;
    // For a small wrong output of data that identify positions (harness/report/source_map.h):
    // the output's and the data's shapes and, per output element in row-major order, the flat
    // index of the data element it holds and of the one it should hold (-1: none, e.g. zero).
    struct SourceMap {
      std::vector<int64_t> shape, input_shape, holds, expected;
    };
    std::optional<SourceMap> source_map;
  };
  Boxed<Shrunk> shrunk;
  // The proof of an unsound_shape verdict (harness/compare/shape_judge.h): an accepted static
  // instance of the partial case, as DescribeInstance writes it ("data [1,8,6], block_shape
  // [1,1] (not constant): output [1,2,12]"), the static oracle's output for it, and where it
  // was saved as a static shape case (dmconf-shape-case/1) with the line that runs it.
  struct Witness {
    std::string instance;
    Shape output;
    std::string case_file, repro;
    std::optional<PartialCase> c;  // the instance as a static case (not in the report)
  };
  Boxed<Witness> witness;
  // A failure whose replays disagreed (verdict flaky, harness/shrink/replay.h): the replays
  // run, how many of them failed, and the verdict of the run that found the failure.
  struct Replays {
    int count = 0;
    int failed = 0;
    Verdict first = Verdict::kHarnessError;
  };
  std::optional<Replays> replays;
  // kKernel for a kernel case (Run, with static shape inference folded in); kShapeStatic /
  // kShapePartial for a case of the shape-inference lane (shape_lane.h).
  CaseLane lane = CaseLane::kKernel;
};

// Whether `r` holds a part only a failing or listed case has: a known entry, an invocation, a
// mismatch, a diagnosis, a witness, the backend's output, replays or a shrunk case. A case
// without them is written from the writers' one list of a plain case's members (report.cc),
// and may be spooled (IsPlainResult, result_list.h).
inline bool HasFailureParts(const CaseResult& r) {
  return r.known != nullptr || r.invocation.has_value() || r.mismatch.has_value() ||
         r.diagnosis.has_value() || r.witness.has_value() || r.backend_output.has_value() ||
         r.replays.has_value() || r.shrunk.has_value();
}

}  // namespace dmconf

#endif  // DMCONF_HARNESS_RUNNER_CASE_RESULT_H_
