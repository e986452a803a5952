#include "harness/backends/oracle/oracle_backend.h"

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
  ShapeOutcome InferStatic(const PartialCase& c) override { return OracleShapeOutcome(c); }
  ShapeOutcome InferPartial(const PartialCase& c) override { return OracleShapeOutcome(c); }
};

}  // namespace

std::unique_ptr<Backend> MakeOracleBackend() { return std::make_unique<OracleBackend>(); }

}  // namespace dmconf
