#include "conformance/vectors/onnx_reference.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/onnx/tensor_proto.h"

namespace dmconf::testing {
namespace {

using Values = std::map<std::string, Tensor>;

int64_t ElementBytes(const Tensor& t) { return BitWidth(t.type) / 8; }

int64_t Count(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

// Row-major strides (in elements).
std::vector<int64_t> Strides(const Shape& s) {
  std::vector<int64_t> st(s.size(), 1);
  for (size_t i = s.size(); i-- > 1;) st[i - 1] = st[i] * s[i];
  return st;
}

// out[index] = in[source(index)] for every multi-index of `out_shape`.
template <typename F>
Tensor Gather(const Tensor& in, const Shape& out_shape, F source) {
  Tensor out;
  out.type = in.type;
  out.shape = out_shape;
  const int64_t es = ElementBytes(in);
  out.bytes.assign(static_cast<size_t>(Count(out_shape) * es), 0);
  std::vector<int64_t> idx(out_shape.size(), 0);
  const int64_t n = Count(out_shape);
  for (int64_t k = 0; k < n; ++k) {
    const int64_t from = source(idx);
    if (from >= 0) std::memcpy(&out.bytes[k * es], &in.bytes[from * es], es);
    for (size_t a = idx.size(); a-- > 0;) {
      if (++idx[a] < out_shape[a]) break;
      idx[a] = 0;
    }
  }
  return out;
}

std::vector<int64_t> Ints(const Tensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < Count(t.shape); ++i) v.push_back(*t.GetInteger(i));
  return v;
}

Tensor Int64s(const std::vector<int64_t>& v) { return *MakeIntegerTensor(ElementType::kI64, v); }

Tensor Transpose(const Tensor& in, const std::vector<int64_t>& perm) {
  Shape out_shape;
  for (int64_t p : perm) out_shape.push_back(in.shape[p]);
  const std::vector<int64_t> st = Strides(in.shape);
  return Gather(in, out_shape, [&](const std::vector<int64_t>& idx) {
    int64_t off = 0;
    for (size_t a = 0; a < perm.size(); ++a) off += idx[a] * st[perm[a]];
    return off;
  });
}

Tensor Reshape(Tensor in, const Shape& shape) {
  in.shape = shape;
  return in;
}

// ONNX Pad, mode constant, value 0: pads = [begin_0, ..., begin_r-1, end_0, ..., end_r-1].
Tensor Pad(const Tensor& in, const std::vector<int64_t>& pads) {
  const size_t r = in.shape.size();
  Shape out_shape;
  for (size_t a = 0; a < r; ++a) out_shape.push_back(in.shape[a] + pads[a] + pads[r + a]);
  const std::vector<int64_t> st = Strides(in.shape);
  return Gather(in, out_shape, [&](const std::vector<int64_t>& idx) -> int64_t {
    int64_t off = 0;
    for (size_t a = 0; a < r; ++a) {
      const int64_t i = idx[a] - pads[a];
      if (i < 0 || i >= in.shape[a]) return -1;
      off += i * st[a];
    }
    return off;
  });
}

// ONNX Slice with positive steps; axes default to 0..r-1; starts / ends clamped to [0, dim].
Tensor Slice(const Tensor& in, std::vector<int64_t> starts, std::vector<int64_t> ends,
             const std::vector<int64_t>& axes_in, const std::vector<int64_t>& steps_in) {
  const size_t r = in.shape.size();
  std::vector<int64_t> start(r, 0), step(r, 1);
  Shape out_shape = in.shape;
  for (size_t k = 0; k < starts.size(); ++k) {
    const int64_t a = axes_in.empty() ? static_cast<int64_t>(k) : axes_in[k];
    const int64_t dim = in.shape[a];
    const int64_t s = steps_in.empty() ? 1 : steps_in[k];
    if (starts[k] < 0) starts[k] += dim;
    if (ends[k] < 0) ends[k] += dim;
    const int64_t b = std::clamp<int64_t>(starts[k], 0, dim);
    const int64_t e = std::clamp<int64_t>(ends[k], 0, dim);
    start[a] = b;
    step[a] = s;
    out_shape[a] = e > b ? (e - b + s - 1) / s : 0;
  }
  const std::vector<int64_t> st = Strides(in.shape);
  return Gather(in, out_shape, [&](const std::vector<int64_t>& idx) {
    int64_t off = 0;
    for (size_t a = 0; a < r; ++a) off += (start[a] + idx[a] * step[a]) * st[a];
    return off;
  });
}

int64_t IntAttr(const ::onnx::NodeProto& n, const std::string& name, int64_t otherwise) {
  for (const auto& a : n.attribute()) {
    if (a.name() == name) return a.i();
  }
  return otherwise;
}

std::vector<int64_t> IntsAttr(const ::onnx::NodeProto& n, const std::string& name) {
  for (const auto& a : n.attribute()) {
    if (a.name() == name) return {a.ints().begin(), a.ints().end()};
  }
  return {};
}

std::string StringAttr(const ::onnx::NodeProto& n, const std::string& name) {
  for (const auto& a : n.attribute()) {
    if (a.name() == name) return a.s();
  }
  return "";
}

// Every part copied into its range of the axis.
Tensor Concat(const std::vector<const Tensor*>& parts, int64_t axis) {
  Tensor out;
  out.type = parts[0]->type;
  out.shape = parts[0]->shape;
  out.shape[axis] = 0;
  for (const Tensor* p : parts) out.shape[axis] += p->shape[axis];
  const int64_t es = ElementBytes(out);
  out.bytes.assign(static_cast<size_t>(Count(out.shape) * es), 0);
  int64_t outer = 1, inner = 1;
  for (int64_t a = 0; a < axis; ++a) outer *= out.shape[a];
  for (size_t a = static_cast<size_t>(axis) + 1; a < out.shape.size(); ++a) inner *= out.shape[a];
  int64_t at = 0;
  for (const Tensor* p : parts) {
    const int64_t run = p->shape[axis] * inner * es;
    for (int64_t o = 0; o < outer; ++o) {
      if (run > 0) {
        std::memcpy(&out.bytes[(o * out.shape[axis] * inner) * es + at * inner * es],
                    &p->bytes[o * run], run);
      }
    }
    at += p->shape[axis];
  }
  return out;
}

absl::StatusOr<Tensor> RunNode(const ::onnx::NodeProto& n, const Values& v) {
  std::vector<const Tensor*> in;
  for (const std::string& name : n.input()) {
    if (name.empty()) {
      in.push_back(nullptr);
      continue;
    }
    auto it = v.find(name);
    if (it == v.end()) return absl::NotFoundError(absl::StrCat("no value ", name));
    in.push_back(&it->second);
  }
  const std::string& op = n.op_type();
  if (op == "Cast") return Int64s(Ints(*in[0]));
  if (op == "Sub") {
    std::vector<int64_t> a = Ints(*in[0]), b = Ints(*in[1]);
    for (size_t i = 0; i < a.size(); ++i) a[i] -= b[i];
    return Int64s(a);
  }
  if (op == "Concat") return Concat(in, IntAttr(n, "axis", 0));
  if (op == "Pad") return Pad(*in[0], Ints(*in[1]));
  if (op == "Reshape") return Reshape(*in[0], Ints(*in[1]));
  if (op == "Transpose") return Transpose(*in[0], IntsAttr(n, "perm"));
  if (op == "Slice") {
    const std::vector<int64_t> axes =
        in.size() > 3 && in[3] ? Ints(*in[3]) : std::vector<int64_t>{};
    const std::vector<int64_t> steps =
        in.size() > 4 && in[4] ? Ints(*in[4]) : std::vector<int64_t>{};
    return Slice(*in[0], Ints(*in[1]), Ints(*in[2]), axes, steps);
  }
  const Shape& s = in[0]->shape;
  const int64_t b = IntAttr(n, "blocksize", 0);
  if (op == "DepthToSpace") {
    const int64_t N = s[0], C = s[1], H = s[2], W = s[3];
    if (StringAttr(n, "mode") == "CRD") {
      Tensor t = Transpose(Reshape(*in[0], {N, C / (b * b), b, b, H, W}), {0, 1, 4, 2, 5, 3});
      return Reshape(t, {N, C / (b * b), H * b, W * b});
    }
    Tensor t = Transpose(Reshape(*in[0], {N, b, b, C / (b * b), H, W}), {0, 3, 4, 1, 5, 2});
    return Reshape(t, {N, C / (b * b), H * b, W * b});
  }
  if (op == "SpaceToDepth") {
    const int64_t N = s[0], C = s[1], H = s[2], W = s[3];
    Tensor t = Transpose(Reshape(*in[0], {N, C, H / b, b, W / b, b}), {0, 3, 5, 1, 2, 4});
    return Reshape(t, {N, C * b * b, H / b, W / b});
  }
  return absl::UnimplementedError(absl::StrCat("no reference for ", op));
}

}  // namespace

absl::StatusOr<Tensor> RunOnnxModel(const ::onnx::ModelProto& model, const Tensor& input) {
  Values v;
  for (const ::onnx::TensorProto& t : model.graph().initializer()) {
    absl::StatusOr<Tensor> x = onnx_io::TensorFromProto(t, t.name());
    if (!x.ok()) return x.status();
    v[t.name()] = *std::move(x);
  }
  v[model.graph().input(0).name()] = input;
  for (const ::onnx::NodeProto& n : model.graph().node()) {
    absl::StatusOr<Tensor> y = RunNode(n, v);
    if (!y.ok()) return y.status();
    v[n.output(0)] = *std::move(y);
  }
  return v[model.graph().output(0).name()];
}

}  // namespace dmconf::testing
