#include "harness/backends/subprocess/protocol.h"

#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "oracle/input_names.h"

namespace dmconf::subprocess {

namespace {

using Json = nlohmann::json;

absl::Status ProtocolError(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("subprocess.protocol: ", what));
}

Json TensorToJson(const Tensor& t, absl::string_view name, bool with_values) {
  Json j = {{"name", std::string(name)},
            {"type", std::string(ElementTypeName(t.type))},
            {"shape", t.shape},
            {"data", absl::Base64Escape(absl::string_view(
                         reinterpret_cast<const char*>(t.bytes.data()), t.bytes.size()))}};
  if (with_values) {
    Json values = Json::array();
    for (int64_t i = 0; i < t.NumElements(); ++i) {
      std::optional<int64_t> v = t.GetInteger(i);
      if (v.has_value()) {
        values.push_back(*v);
      } else {
        values.push_back(t.GetBits(i));  // u64 above INT64_MAX
      }
    }
    j["values"] = std::move(values);
  }
  return j;
}

absl::StatusOr<Tensor> TensorFromJson(const Json& j) {
  if (!j.is_object() || !j.contains("type") || !j["type"].is_string() || !j.contains("shape") ||
      !j["shape"].is_array() || !j.contains("data") || !j["data"].is_string()) {
    return ProtocolError("a tensor needs string \"type\", array \"shape\", string \"data\"");
  }
  absl::StatusOr<ElementType> type = ParseElementType(j["type"].get<std::string>());
  if (!type.ok()) return ProtocolError(type.status().message());
  Tensor t;
  t.type = *type;
  for (const Json& d : j["shape"]) {
    if (!d.is_number_integer()) return ProtocolError("shape values must be integers");
    t.shape.push_back(d.get<int64_t>());
  }
  std::string bytes;
  if (!absl::Base64Unescape(j["data"].get<std::string>(), &bytes)) {
    return ProtocolError("tensor data is not base64");
  }
  t.bytes.assign(bytes.begin(), bytes.end());
  if (absl::Status s = t.Validate("tensor"); !s.ok()) return ProtocolError(s.message());
  return t;
}

// The attributes of a run or shape request: the attribute bundle (oracle/op_attributes.h) of an
// OpCase or a PartialCase, written and read by these two functions for both.
Json AttributesToJson(Op op, const OpAttributes& a) {
  Json attributes = Json::object();
  if (a.block_size.has_value()) attributes["block_size"] = *a.block_size;
  if (a.mode.has_value()) attributes["mode"] = *a.mode;
  if (op == Op::kExtractImagePatches) {
    attributes["sizes"] = a.sizes;
    attributes["strides"] = a.strides;
    attributes["rates"] = a.rates;
    if (a.auto_pad.has_value()) attributes["auto_pad"] = *a.auto_pad;
  }
  return attributes;
}

void AttributesFromJson(const Json& attributes, OpAttributes& a) {
  if (attributes.contains("block_size")) a.block_size = attributes["block_size"].get<int64_t>();
  if (attributes.contains("mode")) a.mode = attributes["mode"].get<std::string>();
  if (attributes.contains("auto_pad")) a.auto_pad = attributes["auto_pad"].get<std::string>();
  a.sizes = attributes.value("sizes", std::vector<int64_t>{});
  a.strides = attributes.value("strides", std::vector<int64_t>{});
  a.rates = attributes.value("rates", std::vector<int64_t>{});
}

absl::StatusOr<Json> ParseLine(absl::string_view line) {
  Json j = Json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return ProtocolError("a line is not a JSON object");
  return j;
}

Json OpSupportToJson(const OpSupport& s) {
  Json types = Json::array();
  for (ElementType t : s.element_types) types.push_back(std::string(ElementTypeName(t)));
  return {{"op", std::string(OpName(s.op))}, {"element_types", types}, {"min_rank", s.min_rank},
          {"max_rank", s.max_rank},          {"modes", s.modes},       {"notes", s.notes}};
}

absl::StatusOr<OpSupport> OpSupportFromJson(const Json& j) {
  if (!j.is_object() || !j.contains("op") || !j["op"].is_string() || !j.contains("element_types") ||
      !j["element_types"].is_array()) {
    return ProtocolError("a capability needs \"op\" and \"element_types\"");
  }
  OpSupport s;
  absl::StatusOr<Op> op = ParseOp(j["op"].get<std::string>());
  if (!op.ok()) return ProtocolError(op.status().message());
  s.op = *op;
  for (const Json& t : j["element_types"]) {
    if (!t.is_string()) return ProtocolError("element_types are names");
    absl::StatusOr<ElementType> et = ParseElementType(t.get<std::string>());
    if (!et.ok()) return ProtocolError(et.status().message());
    s.element_types.insert(*et);
  }
  // A slice covers ranks min_rank..max_rank, 0 <= min_rank <= max_rank (default 0..64).
  for (const char* key : {"min_rank", "max_rank"}) {
    if (j.contains(key) && (!j[key].is_number_integer() || j[key].get<int64_t>() < 0 ||
                            j[key].get<int64_t>() > INT32_MAX ||
                            (j[key].is_number_unsigned() && j[key].get<uint64_t>() > INT32_MAX))) {
      return ProtocolError(absl::StrCat(key, " is an integer in [0, 2^31-1]"));
    }
  }
  s.min_rank = static_cast<int>(j.value("min_rank", int64_t{0}));
  s.max_rank = static_cast<int>(j.value("max_rank", int64_t{64}));
  if (s.max_rank < s.min_rank) return ProtocolError("max_rank is below min_rank");
  if (j.contains("modes")) {
    if (!j["modes"].is_array()) return ProtocolError("modes is an array of names");
    for (const Json& m : j["modes"]) {
      if (!m.is_string()) return ProtocolError("modes is an array of names");
      s.modes.insert(m.get<std::string>());
    }
  }
  s.notes = j.value("notes", "");
  return s;
}

}  // namespace

