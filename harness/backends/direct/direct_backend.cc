#include "harness/backends/direct/direct_backend.h"

#include "oracle/direct/direct.h"

namespace dmconf {
namespace {

class DirectBackend : public Backend {
 public:
  std::string Name() const override { return "direct"; }
  Capabilities GetCapabilities() const override { return caps_; }
  // The default, without a copy of the capabilities per case.
  bool Supports(const OpCase& c) const override { return CapabilitiesSupport(caps_, c); }
  RunOutcome Run(const OpCase& c) override {
    return RunOutcome::OfResult(direct::DirectEvaluate(c));
  }

 private:
  const Capabilities caps_ = SupportEverything();
};

}  // namespace

std::unique_ptr<Backend> MakeDirectBackend() { return std::make_unique<DirectBackend>(); }

}  // namespace dmconf
