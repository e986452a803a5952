#include "harness/io/shape_case_file.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/backend/verdict.h"
#include "harness/base/atomic_file.h"
#include "harness/base/json_location.h"
#include "harness/io/canonical_json.h"
#include "harness/io/case_json.h"
#include "harness/io/element_json.h"
#include "harness/io/tensor_json.h"
#include "harness/io/vector_case.h"
#include "harness/io/vector_file.h"
#include "oracle/partial/shape_answer.h"

namespace dmconf::io {
namespace {

using Json = nlohmann::json;
using OJson = nlohmann::ordered_json;

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

bool IsBlockOp(Op op) { return op == Op::kSpaceToBatch || op == Op::kBatchToSpace; }

// The name of the i-th (0-based) integer input of an op that takes none (as dmconf-vector/1
// names such inputs: data is input 0).
std::string ExtraInputName(size_t i) { return absl::StrCat("input_", i + 1); }

// The shared JSON helpers (json_location.h, vector_file.h, case_json.h) name their rules
// vector.json.* and vector.field.*; in a shape-case file the same rules are shape_case.json.*
// and shape_case.field.*.
absl::Status Rebrand(absl::Status s) {
  constexpr absl::string_view kFrom = "vector.";
  if (s.ok() || !absl::StartsWith(s.message(), kFrom)) return s;
  return absl::Status(s.code(), absl::StrCat("shape_case.", s.message().substr(kFrom.size())));
}

template <typename T>
absl::StatusOr<T> Rebrand(absl::StatusOr<T> v) {
  if (v.ok()) return v;
  return Rebrand(v.status());
}

// ---- Writing ------------------------------------------------------------------------------

// An exact dim is an integer, an interval [lo, hi] with hi null when unbounded.
OJson DimToJson(const Dim& d) {
  if (d.IsStatic()) return OJson(d.lo);
  OJson pair = OJson::array();
  pair.push_back(d.lo);
  pair.push_back(d.hi ? OJson(*d.hi) : OJson(nullptr));
  return pair;
}

// null for an unknown rank.
OJson ShapeToJson(const PartialShape& p) {
  if (!p.dims) return OJson(nullptr);
  OJson a = OJson::array();
  for (const Dim& d : *p.dims) a.push_back(DimToJson(d));
  return a;
}

OJson InputToJson(const PartialCase& c, size_t k, const std::string& name) {
  OJson in;
  in["name"] = name;
  if (const std::optional<Tensor>& t = c.int_inputs[k]) {
    in["type"] = std::string(ElementTypeName(t->type));
    OJson values = OJson::array();
    // A malformed tensor (bytes that do not match the shape) is written without values; the
    // file is then refused on reading, and WriteShapeCaseFile refuses to write it.
    if (t->Validate("constant").ok()) {
      for (int64_t i = 0; i < t->NumElements(); ++i) {
        values.push_back(EncodeElement(t->type, t->GetBits(i)));
      }
    }
    in["values"] = std::move(values);
    if (t->shape.size() != 1) in["shape"] = t->shape;  // 1-D [N] is the default
  } else {
    in["type"] = std::string(ElementTypeName(c.int_types[k]));
    in["shape"] = ShapeToJson(c.int_shapes[k]);
  }
  return in;
}

OJson ShapeCaseToJson(const ShapeCaseFile& f) {
  const PartialCase& c = f.c;
  OJson j;
  j["schema"] = std::string(kShapeCaseSchema);
  j["id"] = f.id;
  j["origin"] = f.origin;
  j["op"] = std::string(OpName(c.op));
  OpCase attrs;
  attrs.op = c.op;
  attrs.block_size = c.block_size;
  attrs.mode = c.mode;
  attrs.sizes = c.sizes;
  attrs.strides = c.strides;
  attrs.rates = c.rates;
  attrs.auto_pad = c.auto_pad;
  j["attributes"] = AttributesToJson(attrs);
  OJson data;
  data["type"] = std::string(ElementTypeName(c.type));
  data["shape"] = ShapeToJson(c.data);
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
    e["output"] = ShapeToJson(f.expected.output);
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

// ---- Reading ------------------------------------------------------------------------------

// One bound of a dim: an integer 0 <= v <= 2^63-1. nlohmann reads a non-negative integer as
// uint64, a negative one as int64 and an integer beyond 2^64-1 as a double.
absl::StatusOr<int64_t> ReadDimBound(const Json& v, const JsonLoc& loc) {
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(kInt64Max)) {
      return LocError("shape_case.dim.range", loc,
                      absl::StrCat(u, " is above 2^63-1 (9223372036854775807)"));
    }
    return static_cast<int64_t>(u);
  }
  if (v.is_number_integer()) {
    const int64_t s = v.get<int64_t>();
    if (s < 0)
      return LocError("shape_case.dim.range", loc, absl::StrCat("dim ", s, " is negative"));
    return s;
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    // 9223372036854775808.0 == 2^63: integers this large were written beyond uint64.
    if (std::isfinite(d) && d == std::floor(d) && (d < 0 || d >= 9223372036854775808.0)) {
      return LocError("shape_case.dim.range", loc,
                      absl::StrCat(v.dump(), d < 0 ? " is negative" : " is above 2^63-1"));
    }
    return LocError("shape_case.dim.type", loc,
                    absl::StrCat("expected an integer, found the number ", v.dump(),
                                 " (dims are written as integers)"));
  }
  return LocError("shape_case.dim.type", loc,
                  absl::StrCat("expected an integer, found ", v.type_name()));
}

// 5 (exact), [lo, hi] or [lo, null] (unbounded).
absl::StatusOr<Dim> ReadDim(const Json& v, const JsonLoc& loc) {
  if (v.is_number()) {
    absl::StatusOr<int64_t> x = ReadDimBound(v, loc);
    if (!x.ok()) return x.status();
    return Dim::Exact(*x);
  }
  if (!v.is_array() || v.size() != 2) {
    return LocError("shape_case.dim.type", loc,
                    absl::StrCat("expected a dim (an integer, or [lo, hi] with hi null when "
                                 "unbounded), found ",
                                 v.is_array() ? absl::StrCat("an array of ", v.size()) : "",
                                 v.is_array() ? "" : v.type_name()));
  }
  absl::StatusOr<int64_t> lo = ReadDimBound(v[0], loc.Index(0));
  if (!lo.ok()) return lo.status();
  if (v[1].is_null()) return Dim::AtLeast(*lo);
  absl::StatusOr<int64_t> hi = ReadDimBound(v[1], loc.Index(1));
  if (!hi.ok()) return hi.status();
  if (*lo > *hi) {
    return LocError("shape_case.dim.interval", loc,
                    absl::StrCat("lo ", *lo, " is above hi ", *hi, " (an empty interval)"));
  }
  return Dim::Range(*lo, *hi);
}

// An array of dims, or null for an unknown rank. The length is checked before any dim is read.
absl::StatusOr<PartialShape> ReadShape(const Json& v, const JsonLoc& loc) {
  if (v.is_null()) return PartialShape::DynamicRank();
  if (!v.is_array()) {
    return LocError("shape_case.field.type", loc,
                    absl::StrCat("expected a shape (an array of dims, or null for an unknown "
                                 "rank), found ",
                                 v.type_name()));
  }
  if (v.size() > kMaxRank) {
    return LocError("shape_case.shape.rank", loc,
                    absl::StrCat(v.size(), " dims; at most ", kMaxRank, " are accepted"));
  }
  std::vector<Dim> dims;
  dims.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    absl::StatusOr<Dim> d = ReadDim(v[i], loc.Index(i));
    if (!d.ok()) return d.status();
    dims.push_back(*d);
  }
  return PartialShape::Of(std::move(dims));
}

