#include "harness/compare/mistakes.h"

#include <algorithm>
#include <array>
#include <optional>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "harness/base/float_bits.h"
#include "oracle/oracle.h"
#include "oracle/shape.h"

namespace dmconf {
namespace {

// The oracle's output for a (modified) case, or an error when the oracle finds it not valid.
absl::StatusOr<Tensor> OracleOutput(const OpCase& c) {
  absl::StatusOr<Expectation> e = Evaluate(c);
  if (!e.ok()) return e.status();
  if (e->kind != ExpectationKind::kValid || !e->output.has_value()) {
    return absl::FailedPreconditionError(absl::StrCat("mistake.not_valid: ", e->message));
  }
  return *std::move(e->output);
}

bool IsValid(const OpCase& c) {
  absl::StatusOr<Validation> v = Validate(c);
  return v.ok() && v->kind() == ExpectationKind::kValid;
}

std::vector<int64_t> Values(const OpCase& c, size_t input) {
  std::vector<int64_t> out;
  if (input >= c.int_inputs.size()) return out;
  const Tensor& t = c.int_inputs[input];
  for (int64_t i = 0; i < t.NumElements(); ++i) out.push_back(t.GetInteger(i).value_or(0));
  return out;
}

bool IsDepthOp(const OpCase& c) { return c.op == Op::kDepthToSpace || c.op == Op::kSpaceToDepth; }

// ---- depth.mode_swapped ----
bool ModeSwappedApplies(const OpCase& c) {
  return IsDepthOp(c) && c.block_size.value_or(1) > 1 && c.data.shape.size() >= 2 &&
         c.data.shape[1] > 1 && IsValid(c);
}
absl::StatusOr<Tensor> ModeSwapped(const OpCase& c) {
  OpCase m = c;
  m.mode = c.mode == "blocks_first" ? "depth_first" : "blocks_first";
  return OracleOutput(m);
}

// ---- s2b.pads_swapped / b2s.crops_swapped ----
// One mistake, two names: pads for SpaceToBatch, crops for BatchToSpace (each names its op's
// inputs, so a diagnosis never offers both).
bool EndsSwappedApplies(Op op, const OpCase& c) {
  return c.op == op && c.int_inputs.size() == 3 && Values(c, 1) != Values(c, 2) && IsValid(c);
}
bool PadsSwappedApplies(const OpCase& c) { return EndsSwappedApplies(Op::kSpaceToBatch, c); }
bool CropsSwappedApplies(const OpCase& c) { return EndsSwappedApplies(Op::kBatchToSpace, c); }
absl::StatusOr<Tensor> EndsSwapped(const OpCase& c) {
  OpCase m = c;
  std::swap(m.int_inputs[1], m.int_inputs[2]);
  return OracleOutput(m);
}

// The product, saturated at INT64_MAX (block values of overflow cases multiply past it).
int64_t Product(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t x : v) {
    if (__builtin_mul_overflow(p, x, &p)) return INT64_MAX;
  }
  return p;
}

// ---- s2b.batch_major: output batch n * P + f instead of f * batch + n ----
bool BlockOpApplies(const OpCase& c, Op op) {
  return c.op == op && c.int_inputs.size() == 3 && Product(Values(c, 0)) > 1 &&
         !c.data.shape.empty() && c.data.shape[0] > 1 && IsValid(c);
}
bool S2bBatchMajorApplies(const OpCase& c) { return BlockOpApplies(c, Op::kSpaceToBatch); }
absl::StatusOr<Tensor> S2bBatchMajor(const OpCase& c) {
  absl::StatusOr<Tensor> y = OracleOutput(c);
  if (!y.ok() || y->NumElements() == 0) return y;
  const int64_t batch = c.data.shape[0];
  const int64_t p = y->shape[0] / batch;
  const int64_t inner = y->NumElements() / y->shape[0];
  // mistaken[n * P + f] = right[f * batch + n]
  return Gather(*y, y->shape, [&](int64_t k) {
    const int64_t b = k / inner, rest = k % inner;
    const int64_t n = b / p, f = b % p;
    return (f * batch + n) * inner + rest;
  });
}

// ---- b2s.batch_major: input batch read as n * P + f instead of f * batch_out + n ----
bool B2sBatchMajorApplies(const OpCase& c) {
  return BlockOpApplies(c, Op::kBatchToSpace) && c.data.shape[0] / Product(Values(c, 0)) > 1;
}
absl::StatusOr<Tensor> B2sBatchMajor(const OpCase& c) {
  const int64_t p = Product(Values(c, 0));
  const int64_t batch_out = c.data.shape[0] / p;
  const int64_t inner = c.data.NumElements() / c.data.shape[0];
  OpCase m = c;
  // The mistaken kernel reads X[n * P + f] where the spec reads X[f * batch_out + n]; feeding
  // the spec formula X'[f * batch_out + n] = X[n * P + f] reproduces it.
  absl::StatusOr<Tensor> x = Gather(c.data, c.data.shape, [&](int64_t k) {
    const int64_t b = k / inner, rest = k % inner;
    const int64_t f = b / batch_out, n = b % batch_out;
    return (n * p + f) * inner + rest;
  });
  if (!x.ok()) return x.status();
  m.data = *std::move(x);
  return OracleOutput(m);
}

// ---- eip helpers ----
// A valid ExtractImagePatches case whose geometry the models below can form in int64: dims,
// sizes, strides and rates up to 2^30 (valid cases can hold attributes near 2^63 over tiny
// data; a mistake model is not asked about those).
bool EipValid(const OpCase& c) {
  constexpr int64_t kMaxGeometry = int64_t{1} << 30;
  if (c.op != Op::kExtractImagePatches || c.sizes.size() != 2 || c.strides.size() != 2 ||
      c.rates.size() != 2 || c.data.shape.size() != 4) {
    return false;
  }
  for (const std::vector<int64_t>* v : {&c.sizes, &c.strides, &c.rates, &c.data.shape}) {
    for (int64_t x : *v) {
      if (x > kMaxGeometry) return false;
    }
  }
  return IsValid(c);
}
int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// ---- eip.same_swapped ----
bool SameSwappedApplies(const OpCase& c) {
  if (!EipValid(c) || c.auto_pad == "valid") return false;
  for (int a = 0; a < 2; ++a) {
    // In 128 bits: valid cases can hold attributes near 2^63 whose products overflow int64.
    using Wide = __int128;
    const Wide in = c.data.shape[2 + a];
    const Wide stride = c.strides[a];
    const Wide eff = Wide{c.rates[a]} * (Wide{c.sizes[a]} - 1) + 1;
    const Wide out = (in + stride - 1) / stride;
    const Wide total = std::max<Wide>(0, (out - 1) * stride + eff - in);
    if (total % 2 == 1) return true;
  }
  return false;
}
absl::StatusOr<Tensor> SameSwapped(const OpCase& c) {
  OpCase m = c;
  m.auto_pad = c.auto_pad == "same_upper" ? "same_lower" : "same_upper";
  return OracleOutput(m);
}

// ---- eip.same_lower_off_by_one: pads_begin = total / 2 + 1 ----
bool SameLowerOffApplies(const OpCase& c) {
  return EipValid(c) && c.auto_pad == "same_lower" && c.sizes[0] > 0 && c.sizes[1] > 0;
}
absl::StatusOr<Tensor> SameLowerOff(const OpCase& c) {
  int64_t out[2], pads[2];
  for (int a = 0; a < 2; ++a) {
    const int64_t in = c.data.shape[2 + a];
    const int64_t eff = c.rates[a] * (c.sizes[a] - 1) + 1;
    out[a] = CeilDiv(in, c.strides[a]);
    const int64_t total = std::max<int64_t>(0, (out[a] - 1) * c.strides[a] + eff - in);
    pads[a] = total / 2 + 1;
  }
  return PatchesWithPads(c.data, c.sizes.data(), c.strides.data(), c.rates.data(), pads, out, true);
}

// ---- eip.rate_stride_swapped ----
bool RateStrideApplies(const OpCase& c) { return EipValid(c) && c.rates != c.strides; }
absl::StatusOr<Tensor> RateStride(const OpCase& c) {
  OpCase m = c;
  std::swap(m.rates, m.strides);
  return OracleOutput(m);
}

// ---- eip.patch_major: channel c * KH * KW + k instead of k * C + c ----
bool PatchMajorApplies(const OpCase& c) {
  return EipValid(c) && c.data.shape[1] > 1 && c.sizes[0] * c.sizes[1] > 1;
}
absl::StatusOr<Tensor> PatchMajor(const OpCase& c) {
  absl::StatusOr<Tensor> y = OracleOutput(c);
  if (!y.ok() || y->NumElements() == 0) return y;
  const int64_t depth = c.data.shape[1];
  const int64_t k_count = c.sizes[0] * c.sizes[1];
  const int64_t plane = y->shape[2] * y->shape[3];
  const int64_t chans = y->shape[1];
  // mistaken channel c * K + k holds right channel k * C + c
  return Gather(*y, y->shape, [&](int64_t idx) {
    const int64_t n = idx / (chans * plane), ch = idx / plane % chans, rest = idx % plane;
    const int64_t cc = ch / k_count, k = ch % k_count;
    return (n * chans + k * depth + cc) * plane + rest;
  });
}

// ---- layout.nhwc_as_nchw: the buffer read as [N, H, W, C] ----
bool NhwcApplies(const OpCase& c) {
  if (c.data.shape.size() != 4) return false;
  // H * W > 1, without the product (dims near 2^62 of a zero-sized case would overflow it).
  const int64_t H = c.data.shape[2], W = c.data.shape[3];
  return c.data.shape[1] > 1 && H > 0 && W > 0 && (H > 1 || W > 1) &&
         (IsDepthOp(c) || c.op == Op::kExtractImagePatches) && IsValid(c);
}
absl::StatusOr<Tensor> Nhwc(const OpCase& c) {
  const Shape& s = c.data.shape;
  const int64_t C = s[1], H = s[2], W = s[3];
  OpCase m = c;
  absl::StatusOr<Tensor> x = Gather(c.data, s, [&](int64_t k) {
    const int64_t w = k % W, h = k / W % H, ch = k / (W * H) % C, n = k / (W * H * C);
    return ((n * H + h) * W + w) * C + ch;
  });
  if (!x.ok()) return x.status();
  m.data = *std::move(x);
  return OracleOutput(m);
}

// ---- batch.fixed_zero: every output element read from input batch 0 ----
// The mistaken kernel reads input batch 0 wherever the spec reads batch b: the spec's formula
// on data whose every batch is a copy of batch 0. SpaceToDepth / DepthToSpace /
// ExtractImagePatches carry the batch through (output batch n from input batch n);
// SpaceToBatch reads input batch b % N for output batch b, BatchToSpace input batch
// f * N' + n for output batch n and block offset f: all become batch 0.
bool BatchFixedApplies(const OpCase& c) {
  return !c.data.shape.empty() && c.data.shape[0] > 1 && c.data.NumElements() > 0 && IsValid(c);
}
absl::StatusOr<Tensor> BatchFixed(const OpCase& c) {
  const int64_t inner = c.data.NumElements() / c.data.shape[0];
  OpCase m = c;
  absl::StatusOr<Tensor> x = Gather(c.data, c.data.shape, [&](int64_t k) { return k % inner; });
  if (!x.ok()) return x.status();
  m.data = *std::move(x);
  return OracleOutput(m);
}

// The validation of a valid case of `op` (std::nullopt otherwise), for the models that index
// the data themselves.
std::optional<Validation> ValidOf(const OpCase& c, Op op) {
  if (c.op != op) return std::nullopt;
  absl::StatusOr<Validation> v = Validate(c);
  if (!v.ok() || v->kind() != ExpectationKind::kValid) return std::nullopt;
  return *std::move(v);
}

// ---- b2s.offset_ignores_crops: block offset from x_i % B_i, not (x_i + cb_i) % B_i ----
// The spec: out[n, x] = data[f * N + n, (x_i + cb_i) / B_i], f the offsets (x_i + cb_i) % B_i
// flattened last axis fastest. The mistaken kernel takes the offsets from the uncropped
// coordinate x_i; the spatial source stays right. It differs only where some crops_begin_i
// is not a multiple of B_i.
bool OffsetIgnoresCropsApplies(const OpCase& c) {
  std::optional<Validation> v = ValidOf(c, Op::kBatchToSpace);
  if (!v || c.data.NumElements() == 0) return false;
  const std::vector<int64_t>& B = v->parsed.block_inputs[0];
  const std::vector<int64_t>& cb = v->parsed.block_inputs[1];
  for (size_t i = 1; i < B.size() && i < cb.size(); ++i) {
    if (cb[i] % B[i] != 0) return true;
  }
  return false;
}
absl::StatusOr<Tensor> OffsetIgnoresCrops(const OpCase& c) {
  std::optional<Validation> v = ValidOf(c, Op::kBatchToSpace);
  if (!v) return absl::FailedPreconditionError("mistake.not_valid: not a valid BatchToSpace");
  const std::vector<int64_t>& B = v->parsed.block_inputs[0];
  const std::vector<int64_t>& cb = v->parsed.block_inputs[1];
  const Shape& out = v->output_shape;
  const std::vector<int64_t> st = RowMajorStrides(c.data.shape);
  std::vector<int64_t> x(out.size());
  return Gather(c.data, out, [&](int64_t k) {
    MultiIndexInto(out, k, absl::MakeSpan(x));
    int64_t f = 0, from = 0;
    for (size_t i = 1; i < out.size(); ++i) {
      f = f * B[i] + x[i] % B[i];
      from += (x[i] + cb[i]) / B[i] * st[i];
    }
    return from + (f * out[0] + x[0]) * st[0];
  });
}

// ---- s2b.pads_end_forgotten: the padded extent D_i + pads_begin_i ----
// The spec pads to D_i + pads_begin_i + pads_end_i and reads out[f * N + n, y] =
// padded[n, y_i * B_i + o_i]. The mistaken kernel lays the padded buffer out with extents
// D_i + pads_begin_i (pads_end left out of the loop bound) and indexes it with those extents'
// strides; the output shape stays the spec's. Reads past the short buffer hold zero.
bool PadsEndForgottenApplies(const OpCase& c) {
  std::optional<Validation> v = ValidOf(c, Op::kSpaceToBatch);
  if (!v || c.data.NumElements() == 0) return false;
  for (int64_t pe : v->parsed.block_inputs[2]) {
    if (pe != 0) return true;
  }
  return false;
}
absl::StatusOr<Tensor> PadsEndForgotten(const OpCase& c) {
  std::optional<Validation> v = ValidOf(c, Op::kSpaceToBatch);
  if (!v) return absl::FailedPreconditionError("mistake.not_valid: not a valid SpaceToBatch");
  const std::vector<int64_t>& B = v->parsed.block_inputs[0];
  const std::vector<int64_t>& pb = v->parsed.block_inputs[1];
  const Shape& in = c.data.shape;
  const size_t r = in.size();
  Shape ext = in;
  for (size_t i = 0; i < r; ++i) ext[i] = in[i] + pb[i];
  const std::vector<int64_t> in_st = RowMajorStrides(in), ext_st = RowMajorStrides(ext);
  int64_t ext_count = 1;
  for (int64_t e : ext) ext_count *= e;
  const Shape& out = v->output_shape;
  std::vector<int64_t> y(r), e(r);
  return Gather(c.data, out, [&](int64_t k) -> int64_t {
    MultiIndexInto(out, k, absl::MakeSpan(y));
    int64_t f = y[0] / in[0];
    int64_t at = (y[0] % in[0]) * ext_st[0];
    for (size_t i = r; i-- > 1;) {
      at += (y[i] * B[i] + f % B[i]) * ext_st[i];
      f /= B[i];
    }
    if (at >= ext_count) return -1;
    MultiIndexInto(ext, at, absl::MakeSpan(e));
    int64_t from = 0;
    for (size_t i = 0; i < r; ++i) {
      if (e[i] < pb[i] || e[i] - pb[i] >= in[i]) return -1;
      from += (e[i] - pb[i]) * in_st[i];
    }
    return from;
  });
}

// ---- eip.nhwc_output: the output written channels last ----
// Element (n, oh, ow, d) of the right output written at ((n * OH + oh) * OW + ow) * D + d of
// the buffer declared [N, D, OH, OW].
bool NhwcOutputApplies(const OpCase& c) {
  if (!EipValid(c)) return false;
  absl::StatusOr<Validation> v = Validate(c);
  if (!v.ok()) return false;
  const Shape& y = v->output_shape;
  return y.size() == 4 && y[1] > 1 && y[2] * y[3] > 1 && y[0] * y[1] * y[2] * y[3] > 0;
}
absl::StatusOr<Tensor> NhwcOutput(const OpCase& c) {
  absl::StatusOr<Tensor> y = OracleOutput(c);
  if (!y.ok() || y->NumElements() == 0) return y;
  const int64_t D = y->shape[1], OH = y->shape[2], OW = y->shape[3];
  return Gather(*y, y->shape, [&](int64_t k) {
    const int64_t d = k % D, ow = k / D % OW, oh = k / (D * OW) % OH, n = k / (D * OW * OH);
    return ((n * D + d) * OH + oh) * OW + ow;
  });
}

// ---- eip.pad_edge_clamped: positions outside the image read at the nearest edge ----
// The spec's same_* padding holds zeros; the mistaken kernel clamps the row and column to
// the image, so a patch reaching past an edge repeats the edge's elements.
// Positions are formed in 128 bits: valid cases can hold strides and rates near 2^63 (the
// patch then reaches far past the image, where this mistake clamps it back).
bool PadEdgeClampedApplies(const OpCase& c) {
  if (c.op != Op::kExtractImagePatches || c.data.shape.size() != 4 || c.auto_pad == "valid" ||
      c.data.NumElements() == 0) {
    return false;
  }
  absl::StatusOr<Validation> v = Validate(c);
  if (!v.ok() || v->kind() != ExpectationKind::kValid) return false;
  const ParsedCase& p = v->parsed;
  for (int a = 0; a < 2; ++a) {
    using Wide = __int128;
    // Some patch position lies outside: before the image, or past its end.
    if (p.pad_begin[a] > 0) return true;
    if (p.out[a] > 0 &&
        Wide{p.out[a] - 1} * p.stride[a] - p.pad_begin[a] + p.eff[a] > Wide{p.in[a]}) {
      return true;
    }
  }
  return false;
}
absl::StatusOr<Tensor> PadEdgeClamped(const OpCase& c) {
  absl::StatusOr<Validation> v = Validate(c);
  if (!v.ok()) return v.status();
  const ParsedCase& p = v->parsed;
  const Shape& s = c.data.shape;
  const int64_t C = s[1], H = s[2], W = s[3];
  const int64_t KH = p.size[0], KW = p.size[1], OH = p.out[0], OW = p.out[1], K = KH * KW;
  // The row (column) of output position o and patch offset k, clamped to [0, extent - 1].
  auto clamped = [&](int a, int64_t o, int64_t k, int64_t extent) {
    using Wide = __int128;
    const Wide at = Wide{o} * p.stride[a] - p.pad_begin[a] + Wide{k} * p.rate[a];
    return static_cast<int64_t>(std::clamp<Wide>(at, 0, extent - 1));
  };
  return Gather(c.data, v->output_shape, [&](int64_t idx) -> int64_t {
    const int64_t ow = idx % OW, oh = idx / OW % OH, ch = idx / (OW * OH) % (K * C);
    const int64_t n = idx / (OW * OH * K * C);
    const int64_t k = ch / C, cc = ch % C, kh = k / KW, kw = k % KW;
    return ((n * C + cc) * H + clamped(0, oh, kh, H)) * W + clamped(1, ow, kw, W);
  });
}

// ---- subbyte.lsb_first_throughout: u1 data read and written least significant bit first ----
// The spec packs u1 elements most significant bit first (element i at bit 7 - i % 8 of byte
// i / 8). A kernel that both reads and writes bit i % 8 sees, for element i, the element at
// 8 * (i / 8) + 7 - i % 8 (one past the end reads as 0; one written past the end is lost): the
// spec's formula on data so reordered, the output reordered the same way.
int64_t BitPartner(int64_t i, int64_t n) {
  const int64_t j = 8 * (i / 8) + 7 - i % 8;
  return j < n ? j : -1;
}
bool LsbFirstApplies(const OpCase& c) {
  return c.data.type == ElementType::kU1 && c.data.NumElements() > 1 && IsValid(c);
}
absl::StatusOr<Tensor> LsbFirst(const OpCase& c) {
  const int64_t n = c.data.NumElements();
  OpCase m = c;
  absl::StatusOr<Tensor> x =
      Gather(c.data, c.data.shape, [n](int64_t i) { return BitPartner(i, n); });
  if (!x.ok()) return x.status();
  m.data = *std::move(x);
  absl::StatusOr<Tensor> y = OracleOutput(m);
  if (!y.ok()) return y.status();
  const int64_t k = y->NumElements();
  return Gather(*y, y->shape, [k](int64_t i) { return BitPartner(i, k); });
}

// ---- depth.block_two_only: SpaceToDepth index math written for block_size 2 ----
// A kernel written for block 2 splits each spatial coordinate with a shift and a bit (input
// (y_a << 1) + o_a) and counts 2^K block offsets (o_a the offset's bits, first spatial axis
// highest), whatever block_size the case has: output [n, c_out, y] reads input [n, ch,
// (y_a << 1) + o_a], with blocks_first off = c_out / C, ch = c_out % C and depth_first
// off = c_out & (2^K - 1), ch = c_out >> K. The output shape stays the spec's; a flat index
// outside the data reads zero.
bool BlockTwoOnlyApplies(const OpCase& c) {
  if (c.op != Op::kSpaceToDepth || c.block_size.value_or(1) == 2 || c.data.shape.size() < 3 ||
      c.data.shape.size() > 24 || c.data.NumElements() == 0) {
    return false;
  }
  return IsValid(c);
}
absl::StatusOr<Tensor> BlockTwoOnly(const OpCase& c) {
  absl::StatusOr<Validation> v = Validate(c);
  if (!v.ok()) return v.status();
  const Shape& in = c.data.shape;
  const Shape& out = v->output_shape;
  const int K = static_cast<int>(in.size()) - 2;
  const int64_t offsets = int64_t{1} << K, C = in[1];
  const bool depth_first = v->parsed.mode == DepthMode::kDepthFirst;
  const std::vector<int64_t> st = RowMajorStrides(in);
  const int64_t size = c.data.NumElements();
  std::vector<int64_t> y(out.size());
  return Gather(c.data, out, [&](int64_t k) -> int64_t {
    MultiIndexInto(out, k, absl::MakeSpan(y));
    const int64_t off = depth_first ? (y[1] & (offsets - 1)) : y[1] / C;
    int64_t from = y[0] * st[0] + (depth_first ? (y[1] >> K) : y[1] % C) * st[1];
    for (int a = 0; a < K; ++a) {
      from += ((y[2 + a] << 1) + ((off >> (K - 1 - a)) & 1)) * st[2 + a];
    }
    return from >= 0 && from < size ? from : -1;
  });
}

constexpr std::array<Mistake, 17> kMistakes = {{
    {"depth.mode_swapped", "the other mode (blocks_first and depth_first swapped)",
     ModeSwappedApplies, ModeSwapped, "depth.fit.mode"},
    {"s2b.pads_swapped", "pads_begin and pads_end applied at the wrong ends", PadsSwappedApplies,
     EndsSwapped, "s2b.fit.pads"},
    {"s2b.batch_major", "output batch is batch-major (n * prod(B) + f) instead of block-major",
     S2bBatchMajorApplies, S2bBatchMajor, "s2b.fit.batch_order"},
    {"b2s.batch_major", "input batch read batch-major (n * prod(B) + f) instead of block-major",
     B2sBatchMajorApplies, B2sBatchMajor, "b2s.fit.batch_order"},
    {"eip.same_swapped", "same_upper and same_lower swapped (odd padding at the wrong end)",
     SameSwappedApplies, SameSwapped, "eip.fit.pads"},
    {"eip.same_lower_off_by_one", "same_lower pads_begin off by one (total / 2 + 1)",
     SameLowerOffApplies, SameLowerOff, "eip.fit.pads"},
    {"eip.rate_stride_swapped", "rates used as strides and strides as rates", RateStrideApplies,
     RateStride, "eip.fit.strides+eip.fit.rates|eip.fit.strides+eip.fit.rates+eip.fit.pads"},
    {"eip.patch_major", "patch-major channel order (c * KH * KW + k) instead of channel-fastest",
     PatchMajorApplies, PatchMajor, "eip.fit.depth_order"},
    {"layout.nhwc_as_nchw", "the NCHW input read as NHWC", NhwcApplies, Nhwc,
     "depth.fit.input_layout|eip.fit.input_layout"},
    {"b2s.crops_swapped", "crops_begin and crops_end applied at the wrong ends",
     CropsSwappedApplies, EndsSwapped, "b2s.fit.crops"},
    {"batch.fixed_zero", "every output element read from input batch 0", BatchFixedApplies,
     BatchFixed},
    {"b2s.offset_ignores_crops",
     "block offsets taken from the uncropped coordinate (x % B, not (x + crops_begin) % B)",
     OffsetIgnoresCropsApplies, OffsetIgnoresCrops},
    {"s2b.pads_end_forgotten",
     "the padded buffer laid out with extents D + pads_begin (pads_end left out of the bound)",
     PadsEndForgottenApplies, PadsEndForgotten},
    {"eip.nhwc_output", "the output written channels last (NHWC) into the [N, D, OH, OW] buffer",
     NhwcOutputApplies, NhwcOutput},
    {"eip.pad_edge_clamped",
     "positions outside the image read at the nearest edge instead of as zero padding",
     PadEdgeClampedApplies, PadEdgeClamped},
    {"subbyte.lsb_first_throughout", "u1 data read and written least significant bit first",
     LsbFirstApplies, LsbFirst},
    {"depth.block_two_only",
     "index math written for block_size 2 (coordinates shifted by 1, 2^K block offsets)",
     BlockTwoOnlyApplies, BlockTwoOnly},
}};

template <typename F>
Tensor MapBits(Tensor t, F f) {
  const int64_t n = t.NumElements();
  for (int64_t i = 0; i < n; ++i) t.SetBits(i, f(t.GetBits(i)));
  return t;
}

}  // namespace

