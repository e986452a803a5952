// The C++ interface every backend adapter implements (built-in, real third-party, mutant,
// or a C-ABI plugin wrapped by the loader).
//
// A backend declares what it supports (Capabilities); a case outside them gets the verdict
// `unsupported`, never a failure. Run() returns the backend's output tensor or its refusal;
// crashes and hangs are caught by the worker isolation around it, not here.
//
// Example:
//   class MyBackend : public Backend {
//    public:
//     std::string Name() const override { return "mine"; }
//     Capabilities GetCapabilities() const override { ... }
//     RunOutcome Run(const OpCase& c) override { ... }
//     // Optional, declared with Capabilities::infer_static / infer_partial:
//     ShapeOutcome InferStatic(const PartialCase& c) override { ... }
//     ShapeOutcome InferPartial(const PartialCase& c) override { ... }
//   };
#ifndef DMCONF_HARNESS_BACKEND_BACKEND_H_
#define DMCONF_HARNESS_BACKEND_BACKEND_H_

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "oracle/op_case.h"
#include "oracle/partial/partial_infer.h"
#include "oracle/tensor.h"

namespace dmconf {

// What one backend supports for one op.
struct OpSupport {
  Op op;
  std::set<ElementType> element_types;  // data element types
  int min_rank = 0;                     // data rank range, inclusive
  int max_rank = 64;
  std::set<std::string> modes;  // DepthToSpace/SpaceToDepth modes, EIP auto_pad values; empty = all
  // Free-form limits the adapter checks itself in Supports() (e.g. "blocks on H and W only").
  std::string notes;
};

struct Capabilities {
  std::vector<OpSupport> ops;
  bool infer_static = false;   // implements InferStatic()
  bool infer_partial = false;  // implements InferPartial()
  // Implements Run(). False only for a backend that declares shape inference without kernels
  // (a plugin whose run entry is NULL): `ops` then declare where its shape inference applies,
  // its shape lane runs, and its kernel lane is "not provided" (no kernel case is run or
  // counted, no slice is reported).
  bool kernels = true;
  // The name the backend gives itself: a plugin's `name` (at most 256 bytes read); empty when it
  // declares none. A plugin loaded by path is reported under it (BackendIdentity).
  std::string declared_name;
};

// What a backend did with one case.
struct RunOutcome {
  enum class Kind {
    kOutput,       // produced `output`
    kRejected,     // refused the case (an error it reported); `message` says why
    kUnsupported,  // the case is outside what it supports (decided at run time)
    // Set by the isolation layer (harness/isolation), and by an adapter only for a process or
    // transport of its own that it watches the same way (SubprocessBackend: its adapter process
    // died, did not answer in time, or broke the protocol; the plugin loader: a malformed
    // result). An adapter never reports its library's refusal with these.
    kCrash,         // the worker (or adapter process) died; `message` names the signal or status
    kHang,          // the worker (or adapter process) exceeded the per-case timeout, was killed
    kHarnessError,  // the harness or a transport failed (worker protocol, fork); `message` says why
    kOutOfMemory,   // the worker ran out of its memory limit (isolation only); `message` names it
    // The backend's result is malformed (the plugin loader: a negative or non-exact dim, lo >
    // hi, a rank out of range, an unknown element type, output bytes of the wrong length, a
    // return code outside the ABI). The backend's failure, not the harness's.
    kInvalidAnswer,
  };
  Kind kind = Kind::kOutput;
  std::optional<Tensor> output;
  std::string message;
  // kOutput only: flat indices of output elements the backend never wrote, found by running
  // it twice over output buffers filled with two different patterns (the plugin loader does,
  // for ops with padding). Empty when not checked or when every element was written.
  std::vector<int64_t> unwritten;
  // What the backend wrote on its standard output and error while it answered (the isolated
  // worker captures it: at most 64 KiB, then a note of how many bytes were cut); empty when
  // not captured.
  std::string output_text;

  // An outcome without an output: RunOutcome::Of(RunOutcome::Kind::kRejected, "why").
  static RunOutcome Of(Kind kind, std::string message) {
    RunOutcome r;
    r.kind = kind;
    r.message = std::move(message);
    return r;
  }
  // The outcome of a computation that made `t`: its output, or the refusal with the error's
  // message: RunOutcome::OfResult(direct::DirectEvaluate(c)).
  static RunOutcome OfResult(absl::StatusOr<Tensor> t) {
    if (!t.ok()) return Of(Kind::kRejected, std::string(t.status().message()));
    RunOutcome r;
    r.output = *std::move(t);
    return r;
  }
};

// What a backend's shape inference answered (InferStatic / InferPartial).
struct ShapeOutcome {
  // kOutput: `shape` and `type` are the answer; kRejected / kUnsupported: `message` says why;
  // the others are set by the isolation layer and transports, as for RunOutcome.
  using Kind = RunOutcome::Kind;
  Kind kind = Kind::kOutput;
  PartialShape shape;  // InferStatic: every dim exact and the rank known
  ElementType type = ElementType::kF32;
  std::string message;
  std::string output_text;  // as RunOutcome::output_text
};

// The oracle's own answer as a backend would give it (oracle/partial/shape_answer.h): a refusal
// for must_reject and for malformed cases (the message says why), else the (partial) output
// shape and the data type; unspecified cases with an output shape answer it. What the oracle
// backend answers, and what a mutant starts from before it changes one term.
ShapeOutcome OracleShapeOutcome(const PartialCase& c);

// One question of a batch (Backend::RunBatch): the kernel run of *c, or the static or partial
// shape inference of *pc. The pointees must outlive the call.
struct BatchItem {
  enum class Kind : uint8_t { kRun, kInferStatic, kInferPartial };
  Kind kind = Kind::kRun;
  const OpCase* c = nullptr;        // kRun
  const PartialCase* pc = nullptr;  // kInferStatic, kInferPartial
};

// The answer to one BatchItem: `run` for kRun, `shape` for the shape kinds.
struct BatchAnswer {
  RunOutcome run;
  ShapeOutcome shape;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string Name() const = 0;
  virtual Capabilities GetCapabilities() const = 0;

