#include "harness/io/shape_case.h"

#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/backend/verdict.h"
#include "harness/io/case_json.h"
#include "harness/io/shape_json.h"
#include "harness/io/vector_case.h"
#include "harness/io/vector_file.h"
#include "oracle/rules.h"

namespace dmconf::io {
namespace {

using Json = nlohmann::json;
using OJson = nlohmann::ordered_json;

bool IsBlockOp(Op op) { return op == Op::kSpaceToBatch || op == Op::kBatchToSpace; }

// The name of the i-th (0-based) integer input of an op that takes none (as dmconf-vector/1
// names such inputs: data is input 0).
std::string ExtraInputName(size_t i) { return absl::StrCat("input_", i + 1); }

OJson InputToJson(const PartialCase& c, size_t k, const std::string& name) {
  OJson in;
  in["name"] = name;
  if (const std::optional<Tensor>& t = c.int_inputs[k]) {
    ConstantToJson(*t, in);
  } else {
    in["type"] = std::string(ElementTypeName(c.int_types[k]));
    in["shape"] = PartialShapeToJson(c.int_shapes[k]);
  }
  return in;
}

// SpaceToBatch / BatchToSpace: exactly three inputs, each a constant or not. Other ops: the
// 1-3 constants of a malformed case (input_1, ...), which fill the first slots.
absl::Status InputsFromJson(const Json& j, const JsonLoc& loc, PartialCase* c) {
  if (!j.is_array()) {
    return LocError("shape_case.field.type", loc,
                    absl::StrCat("expected an array of inputs, found ", j.type_name()));
  }
  const bool block_op = IsBlockOp(c->op);
  const std::vector<std::string> names = InputNames(c->op);
  if (block_op && j.size() != 3) {
    return LocError("shape_case.inputs.count", loc,
                    absl::StrCat(OpName(c->op), " takes 3 inputs besides data (", names[1], ", ",
                                 names[2], ", ", names[3], "), found ", j.size()));
  }
  if (!block_op && (j.empty() || j.size() > 3)) {
    return LocError("shape_case.inputs.count", loc,
                    absl::StrCat(OpName(c->op),
                                 " takes no input besides data; 'inputs' holds the 1 to 3 "
                                 "constants of a malformed case, found ",
                                 j.size()));
  }
  for (size_t k = 0; k < j.size(); ++k) {
    const JsonLoc at = loc.Index(k);
    const Json& in = j[k];
    absl::Status s = Rebrand(CheckObject(in, at, {"name", "type", "values", "shape"}));
    if (!s.ok()) return s;
    absl::StatusOr<std::string> name = ReadStringMember(in, at, "name");
    if (!name.ok()) return name.status();
    const std::string want = block_op ? names[k + 1] : ExtraInputName(k);
    if (*name != want) {
      return LocError("shape_case.inputs.name", at.Key("name"),
                      absl::StrCat("input ", k + 1, " of ", OpName(c->op), " is '", want,
                                   "', found '", name->substr(0, 40), "'"));
    }
    absl::StatusOr<ElementType> type = ReadElementType(in, at);
    if (!type.ok()) return type.status();
    c->int_types[k] = *type;
    if (in.contains("values")) {
      absl::StatusOr<Tensor> t = ReadConstant(in, at, *type);
      if (!t.ok()) return t.status();
      c->int_inputs[k] = *std::move(t);
      continue;
    }
    if (!block_op) {
      return LocError("shape_case.inputs.constant", at,
                      absl::StrCat("an input of ", OpName(c->op),
                                   " (which takes none) is a constant: it needs 'values'"));
    }
    if (!in.contains("shape")) {
      return LocError("shape_case.field.missing", at,
                      "an input needs 'values' (a constant) or 'shape' (a non-constant input; "
                      "null for an unknown rank)");
    }
    absl::StatusOr<PartialShape> shape = ReadPartialShape(in["shape"], at.Key("shape"));
    if (!shape.ok()) return shape.status();
    c->int_shapes[k] = *std::move(shape);
  }
  return absl::OkStatus();
}

absl::Status ExpectedFromJson(const Json& j, const JsonLoc& loc, Op op, PartialResult* e) {
  absl::Status s = Rebrand(CheckObject(j, loc, {"kind", "output", "rule"}));
  if (!s.ok()) return s;
  absl::StatusOr<std::string> kind = ReadStringMember(j, loc, "kind");
  if (!kind.ok()) return kind.status();
  if (*kind == "shape") {
    e->kind = PartialKind::kShape;
  } else if (*kind == "must_reject") {
    e->kind = PartialKind::kMustReject;
  } else if (*kind == "unspecified") {
    e->kind = PartialKind::kUnspecified;
  } else {
    return LocError("shape_case.expected.kind", loc.Key("kind"),
                    absl::StrCat("unknown kind '", kind->substr(0, 40),
                                 "' (expected shape, must_reject or unspecified)"));
  }
  if (auto it = j.find("output"); it != j.end()) {
    if (e->kind == PartialKind::kMustReject) {
      return LocError("shape_case.expected.output", loc.Key("output"),
                      "a must_reject answer has no output");
    }
    absl::StatusOr<PartialShape> out = ReadPartialShape(*it, loc.Key("output"));
    if (!out.ok()) return out.status();
    e->output = *std::move(out);
    e->has_output = true;
  } else if (e->kind == PartialKind::kShape) {
    return LocError("shape_case.field.missing", loc,
                    "a shape answer needs 'output' (null for an unknown rank)");
  }
  auto rule_it = j.find("rule");
  if (e->kind == PartialKind::kShape) {
    if (rule_it != j.end()) {
      return LocError("shape_case.expected.rule", loc.Key("rule"), "a shape answer names no rule");
    }
    return absl::OkStatus();
  }
  if (rule_it == j.end()) {
    return LocError("shape_case.field.missing", loc,
                    absl::StrCat("a ", *kind, " answer needs 'rule'"));
  }
  absl::StatusOr<std::string> rule_id = Rebrand(ReadString(*rule_it, loc.Key("rule")));
  if (!rule_id.ok()) return rule_id.status();
  const Rule* rule = FindRule(*rule_id);
  if (rule == nullptr) {
    return LocError(
        "shape_case.expected.rule", loc.Key("rule"),
        absl::StrCat("unknown rule '", rule_id->substr(0, 80), "' (`dmconf rules` lists them)"));
  }
  const RuleKind want =
      e->kind == PartialKind::kMustReject ? RuleKind::kMustReject : RuleKind::kUnspecified;
  if (rule->kind != want || (rule->op && *rule->op != op)) {
    return LocError("shape_case.expected.rule", loc.Key("rule"),
                    absl::StrCat("rule '", rule->id, "' is a ", RuleKindName(rule->kind), " rule",
                                 rule->op ? absl::StrCat(" of ", OpName(*rule->op)) : "",
                                 ", not a ", *kind, " rule of ", OpName(op)));
  }
  e->rule = rule;
  e->message = std::string(rule->text);
  return absl::OkStatus();
}

absl::Status FailureFromJson(const Json& j, const JsonLoc& loc, ShapeCaseFile* f) {
  absl::Status s = Rebrand(CheckObject(j, loc, {"backend", "verdict", "detail"}));
  if (!s.ok()) return s;
  for (auto [key, dst] : {std::pair{"backend", &f->backend}, std::pair{"verdict", &f->verdict},
                          std::pair{"detail", &f->detail}}) {
    absl::StatusOr<std::string> v = ReadStringMember(j, loc, key);
    if (!v.ok()) return v.status();
    *dst = *std::move(v);
  }
  if (!ParseVerdict(f->verdict)) {
    return LocError("shape_case.failure.verdict", loc.Key("verdict"),
                    absl::StrCat("unknown verdict '", f->verdict.substr(0, 40),
                                 "' (docs/report-format.md lists them)"));
  }
  return absl::OkStatus();
}

// The "id" and "origin" members of a shape case file.
absl::Status IdAndOriginFromJson(const Json& j, const JsonLoc& root, ShapeCaseFile* f) {
  absl::StatusOr<std::string> id = ReadStringMember(j, root, "id");
  if (!id.ok()) return id.status();
  if (!IsValidVectorId(*id)) {
    return LocError(
        "shape_case.id.syntax", root.Key("id"),
        absl::StrCat("'", id->substr(0, 80), "' is not 1-200 characters of [A-Za-z0-9._+-]"));
  }
  f->id = *std::move(id);
  absl::StatusOr<std::string> origin = ReadStringMember(j, root, "origin");
  if (!origin.ok()) return origin.status();
  f->origin = *std::move(origin);
  return absl::OkStatus();
}

// The "data" member of a shape case file: {"type": ..., "shape": <partial shape>}.
absl::Status DataFromJson(const Json& j, const JsonLoc& root, PartialCase* c) {
  absl::StatusOr<const Json*> data_j = Rebrand(Member(j, root, "data", true));
  if (!data_j.ok()) return data_j.status();
  const JsonLoc data_loc = root.Key("data");
  absl::Status s = Rebrand(CheckObject(**data_j, data_loc, {"type", "shape"}));
  if (!s.ok()) return s;
  absl::StatusOr<ElementType> type = ReadElementType(**data_j, data_loc);
  if (!type.ok()) return type.status();
  c->type = *type;
  absl::StatusOr<const Json*> shape_j = Rebrand(Member(**data_j, data_loc, "shape", true));
  if (!shape_j.ok()) return shape_j.status();
  absl::StatusOr<PartialShape> shape = ReadPartialShape(**shape_j, data_loc.Key("shape"));
  if (!shape.ok()) return shape.status();
  c->data = *std::move(shape);
  return absl::OkStatus();
}

}  // namespace

OJson ShapeCaseToJson(const ShapeCaseFile& f) {
  const PartialCase& c = f.c;
  OJson j;
  j["schema"] = std::string(kShapeCaseSchema);
  j["id"] = f.id;
  j["origin"] = f.origin;
  j["op"] = std::string(OpName(c.op));
  j["attributes"] = AttributesToJson(c.op, c);
  OJson data;
  data["type"] = std::string(ElementTypeName(c.type));
  data["shape"] = PartialShapeToJson(c.data);
  j["data"] = std::move(data);
  if (IsBlockOp(c.op)) {
    const std::vector<std::string> names = InputNames(c.op);
    OJson inputs = OJson::array();
    for (size_t k = 0; k < 3; ++k) inputs.push_back(InputToJson(c, k, names[k + 1]));
    j["inputs"] = std::move(inputs);
  } else {
    // The other ops take no integer input: the constants a malformed case gives them anyway
    // (case.inputs.count), in slot order, as input_1, input_2, ...
    OJson inputs = OJson::array();
    for (size_t k = 0; k < 3; ++k) {
      if (c.int_inputs[k]) inputs.push_back(InputToJson(c, k, ExtraInputName(inputs.size())));
    }
    if (!inputs.empty()) j["inputs"] = std::move(inputs);
  }
  OJson e;
  e["kind"] = std::string(PartialKindName(f.expected.kind));
  if (f.expected.kind != PartialKind::kMustReject && f.expected.has_output) {
    e["output"] = PartialShapeToJson(f.expected.output);
  }
  if (f.expected.rule != nullptr) e["rule"] = std::string(f.expected.rule->id);
  j["expected"] = std::move(e);
  if (!f.backend.empty() || !f.verdict.empty() || !f.detail.empty()) {
    OJson failure;
    failure["backend"] = f.backend;
    failure["verdict"] = f.verdict;
    failure["detail"] = f.detail;
    j["failure"] = std::move(failure);
  }
  return j;
}

absl::StatusOr<ShapeCaseFile> ShapeCaseFromJson(const Json& j, absl::string_view file) {
  const JsonLoc root{std::string(file), ""};
  if (!j.is_object()) {
    return LocError("shape_case.field.type", root,
                    absl::StrCat("expected an object, found ", j.type_name()));
  }
  // The schema first: a file of another format is named as such, not as unknown members.
  absl::StatusOr<std::string> schema = ReadStringMember(j, root, "schema");
  if (!schema.ok()) return schema.status();
  if (*schema != kShapeCaseSchema) {
    return LocError("shape_case.schema.version", root.Key("schema"),
                    absl::StrCat("'", schema->substr(0, 40), "' is not '", kShapeCaseSchema, "'"));
  }
  absl::Status s = Rebrand(CheckObject(
      j, root,
      {"schema", "id", "origin", "op", "attributes", "data", "inputs", "expected", "failure"}));
  if (!s.ok()) return s;
  ShapeCaseFile f;

  s = IdAndOriginFromJson(j, root, &f);
  if (!s.ok()) return s;

  absl::StatusOr<Op> op = Rebrand(OpFromJson(j, root, "shape_case.op.known"));
  if (!op.ok()) return op.status();
  PartialCase& c = f.c;
  c.op = *op;

  absl::StatusOr<const Json*> attrs_j = Rebrand(Member(j, root, "attributes", true));
  if (!attrs_j.ok()) return attrs_j.status();
  s = Rebrand(AttributesFromJson(**attrs_j, root.Key("attributes"), c.op, &c));
  if (!s.ok()) return s;

  s = DataFromJson(j, root, &c);
  if (!s.ok()) return s;

  auto inputs_it = j.find("inputs");
  if (inputs_it != j.end()) {
    s = InputsFromJson(*inputs_it, root.Key("inputs"), &c);
    if (!s.ok()) return s;
  } else if (IsBlockOp(c.op)) {
    return LocError("shape_case.field.missing", root,
                    absl::StrCat(OpName(c.op), " needs 'inputs'"));
  }

  absl::StatusOr<const Json*> exp = Rebrand(Member(j, root, "expected", true));
  if (!exp.ok()) return exp.status();
  s = ExpectedFromJson(**exp, root.Key("expected"), c.op, &f.expected);
  if (!s.ok()) return s;

  if (auto it = j.find("failure"); it != j.end()) {
    s = FailureFromJson(*it, root.Key("failure"), &f);
    if (!s.ok()) return s;
  }
  return f;
}

}  // namespace dmconf::io
