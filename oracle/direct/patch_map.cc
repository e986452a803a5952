// ExtractImagePatches-3 as a per-element index map. Output size and padding: ERRATA E8;
// depth order (channel fastest): ERRATA E9 and the specification's example 5.
#include "absl/strings/str_cat.h"
#include "oracle/direct/index_maps.h"

namespace dmconf::direct::internal {

absl::StatusOr<IndexMap> ExtractImagePatchesMap(const Shape& data, std::array<int64_t, 2> sizes,
                                                std::array<int64_t, 2> strides,
                                                std::array<int64_t, 2> rates, AutoPad auto_pad) {
  const int64_t C = data[1];
  std::array<int64_t, 2> out_size{}, pad_before{};
  for (size_t a = 0; a < 2; ++a) {
    const Wide in = data[a + 2];
    const Wide S = strides[a];
    // The patch spans eff = size + (size - 1) * (rate - 1) input rows (cols).
    const Wide eff = Wide{sizes[a]} + Wide{sizes[a] - 1} * (rates[a] - 1);
    Wide out, before = 0;
    if (auto_pad == AutoPad::kValid) {
      // Patch starts 0, S, 2S, ... while start + eff <= in.
      out = in < eff ? 0 : (in - eff) / S + 1;
    } else {
      // ceil(in / S) patches; the zeros needed beyond the image are split in two halves, the
      // odd one at the end (same_upper) or at the beginning (same_lower).
      out = (in + S - 1) / S;
      Wide total = out == 0 ? 0 : (out - 1) * S + eff - in;
      if (total < 0) total = 0;
      before = auto_pad == AutoPad::kSameUpper ? total / 2 : (total + 1) / 2;
    }
    if (!FitsInt64(out)) return Unrepresentable(absl::StrCat("output spatial dim ", a));
    out_size[a] = static_cast<int64_t>(out);
    pad_before[a] = static_cast<int64_t>(before);
  }
  const Wide depth = SatMul(SatMul(sizes[0], sizes[1]), C);
  if (!FitsInt64(depth)) return Unrepresentable("the output depth");
  IndexMap m;
  m.output_shape = {data[0], static_cast<int64_t>(depth), out_size[0], out_size[1]};
  const int64_t KW = sizes[1];
  m.source = [data, C, KW, strides, rates, pad_before](const int64_t* out, int64_t* src) {
    // out channel = (kh * KW + kw) * C + c.
    const int64_t c = out[1] % C;
    const int64_t k = out[1] / C;
    const int64_t kk[2] = {k / KW, k % KW};
    src[0] = out[0];
    src[1] = c;
    for (size_t a = 0; a < 2; ++a) {
      const Wide p = Wide{out[a + 2]} * strides[a] - pad_before[a] + Wide{kk[a]} * rates[a];
      if (p < 0 || p >= data[a + 2]) return false;
      src[a + 2] = static_cast<int64_t>(p);
    }
    return true;
  };
  return m;
}

}  // namespace dmconf::direct::internal
