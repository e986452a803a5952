#include "harness/onnx/case_model.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/onnx/model_builder.h"
#include "harness/onnx/onnx_types.h"
#include "harness/onnx/tensor_proto.h"
#include "oracle/input_names.h"
#include "oracle/oracle.h"

namespace dmconf::onnx_io {
namespace {

using ::onnx::GraphProto;
using ::onnx::ModelProto;
using ::onnx::NodeProto;

absl::Status NotExported(absl::string_view id, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("onnx.export.", id, ": ", why));
}

// Reshape-14 with allowzero = 1 to an int64 initializer `<out>_shape`.
void Reshape(GraphProto* g, const std::string& in, const std::string& out, const Shape& shape) {
  AddInt64Initializer(g, out + "_shape", shape);
  SetAttribute(AddNode(g, "Reshape", {in, out + "_shape"}, {out}), "allowzero", int64_t{1});
}

// Cast of an integer initializer to int64.
std::string CastToInt64(GraphProto* g, const std::string& in) {
  const std::string out = in + "_i64";
  SetAttribute(AddNode(g, "Cast", {in}, {out}), "to", int64_t{::onnx::TensorProto::INT64});
  return out;
}

bool AnyNonZero(const std::vector<int64_t>& v) {
  for (int64_t x : v) {
    if (x != 0) return true;
  }
  return false;
}

// block_shape, pads / crops begin and end as initializers of their own type.
absl::Status AddBlockInputs(const OpCase& c, absl::Span<const absl::string_view> names,
                            GraphProto* g) {
  for (size_t k = 0; k < c.int_inputs.size() && k < names.size(); ++k) {
    absl::StatusOr<::onnx::TensorProto> t = TensorToProto(c.int_inputs[k], std::string(names[k]));
    if (!t.ok()) return NotExported("type", t.status().message());
    *g->add_initializer() = *std::move(t);
  }
  return absl::OkStatus();
}

absl::Status SpaceToBatchGraph(const OpCase& c, const Validation& v, GraphProto* g) {
  absl::Status s = AddBlockInputs(c, IntInputNames(Op::kSpaceToBatch), g);
  if (!s.ok()) return s;
  const std::vector<int64_t>& B = v.parsed.block_inputs[0];
  const std::vector<int64_t>& PB = v.parsed.block_inputs[1];
  const std::vector<int64_t>& PE = v.parsed.block_inputs[2];
  const Shape& d = c.data.shape;
  const size_t N = d.size();
  std::string x = "data";
  if (AnyNonZero(PB) || AnyNonZero(PE)) {
    SetAttribute(
        AddNode(g, "Concat", {CastToInt64(g, "pads_begin"), CastToInt64(g, "pads_end")}, {"pads"}),
        "axis", int64_t{0});
    AddNode(g, "Pad", {"data", "pads"}, {"padded"});
    x = "padded";
  }
  // x' = reshape(x, [batch + P_0, (D_1 + P_1) / B_1, B_1, ..., (D_{N-1} + P_{N-1}) / B_{N-1},
  //                  B_{N-1}])
  Shape split = {d[0] + PB[0] + PE[0]};
  for (size_t i = 1; i < N; ++i) {
    split.push_back((d[i] + PB[i] + PE[i]) / B[i]);
    split.push_back(B[i]);
  }
  Reshape(g, x, "split", split);
  // x'' = transpose(x', [2, 4, ..., 2N - 2, 0, 1, 3, ..., 2N - 3])
  std::vector<int64_t> perm;
  for (size_t i = 1; i < N; ++i) perm.push_back(static_cast<int64_t>(2 * i));
  perm.push_back(0);
  for (size_t i = 1; i < N; ++i) perm.push_back(static_cast<int64_t>(2 * i - 1));
  SetAttribute(AddNode(g, "Transpose", {"split"}, {"moved"}), "perm", perm);
  Reshape(g, "moved", "output", v.output_shape);
  return absl::OkStatus();
}

absl::Status BatchToSpaceGraph(const OpCase& c, const Validation& v, GraphProto* g) {
  absl::Status s = AddBlockInputs(c, IntInputNames(Op::kBatchToSpace), g);
  if (!s.ok()) return s;
  const std::vector<int64_t>& B = v.parsed.block_inputs[0];
  const std::vector<int64_t>& CB = v.parsed.block_inputs[1];
  const std::vector<int64_t>& CE = v.parsed.block_inputs[2];
  const Shape& d = c.data.shape;
  const size_t N = d.size();
  int64_t prod = 1;
  for (size_t i = 1; i < N; ++i) prod *= B[i];
  // x' = reshape(data, [B_1, ..., B_{N-1}, batch / prod(B), D_1, ..., D_{N-1}])
  Shape split;
  for (size_t i = 1; i < N; ++i) split.push_back(B[i]);
  split.push_back(d[0] / prod);
  for (size_t i = 1; i < N; ++i) split.push_back(d[i]);
  Reshape(g, "data", "split", split);
  // x'' = transpose(x', [N-1, N, 0, N+1, 1, ..., 2N-2, N-2])
  std::vector<int64_t> perm = {static_cast<int64_t>(N - 1)};
  for (size_t i = 0; i + 1 < N; ++i) {
    perm.push_back(static_cast<int64_t>(N + i));
    perm.push_back(static_cast<int64_t>(i));
  }
  SetAttribute(AddNode(g, "Transpose", {"split"}, {"moved"}), "perm", perm);
  // x''' = reshape(x'', [batch / prod(B), D_1 * B_1, ..., D_{N-1} * B_{N-1}])
  Shape merged = {d[0] / prod};
  for (size_t i = 1; i < N; ++i) merged.push_back(d[i] * B[i]);
  if (!AnyNonZero(CB) && !AnyNonZero(CE)) {
    Reshape(g, "moved", "output", merged);
    return absl::OkStatus();
  }
  Reshape(g, "moved", "merged", merged);
  // y = x'''[crops_begin[i] : dims[i] - crops_end[i]] on every axis
  AddInt64Initializer(g, "merged_dims", merged);
  AddNode(g, "Sub", {"merged_dims", CastToInt64(g, "crops_end")}, {"ends"});
  AddNode(g, "Slice", {"merged", CastToInt64(g, "crops_begin"), "ends"}, {"output"});
  return absl::OkStatus();
}

absl::Status DepthGraph(const OpCase& c, const Validation& v, GraphProto* g) {
  const bool d2s = c.op == Op::kDepthToSpace;
  if (c.data.shape.size() != 4) {
    return NotExported("rank",
                       absl::StrCat("ONNX ", d2s ? "DepthToSpace" : "SpaceToDepth",
                                    " is 4-D only; the data has rank ", c.data.shape.size()));
  }
  NodeProto* n = AddNode(g, d2s ? "DepthToSpace" : "SpaceToDepth", {"data"}, {"output"});
  // "block_size ... Default value: 1" (SpaceToDepth-1, DepthToSpace-1): ONNX requires
  // blocksize, so an absent one is written as the default it means.
  SetAttribute(n, "blocksize", c.block_size.value_or(1));
  if (d2s) {
    SetAttribute(n, "mode", std::string(v.parsed.mode == DepthMode::kBlocksFirst ? "DCR" : "CRD"));
  } else if (v.parsed.mode != DepthMode::kBlocksFirst) {
    return NotExported("mode",
                       "ONNX SpaceToDepth has no mode and is blocks_first; depth_first cannot "
                       "be expressed");
  }
  return absl::OkStatus();
}

// One strided Slice per kernel position, concatenated on the channel axis (case_model.h).
absl::Status PatchGraph(const OpCase& c, const Validation& v, GraphProto* g) {
  const ParsedCase& p = v.parsed;
  const int64_t positions = p.size[0] * p.size[1];
  if (positions > 256) {
    return NotExported("case", absl::StrCat(positions,
                                            " kernel positions: the graph would "
                                            "have more than 256 Slice nodes"));
  }
  const Shape& d = c.data.shape;
  std::string x = "data";
  std::vector<int64_t> pads(8, 0);
  for (int a = 0; a < 2; ++a) {
    const int64_t reach = p.out[a] == 0 ? 0 : (p.out[a] - 1) * p.stride[a] + p.eff[a];
    pads[2 + a] = p.pad_begin[a];
    pads[6 + a] = std::max<int64_t>(0, reach - p.in[a] - p.pad_begin[a]);
  }
  if (AnyNonZero(pads)) {
    AddInt64Initializer(g, "pads", pads);
    AddNode(g, "Pad", {"data", "pads"}, {"padded"});
    x = "padded";
  }
  AddInt64Initializer(g, "steps", {1, 1, p.stride[0], p.stride[1]});
  std::vector<std::string> parts;
  for (int64_t i = 0; i < p.size[0]; ++i) {
    for (int64_t j = 0; j < p.size[1]; ++j) {
      const std::string name = absl::StrCat("patch_", i, "_", j);
      const int64_t r0 = i * p.rate[0], c0 = j * p.rate[1];
      AddInt64Initializer(g, name + "_starts", {0, 0, r0, c0});
      // An empty axis (out 0) ends where it starts: a negative end would count from the back.
      AddInt64Initializer(g, name + "_ends",
                          {d[0], d[1], p.out[0] == 0 ? r0 : r0 + (p.out[0] - 1) * p.stride[0] + 1,
                           p.out[1] == 0 ? c0 : c0 + (p.out[1] - 1) * p.stride[1] + 1});
      AddNode(g, "Slice", {x, name + "_starts", name + "_ends", "", "steps"}, {name});
      parts.push_back(name);
    }
  }
  SetAttribute(AddNode(g, "Concat", parts, {"output"}), "axis", int64_t{1});
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ModelProto> CaseModel(const OpCase& c) {
  const std::optional<int32_t> type = OnnxDataType(c.data.type);
  if (!type) {
    return NotExported(
        "type", absl::StrCat("ONNX 1.12 has no element type for ", ElementTypeName(c.data.type)));
  }
  absl::StatusOr<Validation> v = Validate(c);
  if (!v.ok()) return NotExported("case", v.status().message());
  if (v->kind() != ExpectationKind::kValid) {
    return NotExported("case", absl::StrCat("a ", ExpectationKindName(v->kind()),
                                            " case has no output to compute"));
  }
  ModelProto m = NewModel("dmconf", kOnnxOpset);
  GraphProto* g = m.mutable_graph();
  absl::Status s;
  switch (c.op) {
    case Op::kSpaceToBatch:
      s = SpaceToBatchGraph(c, *v, g);
      break;
    case Op::kBatchToSpace:
      s = BatchToSpaceGraph(c, *v, g);
      break;
    case Op::kSpaceToDepth:
    case Op::kDepthToSpace:
      s = DepthGraph(c, *v, g);
      break;
    case Op::kExtractImagePatches:
      s = PatchGraph(c, *v, g);
      break;
  }
  if (!s.ok()) return s;
  AddInput(g, "data", *type, c.data.shape);
  AddOutput(g, "output", *type, v->output_shape);
  return m;
}

}  // namespace dmconf::onnx_io
