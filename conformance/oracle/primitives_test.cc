// The oracle's primitives (oracle/primitives/) against brute-force loops written here: every
// output element is computed from its multi-index alone, with no simplification, merging or
// tiling. Shapes cover size-1 and zero-sized axes, inner runs of 2-4 elements (the interleave
// paths), large-by-large tiles, and element sizes 1, 2, 4 and 8 bytes.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "conformance/oracle/case_builders.h"
#include "gtest/gtest.h"
#include "oracle/primitives/pad_crop.h"
#include "oracle/primitives/patch_gather.h"
#include "oracle/primitives/reshape_transpose.h"
#include "oracle/primitives/strided_copy.h"
#include "oracle/primitives/views.h"
#include "oracle/shape.h"

namespace dmconf {
namespace {

using testing::Gen;
using testing::Mix;

constexpr int kElemSizes[] = {1, 2, 4, 8};
constexpr uint8_t kGarbage = 0xA5;

int64_t Count(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

std::vector<uint8_t> Bytes(int64_t elements, int es, uint64_t salt) {
  std::vector<uint8_t> b(static_cast<size_t>(elements * es));
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<uint8_t>(Mix(i + salt * 7919));
  return b;
}

// Row-major flat index of a multi-index.
int64_t Flat(const Shape& shape, const std::vector<int64_t>& idx) {
  int64_t f = 0;
  for (size_t k = 0; k < shape.size(); ++k) f = f * shape[k] + idx[k];
  return f;
}

// Calls f(idx) for every multi-index of shape, last axis fastest.
template <typename F>
void ForEachIndex(const Shape& shape, F f) {
  if (Count(shape) == 0) return;
  std::vector<int64_t> idx(shape.size(), 0);
  while (true) {
    f(idx);
    size_t k = shape.size();
    while (k > 0 && ++idx[k - 1] == shape[k - 1]) idx[--k] = 0;
    if (k == 0) return;
  }
}

void CopyElem(uint8_t* dst, int64_t di, const uint8_t* src, int64_t si, int es) {
  std::memcpy(dst + di * es, src + si * es, static_cast<size_t>(es));
}

std::string Str(const std::vector<int64_t>& v) {
  return absl::StrCat("[", absl::StrJoin(v, ","), "]");
}
std::string Str(const std::vector<int>& v) { return absl::StrCat("[", absl::StrJoin(v, ","), "]"); }

// ---- Transpose ----

std::vector<uint8_t> BruteTranspose(const std::vector<uint8_t>& src, const Shape& shape,
                                    const std::vector<int>& perm, int es) {
  Shape out_shape(perm.size());
  for (size_t k = 0; k < perm.size(); ++k) out_shape[k] = shape[static_cast<size_t>(perm[k])];
  std::vector<uint8_t> dst(static_cast<size_t>(Count(out_shape) * es));
  ForEachIndex(out_shape, [&](const std::vector<int64_t>& j) {
    std::vector<int64_t> i(shape.size());
    for (size_t k = 0; k < perm.size(); ++k) i[static_cast<size_t>(perm[k])] = j[k];
    CopyElem(dst.data(), Flat(out_shape, j), src.data(), Flat(shape, i), es);
  });
  return dst;
}

void CheckTranspose(const Shape& shape, const std::vector<int>& perm, int es) {
  const std::vector<uint8_t> src = Bytes(Count(shape), es, 1);
  const std::vector<uint8_t> want = BruteTranspose(src, shape, perm, es);
  std::vector<uint8_t> got(want.size() + 16, kGarbage);  // 16 guard bytes must stay untouched
  Transpose(src.data(), shape, perm, es, got.data());
  ASSERT_TRUE(std::equal(want.begin(), want.end(), got.begin()))
      << "Transpose shape " << Str(shape) << " perm " << Str(perm) << " elem_size " << es;
  for (size_t k = want.size(); k < got.size(); ++k) ASSERT_EQ(got[k], kGarbage) << "overrun";
  EXPECT_EQ(TransposedShape(shape, perm).size(), perm.size());
}

TEST(Transpose, EveryPermutationOfSmallShapes) {
  Gen g(1);
  int cases = 0;
  for (int rank = 0; rank <= 4; ++rank) {
    for (int trial = 0; trial < 12; ++trial) {
      Shape shape;
      for (int k = 0; k < rank; ++k) {
        const int64_t pick = g.In(0, 9);
        shape.push_back(pick == 0 ? 0 : pick <= 3 ? 1 : g.In(2, 5));
      }
      std::vector<int> perm(static_cast<size_t>(rank));
      std::iota(perm.begin(), perm.end(), 0);
      do {
        for (int es : kElemSizes) CheckTranspose(shape, perm, es);
        ++cases;
      } while (std::next_permutation(perm.begin(), perm.end()));
    }
  }
  EXPECT_GT(cases, 300);
}

TEST(Transpose, RandomPermutationsOfRank5And6) {
  Gen g(2);
  for (int trial = 0; trial < 60; ++trial) {
    const int rank = static_cast<int>(g.In(5, 6));
    Shape shape;
    for (int k = 0; k < rank; ++k) shape.push_back(g.In(1, 4));
    std::vector<int> perm(static_cast<size_t>(rank));
    std::iota(perm.begin(), perm.end(), 0);
    for (int k = rank - 1; k > 0; --k)
      std::swap(perm[static_cast<size_t>(k)], perm[static_cast<size_t>(g.In(0, k))]);
    for (int es : kElemSizes) CheckTranspose(shape, perm, es);
  }
}

TEST(Transpose, InterleaveAndDeinterleavePaths) {
  // Inner runs of 2, 3 and 4 elements on either side of a 2-D transpose, with and without a
  // stride gap (da != nz), as DepthToSpace / SpaceToDepth with small blocks produce them.
  for (int es : kElemSizes) {
    for (int64_t small : {2, 3, 4, 5}) {
      for (int64_t big : {1, 7, 37, 64}) {
        CheckTranspose({small, big}, {1, 0}, es);
        CheckTranspose({big, small}, {1, 0}, es);
        CheckTranspose({small, 3, big}, {2, 1, 0}, es);
        CheckTranspose({big, 3, small}, {2, 1, 0}, es);
        CheckTranspose({2, small, big}, {0, 2, 1}, es);
        CheckTranspose({3, small, 5, big}, {0, 3, 1, 2}, es);
      }
    }
  }
}

TEST(Transpose, LargeByLargeTiles) {
  for (int es : kElemSizes) {
    CheckTranspose({64, 64}, {1, 0}, es);
    CheckTranspose({67, 129}, {1, 0}, es);
    CheckTranspose({17, 33}, {1, 0}, es);
    CheckTranspose({3, 48, 80}, {0, 2, 1}, es);
    CheckTranspose({2, 3, 33, 65}, {0, 2, 3, 1}, es);  // NCHW -> NHWC
    CheckTranspose({2, 33, 65, 3}, {0, 3, 1, 2}, es);  // NHWC -> NCHW
    CheckTranspose({256, 1, 40}, {2, 1, 0}, es);
  }
}

TEST(Transpose, SizeOneAndZeroAxes) {
  for (int es : kElemSizes) {
    CheckTranspose({}, {}, es);
    CheckTranspose({1}, {0}, es);
    CheckTranspose({1, 1, 1}, {2, 0, 1}, es);
    CheckTranspose({1, 5, 1, 3}, {3, 2, 1, 0}, es);
    CheckTranspose({0, 5, 3}, {2, 0, 1}, es);
    CheckTranspose({4, 0}, {1, 0}, es);
  }
}

// ---- Pad and Crop ----

void CheckPadCrop(const Shape& shape, const std::vector<int64_t>& begin,
                  const std::vector<int64_t>& end, int es) {
  Shape padded(shape.size());
  for (size_t k = 0; k < shape.size(); ++k) padded[k] = shape[k] + begin[k] + end[k];
  const std::vector<uint8_t> src = Bytes(Count(shape), es, 3);
  // Brute-force pad: inside the box the source element, elsewhere all-zero bytes.
  std::vector<uint8_t> want(static_cast<size_t>(Count(padded) * es), 0);
  ForEachIndex(shape, [&](const std::vector<int64_t>& i) {
    std::vector<int64_t> p(i);
    for (size_t k = 0; k < p.size(); ++k) p[k] += begin[k];
    CopyElem(want.data(), Flat(padded, p), src.data(), Flat(shape, i), es);
  });
  std::vector<uint8_t> got(want.size() + 16, kGarbage);
  Pad(src.data(), shape, begin, end, es, got.data());
  const std::string what =
      absl::StrCat(Str(shape), " begin ", Str(begin), " end ", Str(end), " elem_size ", es);
  ASSERT_TRUE(std::equal(want.begin(), want.end(), got.begin())) << "Pad " << what;
  for (size_t k = want.size(); k < got.size(); ++k) ASSERT_EQ(got[k], kGarbage) << "Pad overrun";

  // Crop of the padded tensor by the same amounts is the source again; crop of a patterned
  // padded-size tensor is checked element by element.
  std::vector<uint8_t> back(src.size() + 16, kGarbage);
  Crop(want.data(), padded, begin, end, es, back.data());
  ASSERT_TRUE(std::equal(src.begin(), src.end(), back.begin())) << "Crop " << what;
  const std::vector<uint8_t> big = Bytes(Count(padded), es, 4);
  std::vector<uint8_t> cropped(src.size() + 16, kGarbage);
  Crop(big.data(), padded, begin, end, es, cropped.data());
  ForEachIndex(shape, [&](const std::vector<int64_t>& i) {
    std::vector<int64_t> p(i);
    for (size_t k = 0; k < p.size(); ++k) p[k] += begin[k];
    ASSERT_EQ(0, std::memcmp(cropped.data() + Flat(shape, i) * es,
                             big.data() + Flat(padded, p) * es, static_cast<size_t>(es)))
        << "Crop " << what;
  });
  for (size_t k = src.size(); k < cropped.size(); ++k) ASSERT_EQ(cropped[k], kGarbage);
}

TEST(PadCrop, RandomBoxes) {
  Gen g(5);
  for (int trial = 0; trial < 300; ++trial) {
    const int rank = static_cast<int>(g.In(0, 5));
    Shape shape;
    std::vector<int64_t> begin, end;
    for (int k = 0; k < rank; ++k) {
      const int64_t pick = g.In(0, 9);
      shape.push_back(pick == 0 ? 0 : pick <= 2 ? 1 : g.In(2, rank <= 2 ? 40 : 5));
      begin.push_back(g.In(0, 3) == 0 ? 0 : g.In(0, 4));
      end.push_back(g.In(0, 3) == 0 ? 0 : g.In(0, 4));
    }
    for (int es : kElemSizes) CheckPadCrop(shape, begin, end, es);
  }
}

TEST(PadCrop, EdgeShapes) {
  for (int es : kElemSizes) {
    CheckPadCrop({}, {}, {}, es);
    CheckPadCrop({0}, {2}, {3}, es);
    CheckPadCrop({3, 0, 2}, {1, 1, 1}, {0, 2, 0}, es);
    CheckPadCrop({1, 1}, {0, 0}, {0, 0}, es);
    CheckPadCrop({5}, {0}, {0}, es);
    CheckPadCrop({2, 64, 64}, {0, 1, 3}, {0, 2, 0}, es);
    CheckPadCrop({1, 2, 3}, {5, 0, 7}, {6, 9, 0}, es);
  }
}

// ---- PadView + Transpose, TransposeView + Crop (the fused forms SpaceToBatch and
// BatchToSpace use) against brute-force pad-then-transpose and transpose-then-crop ----

// A random permutation of 0..n-1 from g.
std::vector<int> RandomPerm(Gen& g, size_t n) {
  std::vector<int> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  for (size_t k = n; k > 1; --k) std::swap(perm[k - 1], perm[static_cast<size_t>(g.In(0, k - 1))]);
  return perm;
}

void CheckPaddedTranspose(const Shape& shape, const std::vector<int64_t>& begin,
                          const std::vector<int64_t>& end, const Shape& split,
                          const std::vector<int>& perm, int es, int threads) {
  Shape padded(shape.size());
  for (size_t k = 0; k < shape.size(); ++k) padded[k] = shape[k] + begin[k] + end[k];
  const std::vector<uint8_t> src = Bytes(Count(shape), es, 11);
  std::vector<uint8_t> x(static_cast<size_t>(Count(padded) * es), 0);
  ForEachIndex(shape, [&](const std::vector<int64_t>& i) {
    std::vector<int64_t> p(i);
    for (size_t k = 0; k < p.size(); ++k) p[k] += begin[k];
    CopyElem(x.data(), Flat(padded, p), src.data(), Flat(shape, i), es);
  });
  const std::vector<uint8_t> want = BruteTranspose(x, split, perm, es);
  std::vector<uint8_t> got(want.size() + 16, kGarbage);
  const PaddedView view = PadView(src.data(), shape, begin, end);
  ASSERT_EQ(view.shape, padded);
  const absl::Status s = Transpose(view, split, perm, es, got.data(), threads);
  const std::string what =
      absl::StrCat(Str(shape), " begin ", Str(begin), " end ", Str(end), " split ", Str(split),
                   " perm ", Str(perm), " elem_size ", es, " threads ", threads);
  ASSERT_TRUE(s.ok()) << what << ": " << s;
  ASSERT_TRUE(std::equal(want.begin(), want.end(), got.begin())) << "Transpose(PadView) " << what;
  for (size_t k = want.size(); k < got.size(); ++k) ASSERT_EQ(got[k], kGarbage) << "overrun";
}

void CheckTransposedCrop(const Shape& split, const std::vector<int>& perm, const Shape& merged,
                         const std::vector<int64_t>& begin, const std::vector<int64_t>& end, int es,
                         int threads) {
  const std::vector<uint8_t> src = Bytes(Count(split), es, 12);
  const std::vector<uint8_t> x = BruteTranspose(src, split, perm, es);  // reshaped to merged
  Shape out(merged.size());
  for (size_t k = 0; k < merged.size(); ++k) out[k] = merged[k] - begin[k] - end[k];
  std::vector<uint8_t> want(static_cast<size_t>(Count(out) * es));
  ForEachIndex(out, [&](const std::vector<int64_t>& i) {
    std::vector<int64_t> p(i);
    for (size_t k = 0; k < p.size(); ++k) p[k] += begin[k];
    CopyElem(want.data(), Flat(out, i), x.data(), Flat(merged, p), es);
  });
  std::vector<uint8_t> got(want.size() + 16, kGarbage);
  const TransposedView view = TransposeView(src.data(), split, perm);
  const absl::Status s = Crop(view, merged, begin, end, es, got.data(), threads);
  const std::string what =
      absl::StrCat("split ", Str(split), " perm ", Str(perm), " merged ", Str(merged), " begin ",
                   Str(begin), " end ", Str(end), " elem_size ", es, " threads ", threads);
  ASSERT_TRUE(s.ok()) << what << ": " << s;
  ASSERT_TRUE(std::equal(want.begin(), want.end(), got.begin())) << "Crop(TransposeView) " << what;
  for (size_t k = want.size(); k < got.size(); ++k) ASSERT_EQ(got[k], kGarbage) << "overrun";
}

// Each axis p of the padded (uncropped) tensor is q * B + b; the split or merged shape lists
// (Q, B) per axis (or Q alone, or nothing for size 1, in any mix with size-1 axes).
struct Blocked {
  Shape whole;   // Q * B per axis
  Shape pieces;  // the split form
};
Blocked RandomBlocked(Gen& g, int rank, int64_t max_q) {
  Blocked b;
  for (int k = 0; k < rank; ++k) {
    const int64_t Q = g.In(0, 7) == 0 ? 1 : g.In(1, max_q), B = g.In(1, 3);
    b.whole.push_back(Q * B);
    const int64_t form = g.In(0, 3);
    if (form == 0) {
      b.pieces.push_back(Q * B);
    } else {
      b.pieces.push_back(Q);
      if (form == 3) b.pieces.push_back(1);
      b.pieces.push_back(B);
    }
  }
  return b;
}

TEST(Views, PaddedTransposeMatchesPadThenTranspose) {
  Gen g(13);
  for (int trial = 0; trial < 400; ++trial) {
    const int rank = static_cast<int>(g.In(1, 4));
    const Blocked b = RandomBlocked(g, rank, rank <= 2 ? 9 : 4);
    Shape shape;
    std::vector<int64_t> begin, end;
    for (int k = 0; k < rank; ++k) {
      const int64_t pb = g.In(0, 2) == 0 ? 0 : g.In(0, b.whole[static_cast<size_t>(k)]);
      const int64_t pe = g.In(0, 2) == 0 ? 0 : g.In(0, b.whole[static_cast<size_t>(k)] - pb);
      begin.push_back(pb);
      end.push_back(pe);
      shape.push_back(b.whole[static_cast<size_t>(k)] - pb - pe);
    }
    const std::vector<int> perm = RandomPerm(g, b.pieces.size());
    for (int es : kElemSizes) CheckPaddedTranspose(shape, begin, end, b.pieces, perm, es, 1);
  }
}

TEST(Views, TransposedCropMatchesTransposeThenCrop) {
  Gen g(14);
  for (int trial = 0; trial < 400; ++trial) {
    const int rank = static_cast<int>(g.In(1, 4));
    const Blocked b = RandomBlocked(g, rank, rank <= 2 ? 9 : 4);
    // The transposed view's shape is b.pieces; the source is its inverse permutation.
    const std::vector<int> perm = RandomPerm(g, b.pieces.size());
    Shape split(perm.size());
    for (size_t k = 0; k < perm.size(); ++k) split[static_cast<size_t>(perm[k])] = b.pieces[k];
    std::vector<int64_t> begin, end;
    for (int k = 0; k < rank; ++k) {
      const int64_t w = b.whole[static_cast<size_t>(k)];
      const int64_t cb = g.In(0, 2) == 0 ? 0 : g.In(0, w),
                    ce = g.In(0, 2) == 0 ? 0 : g.In(0, w - cb);
      begin.push_back(cb);
      end.push_back(ce);
    }
    for (int es : kElemSizes) CheckTransposedCrop(split, perm, b.whole, begin, end, es, 1);
  }
}

TEST(Views, LargeCopiesSplitBetweenThreads) {
  // Outputs above 1 MiB (the threshold for threads): the SpaceToBatch / BatchToSpace shapes
  // with odd pads and crops. 2 and 3 threads give the bits of 1 thread (which the brute-force
  // tests above check on small shapes); no brute force here, so that the test stays short under
  // the sanitizers.
  const Shape data = {3, 37, 91, 29};
  const std::vector<uint8_t> src = Bytes(Count(data), 4, 31);
  const PaddedView x = PadView(src.data(), data, {0, 1, 2, 0}, {0, 2, 0, 0});  // [3, 40, 93, 29]
  const Shape split = {2, 3, 5, 21, 31, 29};
  const std::vector<uint8_t> batches = Bytes(Count(split), 4, 32);
  const TransposedView t = TransposeView(batches.data(), split, {2, 3, 0, 4, 1, 5});
  auto pad = [&](int threads) {
    std::vector<uint8_t> out(static_cast<size_t>(Count(x.shape) * 4) + 16, kGarbage);
    EXPECT_TRUE(
        Transpose(x, {3, 20, 2, 31, 3, 29}, {2, 4, 0, 1, 3, 5}, 4, out.data(), threads).ok());
    return out;
  };
  auto crop = [&](int threads) {  // [5, 42, 93, 29] cropped to [5, 39, 91, 29]
    std::vector<uint8_t> out(static_cast<size_t>(5 * 39 * 91 * 29 * 4) + 16, kGarbage);
    EXPECT_TRUE(Crop(t, {5, 42, 93, 29}, {0, 1, 2, 0}, {0, 2, 0, 0}, 4, out.data(), threads).ok());
    return out;
  };
  const std::vector<uint8_t> pad1 = pad(1), crop1 = crop(1);
  ASSERT_GE(pad1.size(), size_t{1} << 20);
  ASSERT_GE(crop1.size(), size_t{1} << 20);
  // 3 threads share the padded tensor's batch of 3, 5 the cropped one's batch of 5 (each part
  // does every box of its batch range, zeros included); 2 split the copies inside.
  for (int threads : {2, 3, 5}) {
    EXPECT_EQ(pad(threads), pad1) << threads << " threads";
    EXPECT_EQ(crop(threads), crop1) << threads << " threads";
  }
}

TEST(Views, EdgeShapes) {
  for (int es : kElemSizes) {
    CheckPaddedTranspose({}, {}, {}, {}, {}, es, 1);                            // rank 0
    CheckPaddedTranspose({0, 3}, {0, 1}, {0, 0}, {0, 2, 2}, {1, 2, 0}, es, 1);  // empty
    CheckPaddedTranspose({2, 0}, {0, 2}, {0, 2}, {2, 2, 2}, {2, 0, 1}, es, 1);  // all padding
    CheckPaddedTranspose({1, 1}, {0, 3}, {0, 2}, {1, 3, 2}, {2, 0, 1}, es, 1);
    CheckTransposedCrop({}, {}, {}, {}, {}, es, 1);
    CheckTransposedCrop({2, 2, 3}, {1, 2, 0}, {2, 6}, {0, 6}, {0, 0}, es, 1);  // all cropped
    CheckTransposedCrop({2, 1, 3}, {1, 2, 0}, {1, 6}, {0, 2}, {0, 3}, es, 1);
  }
}

TEST(Views, ASplitIntoMoreThanTwoIsAnOracleBug) {
  const std::vector<uint8_t> src(64, 1);
  std::vector<uint8_t> dst(64);
  const PaddedView x = PadView(src.data(), {8}, {0}, {0});
  EXPECT_EQ(Transpose(x, {2, 2, 2}, {0, 1, 2}, 1, dst.data()).code(), absl::StatusCode::kInternal);
  const TransposedView t = TransposeView(src.data(), {2, 2, 2}, {0, 1, 2});
  EXPECT_EQ(Crop(t, {8}, {0}, {0}, 1, dst.data()).code(), absl::StatusCode::kInternal);
}

// ---- Packed sub-byte elements (Elem::Packed) against a per-element loop ----

// Element i of a packed buffer, written here from the packing rules of docs/element-types.md:
// msb-first (u1, u2) puts element k of a byte at bits 8 - bits * (k + 1) ..; low-first
// (4-bit types) at bits bits * k ...
unsigned BitsAt(const std::vector<uint8_t>& b, int64_t i, int bits, bool msb) {
  const int64_t per = 8 / bits, k = i % per;
  const int64_t shift = msb ? 8 - bits * (k + 1) : bits * k;
  return (b[static_cast<size_t>(i / per)] >> shift) & ((1u << bits) - 1);
}
void SetBitsAt(std::vector<uint8_t>* b, int64_t i, unsigned v, int bits, bool msb) {
  const int64_t per = 8 / bits, k = i % per;
  const int64_t shift = msb ? 8 - bits * (k + 1) : bits * k;
  uint8_t& byte = (*b)[static_cast<size_t>(i / per)];
  byte = static_cast<uint8_t>((byte & ~(((1u << bits) - 1) << shift)) | (v << shift));
}

struct PackedFormat {
  int bits;
  bool msb;
};
constexpr PackedFormat kPacked[] = {{1, true}, {2, true}, {4, false}};

// StridedCopyAt of packed elements: dst starts as garbage, every element it must not write
// keeps its bits.
void CheckPackedCopy(const Shape& shape, const std::vector<int64_t>& ds, int64_t doff,
                     const std::vector<int64_t>& ss, int64_t soff, int64_t dst_elems,
                     int64_t src_elems, PackedFormat f, int threads) {
  const int64_t per = 8 / f.bits;
  const std::vector<uint8_t> src = Bytes((src_elems + per - 1) / per, 1, 21);
  std::vector<uint8_t> want = Bytes((dst_elems + per - 1) / per, 1, 22), got = want;
  ForEachIndex(shape, [&](const std::vector<int64_t>& i) {
    int64_t d = doff, s = soff;
    for (size_t k = 0; k < shape.size(); ++k) d += i[k] * ds[k], s += i[k] * ss[k];
    SetBitsAt(&want, d, BitsAt(src, s, f.bits, f.msb), f.bits, f.msb);
  });
  StridedCopyAt(got.data(), doff, ds, src.data(), soff, ss, shape, Elem::Packed(f.bits, f.msb),
                threads);
  ASSERT_EQ(got, want) << "packed " << f.bits << " bits, shape " << Str(shape) << " dst strides "
                       << Str(ds) << " + " << doff << ", src strides " << Str(ss) << " + " << soff
                       << ", threads " << threads;
}

TEST(Packed, TransposesInterleavesAndShiftedRuns) {
  Gen g(17);
  for (int trial = 0; trial < 300; ++trial) {
    // A row-major destination box, possibly permuted (a transpose), at any element offset;
    // the source row-major in another order, at any offset. Rows up to 300 elements reach the
    // 16-byte kernels; 2-wide axes give the interleave and de-interleave shapes.
    const size_t rank = static_cast<size_t>(g.In(1, 4));
    Shape shape(rank);
    for (auto& n : shape) n = g.In(0, 2) == 0 ? 2 : g.In(1, 6);
    if (g.In(0, 1) == 0) shape[static_cast<size_t>(g.In(0, rank - 1))] = g.In(40, 300);
    std::vector<int> dperm(rank), sperm(rank);
    std::iota(dperm.begin(), dperm.end(), 0);
    std::iota(sperm.begin(), sperm.end(), 0);
    if (g.In(0, 1) == 0) dperm = RandomPerm(g, rank);
    if (g.In(0, 1) == 0) sperm = RandomPerm(g, rank);
    auto strides = [&](const std::vector<int>& order, int64_t* total) {
      std::vector<int64_t> st(rank);
      int64_t stride = 1;
      for (size_t k = rank; k-- > 0;) {
        st[static_cast<size_t>(order[k])] = stride;
        stride *= shape[static_cast<size_t>(order[k])];
      }
      *total = stride;
      return st;
    };
    int64_t dn = 0, sn = 0;
    const std::vector<int64_t> ds = strides(dperm, &dn), ss = strides(sperm, &sn);
    const int64_t doff = g.In(0, 9), soff = g.In(0, 9);
    for (PackedFormat f : kPacked) {
      CheckPackedCopy(shape, ds, doff, ss, soff, dn + doff + 3, sn + soff, f, 1);
    }
  }
}

TEST(Packed, LargeCopiesSplitBetweenThreads) {
  // Above 1 MiB of packed output: a de-interleave (block 2 SpaceToDepth rows), an interleave
  // and a byte-aligned channel copy, an odd number of rows; 3 threads give the bits of 1
  // thread (checked against per-element loops above on small shapes).
  for (PackedFormat f : kPacked) {
    const int64_t per = 8 / f.bits;
    const int64_t rows = (int64_t{3} << 20) * per / 1000 / 2 + 1;  // > 1 MiB of output
    struct Copy {
      Shape shape;
      std::vector<int64_t> ds, ss;
      int64_t doff;
    };
    // Rows of 496 elements start on a byte for every format (the word kernels; rows that do
    // not, element by element, are checked above and would make this test slow under the
    // sanitizers).
    const Copy copies[] = {{{rows, 2, 496}, {2 * 496, 496, 1}, {992, 1, 2}, 0},
                           {{rows, 2, 496}, {992, 1, 2}, {992, 496, 1}, per},
                           {{rows, 3, 320}, {960, 320, 1}, {320, rows * 320, 1}, 0}};
    for (const Copy& c : copies) {
      const int64_t elems = Count(c.shape) + c.doff;
      const std::vector<uint8_t> src = Bytes((elems + per - 1) / per, 1, 25);
      std::vector<uint8_t> one((elems + per - 1) / per + 1, kGarbage);
      ASSERT_GE(one.size(), size_t{1} << 20);
      StridedCopyAt(one.data(), c.doff, c.ds, src.data(), 0, c.ss, c.shape,
                    Elem::Packed(f.bits, f.msb), 1);
      for (int threads : {3}) {
        std::vector<uint8_t> many(one.size(), kGarbage);
        StridedCopyAt(many.data(), c.doff, c.ds, src.data(), 0, c.ss, c.shape,
                      Elem::Packed(f.bits, f.msb), threads);
        EXPECT_EQ(many, one) << f.bits << " bits, " << Str(c.shape) << ", " << threads
                             << " threads";
      }
    }
  }
}

TEST(Packed, PatchGatherAndZeros) {
  Gen g(18);
  for (int trial = 0; trial < 200; ++trial) {
    const Shape nchw = {g.In(1, 2), g.In(1, 3), g.In(1, 9), g.In(1, 80)};
    PatchGeometry pg;
    for (size_t a = 0; a < 2; ++a) {
      pg.sizes[a] = g.In(1, 3);
      pg.strides[a] = g.In(1, 3);
      pg.rates[a] = g.In(1, 2);
      pg.pad_begin[a] = g.In(0, 3);
      pg.out[a] = g.In(0, a == 0 ? 6 : 90);
    }
    for (PackedFormat f : kPacked) {
      const int64_t per = 8 / f.bits;
      const int64_t N = nchw[0], C = nchw[1], H = nchw[2], W = nchw[3];
      const int64_t KH = pg.sizes[0], KW = pg.sizes[1], OH = pg.out[0], OW = pg.out[1];
      const int64_t out_elems = N * KH * KW * C * OH * OW;
      const std::vector<uint8_t> src = Bytes((Count(nchw) + per - 1) / per, 1, 23);
      std::vector<uint8_t> want = Bytes((out_elems + per - 1) / per, 1, 24), got = want;
      for (int64_t o = 0; o < out_elems; ++o) {
        const int64_t ow = o % OW, oh = o / OW % OH, ch = o / OW / OH % (KH * KW * C);
        const int64_t n = o / OW / OH / (KH * KW * C), c = ch % C, kw = ch / C % KW,
                      kh = ch / C / KW;
        const int64_t ih = oh * pg.strides[0] + kh * pg.rates[0] - pg.pad_begin[0];
        const int64_t iw = ow * pg.strides[1] + kw * pg.rates[1] - pg.pad_begin[1];
        const bool in = ih >= 0 && ih < H && iw >= 0 && iw < W;
        SetBitsAt(&want, o, in ? BitsAt(src, ((n * C + c) * H + ih) * W + iw, f.bits, f.msb) : 0,
                  f.bits, f.msb);
      }
      PatchGather(src.data(), nchw, pg, Elem::Packed(f.bits, f.msb), got.data());
      ASSERT_EQ(got, want) << "packed " << f.bits << " bits, " << Str(nchw) << " sizes " << KH
                           << "x" << KW << " out " << OH << "x" << OW;
    }
  }
}

// ---- PatchGather ----

void CheckPatchGather(const Shape& nchw, const PatchGeometry& pg, int es) {
  const int64_t N = nchw[0], C = nchw[1], H = nchw[2], W = nchw[3];
  const int64_t KH = pg.sizes[0], KW = pg.sizes[1];
  const Shape out_shape = {N, KH * KW * C, pg.out[0], pg.out[1]};
  const std::vector<uint8_t> src = Bytes(Count(nchw), es, 6);
  std::vector<uint8_t> want(static_cast<size_t>(Count(out_shape) * es), 0);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t kh = 0; kh < KH; ++kh)
      for (int64_t kw = 0; kw < KW; ++kw)
        for (int64_t c = 0; c < C; ++c)
          for (int64_t oh = 0; oh < pg.out[0]; ++oh)
            for (int64_t ow = 0; ow < pg.out[1]; ++ow) {
              const int64_t ih = oh * pg.strides[0] + kh * pg.rates[0] - pg.pad_begin[0];
              const int64_t iw = ow * pg.strides[1] + kw * pg.rates[1] - pg.pad_begin[1];
              if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
              CopyElem(want.data(), Flat(out_shape, {n, (kh * KW + kw) * C + c, oh, ow}),
                       src.data(), Flat(nchw, {n, c, ih, iw}), es);
            }
  std::vector<uint8_t> got(want.size() + 16, kGarbage);
  PatchGather(src.data(), nchw, pg, es, got.data());
  ASSERT_TRUE(std::equal(want.begin(), want.end(), got.begin()))
      << "PatchGather " << Str(nchw) << " sizes " << KH << "x" << KW << " strides " << pg.strides[0]
      << "x" << pg.strides[1] << " rates " << pg.rates[0] << "x" << pg.rates[1] << " pad "
      << pg.pad_begin[0] << "," << pg.pad_begin[1] << " out " << pg.out[0] << "x" << pg.out[1]
      << " elem_size " << es;
  for (size_t k = want.size(); k < got.size(); ++k) ASSERT_EQ(got[k], kGarbage) << "overrun";
}

TEST(PatchGather, RandomGeometries) {
  Gen g(7);
  for (int trial = 0; trial < 400; ++trial) {
    const Shape nchw = {g.In(1, 2), g.In(0, 3) == 0 ? 1 : g.In(1, 3), g.In(0, 9), g.In(0, 9)};
    PatchGeometry pg;
    for (size_t a = 0; a < 2; ++a) {
      pg.sizes[a] = g.In(1, 4);
      pg.strides[a] = g.In(1, 4);
      pg.rates[a] = g.In(1, 3);
      pg.pad_begin[a] = g.In(0, 4);
      // Any output extent: patches may run past the image on both sides (all-zero rows/cols).
      pg.out[a] = g.In(0, 6);
    }
    for (int es : kElemSizes) CheckPatchGather(nchw, pg, es);
  }
}

TEST(PatchGather, WideRowsWithUnitAndLargeStrides) {
  for (int es : kElemSizes) {
    CheckPatchGather({1, 2, 20, 70}, {{3, 3}, {1, 1}, {1, 1}, {1, 1}, {20, 70}}, es);
    CheckPatchGather({2, 3, 33, 64}, {{2, 5}, {2, 3}, {2, 2}, {0, 4}, {17, 22}}, es);
    CheckPatchGather({1, 1, 10, 10}, {{3, 3}, {5, 5}, {1, 1}, {0, 0}, {2, 2}}, es);
    CheckPatchGather({1, 1, 4, 4}, {{2, 2}, {9, 9}, {1, 1}, {7, 7}, {3, 3}}, es);  // all pad
  }
}

// ---- StridedCopy with arbitrary strides ----

TEST(StridedCopy, PermutedPaddedLayoutsAndBroadcastSources) {
  Gen g(9);
  for (int trial = 0; trial < 300; ++trial) {
    const size_t rank = static_cast<size_t>(g.In(0, 5));
    Shape shape;
    for (size_t k = 0; k < rank; ++k) shape.push_back(g.In(0, 12) == 0 ? 0 : g.In(1, 5));
    // Destination: a row-major layout over a random axis order with random gaps, so every
    // offset is distinct. Source: another such layout, with some axes broadcast (stride 0).
    auto layout = [&](bool allow_zero, int64_t* span) {
      std::vector<size_t> order(rank);
      std::iota(order.begin(), order.end(), 0);
      for (size_t k = rank; k > 1; --k)
        std::swap(order[k - 1], order[static_cast<size_t>(g.In(0, static_cast<int64_t>(k) - 1))]);
      std::vector<int64_t> strides(rank, 0);
      int64_t s = g.In(1, 2);
      for (size_t k = rank; k-- > 0;) {
        const size_t ax = order[k];
        if (allow_zero && g.In(0, 4) == 0) continue;
        strides[ax] = s;
        s *= shape[ax] + g.In(0, 2);
      }
      *span = s;
      return strides;
    };
    int64_t dspan = 1, sspan = 1;
    const std::vector<int64_t> ds = layout(false, &dspan), ss = layout(true, &sspan);
    for (int es : kElemSizes) {
      const std::vector<uint8_t> src = Bytes(sspan, es, static_cast<uint64_t>(trial));
      std::vector<uint8_t> want(static_cast<size_t>(dspan * es), kGarbage);
      ForEachIndex(shape, [&](const std::vector<int64_t>& i) {
        int64_t d = 0, s = 0;
        for (size_t k = 0; k < rank; ++k) {
          d += i[k] * ds[k];
          s += i[k] * ss[k];
        }
        CopyElem(want.data(), d, src.data(), s, es);
      });
      std::vector<uint8_t> got(want.size(), kGarbage);
      StridedCopy(got.data(), ds, src.data(), ss, shape, es);
      ASSERT_EQ(got, want) << "StridedCopy shape " << Str(shape) << " dst strides " << Str(ds)
                           << " src strides " << Str(ss) << " elem_size " << es;
    }
  }
}

TEST(StridedCopy, StreamedRunsInEitherWalkingOrder) {
  // 8 MiB outputs (the non-temporal store threshold) of 64-element runs, the layouts of
  // SpaceToBatch (walked in the source's order) and BatchToSpace (walked in the destination's
  // order), with 1 and 2 threads, against the per-element loop. Axes (n, q1, b1, q2, b2, c) of
  // the spatial side [2, 128, 128, 64] (p = q * 2 + b) and the batch side [b1, b2, n, q1, q2, c].
  const Shape shape = {2, 64, 2, 64, 2, 64};
  const std::vector<int64_t> spatial = {128 * 128 * 64, 2 * 128 * 64, 128 * 64, 128, 64, 1};
  const std::vector<int64_t> batch = {64 * 64 * 64, 64 * 64,          2 * 2 * 64 * 64 * 64,
                                      64,           2 * 64 * 64 * 64, 1};
  const int es = 4;
  const int64_t n = Count(shape);
  ASSERT_GE(n * es, int64_t{8} << 20);
  for (bool to_spatial : {false, true}) {  // SpaceToBatch, then BatchToSpace
    const std::vector<int64_t>& ds = to_spatial ? spatial : batch;
    const std::vector<int64_t>& ss = to_spatial ? batch : spatial;
    const std::vector<uint8_t> src = Bytes(n, es, to_spatial ? 41 : 42);
    std::vector<uint8_t> want(static_cast<size_t>(n * es), kGarbage);
    ForEachIndex(shape, [&](const std::vector<int64_t>& i) {
      int64_t d = 0, s = 0;
      for (size_t k = 0; k < shape.size(); ++k) d += i[k] * ds[k], s += i[k] * ss[k];
      CopyElem(want.data(), d, src.data(), s, es);
    });
    for (int threads : {1, 2}) {
      std::vector<uint8_t> got(want.size(), kGarbage);
      StridedCopy(got.data(), ds, src.data(), ss, shape, es, threads);
      EXPECT_TRUE(got == want) << (to_spatial ? "BatchToSpace" : "SpaceToBatch") << " layout, "
                               << threads << " thread(s)";
    }
  }
}

TEST(StridedCopy, ZeroFillWritesExactlyNElements) {
  for (int es : kElemSizes) {
    std::vector<uint8_t> b(static_cast<size_t>(10 * es), kGarbage);
    ZeroFill(b.data(), 7, es);
    for (size_t k = 0; k < b.size(); ++k) {
      EXPECT_EQ(b[k], k < static_cast<size_t>(7 * es) ? 0 : kGarbage) << k;
    }
    ZeroFill(b.data(), 0, es);  // no-op
  }
}

// ---- Reshape ----

TEST(Reshape, AcceptsEqualCountsOnly) {
  EXPECT_EQ(*Reshape({2, 6}, {2, 2, 3}), (Shape{2, 2, 3}));
  EXPECT_EQ(*Reshape({0, 5}, {7, 0}), (Shape{7, 0}));
  EXPECT_EQ(*Reshape({}, {1, 1}), (Shape{1, 1}));
  EXPECT_FALSE(Reshape({2, 6}, {5, 2}).ok());
  EXPECT_FALSE(Reshape({int64_t{1} << 62, 4}, {1}).ok());
}

// MultiIndex inverts the row-major flattening i = sum_k idx[k] * stride[k]: walk every element
// of a few shapes with a nested counter (the odometer, an independent enumeration) and compare.
TEST(Shape, MultiIndexIsTheRowMajorOdometer) {
  for (const Shape& shape : std::vector<Shape>{{5}, {2, 3}, {3, 1, 4}, {2, 2, 1, 3}, {}}) {
    std::vector<int64_t> odometer(shape.size(), 0);
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    for (int64_t flat = 0; flat < n; ++flat) {
      EXPECT_EQ(MultiIndex(shape, flat), odometer) << ShapeToString(shape) << " flat " << flat;
      for (size_t k = shape.size(); k-- > 0;) {
        if (++odometer[k] < shape[k]) break;
        odometer[k] = 0;
      }
    }
  }
  EXPECT_EQ(MultiIndex({2, 3}, 4), (std::vector<int64_t>{1, 1}));
}

}  // namespace
}  // namespace dmconf
