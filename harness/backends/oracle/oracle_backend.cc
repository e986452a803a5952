#include "harness/backends/oracle/oracle_backend.h"

#include "harness/compare/shape_judge.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

class OracleBackend : public Backend {
 public:
  std::string Name() const override { return "oracle"; }
  Capabilities GetCapabilities() const override {
    Capabilities caps = SupportEverything();
    caps.infer_static = true;
    caps.infer_partial = true;
    return caps;
  }
  RunOutcome Run(const OpCase& c) override {
    RunOutcome o;
    absl::StatusOr<Expectation> e = Evaluate(c);
    if (!e.ok()) {
      o.kind = RunOutcome::Kind::kRejected;
      o.message = std::string(e.status().message());
    } else if (e->kind != ExpectationKind::kValid || !e->output.has_value()) {
      o.kind = RunOutcome::Kind::kRejected;
      o.message = e->message;
    } else {
      o.output = std::move(e->output);
    }
    return o;
  }
  ShapeOutcome InferStatic(const PartialCase& c) override { return Answer(c); }
  ShapeOutcome InferPartial(const PartialCase& c) override { return Answer(c); }

 private:
  // The oracle's own answer: a refusal for must_reject (and for malformed cases), else its
  // (partial) output shape. Unspecified cases with an output shape answer it.
  static ShapeOutcome Answer(const PartialCase& c) {
    ShapeOutcome o;
    absl::StatusOr<PartialResult> a = OracleShapeAnswer(c);
    if (!a.ok() || a->kind == PartialKind::kMustReject || !a->has_output) {
      o.kind = RunOutcome::Kind::kRejected;
      o.message = a.ok() ? a->message : std::string(a.status().message());
      return o;
    }
    o.shape = a->output;
    o.type = c.type;
    return o;
  }
};

}  // namespace

std::unique_ptr<Backend> MakeOracleBackend() { return std::make_unique<OracleBackend>(); }

}  // namespace dmconf
