#include "harness/runner/shape_lane.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/base/parallel_ranges.h"
#include "harness/compare/shape_judge.h"
#include "harness/gen/boundary_shapes.h"
#include "harness/gen/chooser.h"
#include "harness/runner/runner.h"
#include "harness/runner/shard.h"
#include "oracle/input_names.h"
#include "oracle/op_attributes.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

bool Wanted(const ShapeLaneOptions& o, const PartialCase& c) {
  if (!o.ops.empty() && std::find(o.ops.begin(), o.ops.end(), c.op) == o.ops.end()) return false;
  return o.types.empty() || std::find(o.types.begin(), o.types.end(), c.type) != o.types.end();
}

// A stand-in OpCase with the shape case's op, type, attributes and a data rank (the known one,
// else the op's smallest, so that only the rank check can never exclude it), for the
// capability checks of backend.h.
OpCase CapabilityProbe(const PartialCase& c) {
  OpCase p;
  p.op = c.op;
  p.data.type = c.type;
  p.data.shape.assign(c.data.dims ? c.data.dims->size() : 0, 0);
  CopyAttributes(c, p);
  return p;
}

}  // namespace

std::string PartialShapeText(const PartialShape& s) {
  if (!s.dims) return "...";
  std::vector<std::string> dims;
  for (const Dim& d : *s.dims) {
    if (d.IsStatic()) {
      dims.push_back(absl::StrCat(d.lo));
    } else if (!d.hi) {
      dims.push_back(d.lo == 0 ? "?" : absl::StrCat(d.lo, ".."));
    } else {
      dims.push_back(absl::StrCat(d.lo, "..", *d.hi));
    }
  }
  return absl::StrJoin(dims, ",");
}

Invocation DescribeShapeInvocation(const PartialCase& c) {
  Invocation inv;
  CaseInput data{std::string(kDataInputName), c.type, {}, PartialShapeText(c.data)};
  if (c.data.dims && std::all_of(c.data.dims->begin(), c.data.dims->end(),
                                 [](const Dim& d) { return d.IsStatic(); })) {
    for (const Dim& d : *c.data.dims) data.shape.push_back(d.lo);
  }
  inv.inputs.push_back(std::move(data));
  if (c.op != Op::kSpaceToBatch && c.op != Op::kBatchToSpace) {
    inv.attributes = AttributesToString(CapabilityProbe(c));
    return inv;
  }
  const absl::Span<const absl::string_view> names = IntInputNames(c.op);
  std::vector<std::string> parts;
  for (size_t k = 0; k < 3 && k < names.size(); ++k) {
    const std::optional<Tensor>& t = c.int_inputs[k];
    if (t.has_value()) {
      std::vector<std::string> vals;
      const int64_t n = t->Validate(names[k]).ok() ? t->NumElements() : 0;
      for (int64_t i = 0; i < n; ++i) {
        const std::optional<int64_t> v = t->GetInteger(i);
        vals.push_back(v ? absl::StrCat(*v) : absl::StrCat(t->GetBits(i), "u"));
      }
      parts.push_back(absl::StrCat(names[k], "=[", absl::StrJoin(vals, ","), "]"));
      inv.inputs.push_back({std::string(names[k]), t->type, t->shape, ""});
    } else {
      const std::string text =
          c.int_shapes[k].dims ? absl::StrCat("?[", PartialShapeText(c.int_shapes[k]), "]") : "?";
      parts.push_back(absl::StrCat(names[k], "=", text));
      inv.inputs.push_back({std::string(names[k]), c.int_types[k], {}, text});
    }
  }
  inv.attributes = absl::StrJoin(parts, " ");
  return inv;
}

std::vector<PreparedShapeCase> PrepareShapeCases(std::vector<ShapeCase> cases, int threads) {
  std::vector<PreparedShapeCase> out;
  out.reserve(cases.size());
  PrepareShapeCases(std::move(cases), threads, out);
  return out;
}

std::vector<absl::StatusOr<PartialResult>> OracleShapeAnswers(const std::vector<ShapeCase>& cases,
                                                              int threads) {
  // Case k's answer depends on case k alone: contiguous ranges, one per thread.
  std::vector<absl::StatusOr<PartialResult>> answers(cases.size(),
                                                     absl::UnknownError("not evaluated"));
  ForEachRange(cases.size(), threads, [&](size_t begin, size_t end) {
    for (size_t k = begin; k < end; ++k) answers[k] = OracleShapeAnswer(cases[k].c);
  });
  return answers;
}

void PrepareShapeCases(std::vector<ShapeCase> cases, int threads,
                       std::vector<PreparedShapeCase>& out) {
  std::vector<absl::StatusOr<PartialResult>> answers = OracleShapeAnswers(cases, threads);
  for (size_t k = 0; k < cases.size(); ++k) {
    // A malformed case (a negative dim, a wrong input count: the catalogue's case.* negatives)
    // is no shape-inference question: left out.
    if (!answers[k].ok()) continue;
    PreparedShapeCase p;
    p.expectation = std::move(answers[k]);
    p.s = std::move(cases[k]);
    out.push_back(std::move(p));
  }
}

