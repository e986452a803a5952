#include "harness/io/case_json.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "harness/base/json_location.h"
#include "harness/io/tensor_json.h"
#include "oracle/op_table.h"

namespace dmconf::io {
namespace {

using OJson = nlohmann::ordered_json;
using Json = nlohmann::json;

OJson ProvenanceToJson(const Provenance& p) {
  OJson j;
  j["kind"] = p.kind;
  if (!p.generator.empty()) j["generator"] = p.generator;
  if (!p.profile.empty()) j["profile"] = p.profile;
  if (p.seed) j["seed"] = *p.seed;
  if (p.index) j["index"] = *p.index;
  if (!p.source.empty()) j["source"] = p.source;
  if (!p.path.empty()) j["path"] = p.path;
  if (!p.found_by.empty()) j["found_by"] = p.found_by;
  if (!p.note.empty()) j["note"] = p.note;
  return j;
}

absl::StatusOr<Provenance> ProvenanceFromJson(const Json& j, const JsonLoc& loc) {
  absl::Status s = CheckObject(
      j, loc,
      {"kind", "generator", "profile", "seed", "index", "source", "path", "found_by", "note"});
  if (!s.ok()) return s;
  Provenance p;
  absl::StatusOr<const Json*> kind = Member(j, loc, "kind", true);
  if (!kind.ok()) return kind.status();
  absl::StatusOr<std::string> k = ReadString(**kind, loc.Key("kind"));
  if (!k.ok()) return k.status();
  if (!IsKnownProvenanceKind(*k)) {
    return LocError("vector.provenance.kind", loc.Key("kind"),
                    absl::StrCat("unknown provenance kind '", k->substr(0, 40),
                                 "' (expected generated, spec_example, external, regression or "
                                 "hand_written)"));
  }
  p.kind = *k;
  for (auto [key, dst] : {std::pair{"generator", &p.generator}, std::pair{"profile", &p.profile},
                          std::pair{"source", &p.source}, std::pair{"path", &p.path},
                          std::pair{"found_by", &p.found_by}, std::pair{"note", &p.note}}) {
    absl::StatusOr<const Json*> m = Member(j, loc, key, false);
    if (!m.ok()) return m.status();
    if (*m == nullptr) continue;
    absl::StatusOr<std::string> v = ReadString(**m, loc.Key(key));
    if (!v.ok()) return v.status();
    *dst = *std::move(v);
  }
  for (auto [key, dst] : {std::pair{"seed", &p.seed}, std::pair{"index", &p.index}}) {
    absl::StatusOr<const Json*> m = Member(j, loc, key, false);
    if (!m.ok()) return m.status();
    if (*m == nullptr) continue;
    absl::StatusOr<uint64_t> v = ReadUint64(**m, loc.Key(key));
    if (!v.ok()) return v.status();
    *dst = *v;
  }
  return p;
}

// Reads the optional string member `key` into `dst` (left as it is when absent).
absl::Status ReadOptionalString(const Json& j, const JsonLoc& loc, const char* key,
                                std::optional<std::string>* dst) {
  absl::StatusOr<const Json*> m = Member(j, loc, key, false);
  if (!m.ok()) return m.status();
  if (*m == nullptr) return absl::OkStatus();
  absl::StatusOr<std::string> v = ReadString(**m, loc.Key(key));
  if (!v.ok()) return v.status();
  *dst = *std::move(v);
  return absl::OkStatus();
}

// Reads the block_size and mode of a SpaceToDepth / DepthToSpace case.
absl::Status ReadDepthAttributes(const Json& j, const JsonLoc& loc, OpAttributes* a) {
  absl::Status s = CheckObject(j, loc, {"block_size", "mode"});
  if (!s.ok()) return s;
  absl::StatusOr<const Json*> bs = Member(j, loc, "block_size", false);
  if (!bs.ok()) return bs.status();
  if (*bs != nullptr) {
    absl::StatusOr<int64_t> v = ReadInt64(**bs, loc.Key("block_size"));
    if (!v.ok()) return v.status();
    a->block_size = *v;
  }
  return ReadOptionalString(j, loc, "mode", &a->mode);
}

// Reads the sizes, strides, rates and auto_pad of an ExtractImagePatches case.
absl::Status ReadPatchAttributes(const Json& j, const JsonLoc& loc, OpAttributes* a) {
  absl::Status s = CheckObject(j, loc, {"sizes", "strides", "rates", "auto_pad"});
  if (!s.ok()) return s;
  for (auto [key, dst] : {std::pair{"sizes", &a->sizes}, std::pair{"strides", &a->strides},
                          std::pair{"rates", &a->rates}}) {
    absl::StatusOr<const Json*> m = Member(j, loc, key, false);
    if (!m.ok()) return m.status();
    if (*m == nullptr) continue;
    absl::StatusOr<std::vector<int64_t>> v = ReadInt64List(**m, loc.Key(key), kMaxRank);
    if (!v.ok()) return v.status();
    *dst = *std::move(v);
  }
  return ReadOptionalString(j, loc, "auto_pad", &a->auto_pad);
}

}  // namespace

// The one reader of the attribute bundle, for an OpCase and a PartialCase alike.
absl::Status AttributesFromJson(const Json& j, const JsonLoc& loc, Op op, OpAttributes* a) {
  switch (OpRowOf(op).attributes) {
    case AttributeGroup::kNone:
      return CheckObject(j, loc, {});
    case AttributeGroup::kBlock:
      return ReadDepthAttributes(j, loc, a);
    case AttributeGroup::kPatches:
      return ReadPatchAttributes(j, loc, a);
  }
  return absl::OkStatus();
}

absl::StatusOr<Op> OpFromJson(const Json& j, const JsonLoc& root, absl::string_view unknown_rule) {
  absl::StatusOr<const Json*> op_j = Member(j, root, "op", true);
  if (!op_j.ok()) return op_j.status();
  absl::StatusOr<std::string> op_name = ReadString(**op_j, root.Key("op"));
  if (!op_name.ok()) return op_name.status();
  absl::StatusOr<Op> op = ParseOp(*op_name);
  if (!op.ok() || *op_name != OpName(*op)) {
    return LocError(unknown_rule, root.Key("op"),
                    absl::StrCat("unknown op '", op_name->substr(0, 40),
                                 "' (expected SpaceToBatch, BatchToSpace, SpaceToDepth, "
                                 "DepthToSpace or ExtractImagePatches)"));
  }
  return *op;
}

namespace {

absl::Status ExpectationFromJson(const Json& j, const JsonLoc& loc, VectorCase* v) {
  absl::Status s = CheckObject(j, loc, {"kind", "rule", "output"});
  if (!s.ok()) return s;
  absl::StatusOr<const Json*> kind_j = Member(j, loc, "kind", true);
  if (!kind_j.ok()) return kind_j.status();
  absl::StatusOr<std::string> kind = ReadString(**kind_j, loc.Key("kind"));
  if (!kind.ok()) return kind.status();
  Expectation& e = v->expected;
  if (*kind == "valid") {
    e.kind = ExpectationKind::kValid;
  } else if (*kind == "must_reject") {
    e.kind = ExpectationKind::kMustReject;
  } else if (*kind == "unspecified") {
    e.kind = ExpectationKind::kUnspecified;
  } else {
    return LocError("vector.expectation.kind", loc.Key("kind"),
                    absl::StrCat("unknown expectation '", kind->substr(0, 40),
                                 "' (expected valid, must_reject or unspecified)"));
  }
  absl::StatusOr<const Json*> rule_j = Member(j, loc, "rule", false);
  if (!rule_j.ok()) return rule_j.status();
  absl::StatusOr<const Json*> out_j = Member(j, loc, "output", false);
  if (!out_j.ok()) return out_j.status();
  if (e.kind == ExpectationKind::kValid) {
    if (*rule_j != nullptr) {
      return LocError("vector.expectation.rule", loc.Key("rule"),
                      "a valid expectation names no rule");
    }
    if (*out_j == nullptr) {
      return LocError("vector.field.missing", loc, "a valid expectation needs 'output'");
    }
    absl::StatusOr<Tensor> out = TensorFromJson(**out_j, loc.Key("output"), {});
    if (!out.ok()) return out.status();
    e.output_shape = out->shape;
    e.output = *std::move(out);
    return absl::OkStatus();
  }
  if (*out_j != nullptr) {
    return LocError("vector.expectation.output", loc.Key("output"),
                    absl::StrCat("a ", *kind, " expectation has no output"));
  }
  if (*rule_j == nullptr) {
    return LocError("vector.field.missing", loc,
                    absl::StrCat("a ", *kind, " expectation needs 'rule'"));
  }
  absl::StatusOr<std::string> rule_id = ReadString(**rule_j, loc.Key("rule"));
  if (!rule_id.ok()) return rule_id.status();
  const Rule* rule = FindRule(*rule_id);
  if (rule == nullptr) {
    return LocError(
        "vector.expectation.rule", loc.Key("rule"),
        absl::StrCat("unknown rule '", rule_id->substr(0, 80), "' (`dmconf rules` lists them)"));
  }
  const RuleKind want =
      e.kind == ExpectationKind::kMustReject ? RuleKind::kMustReject : RuleKind::kUnspecified;
  if (rule->kind != want || (rule->op && *rule->op != v->c.op)) {
    return LocError("vector.expectation.rule", loc.Key("rule"),
                    absl::StrCat("rule '", rule->id, "' is a ", RuleKindName(rule->kind), " rule",
                                 rule->op ? absl::StrCat(" of ", OpName(*rule->op)) : "",
                                 ", not a ", *kind, " rule of ", OpName(v->c.op)));
  }
  e.rule = rule;
  e.message = std::string(rule->text);
  return absl::OkStatus();
}

absl::Status InputsFromJson(const Json& j, const JsonLoc& loc, VectorCase* v) {
  if (!j.is_array()) {
    return LocError("vector.field.type", loc,
                    absl::StrCat("expected an array of input tensors, found ", j.type_name()));
  }
  const std::vector<std::string> names = InputNames(v->c.op);
  if (j.size() != names.size()) {
    return LocError(
        "vector.inputs.count", loc,
        absl::StrCat(OpName(v->c.op), " takes ", names.size(), " inputs, found ", j.size()));
  }
  for (size_t i = 0; i < names.size(); ++i) {
    const JsonLoc at = loc.Index(i);
    absl::StatusOr<Tensor> t = TensorFromJson(j[i], at, {"name", "constant"});
    if (!t.ok()) return t.status();
    absl::StatusOr<const Json*> name_j = Member(j[i], at, "name", true);
    if (!name_j.ok()) return name_j.status();
    absl::StatusOr<std::string> name = ReadString(**name_j, at.Key("name"));
    if (!name.ok()) return name.status();
    if (*name != names[i]) {
      return LocError("vector.inputs.name", at.Key("name"),
                      absl::StrCat("input ", i, " of ", OpName(v->c.op), " is '", names[i],
                                   "', found '", name->substr(0, 40), "'"));
    }
    absl::StatusOr<const Json*> const_j = Member(j[i], at, "constant", true);
    if (!const_j.ok()) return const_j.status();
    absl::StatusOr<bool> constant = ReadBool(**const_j, at.Key("constant"));
    if (!constant.ok()) return constant.status();
    v->constant.push_back(*constant);
    if (i == 0) {
      v->c.data = *std::move(t);
    } else {
      v->c.int_inputs.push_back(*std::move(t));
    }
  }
  return absl::OkStatus();
}

// The schema, id, op and version of a dmconf-vector/1 document, into c->id and c->op.
absl::Status VectorHeaderFromJson(const Json& j, const JsonLoc& root, OpCase* c) {
  absl::StatusOr<const Json*> schema_j = Member(j, root, "schema", true);
  if (!schema_j.ok()) return schema_j.status();
  absl::StatusOr<std::string> schema = ReadString(**schema_j, root.Key("schema"));
  if (!schema.ok()) return schema.status();
  if (*schema != kVectorSchema) {
    return LocError("vector.schema.version", root.Key("schema"),
                    absl::StrCat("'", schema->substr(0, 40), "' is not '", kVectorSchema, "'"));
  }

  absl::StatusOr<const Json*> id_j = Member(j, root, "id", true);
  if (!id_j.ok()) return id_j.status();
  absl::StatusOr<std::string> id = ReadString(**id_j, root.Key("id"));
  if (!id.ok()) return id.status();
  if (!IsValidVectorId(*id)) {
    return LocError(
        "vector.id.syntax", root.Key("id"),
        absl::StrCat("'", id->substr(0, 80), "' is not 1-200 characters of [A-Za-z0-9._+-]"));
  }
  c->id = *id;

  absl::StatusOr<Op> op = OpFromJson(j, root, "case.op.known");
  if (!op.ok()) return op.status();
  c->op = *op;
  absl::StatusOr<const Json*> ver_j = Member(j, root, "version", true);
  if (!ver_j.ok()) return ver_j.status();
  absl::StatusOr<int64_t> version = ReadInt64(**ver_j, root.Key("version"));
  if (!version.ok()) return version.status();
  if (*version != OpVersion(*op)) {
    return LocError("vector.op.version", root.Key("version"),
                    absl::StrCat(OpName(*op), "-", *version, " is not covered; dmconf tests ",
                                 OpName(*op), "-", OpVersion(*op)));
  }
  return absl::OkStatus();
}

}  // namespace

// The one writer of the attribute bundle, for an OpCase and a PartialCase alike.
OJson AttributesToJson(Op op, const OpAttributes& a) {
  OJson j = OJson::object();
  switch (OpRowOf(op).attributes) {
    case AttributeGroup::kBlock:
      if (a.block_size) j["block_size"] = *a.block_size;
      if (a.mode) j["mode"] = *a.mode;
      break;
    case AttributeGroup::kPatches:
      j["sizes"] = a.sizes;
      j["strides"] = a.strides;
      j["rates"] = a.rates;
      if (a.auto_pad) j["auto_pad"] = *a.auto_pad;
      break;
    case AttributeGroup::kNone:
      break;
  }
  return j;
}

OJson VectorCaseToJson(const VectorCase& v, TensorRefs* refs) {
  OJson j;
  j["schema"] = std::string(kVectorSchema);
  j["id"] = v.c.id;
  j["op"] = std::string(OpName(v.c.op));
  j["version"] = OpVersion(v.c.op);
  j["attributes"] = AttributesToJson(v.c.op, v.c);
  OJson inputs = OJson::array();
  const std::vector<std::string> names = InputNames(v.c.op);
  const std::vector<bool> defaults = DefaultConstantFlags(v.c);
  for (size_t i = 0; i < 1 + v.c.int_inputs.size(); ++i) {
    const Tensor& t = i == 0 ? v.c.data : v.c.int_inputs[i - 1];
    OJson in;
    in["name"] = i < names.size() ? names[i] : absl::StrCat("input_", i);
    in["constant"] =
        i < v.constant.size() ? static_cast<bool>(v.constant[i]) : static_cast<bool>(defaults[i]);
    const OJson tensor = TensorToJson(t, refs);
    for (auto it = tensor.begin(); it != tensor.end(); ++it) in[it.key()] = it.value();
    inputs.push_back(std::move(in));
  }
  j["inputs"] = std::move(inputs);
  OJson e;
  e["kind"] = std::string(ExpectationKindName(v.expected.kind));
  if (v.expected.rule != nullptr) e["rule"] = std::string(v.expected.rule->id);
  if (v.expected.kind == ExpectationKind::kValid && v.expected.output) {
    e["output"] = TensorToJson(*v.expected.output, refs);
  }
  j["expectation"] = std::move(e);
  j["provenance"] = ProvenanceToJson(v.provenance);
  std::vector<std::string> classes = v.classes;
  std::sort(classes.begin(), classes.end());
  classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
  j["classes"] = classes;
  return j;
}

absl::StatusOr<VectorCase> VectorCaseFromJson(const Json& j, absl::string_view file,
                                              const DeferredArrays* deferred) {
  const JsonLoc root{std::string(file), "", deferred};
  absl::Status s = CheckObject(j, root,
                               {"schema", "id", "op", "version", "attributes", "inputs",
                                "expectation", "provenance", "classes"});
  if (!s.ok()) return s;
  VectorCase v;

  s = VectorHeaderFromJson(j, root, &v.c);
  if (!s.ok()) return s;

  absl::StatusOr<const Json*> attrs = Member(j, root, "attributes", true);
  if (!attrs.ok()) return attrs.status();
  s = AttributesFromJson(**attrs, root.Key("attributes"), v.c.op, &v.c);
  if (!s.ok()) return s;

  absl::StatusOr<const Json*> inputs = Member(j, root, "inputs", true);
  if (!inputs.ok()) return inputs.status();
  s = InputsFromJson(**inputs, root.Key("inputs"), &v);
  if (!s.ok()) return s;

  absl::StatusOr<const Json*> exp = Member(j, root, "expectation", true);
  if (!exp.ok()) return exp.status();
  s = ExpectationFromJson(**exp, root.Key("expectation"), &v);
  if (!s.ok()) return s;

  absl::StatusOr<const Json*> prov = Member(j, root, "provenance", true);
  if (!prov.ok()) return prov.status();
  absl::StatusOr<Provenance> p = ProvenanceFromJson(**prov, root.Key("provenance"));
  if (!p.ok()) return p.status();
  v.provenance = *std::move(p);

  absl::StatusOr<const Json*> classes_j = Member(j, root, "classes", false);
  if (!classes_j.ok()) return classes_j.status();
  if (*classes_j != nullptr) {
    absl::StatusOr<std::vector<std::string>> classes =
        ReadStringList(**classes_j, root.Key("classes"));
    if (!classes.ok()) return classes.status();
    v.classes = *std::move(classes);
  }
  v.c.origin = absl::StrCat("vector ", file);
  return v;
}

}  // namespace dmconf::io