std::string EncodeHelloRequest() {
  return Json{{"protocol", std::string(kProtocol)},
              {"request", "hello"},
              {"accepts", {std::string(kProtocol), std::string(kProtocol2)}}}
      .dump();
}

std::string EncodeShutdownRequest() { return Json{{"request", "shutdown"}}.dump(); }

std::string EncodeRunRequest(const OpCase& c) {
  const Json attributes = AttributesToJson(c.op, c);
  Json inputs = Json::array();
  inputs.push_back(TensorToJson(c.data, kDataInputName, false));
  const absl::Span<const absl::string_view> names = IntInputNames(c.op);
  for (size_t i = 0; i < c.int_inputs.size(); ++i) {
    inputs.push_back(TensorToJson(c.int_inputs[i], i < names.size() ? names[i] : "extra",
                                  IsIntegerType(c.int_inputs[i].type)));
  }
  return Json{{"request", "run"},
              {"id", c.id},
              {"op", std::string(OpName(c.op))},
              {"attributes", attributes},
              {"inputs", inputs}}
      .dump(-1, ' ', false, Json::error_handler_t::replace);
}

static absl::StatusOr<Hello> DecodeHelloResponseImpl(absl::string_view line) {
  absl::StatusOr<Json> j = ParseLine(line);
  if (!j.ok()) return j.status();
  const std::string protocol = j->value("protocol", "");
  if (protocol != kProtocol && protocol != kProtocol2) {
    return ProtocolError(
        absl::StrCat("the adapter does not speak ", kProtocol, " or ", kProtocol2));
  }
  if (!j->contains("capabilities") || !(*j)["capabilities"].is_array()) {
    return ProtocolError("hello response without a \"capabilities\" array");
  }
  Hello h;
  h.name = j->value("name", "");
  h.version = j->value("version", "");
  for (const Json& s : (*j)["capabilities"]) {
    absl::StatusOr<OpSupport> op = OpSupportFromJson(s);
    if (!op.ok()) return op.status();
    h.capabilities.ops.push_back(std::move(*op));
  }
  h.protocol = protocol;
  if (protocol == kProtocol2) {
    h.capabilities.infer_static = j->value("infer_static", false);
    h.capabilities.infer_partial = j->value("infer_partial", false);
  }
  return h;
}

