// SpaceToDepth-1 and DepthToSpace-1 as per-element index maps.
//
// blocks_first: the depth is [block offsets o_1..o_K, channel] (channel fastest);
// depth_first: [channel, o_1..o_K] (the block offsets fastest). Spatial coordinate
// = coarse * block_size + o_i on the space side.
#include "absl/strings/str_cat.h"
#include "oracle/direct/index_maps.h"

namespace dmconf::direct::internal {
namespace {

// block_size ^ K, saturated.
Wide Power(int64_t b, size_t K) {
  Wide r = 1;
  for (size_t i = 0; i < K; ++i) r = SatMul(r, b);
  return r;
}

}  // namespace

absl::StatusOr<IndexMap> DepthToSpaceMap(const Shape& data, int64_t block_size, DepthMode mode) {
  const size_t K = data.size() - 2;
  const int64_t b = block_size;
  const Wide bk = Power(b, K);
  // Output [N, C / b^K, D_1 * b, ..., D_K * b]; a b^K above int64 divides only C = 0.
  const int64_t C_out = FitsInt64(bk) ? data[1] / static_cast<int64_t>(bk) : 0;
  IndexMap m;
  m.output_shape = {data[0], C_out};
  for (size_t i = 2; i < data.size(); ++i) {
    const Wide out = Wide{data[i]} * b;
    if (!FitsInt64(out)) return Unrepresentable(absl::StrCat("output dim ", i));
    m.output_shape.push_back(static_cast<int64_t>(out));
  }
  // Used only when the output has elements, so then b^K <= C fits.
  const int64_t bk64 = FitsInt64(bk) ? static_cast<int64_t>(bk) : 0;
  m.source = [K, b, C_out, bk64, mode](const int64_t* out, int64_t* src) {
    int64_t f = 0;  // flat(o_1..o_K), o_i = y_i mod b
    for (size_t k = 0; k < K; ++k) {
      f = f * b + out[k + 2] % b;
      src[k + 2] = out[k + 2] / b;
    }
    src[0] = out[0];
    src[1] = mode == DepthMode::kBlocksFirst ? f * C_out + out[1] : out[1] * bk64 + f;
    return true;
  };
  return m;
}

absl::StatusOr<IndexMap> SpaceToDepthMap(const Shape& data, int64_t block_size, DepthMode mode) {
  const size_t K = data.size() - 2;
  const int64_t b = block_size;
  const int64_t C = data[1];
  const Wide bk = Power(b, K);
  // Output [N, C * b^K, D_1 / b, ..., D_K / b].
  const Wide C_out = C == 0 ? 0 : SatMul(C, bk);
  if (!FitsInt64(C_out)) return Unrepresentable("the output depth");
  IndexMap m;
  m.output_shape = {data[0], static_cast<int64_t>(C_out)};
  for (size_t i = 2; i < data.size(); ++i) m.output_shape.push_back(data[i] / b);
  const int64_t bk64 = FitsInt64(bk) ? static_cast<int64_t>(bk) : 0;
  m.source = [K, b, C, bk64, mode](const int64_t* out, int64_t* src) {
    // blocks_first: out_c = f * C + c; depth_first: out_c = c * b^K + f.
    int64_t f, c;
    if (mode == DepthMode::kBlocksFirst) {
      f = out[1] / C;
      c = out[1] % C;
    } else {
      f = out[1] % bk64;
      c = out[1] / bk64;
    }
    src[0] = out[0];
    src[1] = c;
    // f = flat(o_1..o_K), o_K fastest; data coordinate z_i * b + o_i.
    for (size_t k = K; k-- > 0;) {
      src[k + 2] = out[k + 2] * b + f % b;
      f /= b;
    }
    return true;
  };
  return m;
}

}  // namespace dmconf::direct::internal
