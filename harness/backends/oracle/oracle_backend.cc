#include "harness/backends/oracle/oracle_backend.h"

#include "oracle/oracle.h"

namespace dmconf {
namespace {

class OracleBackend : public Backend {
 public:
  std::string Name() const override { return "oracle"; }
  Capabilities GetCapabilities() const override {
    Capabilities caps = SupportEverything();
    caps.shape_inference = true;
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
  RunOutcome InferShape(const OpCase& c) override {
    RunOutcome o;
    absl::StatusOr<Validation> v = Validate(c);
    if (!v.ok() || v->kind() != ExpectationKind::kValid) {
      o.kind = RunOutcome::Kind::kRejected;
      o.message = v.ok() ? v->deciding()->message : std::string(v.status().message());
      return o;
    }
    absl::StatusOr<Tensor> t = Tensor::Zeros(v->output_type, {0});
    if (t.ok()) {
      t->shape = v->output_shape;
      t->bytes.clear();
      o.output = std::move(*t);
    }
    return o;
  }
};

}  // namespace

std::unique_ptr<Backend> MakeOracleBackend() { return std::make_unique<OracleBackend>(); }

}  // namespace dmconf
