// SpaceToBatch-2 and BatchToSpace-2 as per-element index maps (TensorFlow's SpaceToBatchND /
// BatchToSpaceND semantics, which the specifications' corrected permutations describe;
// ERRATA E1, E2).
#include <utility>

#include "absl/strings/str_cat.h"
#include "oracle/direct/index_maps.h"

namespace dmconf::direct::internal {

Wide SatMul(Wide a, Wide b) {
  constexpr Wide kCap = Wide{1} << 64;
  if (a == 0 || b == 0) return 0;
  if (a >= kCap || b >= kCap || a * b >= kCap) return kCap;  // both < 2^64: no wrap in 128 bits
  return a * b;
}

bool FitsInt64(Wide x) { return x >= 0 && x <= Wide{INT64_MAX}; }

absl::Status Unrepresentable(absl::string_view what) {
  return absl::InternalError(
      absl::StrCat("direct.shape_unrepresentable: ", what, " does not fit int64"));
}

absl::StatusOr<IndexMap> SpaceToBatchMap(const Shape& data, std::vector<int64_t> block,
                                         std::vector<int64_t> pads_begin,
                                         std::vector<int64_t> pads_end) {
  const size_t N = data.size();
  const int64_t batch = data[0];
  IndexMap m;
  // Output [batch * B_1 * ... * B_{N-1}, (D_i + pads_begin[i] + pads_end[i]) / B_i].
  Wide out_batch = batch;
  for (size_t i = 1; i < N; ++i) out_batch = SatMul(out_batch, block[i]);
  if (!FitsInt64(out_batch)) return Unrepresentable("the output batch");
  m.output_shape.push_back(static_cast<int64_t>(out_batch));
  for (size_t i = 1; i < N; ++i) {
    const Wide padded = Wide{data[i]} + pads_begin[i] + pads_end[i];
    const Wide out = padded / block[i];
    if (!FitsInt64(out)) return Unrepresentable(absl::StrCat("output dim ", i));
    m.output_shape.push_back(static_cast<int64_t>(out));
  }
  // out[ob, i_1, ..., i_{N-1}]: n = ob mod batch, f = ob div batch = flat(o_1..o_{N-1});
  // the padded coordinate is i_k * B_k + o_k, the data coordinate that minus pads_begin[k].
  m.source = [data, block = std::move(block), pads_begin = std::move(pads_begin), batch, N](
                 const int64_t* out, int64_t* src) {
    src[0] = out[0] % batch;
    int64_t f = out[0] / batch;
    bool inside = true;
    for (size_t k = N - 1; k >= 1; --k) {
      const int64_t o = f % block[k];
      f /= block[k];
      const Wide p = Wide{out[k]} * block[k] + o - pads_begin[k];
      if (p < 0 || p >= data[k]) {
        inside = false;
      } else {
        src[k] = static_cast<int64_t>(p);
      }
    }
    return inside;
  };
  return m;
}

absl::StatusOr<IndexMap> BatchToSpaceMap(const Shape& data, std::vector<int64_t> block,
                                         std::vector<int64_t> crops_begin,
                                         std::vector<int64_t> crops_end) {
  const size_t N = data.size();
  IndexMap m;
  // Output [batch / (B_1 * ... * B_{N-1}), D_i * B_i - crops_begin[i] - crops_end[i]].
  Wide prod = 1;
  for (size_t i = 1; i < N; ++i) prod = SatMul(prod, block[i]);
  const int64_t batch_out = FitsInt64(prod) ? data[0] / static_cast<int64_t>(prod) : 0;
  m.output_shape.push_back(batch_out);
  for (size_t i = 1; i < N; ++i) {
    const Wide out = Wide{data[i]} * block[i] - crops_begin[i] - crops_end[i];
    if (!FitsInt64(out)) return Unrepresentable(absl::StrCat("output dim ", i));
    m.output_shape.push_back(static_cast<int64_t>(out));
  }
  // out[n, j_1, ...]: p_i = j_i + crops_begin[i], o_i = p_i mod B_i, d_i = p_i div B_i;
  // source batch = flat(o_1..o_{N-1}) * batch_out + n.
  m.source = [block = std::move(block), crops_begin = std::move(crops_begin), batch_out, N](
                 const int64_t* out, int64_t* src) {
    int64_t f = 0;
    for (size_t k = 1; k < N; ++k) {
      const int64_t p = out[k] + crops_begin[k];
      f = f * block[k] + p % block[k];
      src[k] = p / block[k];
    }
    src[0] = f * batch_out + out[0];
    return true;
  };
  return m;
}

}  // namespace dmconf::direct::internal
