#include "oracle/direct/direct.h"

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "oracle/direct/index_maps.h"
#include "oracle/oracle.h"

namespace dmconf::direct {
namespace {

std::vector<int64_t> Int64Values(const Tensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(*t.GetInteger(i));
  return v;
}

// Checks the case with the oracle's rules, then builds this library's own index map and
// compares its output shape with the oracle's shape inference.
absl::StatusOr<internal::IndexMap> MapFor(const OpCase& c) {
  absl::StatusOr<Validation> v = Validate(c);
  if (!v.ok()) return v.status();
  if (const Violation* d = v->deciding()) return absl::FailedPreconditionError(d->message);
  const Shape& s = c.data.shape;
  absl::StatusOr<internal::IndexMap> m;
  switch (c.op) {
    case Op::kSpaceToBatch:
      m = internal::SpaceToBatchMap(s, Int64Values(c.int_inputs[0]), Int64Values(c.int_inputs[1]),
                                    Int64Values(c.int_inputs[2]));
      break;
    case Op::kBatchToSpace:
      m = internal::BatchToSpaceMap(s, Int64Values(c.int_inputs[0]), Int64Values(c.int_inputs[1]),
                                    Int64Values(c.int_inputs[2]));
      break;
    case Op::kSpaceToDepth:
      m = internal::SpaceToDepthMap(s, c.block_size.value_or(1), *ParseDepthMode(*c.mode));
      break;
    case Op::kDepthToSpace:
      m = internal::DepthToSpaceMap(s, c.block_size.value_or(1), *ParseDepthMode(*c.mode));
      break;
    case Op::kExtractImagePatches:
      m = internal::ExtractImagePatchesMap(s, {c.sizes[0], c.sizes[1]},
                                           {c.strides[0], c.strides[1]}, {c.rates[0], c.rates[1]},
                                           *ParseAutoPad(*c.auto_pad));
      break;
  }
  if (!m.ok()) return m.status();
  if (m->output_shape != v->output_shape) {
    return absl::InternalError(absl::StrCat(
        "direct.shape_disagrees: ", OpName(c.op), " ", AttributesToString(c), " on ",
        ShapeToString(s), ": the direct formula gives ", ShapeToString(m->output_shape),
        ", the oracle's shape inference ", ShapeToString(v->output_shape)));
  }
  return m;
}

// Calls visit(k, src) for every output element k in row-major order, src being the row-major
// data index it copies or kPadZero.
template <typename Visit>
void ForEachSource(const internal::IndexMap& m, const Shape& data_shape, Visit visit) {
  const std::optional<int64_t> n = CheckedProduct(m.output_shape);
  if (!n || *n == 0) return;
  const size_t out_rank = m.output_shape.size();
  const size_t in_rank = data_shape.size();
  std::vector<int64_t> in_strides(in_rank, 1);
  for (size_t i = in_rank; i-- > 1;) in_strides[i - 1] = in_strides[i] * data_shape[i];
  std::vector<int64_t> out(out_rank, 0), src(in_rank, 0);
  for (int64_t k = 0; k < *n; ++k) {
    int64_t flat = kPadZero;
    if (m.source(out.data(), src.data())) {
      flat = 0;
      for (size_t i = 0; i < in_rank; ++i) flat += src[i] * in_strides[i];
    }
    visit(k, flat);
    // Next output multi-index, last axis fastest.
    for (size_t i = out_rank; i-- > 0;) {
      if (++out[i] < m.output_shape[i]) break;
      out[i] = 0;
    }
  }
}

absl::Status TooLarge(const Shape& shape, absl::string_view what, int64_t limit) {
  return absl::ResourceExhaustedError(
      absl::StrCat("case.output.too_large: the ", what, " for ", ShapeToString(shape),
                   " is above the limit for one tensor (", limit, " bytes)"));
}

absl::StatusOr<Tensor> IntegerInput(absl::Span<const int64_t> v) {
  return MakeIntegerTensor(ElementType::kI64, std::vector<int64_t>(v.begin(), v.end()));
}

absl::StatusOr<Tensor> BlockOp(Op op, const Tensor& data, absl::Span<const int64_t> block,
                               absl::Span<const int64_t> begin, absl::Span<const int64_t> end,
                               int64_t max_bytes) {
  OpCase c;
  c.op = op;
  c.data = data;
  for (absl::Span<const int64_t> v : {block, begin, end}) {
    absl::StatusOr<Tensor> t = IntegerInput(v);
    if (!t.ok()) return t.status();
    c.int_inputs.push_back(*std::move(t));
  }
  return DirectEvaluate(c, max_bytes);
}

absl::StatusOr<Tensor> DepthOp(Op op, const Tensor& data, int64_t block_size, DepthMode mode,
                               int64_t max_bytes) {
  OpCase c;
  c.op = op;
  c.data = data;
  c.block_size = block_size;
  c.mode = std::string(DepthModeName(mode));
  return DirectEvaluate(c, max_bytes);
}

}  // namespace

absl::StatusOr<Tensor> DirectEvaluate(const OpCase& c, int64_t max_bytes) {
  if (absl::Status s = c.data.Validate("data"); !s.ok()) return s;
  absl::StatusOr<internal::IndexMap> m = MapFor(c);
  if (!m.ok()) return m.status();
  std::optional<int64_t> n = CheckedProduct(m->output_shape);
  std::optional<int64_t> bytes = n ? PackedByteSize(c.data.type, *n) : std::nullopt;
  if (!bytes || *bytes > max_bytes) return TooLarge(m->output_shape, "output", max_bytes);
  absl::StatusOr<Tensor> y = Tensor::Zeros(c.data.type, m->output_shape, max_bytes);
  if (!y.ok()) return y.status();
  // Pad elements stay all-zero bits.
  ForEachSource(*m, c.data.shape, [&](int64_t k, int64_t src) {
    if (src != kPadZero) y->SetBits(k, c.data.GetBits(src));
  });
  return y;
}

absl::StatusOr<SourceMap> DirectSourceMap(const OpCase& c, int64_t max_elements) {
  absl::StatusOr<int64_t> in = NumElements(c.data.shape);
  if (!in.ok()) return in.status();
  absl::StatusOr<internal::IndexMap> m = MapFor(c);
  if (!m.ok()) return m.status();
  std::optional<int64_t> n = CheckedProduct(m->output_shape);
  if (!n || *n > max_elements) return TooLarge(m->output_shape, "source map", max_elements);
  SourceMap r;
  r.output_shape = m->output_shape;
  r.source.assign(static_cast<size_t>(*n), kPadZero);
  ForEachSource(*m, c.data.shape,
                [&](int64_t k, int64_t src) { r.source[static_cast<size_t>(k)] = src; });
  return r;
}

absl::StatusOr<Tensor> DirectSpaceToBatch(const Tensor& data, absl::Span<const int64_t> block_shape,
                                          absl::Span<const int64_t> pads_begin,
                                          absl::Span<const int64_t> pads_end, int64_t max_bytes) {
  return BlockOp(Op::kSpaceToBatch, data, block_shape, pads_begin, pads_end, max_bytes);
}

absl::StatusOr<Tensor> DirectBatchToSpace(const Tensor& data, absl::Span<const int64_t> block_shape,
                                          absl::Span<const int64_t> crops_begin,
                                          absl::Span<const int64_t> crops_end, int64_t max_bytes) {
  return BlockOp(Op::kBatchToSpace, data, block_shape, crops_begin, crops_end, max_bytes);
}

absl::StatusOr<Tensor> DirectSpaceToDepth(const Tensor& data, int64_t block_size, DepthMode mode,
                                          int64_t max_bytes) {
  return DepthOp(Op::kSpaceToDepth, data, block_size, mode, max_bytes);
}

absl::StatusOr<Tensor> DirectDepthToSpace(const Tensor& data, int64_t block_size, DepthMode mode,
                                          int64_t max_bytes) {
  return DepthOp(Op::kDepthToSpace, data, block_size, mode, max_bytes);
}

absl::StatusOr<Tensor> DirectExtractImagePatches(const Tensor& data,
                                                 absl::Span<const int64_t> sizes,
                                                 absl::Span<const int64_t> strides,
                                                 absl::Span<const int64_t> rates, AutoPad auto_pad,
                                                 int64_t max_bytes) {
  OpCase c;
  c.op = Op::kExtractImagePatches;
  c.data = data;
  c.sizes.assign(sizes.begin(), sizes.end());
  c.strides.assign(strides.begin(), strides.end());
  c.rates.assign(rates.begin(), rates.end());
  c.auto_pad = std::string(AutoPadName(auto_pad));
  return DirectEvaluate(c, max_bytes);
}

}  // namespace dmconf::direct
