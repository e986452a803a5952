#include "conformance/oracle/case_grids.h"

#include <algorithm>

#include "conformance/oracle/case_builders.h"

namespace dmconf::testing {
namespace {

// Mostly 1..hi, sometimes 0 (zero-sized dims are valid input).
int64_t Dim(Gen& g, int64_t hi) { return g.In(0, 24) == 0 ? 0 : g.In(1, hi); }

// A crop (or pad) amount for one end: at most `room`, rarely all of it.
int64_t Cut(Gen& g, int64_t room) {
  if (room <= 0) return 0;
  return g.In(0, 39) == 0 ? std::min<int64_t>(room, 3) : g.In(0, std::min<int64_t>(room - 1, 3));
}

OpCase SpaceToBatch(Gen& g, ElementType t) {
  const int64_t N = g.In(2, 5);
  Shape d = {Dim(g, 3)};
  std::vector<int64_t> block = {1}, begin = {0}, end = {0};
  for (int64_t i = 1; i < N; ++i) {
    const int64_t B = g.In(1, N > 3 ? 2 : 4);
    const int64_t padded = Dim(g, 3) * B;  // the output dim times the block
    const int64_t pb = g.In(0, std::min<int64_t>(padded, 3));
    const int64_t pe = g.In(0, std::min<int64_t>(padded - pb, 3));
    block.push_back(B);
    begin.push_back(pb);
    end.push_back(pe);
    d.push_back(padded - pb - pe);
  }
  return BlockCase(Op::kSpaceToBatch, Pattern(t, d, 11), block, begin, end);
}

OpCase BatchToSpace(Gen& g, ElementType t) {
  const int64_t N = g.In(2, 5);
  int64_t batch = Dim(g, 3);
  Shape d = {0};
  std::vector<int64_t> block = {1}, begin = {0}, end = {0};
  for (int64_t i = 1; i < N; ++i) {
    const int64_t B = g.In(1, N > 3 ? 2 : 4);
    const int64_t D = Dim(g, 3);
    const int64_t full = D * B;
    const int64_t cb = Cut(g, full);
    const int64_t ce = Cut(g, full - cb);
    batch *= B;
    block.push_back(B);
    begin.push_back(cb);
    end.push_back(ce);
    d.push_back(D);
  }
  d[0] = batch;
  return BlockCase(Op::kBatchToSpace, Pattern(t, d, 12), block, begin, end);
}

OpCase Depth(Gen& g, Op op, ElementType t) {
  const int64_t rank = g.In(3, 5);
  const int64_t K = rank - 2;
  const int64_t b = g.In(1, K == 3 ? 2 : 3);
  int64_t bk = 1;
  for (int64_t k = 0; k < K; ++k) bk *= b;
  Shape d = {g.In(1, 2), 0};
  for (int64_t k = 0; k < K; ++k) {
    const int64_t q = Dim(g, K == 1 ? 4 : 3);
    d.push_back(op == Op::kSpaceToDepth ? q * b : q);
  }
  const int64_t c = Dim(g, 3);
  d[1] = op == Op::kSpaceToDepth ? c : c * bk;
  const char* mode = g.In(0, 1) == 0 ? "blocks_first" : "depth_first";
  return DepthCase(op, Pattern(t, d, 13), b, mode);
}

OpCase Patches(Gen& g, ElementType t) {
  static const char* const kPads[3] = {"valid", "same_upper", "same_lower"};
  Shape d = {g.In(1, 2), g.In(1, 3), Dim(g, 8), Dim(g, 8)};
  return PatchCase(Pattern(t, d, 14), {g.In(1, 3), g.In(1, 3)}, {g.In(1, 3), g.In(1, 4)},
                   {g.In(1, 3), g.In(1, 2)}, kPads[g.In(0, 2)]);
}

}  // namespace

std::vector<OpCase> LargerCases(Op op, ElementType t) {
  switch (op) {
    case Op::kSpaceToBatch:
      return {
          BlockCase(op, Pattern(t, {2, 29, 31, 3}, 21), {1, 3, 5, 1}, {0, 1, 2, 0}, {0, 0, 2, 0}),
          BlockCase(op, Pattern(t, {1, 64, 64}, 22), {1, 2, 2}, {0, 0, 0}, {0, 0, 0})};
    case Op::kBatchToSpace:
      return {
          BlockCase(op, Pattern(t, {30, 10, 7, 3}, 23), {1, 3, 5, 1}, {0, 1, 2, 0}, {0, 0, 2, 1}),
          BlockCase(op, Pattern(t, {4, 32, 32}, 24), {1, 2, 2}, {0, 0, 0}, {0, 0, 0})};
    case Op::kSpaceToDepth:
      return {DepthCase(op, Pattern(t, {2, 3, 32, 48}, 25), 4, "blocks_first"),
              DepthCase(op, Pattern(t, {1, 5, 12, 8, 6}, 26), 2, "depth_first")};
    case Op::kDepthToSpace:
      return {DepthCase(op, Pattern(t, {1, 64, 16, 16}, 27), 2, "blocks_first"),
              DepthCase(op, Pattern(t, {2, 48, 5, 7}, 28), 4, "depth_first")};
    case Op::kExtractImagePatches:
      return {PatchCase(Pattern(t, {2, 4, 32, 31}, 29), {3, 3}, {2, 2}, {2, 2}, "same_upper"),
              PatchCase(Pattern(t, {1, 3, 17, 40}, 30), {4, 2}, {3, 5}, {1, 3}, "same_lower")};
  }
  return {};
}

std::vector<OpCase> ValidGrid(Op op, ElementType t, int count) {
  Gen g(1000 + static_cast<uint64_t>(op));
  std::vector<OpCase> out;
  for (int i = 0; i < count; ++i) {
    switch (op) {
      case Op::kSpaceToBatch:
        out.push_back(SpaceToBatch(g, t));
        break;
      case Op::kBatchToSpace:
        out.push_back(BatchToSpace(g, t));
        break;
      case Op::kSpaceToDepth:
      case Op::kDepthToSpace:
        out.push_back(Depth(g, op, t));
        break;
      case Op::kExtractImagePatches:
        out.push_back(Patches(g, t));
        break;
    }
  }
  return out;
}

}  // namespace dmconf::testing