static absl::StatusOr<RunOutcome> DecodeRunResponseImpl(absl::string_view line,
                                                        absl::string_view case_id) {
  absl::StatusOr<Json> j = ParseLine(line);
  if (!j.ok()) return j.status();
  if (j->value("id", "") != case_id) {
    return ProtocolError(absl::StrCat("a response for case '", j->value("id", ""),
                                      "' while waiting for '", case_id, "'"));
  }
  const std::string outcome = j->value("outcome", "");
  RunOutcome r;
  r.message = j->value("message", "");
  if (outcome == "rejected") {
    r.kind = RunOutcome::Kind::kRejected;
  } else if (outcome == "unsupported") {
    r.kind = RunOutcome::Kind::kUnsupported;
  } else if (outcome == "output") {
    if (!j->contains("output")) return ProtocolError("outcome \"output\" without an output");
    absl::StatusOr<Tensor> t = TensorFromJson((*j)["output"]);
    if (!t.ok()) return t.status();
    r.kind = RunOutcome::Kind::kOutput;
    r.output = std::move(*t);
  } else {
    return ProtocolError(absl::StrCat("unknown outcome '", outcome, "'"));
  }
  return r;
}

static absl::StatusOr<OpCase> DecodeRunRequestImpl(absl::string_view line) {
  absl::StatusOr<Json> j = ParseLine(line);
  if (!j.ok()) return j.status();
  if (j->value("request", "") != "run") return ProtocolError("not a run request");
  OpCase c;
  absl::StatusOr<Op> op = ParseOp(j->value("op", ""));
  if (!op.ok()) return ProtocolError(op.status().message());
  c.op = *op;
  c.id = j->value("id", "");
  AttributesFromJson(j->value("attributes", Json::object()), c);
  if (!j->contains("inputs") || !(*j)["inputs"].is_array() || (*j)["inputs"].empty()) {
    return ProtocolError("a run request needs inputs");
  }
  bool first = true;
  for (const Json& in : (*j)["inputs"]) {
    absl::StatusOr<Tensor> t = TensorFromJson(in);
    if (!t.ok()) return t.status();
    if (first) {
      c.data = std::move(*t);
      first = false;
    } else {
      c.int_inputs.push_back(std::move(*t));
    }
  }
  return c;
}

