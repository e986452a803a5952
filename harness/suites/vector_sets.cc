#include "harness/suites/vector_sets.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "harness/gen/case_ids.h"
#include "harness/gen/fills.h"
#include "harness/gen/generate.h"
#include "harness/suites/copy_tail.h"
#include "harness/suites/curated.h"
#include "harness/suites/model_cases.h"
#include "oracle/case_factory.h"
#include "oracle/oracle.h"

namespace dmconf::io {
namespace {

class SetBuilder {
 public:
  SetBuilder(std::string profile, uint64_t seed, const EvalOptions& eval)
      : profile_(std::move(profile)), seed_(seed), eval_(eval) {}
  // Only the cases, named, without the oracle's expectations (ProfileCases).
  SetBuilder(std::string profile, uint64_t seed)
      : profile_(std::move(profile)), seed_(seed), cases_only_(true) {}

  // Adds c as vector `id`; `rule` is the rule the oracle must decide on ("" = valid).
  void Add(OpCase c, const std::string& id, const std::string& rule,
           std::vector<std::string> classes, std::string source = "",
           const char* kind = "spec_example") {
    if (!status_.ok()) return;
    Provenance p;
    p.kind = source.empty() ? "generated" : kind;
    p.generator = std::string(kGeneratorName);
    p.profile = profile_;
    p.seed = seed_;
    p.source = std::move(source);
    c.id = id;
    if (!ids_.insert(id).second) {
      status_ = absl::InternalError(absl::StrCat("vector.generate.intent: duplicate id ", id));
      return;
    }
    if (cases_only_) {
      cases_.push_back(std::move(c));
      return;
    }
    absl::StatusOr<VectorCase> v = VectorCaseFromOracle(c, p, classes, eval_);
    if (!v.ok()) {
      status_ = absl::InternalError(
          absl::StrCat("vector.generate.intent: ", id, ": ", v.status().message()));
      return;
    }
    const std::string got = v->expected.rule ? std::string(v->expected.rule->id) : "";
    const bool evaluated = v->expected.kind != ExpectationKind::kValid || v->expected.output;
    if (got != rule || !evaluated) {
      status_ = absl::InternalError(
          absl::StrCat("vector.generate.intent: ", id, " meant ", rule.empty() ? "valid" : rule,
                       ", the oracle says ", got.empty() ? "valid" : got));
      return;
    }
    out_.push_back(*std::move(v));
  }

  uint64_t seed() const { return seed_; }
  absl::StatusOr<std::vector<VectorCase>> Finish() {
    if (!status_.ok()) return status_;
    return std::move(out_);
  }
  absl::StatusOr<std::vector<OpCase>> FinishCases() {
    if (!status_.ok()) return status_;
    return std::move(cases_);
  }

