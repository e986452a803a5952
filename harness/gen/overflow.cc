// The overflow lane: one to three attribute values or dims of a small valid case replaced by
// values near the int64 overflow boundaries, keeping the real data tiny (a data shape whose
// element count is large gets a zero dim; one that is not representable gets no bytes).
#include <limits>

#include "harness/gen/builders_internal.h"

namespace dmconf {
namespace {

int64_t Huge(Chooser& ch) {
  static const std::vector<int64_t> kHuge = {(int64_t{1} << 31) - 1,
                                             int64_t{1} << 31,
                                             (int64_t{1} << 32) - 1,
                                             int64_t{1} << 32,
                                             (int64_t{1} << 32) + 1,
                                             3037000499,  // floor(sqrt(2^63 - 1))
                                             3037000500,
                                             (int64_t{1} << 53) + 1,
                                             int64_t{1} << 62,
                                             (int64_t{1} << 62) + 1,
                                             std::numeric_limits<int64_t>::max() - 1,
                                             std::numeric_limits<int64_t>::max()};
  return ch.Pick<int64_t>(kHuge);
}

void HugeInt(Chooser& ch, OpCase* c) {
  const size_t k = ch.Index(3);
  Tensor& t = c->int_inputs[k];
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(t.GetInteger(i).value_or(0));
  if (v.empty()) return;
  v[ch.Index(v.size())] = Huge(ch);
  // BatchToSpace wants one common type: all three become i64.
  for (Tensor& x : c->int_inputs) {
    std::vector<int64_t> w;
    for (int64_t i = 0; i < x.NumElements(); ++i) w.push_back(x.GetInteger(i).value_or(0));
    x = *MakeIntegerTensor(ElementType::kI64, &x == &t ? v : w);
  }
}

}  // namespace

OpCase BuildOverflowCase(Chooser& ch, Op op) {
  BuildOptions o;
  o.max_elements = 64;
  OpCase c = BuildValidCase(ch, op, o);
  Shape d = c.data.shape;
  const int mutations = static_cast<int>(ch.Int(1, 3));
  for (int m = 0; m < mutations; ++m) {
    switch (op) {
      case Op::kSpaceToBatch:
      case Op::kBatchToSpace:
        if (ch.Weighted({3, 1}) == 0) {
          HugeInt(ch, &c);
        } else {
          d[ch.Index(d.size())] = Huge(ch);
        }
        break;
      case Op::kSpaceToDepth:
      case Op::kDepthToSpace:
        if (ch.Weighted({2, 1}) == 0) {
          c.block_size = Huge(ch);
        } else {
          d[ch.Index(d.size())] = Huge(ch);
        }
        break;
      case Op::kExtractImagePatches: {
        const size_t i = ch.Index(2);
        switch (ch.Index(4)) {
          case 0:
            c.sizes[i] = Huge(ch);
            break;
          case 1:
            c.strides[i] = Huge(ch);
            break;
          case 2:
            c.rates[i] = Huge(ch);
            break;
          default:
            d[ch.Index(d.size())] = Huge(ch);
        }
        break;
      }
    }
  }
  absl::StatusOr<int64_t> n = NumElements(d);
  if (!n.ok()) {
    c.data.shape = d;  // not representable: a malformed case, no bytes
    c.data.bytes.clear();
  } else {
    if (*n > 64) d[ch.Index(d.size())] = 0;
    c.data = PositionalTensor(c.data.type, d);
  }
  c.origin = "gen:overflow";
  return c;
}

}  // namespace dmconf