absl::StatusOr<std::string> ReadStringMember(const Json& obj, const JsonLoc& loc,
                                             absl::string_view key) {
  absl::StatusOr<const Json*> m = Rebrand(Member(obj, loc, key, true));
  if (!m.ok()) return m.status();
  return Rebrand(ReadString(**m, loc.Key(key)));
}

// An element type by its exact name (f32, i64, u1, ...).
absl::StatusOr<ElementType> ReadElementType(const Json& obj, const JsonLoc& loc) {
  absl::StatusOr<std::string> name = ReadStringMember(obj, loc, "type");
  if (!name.ok()) return name.status();
  absl::StatusOr<ElementType> t = ParseElementType(*name);
  if (!t.ok() || ElementTypeName(*t) != *name) {
    return LocError("shape_case.type.known", loc.Key("type"),
                    absl::StrCat("unknown element type '", name->substr(0, 40),
                                 "' (known: boolean, u1, u2, u3, u4, u6, i4, nf4, f4e2m1, u8, i8, "
                                 "f8e4m3, f8e5m2, f8e8m0, u16, i16, f16, bf16, u32, i32, f32, "
                                 "u64, i64, f64)"));
  }
  return *t;
}

// A constant's tensor: {"type", "values", "shape" (exact dims; default [len(values)])}. The
// shape's element count must equal the number of values (which the file holds) before anything
// is allocated.
absl::StatusOr<Tensor> ReadConstant(const Json& in, const JsonLoc& loc, ElementType type) {
  const Json& values = in["values"];
  const JsonLoc vloc = loc.Key("values");
  if (!values.is_array()) {
    return LocError("shape_case.field.type", vloc,
                    absl::StrCat("expected an array of values, found ", values.type_name()));
  }
  Shape shape = {static_cast<int64_t>(values.size())};
  if (auto it = in.find("shape"); it != in.end()) {
    const JsonLoc sloc = loc.Key("shape");
    absl::StatusOr<PartialShape> p = ReadShape(*it, sloc);
    if (!p.ok()) return p.status();
    if (!p->dims) {
      return LocError("shape_case.input.shape", sloc,
                      "a constant has a known shape (null is for a non-constant input)");
    }
    shape.clear();
    // The element count, saturated at values.size() + 1 (so it never overflows).
    const uint64_t n = values.size();
    uint64_t count = 1;
    bool zero = false;
    for (size_t i = 0; i < p->dims->size(); ++i) {
      const Dim& d = (*p->dims)[i];
      if (!d.IsStatic()) {
        return LocError("shape_case.input.shape", sloc.Index(i),
                        absl::StrCat("a constant's dims are exact, found ", d.ToString()));
      }
      shape.push_back(d.lo);
      const uint64_t u = static_cast<uint64_t>(d.lo);
      if (u == 0) {
        zero = true;
      } else {
        count = u > n ? n + 1 : std::min(count * u, n + 1);  // count, u <= n + 1
      }
    }
    if (zero) count = 0;
    if (count != n) {
      return LocError("shape_case.input.shape", sloc,
                      absl::StrCat(values.size(), " values, but shape ", ShapeToString(shape),
                                   " has ", count > values.size() ? "more" : "fewer", " elements"));
    }
  }
  absl::StatusOr<Tensor> t = Tensor::Zeros(type, shape);
  if (!t.ok()) return LocError("shape_case.input.shape", loc, t.status().message());
  for (size_t i = 0; i < values.size(); ++i) {
    absl::StatusOr<uint64_t> bits = DecodeElement(type, values[i]);
    if (!bits.ok())
      return LocError("shape_case.input.value", vloc.Index(i), bits.status().message());
    t->SetBits(static_cast<int64_t>(i), *bits);
  }
  return t;
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
    absl::StatusOr<PartialShape> shape = ReadShape(in["shape"], at.Key("shape"));
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
    absl::StatusOr<PartialShape> out = ReadShape(*it, loc.Key("output"));
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

  absl::StatusOr<std::string> id = ReadStringMember(j, root, "id");
  if (!id.ok()) return id.status();
  if (!IsValidVectorId(*id)) {
    return LocError(
        "shape_case.id.syntax", root.Key("id"),
        absl::StrCat("'", id->substr(0, 80), "' is not 1-200 characters of [A-Za-z0-9._+-]"));
  }
  f.id = *std::move(id);
  absl::StatusOr<std::string> origin = ReadStringMember(j, root, "origin");
  if (!origin.ok()) return origin.status();
  f.origin = *std::move(origin);

  absl::StatusOr<std::string> op_name = ReadStringMember(j, root, "op");
  if (!op_name.ok()) return op_name.status();
  absl::StatusOr<Op> op = ParseOp(*op_name);
  if (!op.ok() || *op_name != OpName(*op)) {
    return LocError("shape_case.op.known", root.Key("op"),
                    absl::StrCat("unknown op '", op_name->substr(0, 40),
                                 "' (expected SpaceToBatch, BatchToSpace, SpaceToDepth, "
                                 "DepthToSpace or ExtractImagePatches)"));
  }
  PartialCase& c = f.c;
  c.op = *op;

  absl::StatusOr<const Json*> attrs_j = Rebrand(Member(j, root, "attributes", true));
  if (!attrs_j.ok()) return attrs_j.status();
  OpCase attrs;
  attrs.op = c.op;
  s = Rebrand(AttributesFromJson(**attrs_j, root.Key("attributes"), &attrs));
  if (!s.ok()) return s;
  c.block_size = attrs.block_size;
  c.mode = std::move(attrs.mode);
  c.sizes = std::move(attrs.sizes);
  c.strides = std::move(attrs.strides);
  c.rates = std::move(attrs.rates);
  c.auto_pad = std::move(attrs.auto_pad);

  absl::StatusOr<const Json*> data_j = Rebrand(Member(j, root, "data", true));
  if (!data_j.ok()) return data_j.status();
  const JsonLoc data_loc = root.Key("data");
  s = Rebrand(CheckObject(**data_j, data_loc, {"type", "shape"}));
  if (!s.ok()) return s;
  absl::StatusOr<ElementType> type = ReadElementType(**data_j, data_loc);
  if (!type.ok()) return type.status();
  c.type = *type;
  absl::StatusOr<const Json*> shape_j = Rebrand(Member(**data_j, data_loc, "shape", true));
  if (!shape_j.ok()) return shape_j.status();
  absl::StatusOr<PartialShape> shape = ReadShape(**shape_j, data_loc.Key("shape"));
  if (!shape.ok()) return shape.status();
  c.data = *std::move(shape);

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

// "<kind> <output> (<rule>)", for the staleness message.
std::string DescribeAnswer(const PartialResult& r) {
  std::string out(PartialKindName(r.kind));
  if (r.kind != PartialKind::kMustReject && r.has_output) {
    absl::StrAppend(&out, " ", r.output.ToString());
  }
  if (r.rule != nullptr) absl::StrAppend(&out, " (", r.rule->id, ")");
  return out;
}

bool SameAnswer(const PartialResult& a, const PartialResult& b) {
  const bool a_out = a.kind != PartialKind::kMustReject && a.has_output;
  const bool b_out = b.kind != PartialKind::kMustReject && b.has_output;
  const absl::string_view a_rule = a.rule != nullptr ? a.rule->id : "";
  const absl::string_view b_rule = b.rule != nullptr ? b.rule->id : "";
  return a.kind == b.kind && a_rule == b_rule && a_out == b_out &&
         (!a_out || a.output.dims == b.output.dims);
}

// The oracle's "case.x: message" as "case.x: <file>: message".
absl::Status WithFile(const absl::Status& s, absl::string_view file) {
  const absl::string_view m = s.message();
  const size_t colon = m.find(": ");
  if (colon == absl::string_view::npos) return absl::Status(s.code(), absl::StrCat(file, ": ", m));
  return absl::Status(s.code(),
                      absl::StrCat(m.substr(0, colon), ": ", file, ": ", m.substr(colon + 2)));
}

// JSON whitespace.
size_t SkipSpace(absl::string_view t, size_t i) {
  while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) ++i;
  return i;
}