 private:
  std::string profile_;
  uint64_t seed_;
  EvalOptions eval_;
  bool cases_only_ = false;
  std::vector<VectorCase> out_;
  std::vector<OpCase> cases_;
  std::set<std::string> ids_;
  absl::Status status_;
};

const char* kModes[] = {"blocks_first", "depth_first"};
const char* kPads[] = {"valid", "same_upper", "same_lower"};

// ---- The specification examples (harness/gen/curated.h) ----

void AddSpecExamples(SetBuilder& b) {
  for (SpecExample& e : SpecExamples()) {
    const std::string id = SpecExampleVectorId(e.name);
    b.Add(std::move(e.c), id, "", {"spec_example"}, std::move(e.source));
  }
}

// ---- Op instances of published models (model_cases.h) ----

// The golden files hold every element of the input and the expected output as text (about 7
// bytes each): instances with more than this many elements in and out together run in the
// catalogue only.
constexpr int64_t kMaxModelVectorElements = 90000;

void AddModelCases(SetBuilder& b) {
  for (ModelCase& m : ModelCases()) {
    absl::StatusOr<Validation> v = Validate(m.c);
    const std::optional<int64_t> out = v.ok() ? CheckedProduct(v->output_shape) : std::nullopt;
    if (!out || m.c.data.NumElements() + *out > kMaxModelVectorElements) continue;
    b.Add(std::move(m.c), absl::StrCat("model.", m.name), "", {"model"}, std::move(m.source),
          "model");
  }
}

// ---- Every op x mode / auto_pad x element type ----

void AddTypeSweep(SetBuilder& b) {
  for (ElementType t : AllElementTypes()) {
    const std::string tn(ElementTypeName(t));
    b.Add(BlockOpCase(Op::kSpaceToBatch, PositionalTensor(t, {2, 3, 4}), {1, 2, 2}, {0, 1, 0},
                      {0, 0, 2}),
          absl::StrCat("types.s2b.", tn), "", {"sweep:types"});
    b.Add(BlockOpCase(Op::kBatchToSpace, PositionalTensor(t, {8, 2, 3}), {1, 2, 2}, {0, 1, 0},
                      {0, 0, 1}),
          absl::StrCat("types.b2s.", tn), "", {"sweep:types"});
    for (const char* mode : kModes) {
      b.Add(DepthOpCase(Op::kSpaceToDepth, PositionalTensor(t, {1, 2, 4, 6}), 2, mode),
            absl::StrCat("types.s2d.", mode, ".", tn), "", {"sweep:types"});
      b.Add(DepthOpCase(Op::kDepthToSpace, PositionalTensor(t, {1, 8, 2, 3}), 2, mode),
            absl::StrCat("types.d2s.", mode, ".", tn), "", {"sweep:types"});
    }
    for (const char* pad : kPads) {
      b.Add(PatchOpCase(PositionalTensor(t, {1, 2, 5, 6}), {2, 3}, {2, 2}, {1, 1}, pad),
            absl::StrCat("types.eip.", pad, ".", tn), "", {"sweep:types"});
    }
  }
}

// ---- Ranks: from each op's minimum to 7 ----

void AddRankSweep(SetBuilder& b) {
  const ElementType t = ElementType::kI32;
  for (size_t rank = 2; rank <= 7; ++rank) {
    // SpaceToBatch: dims 1 (batch), then 3, 2, 3, 2, ...; blocks 2 on odd axes (padding
    // where needed), 1 elsewhere.
    Shape d = {2}, out_d = {0};
    std::vector<int64_t> block = {1}, pb = {0}, pe = {0};
    for (size_t k = 1; k < rank; ++k) {
      d.push_back(k % 2 == 1 ? 3 : 2);
      block.push_back(k % 2 == 1 ? 2 : 1);
      pb.push_back(k % 2 == 1 ? 1 : 0);
      pe.push_back(0);
    }
    b.Add(BlockOpCase(Op::kSpaceToBatch, PositionalTensor(t, d), block, pb, pe),
          absl::StrCat("ranks.s2b.r", rank), "", {"sweep:ranks"});
    // BatchToSpace: batch = 2 * prod(block), spatial dims 2; crop one row on the first axis.
    Shape bd = {1};
    std::vector<int64_t> bblock = {1}, cb = {0}, ce = {0};
    int64_t prod = 1;
    for (size_t k = 1; k < rank; ++k) {
      bblock.push_back(k <= 3 ? 2 : 1);
      prod *= bblock.back();
      bd.push_back(2);
      cb.push_back(k == 1 ? 1 : 0);
      ce.push_back(0);
    }
    bd[0] = 2 * prod;
    b.Add(BlockOpCase(Op::kBatchToSpace, PositionalTensor(t, bd), bblock, cb, ce),
          absl::StrCat("ranks.b2s.r", rank), "", {"sweep:ranks"});
    if (rank < 3) continue;
    // SpaceToDepth / DepthToSpace: K = rank - 2 spatial dims of 2 (then 1), block 2.
    const size_t k_dims = rank - 2;
    Shape sd = {1, 2}, dd = {1, int64_t{1} << k_dims};
    for (size_t k = 0; k < k_dims; ++k) {
      sd.push_back(k < 3 ? 2 : 2);
      dd.push_back(k < 2 ? 2 : 1);
    }
    for (const char* mode : kModes) {
      b.Add(DepthOpCase(Op::kSpaceToDepth, PositionalTensor(t, sd), 2, mode),
            absl::StrCat("ranks.s2d.", mode, ".r", rank), "", {"sweep:ranks"});
      b.Add(DepthOpCase(Op::kDepthToSpace, PositionalTensor(t, dd), 2, mode),
            absl::StrCat("ranks.d2s.", mode, ".r", rank), "", {"sweep:ranks"});
    }
  }
}

// ---- Attribute and input-type variations ----

void AddVariations(SetBuilder& b) {
  const ElementType f32 = ElementType::kF32;
  // block_shape / pads / crops in every integer type (values all fit u1? no: use u8 upward and
  // the sub-byte unsigned types with values that fit).
  for (ElementType it : AllElementTypes()) {
    if (!IsIntegerType(it)) continue;
    const bool tiny = BitWidth(it) < 2;
    const std::string tn(ElementTypeName(it));
    if (tiny) {
      // u1 holds 0 and 1 only: block 1, pads 0/1.
      b.Add(
          BlockOpCase(Op::kSpaceToBatch, PositionalTensor(f32, {1, 3}), {1, 1}, {0, 1}, {0, 0}, it),
          absl::StrCat("int_types.s2b.", tn), "", {"sweep:int_types"});
      b.Add(
          BlockOpCase(Op::kBatchToSpace, PositionalTensor(f32, {1, 3}), {1, 1}, {0, 1}, {0, 0}, it),
          absl::StrCat("int_types.b2s.", tn), "", {"sweep:int_types"});
      continue;
    }
    b.Add(BlockOpCase(Op::kSpaceToBatch, PositionalTensor(f32, {1, 3, 2}), {1, 2, 2}, {0, 1, 1},
                      {0, 0, 1}, it),
          absl::StrCat("int_types.s2b.", tn), "", {"sweep:int_types"});
    b.Add(BlockOpCase(Op::kBatchToSpace, PositionalTensor(f32, {4, 2, 2}), {1, 2, 2}, {0, 1, 0},
                      {0, 0, 1}, it),
          absl::StrCat("int_types.b2s.", tn), "", {"sweep:int_types"});
  }
  // Larger blocks, block 1, and the spec default block_size (absent = 1).
  for (const char* mode : kModes) {
    b.Add(DepthOpCase(Op::kSpaceToDepth, PositionalTensor(f32, {1, 2, 6, 3}), 3, mode),
          absl::StrCat("attrs.s2d.", mode, ".b3"), "", {"sweep:attrs"});
    b.Add(DepthOpCase(Op::kDepthToSpace, PositionalTensor(f32, {1, 18, 2, 1}), 3, mode),
          absl::StrCat("attrs.d2s.", mode, ".b3"), "", {"sweep:attrs"});
    b.Add(DepthOpCase(Op::kSpaceToDepth, PositionalTensor(f32, {1, 2, 3, 3}), 1, mode),
          absl::StrCat("attrs.s2d.", mode, ".b1"), "", {"sweep:attrs"});
    b.Add(DepthOpCase(Op::kDepthToSpace, PositionalTensor(f32, {1, 2, 3, 3}), std::nullopt, mode),
          absl::StrCat("attrs.d2s.", mode, ".default_block"), "", {"sweep:attrs"});
    b.Add(DepthOpCase(Op::kSpaceToDepth, PositionalTensor(f32, {1, 2, 3, 2}), std::nullopt, mode),
          absl::StrCat("attrs.s2d.", mode, ".default_block"), "", {"sweep:attrs"});
    b.Add(DepthOpCase(Op::kSpaceToDepth, PositionalTensor(f32, {2, 3, 4, 4, 2}), 2, mode),
          absl::StrCat("attrs.s2d.", mode, ".b2.batch2.3d"), "", {"sweep:attrs"});
  }
  // SpaceToBatch / BatchToSpace: a round trip pair and asymmetric pads / crops.
  b.Add(BlockOpCase(Op::kSpaceToBatch, PositionalTensor(f32, {2, 5, 3}), {1, 3, 2}, {0, 2, 1},
                    {0, 2, 0}),
        "attrs.s2b.asymmetric_pads", "", {"sweep:attrs"});
  b.Add(BlockOpCase(Op::kBatchToSpace, PositionalTensor(f32, {12, 3, 2}), {1, 3, 2}, {0, 2, 1},
                    {0, 2, 0}),
        "attrs.b2s.asymmetric_crops", "", {"sweep:attrs"});
  b.Add(BlockOpCase(Op::kSpaceToBatch, PositionalTensor(f32, {1, 2, 2}), {1, 1, 1}, {0, 0, 0},
                    {0, 0, 0}),
        "attrs.s2b.identity", "", {"sweep:attrs"});
  b.Add(BlockOpCase(Op::kSpaceToBatch, PositionalTensor(f32, {1, 1, 1}), {1, 4, 4}, {0, 2, 1},
                    {0, 1, 2}),
        "attrs.s2b.all_padding_blocks", "", {"sweep:attrs"});
  b.Add(BlockOpCase(Op::kBatchToSpace, PositionalTensor(f32, {4, 1, 1}), {1, 2, 2}, {0, 1, 1},
                    {0, 1, 1}),
        "attrs.b2s.crop_to_empty", "", {"sweep:attrs"});
  // ExtractImagePatches: rates, patches larger than the image, asymmetric padding, 1 x 1.
  for (const char* pad : kPads) {
    b.Add(PatchOpCase(PositionalTensor(f32, {1, 1, 7, 7}), {3, 2}, {2, 3}, {2, 3}, pad),
          absl::StrCat("attrs.eip.", pad, ".rates"), "", {"sweep:attrs"});
    b.Add(PatchOpCase(PositionalTensor(f32, {1, 1, 3, 3}), {4, 5}, {1, 1}, {1, 1}, pad),
          absl::StrCat("attrs.eip.", pad, ".patch_larger_than_image"), "", {"sweep:attrs"});
    b.Add(PatchOpCase(PositionalTensor(f32, {2, 2, 4, 5}), {2, 2}, {3, 2}, {1, 1}, pad),
          absl::StrCat("attrs.eip.", pad, ".odd_padding"), "", {"sweep:attrs"});
    b.Add(PatchOpCase(PositionalTensor(f32, {1, 3, 2, 2}), {1, 1}, {1, 1}, {1, 1}, pad),
          absl::StrCat("attrs.eip.", pad, ".size1"), "", {"sweep:attrs"});
  }
}

// ---- Special values (bit-exact copies, padding zeros beside them) ----

void AddSpecials(SetBuilder& b) {
  for (ElementType t : AllElementTypes()) {
    // Every type with special values; of the sub-byte integer types only i4.
    if (SpecialBits(t).empty()) continue;
    if (IsIntegerType(t) && BitWidth(t) < 8 && t != ElementType::kI4) continue;
    const std::string tn(ElementTypeName(t));
    b.Add(BlockOpCase(Op::kSpaceToBatch, SpecialTensor(t, {1, 4, 4}, b.seed()), {1, 2, 2},
                      {0, 1, 0}, {0, 1, 2}),
          absl::StrCat("special.s2b.", tn), "", {"sweep:special"});
    b.Add(
        DepthOpCase(Op::kDepthToSpace, SpecialTensor(t, {1, 4, 2, 2}, b.seed()), 2, "depth_first"),
        absl::StrCat("special.d2s.", tn), "", {"sweep:special"});
    b.Add(
        PatchOpCase(SpecialTensor(t, {1, 1, 4, 4}, b.seed()), {2, 2}, {2, 2}, {1, 1}, "same_lower"),
        absl::StrCat("special.eip.", tn), "", {"sweep:special"});
  }
}

// ---- Zero-sized tensors ----

void AddZeroSized(SetBuilder& b) {
  const ElementType f32 = ElementType::kF32;
  b.Add(BlockOpCase(Op::kSpaceToBatch, PositionalTensor(f32, {0, 2, 2}), {1, 2, 1}, {0, 0, 0},
                    {0, 0, 0}),
        "zero.s2b.batch0", "", {"sweep:zero"});
  b.Add(BlockOpCase(Op::kSpaceToBatch, PositionalTensor(f32, {1, 0, 2}), {1, 2, 1}, {0, 1, 0},
                    {0, 1, 0}),
        "zero.s2b.spatial0_padded", "", {"sweep:zero"});
  b.Add(BlockOpCase(Op::kBatchToSpace, PositionalTensor(f32, {0, 2, 2}), {1, 2, 2}, {0, 0, 0},
                    {0, 0, 0}),
        "zero.b2s.batch0", "", {"sweep:zero"});
  b.Add(BlockOpCase(Op::kBatchToSpace, PositionalTensor(f32, {4, 0, 3}), {1, 2, 2}, {0, 0, 1},
                    {0, 0, 0}),
        "zero.b2s.spatial0", "", {"sweep:zero"});
  for (const char* mode : kModes) {
    b.Add(DepthOpCase(Op::kSpaceToDepth, PositionalTensor(f32, {0, 2, 2, 2}), 2, mode),
          absl::StrCat("zero.s2d.", mode, ".batch0"), "", {"sweep:zero"});
    b.Add(DepthOpCase(Op::kSpaceToDepth, PositionalTensor(f32, {1, 2, 0, 4}), 2, mode),
          absl::StrCat("zero.s2d.", mode, ".spatial0"), "", {"sweep:zero"});
    b.Add(DepthOpCase(Op::kDepthToSpace, PositionalTensor(f32, {1, 0, 2, 2}), 2, mode),
          absl::StrCat("zero.d2s.", mode, ".depth0"), "", {"sweep:zero"});
    b.Add(DepthOpCase(Op::kDepthToSpace, PositionalTensor(f32, {1, 4, 0, 2}), 2, mode),
          absl::StrCat("zero.d2s.", mode, ".spatial0"), "", {"sweep:zero"});
  }
  for (const char* pad : kPads) {
    b.Add(PatchOpCase(PositionalTensor(f32, {0, 1, 4, 4}), {2, 2}, {1, 1}, {1, 1}, pad),
          absl::StrCat("zero.eip.", pad, ".batch0"), "", {"sweep:zero"});
    b.Add(PatchOpCase(PositionalTensor(f32, {1, 0, 4, 4}), {2, 2}, {1, 1}, {1, 1}, pad),
          absl::StrCat("zero.eip.", pad, ".depth0"), "", {"sweep:zero"});
    b.Add(PatchOpCase(PositionalTensor(f32, {1, 1, 0, 4}), {2, 2}, {1, 1}, {1, 1}, pad),
          absl::StrCat("zero.eip.", pad, ".rows0"), "", {"sweep:zero"});
  }
}

// ---- Every must_reject / unspecified rule: a case breaking it and its valid twin
// (harness/gen/curated.h) ----

void AddRules(SetBuilder& b) {
  for (RulePair& p : RulePairs()) {
    b.Add(std::move(p.negative), RuleVectorId(p.rule, false), p.rule, {});
    b.Add(std::move(p.twin), RuleVectorId(p.rule, true), "", {absl::StrCat("twin:", p.rule)});
  }
}

// ---- Rows one past the multiples of 4, 8, 16 and 32 elements, in every element size
// (harness/suites/copy_tail.h; a part of the run catalogue's "tail/" cases) ----

void AddCopyTails(SetBuilder& b) {
  for (CopyTailCase& t : CopyTailCases(CopyTailLengths::kPastMultiples)) {
    b.Add(std::move(t.c), absl::StrCat("tail.", t.name), "", {"sweep:copy_tail"});
  }
}

// ---- The case generators' seeded driver ----
//
// harness/gen's SeededCase(seed, i) (the driver of dmconf run's sweep), with small data: valid
// cases by construction over every op, rank, mode, auto_pad and element type, cases that break
// exactly one rule (its id in the vector's rule), and overflow cases the oracle refuses. Ids:
// gen.<lane>.<op prefix>.<index>; classes gen:<lane> and gen:<class> (docs/generators.md).
// The section is SeededCase(1, i) whatever the profile's --seed (which only permutes special
// values), so every seed gives the same ids.
void AddGenerated(SetBuilder& b) {
  constexpr uint64_t kGenSeed = 1;
  GenerateOptions o;
  o.build.max_elements = 256;
  for (uint64_t i = 0; i < 160; ++i) {
    GeneratedCase g = SeededCase(kGenSeed, i, o);
    std::string rule;
    if (g.kind == GenKind::kNegative) {
      if (g.rule == nullptr || g.rule->kind == RuleKind::kMalformed) continue;
      rule = std::string(g.rule->id);
    } else if (g.kind == GenKind::kOverflow) {
      absl::StatusOr<Validation> v = Validate(g.c);
      if (!v.ok() || v->kind() == ExpectationKind::kValid) continue;
      rule = std::string(v->deciding()->rule->id);
    }
    std::vector<std::string> classes = {absl::StrCat("gen:", GenKindName(g.kind))};
    for (const std::string& c : Classify(g)) classes.push_back(absl::StrCat("gen:", c));
    const std::string id = GeneratedVectorId(GenKindName(g.kind), g.c.op, i);
    b.Add(std::move(g.c), id, rule, std::move(classes));
  }
}

}  // namespace

std::vector<std::string> ProfileNames() { return {"golden", "smoke"}; }

namespace {

absl::Status AddProfile(absl::string_view profile, SetBuilder& b) {
  if (profile == "smoke") {
    AddSpecExamples(b);
  } else if (profile == "golden") {
    AddSpecExamples(b);
    AddModelCases(b);
    AddTypeSweep(b);
    AddRankSweep(b);
    AddVariations(b);
    AddSpecials(b);
    AddZeroSized(b);
    AddRules(b);
    AddGenerated(b);
    AddCopyTails(b);
  } else {
    return absl::InvalidArgumentError(absl::StrCat("vector.profile.known: unknown profile '",
                                                   profile, "' (expected golden or smoke)"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<VectorCase>> BuildProfile(absl::string_view profile, uint64_t seed,
                                                     const EvalOptions& eval) {
  SetBuilder b(std::string(profile), seed, eval);
  if (absl::Status s = AddProfile(profile, b); !s.ok()) return s;
  return b.Finish();
}

absl::StatusOr<std::vector<OpCase>> ProfileCases(absl::string_view profile, uint64_t seed) {
  SetBuilder b(std::string(profile), seed);
  if (absl::Status s = AddProfile(profile, b); !s.ok()) return s;
  return b.FinishCases();
}

absl::Status CanonicalSubset(std::vector<std::string>* ops, std::vector<std::string>* types) {
  std::set<std::string> op_names, type_names;
  for (const std::string& name : *ops) {
    absl::StatusOr<Op> op = ParseOp(name);
    if (!op.ok()) return op.status();
    op_names.emplace(OpName(*op));
  }
  for (const std::string& name : *types) {
    absl::StatusOr<ElementType> t = ParseElementType(name);
    if (!t.ok()) return t.status();
    type_names.emplace(ElementTypeName(*t));
  }
  ops->assign(op_names.begin(), op_names.end());
  types->assign(type_names.begin(), type_names.end());
  return absl::OkStatus();
}

std::vector<VectorCase> SelectSubset(std::vector<VectorCase> cases,
                                     const std::vector<std::string>& ops,
                                     const std::vector<std::string>& types) {
  auto listed = [](const std::vector<std::string>& names, absl::string_view name) {
    return names.empty() || std::find(names.begin(), names.end(), name) != names.end();
  };
  std::vector<VectorCase> out;
  for (VectorCase& v : cases) {
    if (listed(ops, OpName(v.c.op)) && listed(types, ElementTypeName(v.c.data.type))) {
      out.push_back(std::move(v));
    }
  }
  return out;
}

}  // namespace dmconf::io