absl::Span<const Mistake> AllMistakes() { return kMistakes; }

const Mistake* FindMistake(absl::string_view id) {
  for (const Mistake& m : kMistakes) {
    if (m.id == id) return &m;
  }
  return nullptr;
}

Tensor QuietSignallingNaNs(Tensor t) {
  const ElementType type = t.type;
  return MapBits(std::move(t),
                 [type](uint64_t b) { return IsNaNBits(type, b) ? (b | QuietBit(type)) : b; });
}

Tensor CanonicaliseNaNs(Tensor t) {
  const ElementType type = t.type;
  const uint64_t sign = SignBit(type);
  const uint64_t canonical =
      QuietBit(type) == 0 ? 0 : ((sign - 1) & ~(QuietBit(type) - 1));  // exp all ones + quiet
  return MapBits(std::move(t),
                 [&](uint64_t b) { return IsNaNBits(type, b) && canonical != 0 ? canonical : b; });
}

Tensor FlushNegativeZero(Tensor t) {
  const uint64_t sign = SignBit(t.type);
  return MapBits(std::move(t), [sign](uint64_t b) { return sign != 0 && b == sign ? 0 : b; });
}

Tensor SwapNibbles(Tensor t) {
  if (BitWidth(t.type) != 4) return t;
  for (uint8_t& b : t.bytes) b = static_cast<uint8_t>((b << 4) | (b >> 4));
  return t;
}