// The end of the string that starts at t[i] == '"' (just past its closing quote), or npos.
size_t SkipString(absl::string_view t, size_t i) {
  for (++i; i < t.size(); ++i) {
    if (t[i] == '\\') {
      ++i;
    } else if (t[i] == '"') {
      return i + 1;
    }
  }
  return absl::string_view::npos;
}

// The end of the value that starts at t[i] (a string, a nested object or array, a number or a
// literal), or npos when the text ends first.
size_t SkipValue(absl::string_view t, size_t i) {
  if (i >= t.size()) return absl::string_view::npos;
  if (t[i] == '"') return SkipString(t, i);
  if (t[i] == '{' || t[i] == '[') {
    int depth = 0;
    while (i < t.size()) {
      const char ch = t[i];
      if (ch == '"') {
        i = SkipString(t, i);
        if (i == absl::string_view::npos) return i;
        continue;
      }
      if (ch == '{' || ch == '[') ++depth;
      if ((ch == '}' || ch == ']') && --depth == 0) return i + 1;
      ++i;
    }
    return absl::string_view::npos;
  }
  while (i < t.size() && t[i] != ',' && t[i] != '}' && t[i] != ']' && t[i] != ' ' && t[i] != '\n' &&
         t[i] != '\r' && t[i] != '\t') {
    ++i;
  }
  return i;
}

}  // namespace

