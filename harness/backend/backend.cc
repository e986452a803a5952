#include "harness/backend/backend.h"

namespace dmconf {

bool CapabilitiesSupport(const Capabilities& caps, const OpCase& c) {
  for (const OpSupport& s : caps.ops) {
    if (s.op != c.op) continue;
    if (!s.element_types.count(c.data.type)) return false;
    const int rank = static_cast<int>(c.data.shape.size());
    if (rank < s.min_rank || rank > s.max_rank) return false;
    if (!s.modes.empty()) {
      const std::optional<std::string>& m = c.op == Op::kExtractImagePatches ? c.auto_pad : c.mode;
      if (m.has_value() && !s.modes.count(*m)) return false;
    }
    return true;
  }
  return false;
}

OpSupport SupportAll(Op op) {
  OpSupport s;
  s.op = op;
  for (ElementType t : AllElementTypes()) s.element_types.insert(t);
  return s;
}

Capabilities SupportEverything() {
  Capabilities caps;
  for (Op op : AllOps()) caps.ops.push_back(SupportAll(op));
  return caps;
}

bool Backend::Supports(const OpCase& c) const { return CapabilitiesSupport(GetCapabilities(), c); }

RunOutcome Backend::InferShape(const OpCase&) {
  RunOutcome r;
  r.kind = RunOutcome::Kind::kUnsupported;
  r.message = "this backend does not implement shape inference";
  return r;
}

}  // namespace dmconf
