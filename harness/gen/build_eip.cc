// ExtractImagePatches-3 cases. Every positive sizes / strides / rates with a known auto_pad is
// valid, so the construction only keeps the output (N, C * size_r * size_c, ceil(H / s_r),
// ceil(W / s_c) at most) within the element budget. Rows and cols are chosen independently, so
// cases are non-square; strides above sizes and inputs smaller than the dilated patch
// (rate * (size - 1) + 1) come up naturally.
#include <algorithm>

#include "harness/gen/builders_internal.h"

namespace dmconf::gen_internal {

OpCase BuildExtractImagePatches(Chooser& ch, const BuildOptions& o) {
  OpCase c;
  c.op = Op::kExtractImagePatches;
  const ElementType t = DataType(ch, o);
  c.auto_pad = Mode(ch, o, {"valid", "same_upper", "same_lower"});
  int64_t room = o.max_elements;
  const int64_t N = Batch(ch, o, room);
  room /= AtLeast1(N);
  const int64_t C = Channels(ch, o, room);
  room /= AtLeast1(C);
  int64_t room_in = room;  // for H * W
  for (int i = 0; i < 2; ++i) {
    const int64_t s = Count(ch, 1, std::clamp<int64_t>(room, 1, 6));
    room /= s;
    c.sizes.push_back(s);
  }
  int64_t room_out = room;  // for out_rows * out_cols
  for (int i = 0; i < 2; ++i) c.strides.push_back(Count(ch, 1, 6));
  for (int i = 0; i < 2; ++i) c.rates.push_back(ch.Weighted({3, 2}) == 0 ? 1 : Count(ch, 2, 4));
  Shape d = {N, C};
  for (size_t i = 0; i < 2; ++i) {
    // ceil(in / stride) bounds the output dim for every auto_pad.
    const int64_t cap = std::min<int64_t>({24, room_in, room_out * c.strides[i]});
    const int64_t in = Dim(ch, o, cap);
    d.push_back(in);
    room_in /= AtLeast1(in);
    room_out /= AtLeast1((in + c.strides[i] - 1) / c.strides[i]);
  }
  c.data = Data(o, t, d);
  return c;
}

}  // namespace dmconf::gen_internal