std::string SerializeShapeCase(const ShapeCaseFile& f) { return DumpCanonical(ShapeCaseToJson(f)); }

absl::StatusOr<ShapeCaseFile> ParseShapeCase(absl::string_view text, absl::string_view file) {
  if (static_cast<int64_t>(text.size()) > kMaxShapeCaseFileBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("shape_case.json.too_large: ", file, ": ", text.size(), " bytes, above the ",
                     kMaxShapeCaseFileBytes, " bytes a shape-case file may have"));
  }
  absl::StatusOr<Json> j = Rebrand(ParseJsonText(text, file));
  if (!j.ok()) return j.status();
  try {
    return ShapeCaseFromJson(*j, file);
  } catch (const nlohmann::json::exception& e) {
    // Every access above is type-checked first; this is a last line of defence.
    return absl::InvalidArgumentError(
        absl::StrCat("shape_case.field.type: ", file, ": ", e.what()));
  }
}

absl::StatusOr<ShapeCaseFile> ReadShapeCaseFile(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFileToString(path, kMaxShapeCaseFileBytes);
  if (!text.ok()) return text.status();
  return ParseShapeCase(*text, path);
}

absl::Status WriteShapeCaseFile(const std::string& path, const ShapeCaseFile& f) {
  for (const std::optional<Tensor>& t : f.c.int_inputs) {
    if (!t) continue;
    if (absl::Status s = t->Validate("constant"); !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("shape_case.write.unreadable: ", path, ": ", s.message(), "; not written"));
    }
  }
  const std::string text = SerializeShapeCase(f);
  if (static_cast<int64_t>(text.size()) > kMaxShapeCaseFileBytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat("shape_case.write.too_large: ", path, ": the file would take ", text.size(),
                     " bytes, above the ", kMaxShapeCaseFileBytes,
                     " bytes a shape-case file may have to be read back; not written"));
  }
  // Every file written must replay: one the reader refuses is not written.
  if (absl::StatusOr<ShapeCaseFile> back = ParseShapeCase(text, path); !back.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("shape_case.write.unreadable: ", path,
                                                   ": it would be refused on reading (",
                                                   back.status().message(), "); not written"));
  }
  return WriteFileAtomically(path, text);
}