  // Whether the backend takes `c`. `declared` is its GetCapabilities(), which the caller
  // already holds (the runner asks it once per run and this once per case); the default checks
  // op, element type, rank and mode against it. A backend with a finer check (e.g. Arm NN:
  // blocks on H and W only) overrides this one, and adds `using Backend::Supports;` to keep the
  // one-argument form below.
  virtual bool Supports(const OpCase& c, const Capabilities& declared) const;
  // Supports(c, GetCapabilities()), for a caller that does not hold the capabilities.
  bool Supports(const OpCase& c) const { return Supports(c, GetCapabilities()); }

  virtual RunOutcome Run(const OpCase& c) = 0;

  // Optional shape inference without data. InferStatic gets a static case (c.IsStatic():
  // every dim exact, possibly up to 2^63-1, every integer input a constant) and answers the
  // exact output shape and type, or refuses. InferPartial gets any partial case (interval
  // dims, unknown rank, non-constant integer inputs) and answers a sound partial shape, or
  // refuses. Called only when GetCapabilities().infer_static / .infer_partial are true; the
  // defaults answer kUnsupported.
  virtual ShapeOutcome InferStatic(const PartialCase& c);
  virtual ShapeOutcome InferPartial(const PartialCase& c);

  // How many questions one RunBatch call is worth sending at once: 1 (the default) where a
  // batch saves nothing (a backend in this process); the isolated worker answers many per round
  // trip (harness/isolation/worker.h).
  virtual size_t BatchCapacity() const { return 1; }
  // Answers items[0..k) in order, calling done(i, answer) for each; returns k. Each answer is
  // the one the single call (Run, InferStatic, InferPartial) gives; k may be less than
  // items.size() when item k-1 ended the backend (a crash or hang of an isolated worker), or
  // when the isolated worker paused the batch there to have its processes counted: the items
  // after it were not asked. done must not call this backend. `meanwhile` is the caller's own
  // work, called once: by the isolated worker after the questions are sent and before the
  // first answer is awaited, so that it overlaps the worker's (the fuzz kernel lane makes its
  // next batch there); by the default, first. It must not call this backend either. The
  // default asks each item by its single call.
  virtual size_t RunBatch(absl::Span<const BatchItem> items,
                          absl::FunctionRef<void(size_t, BatchAnswer&&)> done,
                          absl::FunctionRef<void()> meanwhile);
  // Harness errors of this backend that belong to no case, since the last call: the isolated
  // worker's failures between two requests (bytes it wrote with nothing asked, a stop, a hang
  // or a death before it read its next request; harness/isolation/worker.h). Each is a line
  // that starts with its rule id; a run with any fails. The default: none.
  virtual std::vector<std::string> TakeUnattributedErrors() { return {}; }
  // RunBatch with nothing to do meanwhile.
  size_t RunBatch(absl::Span<const BatchItem> items,
                  absl::FunctionRef<void(size_t, BatchAnswer&&)> done) {
    return RunBatch(items, done, [] {});
  }
};

// Creates a fresh backend instance. Isolation calls it inside the worker process (so a
// backend whose constructor or dlopen crashes only takes the worker down), once per worker
// start; in-process runs call it once.
using BackendFactory = std::function<absl::StatusOr<std::unique_ptr<Backend>>()>;

// An output buffer for a library to write into directly (an adapter that passes its own
// buffer to the library, as the Arm NN adapter does): like Tensor::Zeros, but filled with a
// byte pattern that is no element's zero (0xA5), so that a library that leaves the padding
// zeros unwritten cannot pass. Adapters that copy a library-owned result need no such care.
absl::StatusOr<Tensor> PatternFilledOutput(ElementType type, Shape shape);

// Capabilities for one op covering every element type, any rank and every mode.
OpSupport SupportAll(Op op);
// SupportAll for all five ops.
Capabilities SupportEverything();

// Whether one declared entry covers the case: its op, a declared element type, the rank in
// range, and a declared mode / auto_pad when the entry lists any (a missing one is covered).
bool OpSupportCovers(const OpSupport& s, const OpCase& c);
// The same from the four facts it reads: `mode` is the case's mode (ExtractImagePatches: its
// auto_pad), nullptr when it has none.
bool OpSupportCovers(const OpSupport& s, Op op, ElementType type, int64_t rank,
                     const std::string* mode);

// The default Supports(): op, element type, rank and mode from the capability table.
bool CapabilitiesSupport(const Capabilities& caps, const OpCase& c);

// Capabilities narrow which *valid* cases a backend is given; they cannot excuse it from
// refusing what the spec makes illegal. True when the case lies outside the declared slice of
// its op only by values no backend may accept: a mode that is not blocks_first / depth_first,
// an auto_pad that is not valid / same_upper / same_lower, a rank the op does not have. Such
// a case is run whatever the backend declares (a backend that takes an unknown mode for
// blocks_first must fail). A legal value outside the declared support (a type, a rank, a mode
// the backend does not implement) keeps the case unsupported, and so does an undeclared op.
bool OutsideOnlyByIllegalValues(const Capabilities& caps, const OpCase& c);

// Whether the runner gives `c` to `backend`: Supports(c, caps), or OutsideOnlyByIllegalValues.
// `caps` is the backend's GetCapabilities().
bool ShouldRun(const Backend& backend, const Capabilities& caps, const OpCase& c);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BACKEND_BACKEND_H_