std::optional<ShapeCase> WidenCatalogueCase(const OpCase& c, const ShapeLaneOptions& o) {
  if (c.int_inputs.size() > 3) return std::nullopt;
  // Seeded by the case's id, not its place in the catalogue (which --ops changes): the same
  // widened case in a run of every op and in a run of its op alone.
  SeededChooser ch(MixSeed(o.seed, CaseIdHash(c.id)));
  ShapeCase s;
  s.id = absl::StrCat("shape/", c.id);
  s.origin = absl::StrCat("catalogue case ", c.id, " widened (seed ", o.seed, ")");
  s.c = WidenToPartial(ch, c);
  // A case the oracle rejects keeps its rule broken over the widening: an unknown rank with
  // the illegal values, or interval dims that all break a divisibility rule.
  absl::StatusOr<Validation> v = Validate(c);
  if (v.ok() && v->kind() == ExpectationKind::kMustReject) KeepRuleBroken(s.c, c, ch.Next());
  if (!Wanted(o, s.c)) return std::nullopt;
  return s;
}

std::optional<ShapeCase> StaticCatalogueCase(const OpCase& c, const ShapeLaneOptions& o) {
  // The hand-made cases (spec examples, model layers, rule pairs, edges), asked exactly as
  // they are: a static answer is then checked on each, whatever its widening drew.
  static constexpr absl::string_view kHandMade[] = {"example", "model", "rule", "edge"};
  if (c.int_inputs.size() > 3 ||
      std::find(std::begin(kHandMade), std::end(kHandMade), c.origin) == std::end(kHandMade)) {
    return std::nullopt;
  }
  ShapeCase s;
  s.id = absl::StrCat("shape/", c.id, "/static");
  s.origin = absl::StrCat("catalogue case ", c.id, " as it is");
  s.c = PartialCase::FromStatic(c);
  if (!Wanted(o, s.c)) return std::nullopt;
  return s;
}

void WidenCatalogueCases(const std::vector<OpCase>& catalogue, size_t first,
                         const ShapeLaneOptions& o, std::vector<ShapeCase>& out,
                         std::vector<size_t>* positions) {
  // Each widened case depends on its case alone (its id seeds it): made in o.threads threads,
  // a block at a time, kept in order.
  constexpr size_t kBlock = 4096;
  std::vector<std::optional<ShapeCase>> made, as_is;
  for (size_t from = 0; from < catalogue.size(); from += kBlock) {
    made.assign(std::min(kBlock, catalogue.size() - from), std::nullopt);
    as_is.assign(made.size(), std::nullopt);
    ForEachRange(made.size(), o.threads, [&](size_t begin, size_t end) {
      for (size_t k = begin; k < end; ++k) {
        made[k] = WidenCatalogueCase(catalogue[from + k], o);
        as_is[k] = StaticCatalogueCase(catalogue[from + k], o);
      }
    });
    for (size_t k = 0; k < made.size(); ++k) {
      for (std::optional<ShapeCase>* s : {&made[k], &as_is[k]}) {
        if (!s->has_value()) continue;
        out.push_back(**std::move(s));
        if (positions != nullptr) positions->push_back(first + from + k);
      }
    }
  }
}

std::vector<ShapeCase> GeneratedShapeCases(const ShapeLaneOptions& o) {
  std::vector<ShapeCase> out;
  // Every shape-decided must_reject rule at its boundary, products that wrap modulo 2^64 (the
  // shape-overflow CVE class) included, in several forms, whatever the count.
  for (ShapeCase& s : BoundaryShapeCases()) {
    if (Wanted(o, s.c)) out.push_back(std::move(s));
  }
  out.reserve(out.size() + static_cast<size_t>(std::max(o.count, 0)) * 3 / 2);
  // Static cases: the overflow lane first (huge dims and attributes), then negative and valid.
  GenerateOptions statics;
  statics.valid_weight = 2;
  statics.negative_weight = 2;
  statics.overflow_weight = 4;
  // Drawn over every op whatever o.ops, then kept (Wanted): case i is the same case in a run
  // of every op and in a run of its op alone, so that a run is the union of its per-op runs.
  statics.build.data_types = o.types;
  for (int i = 0; i < o.count / 2; ++i) {
    ShapeCase s = SeededShapeCase(o.seed, static_cast<uint64_t>(i), /*partial=*/false, statics);
    if (Wanted(o, s.c)) out.push_back(std::move(s));
  }
  GenerateOptions partials;  // every op too
  partials.build.data_types = o.types;
  for (int i = 0; i < o.count; ++i) {
    ShapeCase s = SeededShapeCase(o.seed, static_cast<uint64_t>(i), /*partial=*/true, partials);
    if (Wanted(o, s.c)) out.push_back(std::move(s));
  }
  return out;
}