absl::Status FillShapeExpectation(ShapeCaseFile& f) {
  absl::StatusOr<PartialResult> r = OracleShapeAnswer(f.c);
  if (!r.ok()) return r.status();
  f.expected = *std::move(r);
  return absl::OkStatus();
}

absl::Status VerifyShapeCaseExpectation(const ShapeCaseFile& f, absl::string_view file) {
  absl::StatusOr<PartialResult> now = OracleShapeAnswer(f.c);
  if (!now.ok()) return WithFile(now.status(), file);
  if (SameAnswer(f.expected, *now)) return absl::OkStatus();
  return absl::FailedPreconditionError(
      absl::StrCat("shape_case.expected.stale: ", file, ": the file expects ",
                   DescribeAnswer(f.expected), ", the oracle now answers ", DescribeAnswer(*now),
                   "; regenerate it (scripts/regenerate.sh) or review the oracle change"));
}

bool LooksLikeShapeCase(absl::string_view text) {
  size_t i = SkipSpace(text, 0);
  if (i >= text.size() || text[i] != '{') return false;
  i = SkipSpace(text, i + 1);
  // Top-level members in order, until "schema" or the end of what the text holds.
  while (i < text.size() && text[i] == '"') {
    const size_t key_end = SkipString(text, i);
    if (key_end == absl::string_view::npos) return false;
    const absl::string_view key = text.substr(i + 1, key_end - i - 2);
    i = SkipSpace(text, key_end);
    if (i >= text.size() || text[i] != ':') return false;
    i = SkipSpace(text, i + 1);
    const size_t value_end = SkipValue(text, i);
    if (value_end == absl::string_view::npos) return false;
    if (key == "schema") {
      return text.substr(i, value_end - i) == absl::StrCat("\"", kShapeCaseSchema, "\"");
    }
    i = SkipSpace(text, value_end);
    if (i >= text.size() || text[i] != ',') return false;
    i = SkipSpace(text, i + 1);
  }
  return false;
}

}  // namespace dmconf::io
