#include "harness/suites/copy_tail.h"

#include <cstdint>
#include <utility>

#include "absl/strings/str_cat.h"
#include "harness/gen/fills.h"
#include "oracle/case_factory.h"

namespace dmconf {
namespace {

using E = ElementType;

// Row lengths: each multiple of 4, 8, 16 and 32 elements and its neighbours.
constexpr int64_t kLengths[] = {3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33};
// A block of L elements squared is a depth of L^2: blocks up to 17.
constexpr int64_t kMaxBlock = 17;

// The types of each element size, taken in turn over the row lengths.
const std::vector<std::vector<E>>& SizeClasses() {
  static const std::vector<std::vector<E>>* const kClasses = new std::vector<std::vector<E>>{
      {E::kU8, E::kI8},
      {E::kF16, E::kBf16},
      {E::kF32, E::kI32},
      {E::kI64, E::kF64},
      {E::kU1, E::kU2, E::kU3, E::kU4, E::kU6, E::kI4, E::kNf4, E::kF4e2m1}};
  return *kClasses;
}

// The forms of one row length L in element type t.
void AddForms(E t, int64_t L, std::vector<CopyTailCase>& out) {
  auto add = [&](const char* form, OpCase c) {
    out.push_back({absl::StrCat(form, ".", ElementTypeName(t), ".L", L), std::move(c)});
  };
  auto X = [&](Shape s) { return PositionalTensor(t, s); };
  const Op s2b = Op::kSpaceToBatch, b2s = Op::kBatchToSpace;
  const Op s2d = Op::kSpaceToDepth, d2s = Op::kDepthToSpace;
  const char* mode = L % 2 == 0 ? "blocks_first" : "depth_first";
  // SpaceToBatch: output [2, 2, 1, L] (or L + 1).
  add("s2b.row", BlockOpCase(s2b, X({1, 2, 2, L}), {1, 1, 2, 1}, {0, 0, 0, 0}, {0, 0, 0, 0}));
  add("s2b.row_pad1", BlockOpCase(s2b, X({1, 2, 2, L}), {1, 1, 2, 1}, {0, 0, 0, 1}, {0, 0, 0, 0}));
  // BatchToSpace: output [1, 2, 4, L] (or L - 1).
  add("b2s.row", BlockOpCase(b2s, X({4, 1, 2, L}), {1, 2, 2, 1}, {0, 0, 0, 0}, {0, 0, 0, 0}));
  add("b2s.row_crop1", BlockOpCase(b2s, X({4, 1, 2, L}), {1, 2, 2, 1}, {0, 0, 0, 1}, {0, 0, 0, 0}));
  // The depth ops: rows of L with block 2; blocks of L.
  add("d2s.row", DepthOpCase(d2s, X({1, 4, 2, L}), 2, mode));
  add("s2d.row", DepthOpCase(s2d, X({1, 2, 2, 2 * L}), 2, mode));
  if (L <= kMaxBlock) {
    add("d2s.block", DepthOpCase(d2s, X({1, L * L, 1, 2}), L, mode));
    add("s2d.block", DepthOpCase(s2d, X({1, 1, L, 2 * L}), L, mode));
  }
  // In NCHW order the depth ops move runs longer than one element only where the permutation
  // keeps memory order: block 1 (the whole tensor one run: [1, 1, 1, L], a run of L), and
  // depth_first with 1 x 1 spatial dims on the depth side (D2S of [1, 4L, 1, 1], S2D to
  // [1, 4L, 1, 1]: one run of 4L elements).
  add("d2s.block1", DepthOpCase(d2s, X({1, 1, 1, L}), 1, mode));
  add("s2d.block1", DepthOpCase(s2d, X({1, 1, 1, L}), 1, mode));
  add("d2s.in_order", DepthOpCase(d2s, X({1, 4 * L, 1, 1}), 2, "depth_first"));
  add("s2d.in_order", DepthOpCase(s2d, X({1, L, 2, 2}), 2, "depth_first"));
  // ExtractImagePatches: patch rows of L (output [1, 4L, 2, 2]); output rows of L patches
  // (output [1, 4, 1, L]).
  add("eip.patch", PatchOpCase(X({1, 2, 3, L + 2}), {2, L}, {1, 2}, {1, 1}, "valid"));
  add("eip.out", PatchOpCase(X({1, 2, 2, L}), {2, 1}, {1, 1}, {1, 1}, "valid"));
}

}  // namespace

std::vector<CopyTailCase> CopyTailCases(CopyTailLengths lengths) {
  std::vector<CopyTailCase> out;
  size_t turn = 0;
  for (int64_t L : kLengths) {
    // One past a multiple: 5, 9, 17, 33 (a tail of one element after 1, 1, 1 and 1 chunks of
    // 4, 8, 16 and 32).
    const bool past = L == 5 || L == 9 || L == 17 || L == 33;
    if (lengths == CopyTailLengths::kAll || past) {
      for (const std::vector<E>& types : SizeClasses()) {
        AddForms(types[turn % types.size()], L, out);
      }
    }
    ++turn;
  }
  return out;
}

}  // namespace dmconf
