// dmconf_bench_check: a brute-force check of the code the benchmark times, run after each
// optimisation of the copy kernels (docs/performance.md). Not a benchmark and not timed.
//
//   build/dev/bench/dmconf_bench_check [--cases 400] [--full]    (ctest: oracle_fast_paths)
//
// 1. StridedCopy on random shapes and strides, element sizes 1, 2, 4, 8, against a per-element
//    loop over the multi-index.
// 2. Evaluate() on random valid cases of the five ops, element types of 1, 2, 4, 8 bytes and
//    sub-byte ones, against oracle/direct (per-element index formulas from the spec, not the
//    oracle's reshape-transpose-reshape), with the output storage reused and filled with
//    garbage first (EvalOptions::output_storage).
// 3. --full: the benchmark's own 64 MiB cases (every op, pads, crops, same_upper; f32, u1, u4,
//    u8, f16, f64) against the same formulas, evaluated with 1 and with 2 threads.
// Exits 1 on the first difference, printing the case.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "bench/bench_cases.h"
#include "oracle/direct/direct.h"
#include "oracle/oracle.h"
#include "oracle/primitives/strided_copy.h"

namespace dmconf::bench {
namespace {

std::mt19937_64 rng(20261122);

int64_t Uniform(int64_t lo, int64_t hi) {  // inclusive
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

Shape Unravel(int64_t flat, const Shape& shape) {
  Shape idx(shape.size());
  for (size_t k = shape.size(); k-- > 0;) {
    idx[k] = flat % shape[k];
    flat /= shape[k];
  }
  return idx;
}

[[noreturn]] void Fail(const std::string& what) {
  std::fflush(stdout);
  std::fprintf(stderr, "FAIL: %s\n", what.c_str());
  std::exit(1);
}

// --- 1. StridedCopy --------------------------------------------------------------------------

void CheckStridedCopyOnce() {
  const int es = 1 << Uniform(0, 3);
  const size_t rank = static_cast<size_t>(Uniform(0, 5));
  Shape shape(rank);
  for (auto& n : shape) n = Uniform(1, 7);
  if (Uniform(0, 9) == 0 && rank > 0)
    shape[static_cast<size_t>(Uniform(0, rank - 1))] = Uniform(20, 70);
  // Destination: a row-major box with optional gaps, its axes permuted (distinct offsets).
  Shape box = shape;
  for (auto& n : box) n += Uniform(0, 1) == 0 ? 0 : Uniform(0, 3);
  std::vector<size_t> perm(rank);
  for (size_t k = 0; k < rank; ++k) perm[k] = k;
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<int64_t> ds(rank), ss(rank);
  int64_t stride = 1;
  for (size_t k = rank; k-- > 0;) {
    ds[perm[k]] = stride;
    stride *= box[perm[k]];
  }
  const int64_t dst_elems = stride;
  // Source: any strides, possibly zero or overlapping.
  int64_t src_elems = 1;
  for (size_t k = 0; k < rank; ++k) {
    ss[k] = Uniform(0, 4) == 0 ? 0 : Uniform(1, 90);
    src_elems += ss[k] * (shape[k] - 1);
  }
  std::vector<uint8_t> src(static_cast<size_t>(src_elems * es));
  for (auto& b : src) b = static_cast<uint8_t>(Uniform(0, 255));
  std::vector<uint8_t> got(static_cast<size_t>(dst_elems * es), 0xEE), want = got;
  StridedCopy(got.data(), ds, src.data(), ss, shape, es);
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  for (int64_t i = 0; i < n; ++i) {
    const Shape idx = Unravel(i, shape);
    int64_t d = 0, s = 0;
    for (size_t k = 0; k < rank; ++k) {
      d += idx[k] * ds[k];
      s += idx[k] * ss[k];
    }
    std::memcpy(&want[static_cast<size_t>(d * es)], &src[static_cast<size_t>(s * es)],
                static_cast<size_t>(es));
  }
  if (got != want) {
    std::string msg = "StridedCopy elem_size " + std::to_string(es) + " shape " +
                      ShapeToString(shape) + " dst strides " + ShapeToString(ds) + " src strides " +
                      ShapeToString(ss);
    Fail(msg);
  }
}

// Large copies (above the non-temporal store threshold) of the kernels' shapes: transposes
// [n, k] <-> [k, n] for k = 2..4 and contiguous runs, with the destination and source shifted
// by a few elements so that the 16-byte alignment peeling is exercised.
void CheckLargeCopies() {
  for (int es : {1, 2, 4, 8}) {
    for (int64_t k : {2, 3, 4}) {
      for (int kind = 0; kind < 3; ++kind) {
        const int64_t n = ((int64_t{9} << 20) / es) / k + Uniform(0, 37);
        const int64_t shift_d = Uniform(0, 3), shift_s = Uniform(0, 3);
        Shape shape;
        std::vector<int64_t> ds, ss;
        if (kind == 0) {  // interleave: dst [n][k] from k source rows of n
          shape = {k, n}, ds = {1, k}, ss = {n, 1};
        } else if (kind == 1) {  // de-interleave: k dst rows of n from a source [n][k]
          shape = {k, n}, ds = {n, 1}, ss = {1, k};
        } else {  // runs of 64 elements: plain, gathered from 2 halves, scattered to 2 halves
          const int64_t m = n / 128;
          shape = {m, 2, 64};
          ds = {128, 64, 1}, ss = {128, 64, 1};
          if (k == 3) ss = {64, m * 64, 1};
          if (k == 4) ds = {64, m * 64, 1};
        }
        int64_t elems = 1;
        for (int64_t d : shape) elems *= d;
        std::vector<uint8_t> src(static_cast<size_t>((elems * 2 + 8) * es));
        for (auto& b : src) b = static_cast<uint8_t>(rng());
        std::vector<uint8_t> got(static_cast<size_t>((elems + 8) * es), 0xEE), want = got;
        StridedCopy(got.data() + shift_d * es, ds, src.data() + shift_s * es, ss, shape, es);
        const size_t rank = shape.size();
        for (int64_t i = 0; i < elems; ++i) {
          const Shape idx = Unravel(i, shape);
          int64_t d = shift_d, s = shift_s;
          for (size_t a = 0; a < rank; ++a) d += idx[a] * ds[a], s += idx[a] * ss[a];
          std::memcpy(&want[static_cast<size_t>(d * es)], &src[static_cast<size_t>(s * es)],
                      static_cast<size_t>(es));
        }
        if (got != want) {
          Fail("large StridedCopy elem_size " + std::to_string(es) + " shape " +
               ShapeToString(shape) + " shifts " + std::to_string(shift_d) + "," +
               std::to_string(shift_s));
        }
      }
    }
  }
}

// --- 2. The ops against the direct formulas (oracle/direct) ------------------------------------

// Evaluate() (the fast paths, with the output storage reused and filled with garbage first when
// `reuse`, with each thread count of `threads`) against direct::DirectEvaluate, the project's
// own per-element index formulas.
void CheckCase(const OpCase& c, bool reuse, std::initializer_list<int> threads = {1}) {
  const std::string what = std::string(OpName(c.op)) + " " + ElementTypeName(c.data.type).data() +
                           " " + ShapeToString(c.data.shape) + " " + AttributesToString(c);
  absl::StatusOr<Tensor> want = direct::DirectEvaluate(c);
  if (!want.ok()) Fail(what + ": direct: " + std::string(want.status().message()));
  for (int t : threads) {
    std::vector<uint8_t> storage;
    EvalOptions o;
    o.threads = t;
    if (reuse) {
      storage.assign(static_cast<size_t>(Uniform(0, 3000)), 0xC3);  // garbage, any size
      o.output_storage = &storage;
    }
    absl::StatusOr<Expectation> e = Evaluate(c, o);
    const std::string where = what + " (" + std::to_string(t) + " threads)";
    if (!e.ok()) Fail(where + ": " + std::string(e.status().message()));
    if (e->kind != ExpectationKind::kValid || !e->output)
      Fail(where + ": not valid: " + e->message);
    const Tensor& y = *e->output;
    if (y.shape != e->output_shape) Fail(where + ": output shape");
    if (y.Validate("output").ok() == false) Fail(where + ": output byte size");
    if (want->shape != y.shape) Fail(where + ": direct gives another shape");
    if (!IsSubByte(y.type)) {
      if (y.bytes == want->bytes) continue;  // the common case, without GetBits per element
    }
    const int64_t n = y.NumElements();
    for (int64_t i = 0; i < n; ++i) {
      if (y.GetBits(i) != want->GetBits(i)) {
        Fail(where + ": output " + ShapeToString(Unravel(i, y.shape)) + " differs from direct");
      }
    }
  }
}

const ElementType kTypes[] = {
    ElementType::kU8, ElementType::kF16,  ElementType::kF32, ElementType::kF64, ElementType::kU4,
    ElementType::kU1, ElementType::kBf16, ElementType::kU2,  ElementType::kI4,  ElementType::kU3};

Tensor RandomData(Shape shape) {
  const ElementType t = kTypes[Uniform(0, std::size(kTypes) - 1)];
  return *MakeTensor(t, std::move(shape), [](int64_t) { return rng(); });
}

Tensor I64(const std::vector<int64_t>& v) { return *MakeIntegerTensor(ElementType::kI64, v); }

// DepthToSpace (d2s) or SpaceToDepth, K = 1..3 spatial axes.
OpCase RandomDepthCase(bool d2s) {
  OpCase c;
  const int64_t K = Uniform(1, 3), b = Uniform(1, K == 1 ? 5 : 3);
  int64_t bk = 1;
  for (int64_t k = 0; k < K; ++k) bk *= b;
  c.op = d2s ? Op::kDepthToSpace : Op::kSpaceToDepth;
  Shape s = {Uniform(1, 2), Uniform(1, 3) * (d2s ? bk : 1)};
  // Rows up to 40 elements, and one case in four with rows of up to 700 elements (the
  // word kernels of packed types move 16 bytes per row per step).
  const int64_t wide = Uniform(0, 3) == 0 ? 700 : 40;
  for (int64_t k = 0; k < K; ++k) {
    s.push_back(Uniform(1, k + 1 == K ? wide : K == 1 ? 40 : 6) * (d2s ? 1 : b));
  }
  c.data = RandomData(s);
  c.block_size = b;
  c.mode = Uniform(0, 1) ? "blocks_first" : "depth_first";
  return c;
}

// SpaceToBatch with pads.
OpCase RandomSpaceToBatchCase() {
  OpCase c;
  const size_t N = static_cast<size_t>(Uniform(2, 5));
  Shape s = {Uniform(1, 3)};
  std::vector<int64_t> B = {1}, PB = {0}, PE = {0};
  for (size_t k = 1; k < N; ++k) {
    const int64_t b = Uniform(1, N <= 3 ? 4 : 2), padded = b * Uniform(1, N <= 3 ? 6 : 3);
    const int64_t pb = Uniform(0, padded - 1), pe = Uniform(0, padded - 1 - pb);
    B.push_back(b), PB.push_back(pb), PE.push_back(pe);
    s.push_back(padded - pb - pe);
  }
  if (Uniform(0, 2) == 0) {  // a channel axis of whole bytes for every packed type
    B.push_back(1), PB.push_back(0), PE.push_back(0);
    s.push_back(8 * Uniform(1, 8));
  }
  c.op = Op::kSpaceToBatch;
  c.data = RandomData(s);
  c.int_inputs = {I64(B), I64(PB), I64(PE)};
  return c;
}

// BatchToSpace with crops.
OpCase RandomBatchToSpaceCase() {
  OpCase c;
  const size_t N = static_cast<size_t>(Uniform(2, 5));
  std::vector<int64_t> B = {1}, CB = {0}, CE = {0};
  int64_t prod = 1;
  Shape s = {0};
  for (size_t k = 1; k < N; ++k) {
    const int64_t b = Uniform(1, N <= 3 ? 4 : 2), dk = Uniform(1, N <= 3 ? 6 : 3);
    const int64_t cb = Uniform(0, b * dk), ce = Uniform(0, b * dk - cb);
    B.push_back(b), CB.push_back(cb), CE.push_back(ce);
    prod *= b;
    s.push_back(dk);
  }
  if (Uniform(0, 2) == 0) {  // a channel axis of whole bytes for every packed type
    B.push_back(1), CB.push_back(0), CE.push_back(0);
    s.push_back(8 * Uniform(1, 8));
  }
  s[0] = prod * Uniform(1, 3);
  c.op = Op::kBatchToSpace;
  c.data = RandomData(s);
  c.int_inputs = {I64(B), I64(CB), I64(CE)};
  return c;
}

OpCase RandomPatchCase() {
  OpCase c;
  c.op = Op::kExtractImagePatches;
  c.data = RandomData(
      {Uniform(1, 2), Uniform(1, 3), Uniform(1, 12), Uniform(1, Uniform(0, 3) == 0 ? 300 : 12)});
  c.sizes = {Uniform(1, 4), Uniform(1, 4)};
  c.strides = {Uniform(1, 3), Uniform(1, 3)};
  c.rates = {Uniform(1, 3), Uniform(1, 3)};
  const char* pads[] = {"valid", "same_upper", "same_lower"};
  c.auto_pad = pads[Uniform(0, 2)];
  return c;
}

void CheckRandomOps(int count) {
  for (int i = 0; i < count; ++i) {
    const bool reuse = Uniform(0, 1) == 1;
    switch (i % 5) {
      case 0:
      case 1:
        CheckCase(RandomDepthCase(i % 5 == 0), reuse);
        break;
      case 2:
        CheckCase(RandomSpaceToBatchCase(), reuse);
        break;
      case 3:
        CheckCase(RandomBatchToSpaceCase(), reuse);
        break;
      default:
        CheckCase(RandomPatchCase(), reuse);
        break;
    }
  }
}

void CheckBenchCases() {
  for (const BenchCase& bc : MakeBenchCases()) {
    CheckCase(bc.op_case, true, {1, 2});
    std::printf("  %s: ok (1 and 2 threads)\n", bc.name.c_str());
    std::fflush(stdout);
  }
}

}  // namespace
}  // namespace dmconf::bench

int main(int argc, char** argv) {
  CLI::App app{
      "dmconf_bench_check: the oracle's fast paths (StridedCopy, including copies above the\n"
      "non-temporal store threshold, and Evaluate with reused output storage) against\n"
      "per-element loops and the direct formulas (oracle/direct). Exits 1 on a difference."};
  int count = 400;
  bool full = false;
  app.add_option("--cases", count,
                 "random cases of the five ops (StridedCopy runs 20 times as many)")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  app.add_flag("--full", full,
               "also the benchmark's own 64 MiB cases, with 1 and 2 threads (slow: minutes)");
  CLI11_PARSE(app, argc, argv);
  for (int i = 0; i < 20 * count; ++i) dmconf::bench::CheckStridedCopyOnce();
  std::printf("StridedCopy: %d random copies match the per-element loop\n", 20 * count);
  dmconf::bench::CheckLargeCopies();
  std::printf("StridedCopy: 36 copies above the non-temporal store threshold match\n");
  dmconf::bench::CheckRandomOps(count);
  std::printf("Evaluate: %d random cases of the five ops match oracle/direct\n", count);
  if (full) dmconf::bench::CheckBenchCases();
  return 0;
}