Tensor ReverseBitOrder(Tensor t) {
  if (BitWidth(t.type) != 1) return t;
  for (uint8_t& b : t.bytes) {
    uint8_t r = 0;
    for (int i = 0; i < 8; ++i) r = static_cast<uint8_t>(r | (((b >> i) & 1) << (7 - i)));
    b = r;
  }
  return t;
}

Tensor SwapWordHalves(Tensor t) {
  if (BitWidth(t.type) != 64) return t;
  const int64_t n = t.NumElements();
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t b = t.GetBits(i);
    t.SetBits(i, (b << 32) | (b >> 32));
  }
  return t;
}

Tensor ReverseElementBytes(Tensor t) {
  if (BitWidth(t.type) != 64) return t;
  const int64_t n = t.NumElements();
  for (int64_t i = 0; i < n; ++i) t.SetBits(i, __builtin_bswap64(t.GetBits(i)));
  return t;
}

absl::StatusOr<Tensor> PatchesWithPads(const Tensor& data, const int64_t sizes[2],
                                       const int64_t strides[2], const int64_t rates[2],
                                       const int64_t pads_begin[2], const int64_t out_dims[2],
                                       bool channel_fastest) {
  const Shape& s = data.shape;
  const int64_t N = s[0], C = s[1], H = s[2], W = s[3];
  const int64_t KH = sizes[0], KW = sizes[1], OH = out_dims[0], OW = out_dims[1];
  const int64_t K = KH * KW;
  return Gather(data, Shape{N, K * C, OH, OW}, [&](int64_t idx) -> int64_t {
    const int64_t ow = idx % OW, oh = idx / OW % OH, ch = idx / (OW * OH) % (K * C);
    const int64_t n = idx / (OW * OH * K * C);
    const int64_t k = channel_fastest ? ch / C : ch % K;
    const int64_t c = channel_fastest ? ch % C : ch / K;
    const int64_t kh = k / KW, kw = k % KW;
    const int64_t r = oh * strides[0] - pads_begin[0] + kh * rates[0];
    const int64_t q = ow * strides[1] - pads_begin[1] + kw * rates[1];
    if (r < 0 || r >= H || q < 0 || q >= W) return -1;
    return ((n * C + c) * H + r) * W + q;
  });
}

}  // namespace dmconf
