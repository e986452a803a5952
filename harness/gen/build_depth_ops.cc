// SpaceToDepth-1 and DepthToSpace-1 cases, valid by construction.
//
// SpaceToDepth: choose block_size b and the output spatial dims o_i; the input spatial dims
// are o_i * b. DepthToSpace: choose b and the output channel count C'; the input channels are
// C' * b^K. Budgets keep b^K and every element count under BuildOptions::max_elements.
#include <algorithm>

#include "harness/gen/builders_internal.h"

namespace dmconf::gen_internal {
namespace {

// b^K for b^K <= limit; 0 when above.
int64_t PowAtMost(int64_t b, int K, int64_t limit) {
  int64_t p = 1;
  for (int k = 0; k < K; ++k) {
    if (p > limit / b) return 0;
    p *= b;
  }
  return p;
}

// A block size with b^K within room: 1, 2..3, or large (4.. the largest that fits).
int64_t DepthBlock(Chooser& ch, int K, int64_t room) {
  // cap: the largest b with b^K <= room (binary search; b^K grows with b).
  int64_t cap = 1, hi = std::max<int64_t>(room, 1);
  while (cap < hi) {
    const int64_t mid = cap + (hi - cap + 1) / 2;
    if (PowAtMost(mid, K, room) != 0) {
      cap = mid;
    } else {
      hi = mid - 1;
    }
  }
  switch (ch.Weighted({3, 4, 2})) {
    case 0:
      return 1;
    case 1:
      return cap >= 2 ? ch.Int(2, std::min<int64_t>(3, cap)) : 1;
    default:
      return cap >= 4 ? Count(ch, 4, cap) : cap;
  }
}

struct DepthShape {
  int K;
  int64_t b;
  std::string mode;
};

DepthShape Common(Chooser& ch, const BuildOptions& o, OpCase* c) {
  const int rank = Rank(ch, o, 3, 8);
  DepthShape s;
  s.K = rank - 2;
  s.mode = Mode(ch, o, {"blocks_first", "depth_first"});
  c->block_size = s.b = DepthBlock(ch, s.K, o.max_elements);
  c->mode = s.mode;
  return s;
}

}  // namespace

OpCase BuildSpaceToDepth(Chooser& ch, const BuildOptions& o) {
  OpCase c;
  c.op = Op::kSpaceToDepth;
  const ElementType t = DataType(ch, o);
  const DepthShape s = Common(ch, o, &c);
  int64_t room = o.max_elements / PowAtMost(s.b, s.K, o.max_elements);
  Shape d = {Batch(ch, o, room), 0};
  room /= AtLeast1(d[0]);
  d[1] = Channels(ch, o, room);
  room /= AtLeast1(d[1]);
  for (int k = 0; k < s.K; ++k) {
    const int64_t out = Dim(ch, o, room);  // output spatial dim D_k / b
    d.push_back(out * s.b);
    room /= AtLeast1(out);
  }
  c.data = Data(o, t, d);
  return c;
}

OpCase BuildDepthToSpace(Chooser& ch, const BuildOptions& o) {
  OpCase c;
  c.op = Op::kDepthToSpace;
  const ElementType t = DataType(ch, o);
  const DepthShape s = Common(ch, o, &c);
  const int64_t bk = PowAtMost(s.b, s.K, o.max_elements);
  int64_t room = o.max_elements / bk;
  Shape d = {Batch(ch, o, room), 0};
  room /= AtLeast1(d[0]);
  const int64_t c_out = Channels(ch, o, room);  // output channels C / b^K
  d[1] = c_out * bk;
  room /= AtLeast1(c_out);
  for (int k = 0; k < s.K; ++k) {
    const int64_t D = Dim(ch, o, room);
    d.push_back(D);
    room /= AtLeast1(D);
  }
  c.data = Data(o, t, d);
  return c;
}

}  // namespace dmconf::gen_internal
