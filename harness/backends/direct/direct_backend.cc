#include "harness/backends/direct/direct_backend.h"

#include "oracle/direct/direct.h"

namespace dmconf {
namespace {

class DirectBackend : public Backend {
 public:
  std::string Name() const override { return "direct"; }
  Capabilities GetCapabilities() const override { return SupportEverything(); }
  RunOutcome Run(const OpCase& c) override {
    RunOutcome o;
    absl::StatusOr<Tensor> t = direct::DirectEvaluate(c);
    if (!t.ok()) {
      o.kind = RunOutcome::Kind::kRejected;
      o.message = std::string(t.status().message());
    } else {
      o.output = *std::move(t);
    }
    return o;
  }
};

}  // namespace

std::unique_ptr<Backend> MakeDirectBackend() { return std::make_unique<DirectBackend>(); }

}  // namespace dmconf
