// Kernel bugs written as a kernel author makes them, each by reimplementing the op's loop with
// one slip: a padded extent without pads_end, index math for 2x2 blocks only, 8-byte elements
// copied byte-reversed, the batch index left at 0, fixed-size index arrays that overflow at
// rank 6, a tile loop that stops advancing for large blocks, an output written channels last,
// a stride or a padding computed from the wrong attribute, a block offset taken before the
// crop, positions outside the image read at its edge. They were written from the
// specification alone, without looking at how the diagnosis fits wrong outputs, and are in no
// known-mistake list.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "harness/backends/mutants/mutant_support.h"
#include "oracle/oracle.h"
#include "oracle/shape.h"

namespace dmconf {
namespace {

// The case's validation when the case is valid for `op` (so the kernel runs), else nullopt.
std::optional<Validation> ValidFor(const OpCase& c, Op op) {
  if (c.op != op) return std::nullopt;
  absl::StatusOr<Validation> v = Validate(c);
  if (!v.ok() || v->kind() != ExpectationKind::kValid) return std::nullopt;
  return *std::move(v);
}

// A kernel's raw copy loop: output element k of `shape` takes the bits of src's element
// source(k). An index outside src's buffer reads 0 (the kernel guards its pointer against the
// buffer's end, not against each axis), as does a negative one (padding).
template <typename F>
absl::StatusOr<Tensor> RawGather(const Tensor& src, Shape shape, F source) {
  absl::StatusOr<Tensor> out = Tensor::Zeros(src.type, std::move(shape));
  if (!out.ok()) return out;
  const int64_t n = out->NumElements(), size = src.NumElements();
  for (int64_t k = 0; k < n; ++k) {
    const int64_t from = source(k);
    if (from >= 0 && from < size) out->SetBits(k, src.GetBits(from));
  }
  return out;
}

// ---- SpaceToBatch: the padded buffer sized D + pads_begin ----

// The spec: padded = pad(data, pads_begin, pads_end); output batch f * N + n, f the block
// offsets (o_1, ..., o_K) flattened last axis fastest; out[f * N + n, y_1, ..., y_K] =
// padded[n, y_1 * B_1 + o_1, ..., y_K * B_K + o_K]. The kernel builds the padded buffer with
// extents D_i + pads_begin_i (pads_end forgotten in the loop bound) and indexes it with those
// extents' strides; the output shape comes from shape inference and stays the spec's.
RunOutcome S2bPadsEndForgotten(const OpCase& c) {
  std::optional<Validation> v = ValidFor(c, Op::kSpaceToBatch);
  if (!v) return CorrectOutcome(c);
  const std::vector<int64_t>& block = v->parsed.block_inputs[0];
  const std::vector<int64_t>& pb = v->parsed.block_inputs[1];
  const Shape& in = c.data.shape;
  const size_t r = in.size();
  if (block.size() != r || pb.size() != r || block[0] != 1 || pb[0] != 0) return CorrectOutcome(c);
  Shape ext = in;
  for (size_t i = 0; i < r; ++i) ext[i] = in[i] + pb[i];
  const std::vector<int64_t> in_st = RowMajorStrides(in), ext_st = RowMajorStrides(ext);
  std::vector<int64_t> e(r), y(r);
  absl::StatusOr<Tensor> padded = RawGather(c.data, ext, [&](int64_t k) {
    MultiIndexInto(ext, k, absl::MakeSpan(e));
    int64_t from = 0;
    for (size_t i = 0; i < r; ++i) {
      if (e[i] < pb[i] || e[i] - pb[i] >= in[i]) return int64_t{-1};
      from += (e[i] - pb[i]) * in_st[i];
    }
    return from;
  });
  if (!padded.ok()) return CorrectOutcome(c);
  const Shape& out = v->output_shape;
  return OutcomeOf(RawGather(*padded, out, [&](int64_t k) {
    MultiIndexInto(out, k, absl::MakeSpan(y));
    int64_t f = y[0] / in[0];
    int64_t from = (y[0] % in[0]) * ext_st[0];
    for (size_t i = r; i-- > 1;) {
      const int64_t o = f % block[i];
      f /= block[i];
      from += (y[i] * block[i] + o) * ext_st[i];
    }
    return from;
  }));
}

// SpaceToBatch with fixed-size index arrays for at most 5 dims: writing the 6th overruns the
// stack, a segfault on every valid case of rank >= 6.
RunOutcome S2bCrashRankSix(const OpCase& c) {
  if (c.data.shape.size() >= 6 && ValidFor(c, Op::kSpaceToBatch)) raise(SIGSEGV);
  return CorrectOutcome(c);
}

// ---- BatchToSpace ----

// A BatchToSpace kernel's gather loop: output element x (a multi-index) reads the data element
// source(x, B, cb, strides, output shape) returns. Cases that are not valid BatchToSpace
// cases get the right outcome.
// The spec: out[n, x_1, ..., x_K] = data[f * N + n, (x_1 + cb_1) / B_1, ...], f the offsets
// (x_i + cb_i) % B_i flattened last axis fastest, N the output batch.
template <typename F>
RunOutcome B2sGather(const OpCase& c, F source) {
  std::optional<Validation> v = ValidFor(c, Op::kBatchToSpace);
  if (!v) return CorrectOutcome(c);
  const std::vector<int64_t>& block = v->parsed.block_inputs[0];
  const std::vector<int64_t>& cb = v->parsed.block_inputs[1];
  const size_t r = c.data.shape.size();
  if (block.size() != r || cb.size() != r) return CorrectOutcome(c);
  const std::vector<int64_t> st = RowMajorStrides(c.data.shape);
  const Shape& out = v->output_shape;
  std::vector<int64_t> x(r);
  return OutcomeOf(RawGather(c.data, out, [&](int64_t k) {
    MultiIndexInto(out, k, absl::MakeSpan(x));
    return source(x, block, cb, st, out);
  }));
}

// The kernel computes the spatial source right but leaves the input batch index at 0.
RunOutcome B2sReadsBatchZero(const OpCase& c) {
  return B2sGather(
      c, [](const std::vector<int64_t>& x, const std::vector<int64_t>& block,
            const std::vector<int64_t>& cb, const std::vector<int64_t>& st, const Shape&) {
        int64_t from = 0;  // batch 0 (the bug)
        for (size_t i = 1; i < x.size(); ++i) from += (x[i] + cb[i]) / block[i] * st[i];
        return from;
      });
}

// The kernel takes the block offset from the uncropped output coordinate: f from x_i % B_i
// where the spec's is (x_i + cb_i) % B_i (the spatial source (x_i + cb_i) / B_i stays right).
// Right whenever every crops_begin is a multiple of its block.
RunOutcome B2sOffsetIgnoresCrops(const OpCase& c) {
  return B2sGather(
      c, [](const std::vector<int64_t>& x, const std::vector<int64_t>& block,
            const std::vector<int64_t>& cb, const std::vector<int64_t>& st, const Shape& out) {
        int64_t f = 0, from = 0;
        for (size_t i = 1; i < x.size(); ++i) {
          f = f * block[i] + x[i] % block[i];  // the bug: x_i, not x_i + cb_i
          from += (x[i] + cb[i]) / block[i] * st[i];
        }
        return from + (f * out[0] + x[0]) * st[0];
      });
}

// BatchToSpace copying 8-byte elements with a byte loop that walks each element backwards:
// f64 / i64 / u64 outputs have their byte order reversed (other widths are copied right).
RunOutcome B2sEightByteBytesReversed(const OpCase& c) {
  RunOutcome o = CorrectOutcome(c);
  if (c.op != Op::kBatchToSpace || !o.output.has_value() || BitWidth(o.output->type) != 64) {
    return o;
  }
  const int64_t n = o.output->NumElements();
  for (int64_t i = 0; i < n; ++i) o.output->SetBits(i, __builtin_bswap64(o.output->GetBits(i)));
  return o;
}

// ---- SpaceToDepth / DepthToSpace ----

// The spec: out[n, ch, y_1, ..., y_K] = data[n, c, y_1 * b + o_1, ..., y_K * b + o_K] with
// ch = off * C + c (blocks_first) or c * b^K + off (depth_first), off the offsets flattened
// last axis fastest. The kernel was written for 2x2 blocks: off split into bits, y_i * b as
// y_i << 1, b^K as 1 << K; the output shape comes from shape inference.
RunOutcome S2dBlockTwoOnly(const OpCase& c) {
  std::optional<Validation> v = ValidFor(c, Op::kSpaceToDepth);
  if (!v) return CorrectOutcome(c);
  const Shape& in = c.data.shape;
  const Shape& out = v->output_shape;
  if (in.size() < 3 || in.size() > 24) return CorrectOutcome(c);
  const int K = static_cast<int>(in.size()) - 2;
  const int64_t C = in[1], offsets = int64_t{1} << K;
  const bool depth_first = v->parsed.mode == DepthMode::kDepthFirst;
  const std::vector<int64_t> st = RowMajorStrides(in);
  std::vector<int64_t> y(out.size());
  return OutcomeOf(RawGather(c.data, out, [&](int64_t k) {
    MultiIndexInto(out, k, absl::MakeSpan(y));
    const int64_t off = depth_first ? (y[1] & (offsets - 1)) : y[1] / C;
    const int64_t ch = depth_first ? (y[1] >> K) : y[1] % C;
    int64_t from = y[0] * st[0] + ch * st[1];
    for (int a = 0; a < K; ++a) {
      const int64_t o = (off >> (K - 1 - a)) & 1;
      from += ((y[2 + a] << 1) + o) * st[2 + a];
    }
    return from;
  }));
}

// DepthToSpace copying in tiles of 4 lanes, the step 4 / block_size: 0 for block_size > 4, and
// the tile loop never ends (on every valid case with a non-empty output).
RunOutcome D2sHangBlockOverFour(const OpCase& c) {
  if (c.block_size.value_or(1) > 4 && c.data.NumElements() > 0 && ValidFor(c, Op::kDepthToSpace)) {
    for (;;) pause();
  }
  return CorrectOutcome(c);
}

// ---- ExtractImagePatches ----

// The spec: out[n, (kh * KW + kw) * C + c, oh, ow] = data[n, c, oh * s_0 + kh * r_0 - p_0,
// ow * s_1 + kw * r_1 - p_1], 0 outside the image. The kernel's loop, with the strides and the
// padding before it uses; `clamp` reads a position outside the image at the nearest edge.
absl::StatusOr<Tensor> PatchLoop(const OpCase& c, const ParsedCase& p, const int64_t stride[2],
                                 const int64_t pad[2], bool clamp = false) {
  const Shape& in = c.data.shape;
  const int64_t C = in[1], H = in[2], W = in[3], KW = p.size[1];
  const Shape out = {in[0], C * p.size[0] * KW, p.out[0], p.out[1]};
  std::vector<int64_t> y(4);
  return RawGather(c.data, out, [&](int64_t k) {
    MultiIndexInto(out, k, absl::MakeSpan(y));
    const int64_t kh = y[1] / C / KW, kw = y[1] / C % KW, ch = y[1] % C;
    const int64_t row = y[2] * stride[0] + kh * p.rate[0] - pad[0];
    const int64_t col = y[3] * stride[1] + kw * p.rate[1] - pad[1];
    if (clamp) {
      return ((y[0] * C + ch) * H + std::clamp<int64_t>(row, 0, H - 1)) * W +
             std::clamp<int64_t>(col, 0, W - 1);
    }
    if (row < 0 || row >= H || col < 0 || col >= W) return int64_t{-1};
    return ((y[0] * C + ch) * H + row) * W + col;
  });
}

std::optional<Validation> ValidPatches(const OpCase& c) {
  std::optional<Validation> v = ValidFor(c, Op::kExtractImagePatches);
  if (!v || c.data.shape.size() != 4) return std::nullopt;
  return v;
}

// The row stride used for the columns too (strides[0] in both positions of the loop).
RunOutcome EipRowStrideForCols(const OpCase& c) {
  std::optional<Validation> v = ValidPatches(c);
  if (!v) return CorrectOutcome(c);
  const ParsedCase& p = v->parsed;
  const int64_t stride[2] = {p.stride[0], p.stride[0]};
  return OutcomeOf(PatchLoop(c, p, stride, p.pad_begin.data()));
}

// same_upper / same_lower: the total padding computed from the patch size instead of the
// dilated (effective) size: total = max((out - 1) * stride + size - in, 0), split as the spec
// splits it (the odd one at the end for same_upper, at the beginning for same_lower).
RunOutcome EipSamePadsUndilated(const OpCase& c) {
  std::optional<Validation> v = ValidPatches(c);
  if (!v || v->parsed.auto_pad == AutoPad::kValid) return CorrectOutcome(c);
  const ParsedCase& p = v->parsed;
  int64_t pad[2];
  for (int a = 0; a < 2; ++a) {
    int64_t total = 0;
    if (p.out[a] > 0)
      total = std::max<int64_t>((p.out[a] - 1) * p.stride[a] + p.size[a] - p.in[a], 0);
    pad[a] = p.auto_pad == AutoPad::kSameUpper ? total / 2 : (total + 1) / 2;
  }
  return OutcomeOf(PatchLoop(c, p, p.stride.data(), pad));
}

// Positions outside the image read from the nearest edge (clamped indices, as an image
// library's border mode would) instead of as zeros.
RunOutcome EipPadEdgeClamped(const OpCase& c) {
  std::optional<Validation> v = ValidPatches(c);
  if (!v || c.data.NumElements() == 0) return CorrectOutcome(c);
  const ParsedCase& p = v->parsed;
  return OutcomeOf(PatchLoop(c, p, p.stride.data(), p.pad_begin.data(), true));
}

// The output written channels last: element (n, oh, ow, d) at ((n * OH + oh) * OW + ow) * D + d
// of a buffer declared [N, D, OH, OW].
RunOutcome EipNhwcOutput(const OpCase& c) {
  RunOutcome right = CorrectOutcome(c);
  if (!ValidPatches(c) || !right.output.has_value() || right.output->NumElements() == 0) {
    return right;
  }
  const Tensor& y = *right.output;
  const int64_t D = y.shape[1], OH = y.shape[2], OW = y.shape[3];
  return OutcomeOf(RawGather(y, y.shape, [&](int64_t k) {
    const int64_t d = k % D, ow = k / D % OW, oh = k / (D * OW) % OH, n = k / (D * OW * OH);
    return ((n * D + d) * OH + oh) * OW + ow;
  }));
}

}  // namespace

std::vector<MutantInfo> BlindMutants() {
  const std::vector<Verdict> values = {Verdict::kWrongValues};
  return {

      {"s2b_pads_end_forgotten",
       "SpaceToBatch: padded buffer sized D + pads_begin (pads_end forgotten) and indexed with it",
       values, S2bPadsEndForgotten},
      {"s2b_crash_rank_six",
       "SpaceToBatch: index arrays for 5 dims, segfault at rank >= 6",
       {Verdict::kCrash},
       S2bCrashRankSix},
      {"b2s_reads_batch_zero", "BatchToSpace: every output read from input batch 0", values,
       B2sReadsBatchZero},
      {"b2s_offset_ignores_crops",
       "BatchToSpace: block offset taken from the uncropped output coordinate", values,
       B2sOffsetIgnoresCrops},
      {"b2s_8byte_bytes_reversed", "BatchToSpace: 8-byte elements copied with their bytes reversed",
       values, B2sEightByteBytesReversed},
      {"s2d_block_two_only", "SpaceToDepth: index math written for block_size 2", values,
       S2dBlockTwoOnly},
      {"d2s_hang_block_over_four",
       "DepthToSpace: tile step 4 / block_size is 0 for block_size > 4, endless loop",
       {Verdict::kHang},
       D2sHangBlockOverFour},
      {"eip_row_stride_for_cols", "ExtractImagePatches: the row stride used for the columns too",
       values, EipRowStrideForCols},
      {"eip_same_pads_undilated",
       "ExtractImagePatches: same padding computed from the patch size, not the dilated size",
       values, EipSamePadsUndilated},
      {"eip_pad_edge_clamped",
       "ExtractImagePatches: positions outside the image read at the nearest edge, not as zero",
       values, EipPadEdgeClamped},
      {"eip_nhwc_output", "ExtractImagePatches: output written channels last (NHWC)", values,
       EipNhwcOutput},
  };
}

}  // namespace dmconf
