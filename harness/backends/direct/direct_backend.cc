#include "harness/backends/direct/direct_backend.h"

#include "oracle/direct/direct.h"

namespace dmconf {
namespace {

class DirectBackend : public Backend {
 public:
  std::string Name() const override { return "direct"; }
  Capabilities GetCapabilities() const override { return SupportEverything(); }
  RunOutcome Run(const OpCase& c) override {
    return RunOutcome::OfResult(direct::DirectEvaluate(c));
  }
};

}  // namespace

std::unique_ptr<Backend> MakeDirectBackend() { return std::make_unique<DirectBackend>(); }

}  // namespace dmconf
