// The copy-tail cases: rows of every length around the multiples of 4, 8, 16 and 32 elements,
// crossed with every element size, for each op's row copies. A kernel that copies a row in
// chunks of a vector's width and then its tail (the last length % chunk elements) is wrong
// only when the tail is not empty, or only for some element sizes: a row of 17 two-byte
// elements shows a 16-byte copy's tail mistake, a row of 16 does not.
//
// A row is the innermost contiguous run an op copies:
//   s2b.row / s2b.row_pad1   the last dim (block 1 there), as is / padded by 1 at its start;
//   b2s.row / b2s.row_crop1  the last dim (block 1 there), as is / cropped by 1 at its start;
//   d2s.row / s2d.row        the last dim, block 2 on the others;
//   d2s.block / s2d.block    a block of block_size = L elements (L up to 17);
//   d2s.block1 / s2d.block1  block_size 1 on [1, 1, 1, L]: one run of L in memory order;
//   d2s.in_order / s2d.in_order  depth_first with the depth side's spatial dims 1 x 1: one
//                            run of 4L elements in memory order;
//   eip.patch / eip.out      a patch row of sizes[1] = L / an output row of L patches.
// L runs over 3 4 5 7 8 9 15 16 17 31 32 33, and for each L one type of each element size:
// 1 byte (u8, i8), 2 (f16, bf16), 4 (f32, i32), 8 (i64, f64) and a sub-byte one (u1, u2, u3,
// u4, u6, i4, nf4, f4e2m1), each size's types taken in turn over L. All data is 4-D (so the
// nchw-core profile keeps the cases of its types) and position-coded (harness/gen/fills.h).
// The run catalogue holds them all from its edition 2 ("tail/<ParamId>.pos", catalogue.h), and
// the golden vectors those one past each multiple (L = 5, 9, 17, 33; the same cases, in the same
// types) as "tail.<form>.<type>.L<L>" (vector_sets.h), each a file.
//
// Example:
//   for (CopyTailCase& t : CopyTailCases()) {
//     // t.name == "s2b.row.u8.L3"; t.c: SpaceToBatch of data [1, 2, 2, 3]
//   }
#ifndef DMCONF_HARNESS_SUITES_COPY_TAIL_H_
#define DMCONF_HARNESS_SUITES_COPY_TAIL_H_

#include <string>
#include <vector>

#include "oracle/op_case.h"

namespace dmconf {

struct CopyTailCase {
  std::string name;  // "<form>.<type>.L<row length>"
  OpCase c;          // valid, data position-coded
};

enum class CopyTailLengths { kAll, kPastMultiples };
std::vector<CopyTailCase> CopyTailCases(CopyTailLengths lengths = CopyTailLengths::kAll);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_SUITES_COPY_TAIL_H_