std::vector<ShapeCase> BuildShapeCases(const std::vector<OpCase>& catalogue,
                                       const ShapeLaneOptions& o) {
  std::vector<ShapeCase> generated = GeneratedShapeCases(o);
  std::vector<ShapeCase> out;
  // Reserved once (a growing vector of 10^5 cases held twice its size while it moved).
  out.reserve(catalogue.size() + generated.size());
  WidenCatalogueCases(catalogue, 0, o, out);
  for (ShapeCase& s : generated) out.push_back(std::move(s));
  return out;
}

bool ShapeCaseCovered(const Capabilities& caps, const PartialCase& c) {
  OpCase probe = CapabilityProbe(c);
  if (!c.data.dims) {
    // Unknown rank: covered when the declared rank range of the op meets the op's ranks.
    for (const OpSupport& s : caps.ops) {
      if (s.op != c.op) continue;
      probe.data.shape.assign(static_cast<size_t>(std::max(s.min_rank, 0)), 0);
      if (OpSupportCovers(s, probe) || OutsideOnlyByIllegalValues(caps, probe)) return true;
    }
    return false;
  }
  return CapabilitiesSupport(caps, probe) || OutsideOnlyByIllegalValues(caps, probe);
}

std::optional<CaseLane> ShapeLaneOf(const Capabilities& caps, const PartialCase& c) {
  return ShapeLaneOf(caps, c.IsStatic());
}

std::optional<CaseLane> ShapeLaneOf(const Capabilities& caps, bool is_static) {
  if (is_static && caps.infer_static) return CaseLane::kShapeStatic;
  if (caps.infer_partial) return CaseLane::kShapePartial;
  return std::nullopt;
}

std::optional<BatchItem> ShapeQuestion(const Capabilities& caps, const PreparedShapeCase& p) {
  const std::optional<CaseLane> lane = ShapeLaneOf(caps, p.s.c);
  if (!lane.has_value() || !p.expectation.ok() || !ShapeCaseCovered(caps, p.s.c)) {
    return std::nullopt;
  }
  BatchItem item;
  item.kind = *lane == CaseLane::kShapeStatic ? BatchItem::Kind::kInferStatic
                                              : BatchItem::Kind::kInferPartial;
  item.pc = &p.s.c;
  return item;
}

CaseResult RunShapeCase(Backend& backend, const std::string& name, const Capabilities& caps,
                        const PreparedShapeCase& p, const RunOptions& options) {
  return RunShapeCase(backend, name, caps, p, options, std::nullopt);
}

CaseResult RunShapeCase(Backend& backend, const std::string& name, const Capabilities& caps,
                        const PreparedShapeCase& p, const RunOptions& options,
                        std::optional<ShapeOutcome> answered) {
  CaseResult r;
  r.id = p.s.id;
  r.op = p.s.c.op;
  r.type = p.s.c.type;
  r.rank = p.s.c.data.RankKnown() ? static_cast<int>(p.s.c.data.dims->size()) : -1;
  r.lane = ShapeLaneOf(caps, p.s.c).value_or(CaseLane::kShapePartial);
  std::string output_text;  // what the backend wrote while it answered
  if (!p.expectation.ok()) {
    r.expected = ExpectedClass::kMalformed;
    r.verdict = Verdict::kHarnessError;
    r.detail =
        absl::StrCat("the oracle cannot answer the shape case: ", p.expectation.status().message());
  } else {
    const PartialResult& e = *p.expectation;
    r.expected = ExpectedClassOf(e.kind);
    if (e.rule != nullptr) r.rule = std::string(e.rule->id);
    ShapeOutcome answer;
    if (!ShapeCaseCovered(caps, p.s.c)) {
      answer.kind = ShapeOutcome::Kind::kUnsupported;
      answer.message = "outside the backend's declared capabilities";
    } else if (answered.has_value()) {
      answer = *std::move(answered);
    } else if (r.lane == CaseLane::kShapeStatic) {
      answer = backend.InferStatic(p.s.c);
    } else {
      answer = backend.InferPartial(p.s.c);
    }
    const ShapeJudgement j = JudgeShapeAnswer(p.s.c, e, answer);
    r.verdict = j.verdict;
    r.detail = j.detail;
    if (j.witness.has_value()) {
      CaseResult::Witness w;
      w.instance = DescribeInstance(p.s.c, *j.witness);
      w.output = j.witness->output;
      w.c = PartialCase::FromStatic(j.witness->c);
      r.witness = std::move(w);
    }
    output_text = std::move(answer.output_text);
  }
  if (MarkFailing(name, options, r)) {
    r.invocation = DescribeShapeInvocation(p.s.c);
    if (!output_text.empty()) r.backend_output = output_text;
  }
  return r;
}

}  // namespace dmconf
