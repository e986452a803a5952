#include "harness/backend/backend.h"

#include <algorithm>
#include <utility>

#include "oracle/partial/shape_answer.h"

namespace dmconf {

size_t Backend::RunBatch(absl::Span<const BatchItem> items,
                         absl::FunctionRef<void(size_t, BatchAnswer&&)> done,
                         absl::FunctionRef<void()> meanwhile) {
  meanwhile();
  for (size_t i = 0; i < items.size(); ++i) {
    BatchAnswer a;
    switch (items[i].kind) {
      case BatchItem::Kind::kRun:
        a.run = Run(*items[i].c);
        break;
      case BatchItem::Kind::kInferStatic:
        a.shape = InferStatic(*items[i].pc);
        break;
      case BatchItem::Kind::kInferPartial:
        a.shape = InferPartial(*items[i].pc);
        break;
    }
    done(i, std::move(a));
  }
  return items.size();
}

bool OpSupportCovers(const OpSupport& s, const OpCase& c) {
  const std::optional<std::string>& m = c.op == Op::kExtractImagePatches ? c.auto_pad : c.mode;
  return OpSupportCovers(s, c.op, c.data.type, static_cast<int64_t>(c.data.shape.size()),
                         m.has_value() ? &*m : nullptr);
}

bool OpSupportCovers(const OpSupport& s, Op op, ElementType type, int64_t rank,
                     const std::string* mode) {
  if (s.op != op || !s.element_types.count(type)) return false;
  if (rank < s.min_rank || rank > s.max_rank) return false;
  return s.modes.empty() || mode == nullptr || s.modes.count(*mode) > 0;
}

bool CapabilitiesSupport(const Capabilities& caps, const OpCase& c) {
  // The first entry of the case's op decides.
  for (const OpSupport& s : caps.ops) {
    if (s.op == c.op) return OpSupportCovers(s, c);
  }
  return false;
}

namespace {

// The ranks each op's data may have. SpaceToBatch-2 / BatchToSpace-2: "rank >= 2";
// SpaceToDepth-1 / DepthToSpace-1: "rank >= 3"; ExtractImagePatches-3: "4-D tensor".
bool LegalRank(Op op, int64_t rank) {
  switch (op) {
    case Op::kSpaceToBatch:
    case Op::kBatchToSpace:
      return rank >= 2;
    case Op::kSpaceToDepth:
    case Op::kDepthToSpace:
      return rank >= 3;
    case Op::kExtractImagePatches:
      return rank == 4;
  }
  return false;
}

// A mode (SpaceToDepth / DepthToSpace) or auto_pad (ExtractImagePatches) the spec defines: the
// oracle's own parsers decide.
bool LegalMode(Op op, const std::string& m) {
  return op == Op::kExtractImagePatches ? ParseAutoPad(m).has_value()
                                        : ParseDepthMode(m).has_value();
}

}  // namespace

bool OutsideOnlyByIllegalValues(const Capabilities& caps, const OpCase& c) {
  for (const OpSupport& s : caps.ops) {
    if (s.op != c.op) continue;
    // Every data element type is legal for these ops: outside the declared ones is unsupported.
    if (!s.element_types.count(c.data.type)) return false;
    const int64_t rank = static_cast<int64_t>(c.data.shape.size());
    const bool rank_outside = rank < s.min_rank || rank > s.max_rank;
    if (rank_outside && LegalRank(c.op, rank)) return false;
    const std::optional<std::string>& m = c.op == Op::kExtractImagePatches ? c.auto_pad : c.mode;
    const bool mode_outside = !s.modes.empty() && m.has_value() && !s.modes.count(*m);
    if (mode_outside && LegalMode(c.op, *m)) return false;
    return rank_outside || mode_outside;
  }
  return false;  // the op is not declared at all
}

bool ShouldRun(const Backend& backend, const Capabilities& caps, const OpCase& c) {
  return backend.Supports(c, caps) || OutsideOnlyByIllegalValues(caps, c);
}

absl::StatusOr<Tensor> PatternFilledOutput(ElementType type, Shape shape) {
  absl::StatusOr<Tensor> t = Tensor::Zeros(type, std::move(shape));
  if (t.ok()) std::fill(t->bytes.begin(), t->bytes.end(), uint8_t{0xA5});
  return t;
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

bool Backend::Supports(const OpCase& c, const Capabilities& declared) const {
  return CapabilitiesSupport(declared, c);
}

ShapeOutcome OracleShapeOutcome(const PartialCase& c) {
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

ShapeOutcome Backend::InferStatic(const PartialCase&) {
  ShapeOutcome r;
  r.kind = ShapeOutcome::Kind::kUnsupported;
  r.message = "this backend does not implement static shape inference";
  return r;
}

ShapeOutcome Backend::InferPartial(const PartialCase&) {
  ShapeOutcome r;
  r.kind = ShapeOutcome::Kind::kUnsupported;
  r.message = "this backend does not implement partial shape inference";
  return r;
}

}  // namespace dmconf
