// SpaceToBatch-2 and BatchToSpace-2 cases, valid by construction.
//
// SpaceToBatch: per spatial axis choose block B_i and output dim out_i, so the padded dim is
// out_i * B_i; split some of it into pads_begin / pads_end and the rest is D_i. Divisibility
// holds by construction. BatchToSpace: choose B_i and the input dim D_i, crop at most
// D_i * B_i, and make the batch a multiple of prod(B).
#include "harness/gen/builders_internal.h"

namespace dmconf::gen_internal {
namespace {

struct BlockCase {
  Shape data;
  std::vector<int64_t> block, begin, end;
};

// The inputs of both ops share a shape: batch, then per spatial axis a block and a "full"
// extent (SpaceToBatch: the padded dim; BatchToSpace: D_i * B_i) split into begin / end.
BlockCase ChooseAxes(Chooser& ch, const BuildOptions& o, int rank, int64_t batch_cap,
                     bool batch_to_space) {
  BlockCase b;
  const size_t N = static_cast<size_t>(rank);
  b.data.assign(N, 0);
  b.block.assign(N, 1);
  b.begin.assign(N, 0);
  b.end.assign(N, 0);
  int64_t room = o.max_elements;
  b.data[0] = Batch(ch, o, batch_cap);
  room /= AtLeast1(b.data[0]);
  // batch * prod(B) stays within the budget too: a zero dim leaves `room` as it is, and the
  // block values after it would otherwise multiply past 2^63-1 (the batch of a BatchToSpace
  // input, the output batch of SpaceToBatch). With no zero dim block_room >= room.
  int64_t block_room = room;
  for (size_t i = 1; i < N; ++i) {
    const int64_t B = Block(ch, std::min(room, block_room));
    block_room /= B;
    const int64_t inner = Dim(ch, o, room / B);  // out_i (S2B) or D_i (B2S)
    const int64_t full = inner * B;
    const auto [pb, pe] = Pads(ch, o, full);
    b.block[i] = B;
    b.begin[i] = pb;
    b.end[i] = pe;
    b.data[i] = batch_to_space ? inner : full - pb - pe;
    room /= AtLeast1(full);
  }
  return b;
}

}  // namespace

OpCase BuildSpaceToBatch(Chooser& ch, const BuildOptions& o) {
  const int rank = Rank(ch, o, 2, 8);
  OpCase c;
  c.op = Op::kSpaceToBatch;
  const ElementType t = DataType(ch, o);
  BlockCase b = ChooseAxes(ch, o, rank, o.max_elements, false);
  c.data = Data(o, t, b.data);
  // SpaceToBatch allows a different integer type per input (ERRATA E11).
  c.int_inputs.push_back(IntTensor(IntType(ch), b.block));
  c.int_inputs.push_back(IntTensor(IntType(ch), b.begin));
  c.int_inputs.push_back(IntTensor(IntType(ch), b.end));
  return c;
}

OpCase BuildBatchToSpace(Chooser& ch, const BuildOptions& o) {
  const int rank = Rank(ch, o, 2, 8);
  OpCase c;
  c.op = Op::kBatchToSpace;
  const ElementType t = DataType(ch, o);
  BlockCase b = ChooseAxes(ch, o, rank, o.max_elements, true);
  // batch = output batch * prod(block_shape); ChooseAxes kept batch * prod(D_i * B_i) within
  // the budget, which is exactly the input element count.
  for (size_t i = 1; i < b.block.size(); ++i) b.data[0] *= b.block[i];
  c.data = Data(o, t, b.data);
  // BatchToSpace needs one common integer type (ERRATA E11); i64 when the values do not fit.
  ElementType it = IntType(ch);
  for (const std::vector<int64_t>* v : {&b.block, &b.begin, &b.end}) {
    if (!MakeIntegerTensor(it, *v).ok()) it = ElementType::kI64;
  }
  c.int_inputs.push_back(IntTensor(it, b.block));
  c.int_inputs.push_back(IntTensor(it, b.begin));
  c.int_inputs.push_back(IntTensor(it, b.end));
  return c;
}

}  // namespace dmconf::gen_internal