std::string EncodeRunResponse(absl::string_view case_id, const RunOutcome& r) {
  Json j = {{"id", std::string(case_id)}};
  switch (r.kind) {
    case RunOutcome::Kind::kOutput:
      j["outcome"] = "output";
      if (r.output.has_value()) j["output"] = TensorToJson(*r.output, "output", false);
      break;
    case RunOutcome::Kind::kRejected:
      j["outcome"] = "rejected";
      j["message"] = r.message;
      break;
    case RunOutcome::Kind::kUnsupported:
      j["outcome"] = "unsupported";
      j["message"] = r.message;
      break;
    case RunOutcome::Kind::kCrash:
    case RunOutcome::Kind::kHang:
    case RunOutcome::Kind::kHarnessError:
    case RunOutcome::Kind::kOutOfMemory:
    case RunOutcome::Kind::kInvalidAnswer:
      // Harness-side kinds, not an adapter's to send (the harness derives them from the
      // process itself); reported as a refusal so that the message is not lost.
      j["outcome"] = "rejected";
      j["message"] = r.message;
      break;
  }
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string EncodeHelloResponse(const Hello& h) {
  Json caps = Json::array();
  for (const OpSupport& s : h.capabilities.ops) caps.push_back(OpSupportToJson(s));
  Json j = {
      {"protocol", h.protocol}, {"name", h.name}, {"version", h.version}, {"capabilities", caps}};
  if (h.protocol == kProtocol2) {
    j["infer_static"] = h.capabilities.infer_static;
    j["infer_partial"] = h.capabilities.infer_partial;
  }
  return j.dump();
}

absl::StatusOr<Hello> DecodeHelloResponse(absl::string_view line) {
  // nlohmann::json throws on a value of the wrong JSON type; that is a protocol error.
  try {
    return DecodeHelloResponseImpl(line);
  } catch (const Json::exception& e) {
    return ProtocolError(e.what());
  }
}

absl::StatusOr<RunOutcome> DecodeRunResponse(absl::string_view line, absl::string_view case_id) {
  // nlohmann::json throws on a value of the wrong JSON type; that is a protocol error.
  try {
    return DecodeRunResponseImpl(line, case_id);
  } catch (const Json::exception& e) {
    return ProtocolError(e.what());
  }
}

absl::StatusOr<OpCase> DecodeRunRequest(absl::string_view line) {
  // nlohmann::json throws on a value of the wrong JSON type; that is a protocol error.
  try {
    return DecodeRunRequestImpl(line);
  } catch (const Json::exception& e) {
    return ProtocolError(e.what());
  }
}

namespace {

Json DimsToJson(const PartialShape& s) {
  if (!s.dims) return nullptr;
  Json out = Json::array();
  for (const Dim& d : *s.dims) out.push_back(Json{d.lo, d.hi ? Json(*d.hi) : Json(nullptr)});
  return out;
}

absl::StatusOr<PartialShape> DimsFromJson(const Json& j) {
  if (j.is_null()) return PartialShape::DynamicRank();
  if (!j.is_array() || j.size() > 64) return ProtocolError("a shape is null or at most 64 dims");
  std::vector<Dim> dims;
  for (const Json& d : j) {
    if (!d.is_array() || d.size() != 2 || !d[0].is_number_integer() ||
        !(d[1].is_null() || d[1].is_number_integer())) {
      return ProtocolError("a dim is [lo, hi] with hi an integer or null");
    }
    Dim x{d[0].get<int64_t>(), std::nullopt};
    if (!d[1].is_null()) x.hi = d[1].get<int64_t>();
    if (x.lo < 0 || (x.hi && *x.hi < x.lo)) return ProtocolError("a dim is 0 <= lo <= hi");
    dims.push_back(x);
  }
  return PartialShape::Of(std::move(dims));
}

absl::StatusOr<ShapeOutcome> DecodeShapeResponseImpl(absl::string_view line, absl::string_view id) {
  absl::StatusOr<Json> j = ParseLine(line);
  if (!j.ok()) return j.status();
  if (j->value("id", "") != id) {
    return ProtocolError(
        absl::StrCat("a response for '", j->value("id", ""), "' while waiting for '", id, "'"));
  }
  const std::string outcome = j->value("outcome", "");
  ShapeOutcome r;
  r.message = j->value("message", "");
  if (outcome == "rejected") {
    r.kind = ShapeOutcome::Kind::kRejected;
  } else if (outcome == "unsupported") {
    r.kind = ShapeOutcome::Kind::kUnsupported;
  } else if (outcome == "shape") {
    if (!j->contains("shape") || !j->contains("type")) {
      return ProtocolError("outcome \"shape\" needs \"shape\" and \"type\"");
    }
    absl::StatusOr<PartialShape> shape = DimsFromJson((*j)["shape"]);
    if (!shape.ok()) return shape.status();
    absl::StatusOr<ElementType> type = ParseElementType((*j)["type"].get<std::string>());
    if (!type.ok()) return ProtocolError(type.status().message());
    r.kind = ShapeOutcome::Kind::kOutput;
    r.shape = std::move(*shape);
    r.type = *type;
  } else {
    return ProtocolError(absl::StrCat("unknown outcome '", outcome, "'"));
  }
  return r;
}

absl::StatusOr<ShapeRequest> DecodeShapeRequestImpl(absl::string_view line) {
  absl::StatusOr<Json> j = ParseLine(line);
  if (!j.ok()) return j.status();
  const std::string request = j->value("request", "");
  if (request != "infer_static" && request != "infer_partial") {
    return ProtocolError("not a shape request");
  }
  ShapeRequest q;
  q.id = j->value("id", "");
  q.partial = request == "infer_partial";
  PartialCase& c = q.c;
  absl::StatusOr<Op> op = ParseOp(j->value("op", ""));
  if (!op.ok()) return ProtocolError(op.status().message());
  c.op = *op;
  absl::StatusOr<ElementType> type = ParseElementType(j->value("element_type", ""));
  if (!type.ok()) return ProtocolError(type.status().message());
  c.type = *type;
  AttributesFromJson(j->value("attributes", Json::object()), c);
  absl::StatusOr<PartialShape> data = DimsFromJson(j->value("data", Json(nullptr)));
  if (!data.ok()) return data.status();
  c.data = std::move(*data);
  const Json inputs = j->value("inputs", Json::array());
  if (!inputs.is_array() || inputs.size() > 3) return ProtocolError("at most 3 integer inputs");
  for (size_t k = 0; k < inputs.size(); ++k) {
    const Json& in = inputs[k];
    absl::StatusOr<ElementType> t = ParseElementType(in.value("type", ""));
    if (!t.ok()) return ProtocolError(t.status().message());
    c.int_types[k] = *t;
    if (in.value("constant", false)) {
      absl::StatusOr<Tensor> v = TensorFromJson(in);  // the packed bytes, as in a run request
      if (!v.ok()) return v.status();
      c.int_inputs[k] = std::move(*v);
    } else {
      absl::StatusOr<PartialShape> s = DimsFromJson(in.value("shape", Json(nullptr)));
      if (!s.ok()) return s.status();
      c.int_shapes[k] = std::move(*s);
    }
  }
  return q;
}

}  // namespace

std::string EncodeShapeRequest(absl::string_view id, bool partial, const PartialCase& c) {
  const Json attributes = AttributesToJson(c.op, c);
  Json inputs = Json::array();
  const absl::Span<const absl::string_view> names = IntInputNames(c.op);
  if (c.op == Op::kSpaceToBatch || c.op == Op::kBatchToSpace) {
    for (size_t k = 0; k < 3; ++k) {
      Json in = {{"name", std::string(names[k])},
                 {"type", std::string(ElementTypeName(c.int_types[k]))}};
      if (c.int_inputs[k]) {
        in = TensorToJson(*c.int_inputs[k], names[k], true);
        in["constant"] = true;
      } else {
        in["constant"] = false;
        in["shape"] = DimsToJson(c.int_shapes[k]);
      }
      inputs.push_back(std::move(in));
    }
  }
  return Json{{"request", partial ? "infer_partial" : "infer_static"},
              {"id", std::string(id)},
              {"op", std::string(OpName(c.op))},
              {"element_type", std::string(ElementTypeName(c.type))},
              {"attributes", attributes},
              {"data", DimsToJson(c.data)},
              {"inputs", inputs}}
      .dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string EncodeShapeResponse(absl::string_view id, const ShapeOutcome& r) {
  Json j = {{"id", std::string(id)}};
  if (r.kind == ShapeOutcome::Kind::kOutput) {
    j["outcome"] = "shape";
    j["type"] = std::string(ElementTypeName(r.type));
    j["shape"] = DimsToJson(r.shape);
  } else {
    j["outcome"] = r.kind == ShapeOutcome::Kind::kUnsupported ? "unsupported" : "rejected";
    j["message"] = r.message;
  }
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

absl::StatusOr<ShapeOutcome> DecodeShapeResponse(absl::string_view line, absl::string_view id) {
  // nlohmann::json throws on a value of the wrong JSON type; that is a protocol error.
  try {
    return DecodeShapeResponseImpl(line, id);
  } catch (const Json::exception& e) {
    return ProtocolError(e.what());
  }
}

absl::StatusOr<ShapeRequest> DecodeShapeRequest(absl::string_view line) {
  try {
    return DecodeShapeRequestImpl(line);
  } catch (const Json::exception& e) {
    return ProtocolError(e.what());
  }
}

}  // namespace dmconf::subprocess
