#include "conformance/backends/backend_test_util.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <random>

#include "absl/strings/str_cat.h"
#include "oracle/case_factory.h"

namespace dmconf::testing {

namespace {

bool IsNanBits(ElementType t, uint64_t b) {
  switch (t) {
    case ElementType::kF16:
      return (b & 0x7C00) == 0x7C00 && (b & 0x03FF) != 0;
    case ElementType::kBf16:
      return (b & 0x7F80) == 0x7F80 && (b & 0x007F) != 0;
    case ElementType::kF32:
      return (b & 0x7F800000u) == 0x7F800000u && (b & 0x007FFFFFu) != 0;
    case ElementType::kF64:
      return (b & 0x7FF0000000000000ull) == 0x7FF0000000000000ull &&
             (b & 0x000FFFFFFFFFFFFFull) != 0;
    case ElementType::kF8e4m3:
      return (b & 0x7F) == 0x7F;
    case ElementType::kF8e5m2:
      return (b & 0x7C) == 0x7C && (b & 0x03) != 0;
    case ElementType::kF8e8m0:
      return b == 0xFF;
    default:
      return false;
  }
}

}  // namespace

Tensor PositionTensor(ElementType t, Shape shape, bool allow_nan) {
  const int bits = BitWidth(t);
  const uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  return *MakeTensor(t, std::move(shape), [&](int64_t i) {
    // i + 1 scrambled; small tensors keep distinct values, and zero (the pad value) is avoided
    // for the first 2^bits - 1 elements.
    uint64_t v = (static_cast<uint64_t>(i) + 1) * 0x9E3779B97F4A7C15ull;
    v ^= v >> 29;
    uint64_t b = bits >= 16 ? (v & mask) : (static_cast<uint64_t>(i) % mask + 1);
    if (t == ElementType::kBoolean) b = (i % 2) ? 1 : 0;
    // Clearing the top exponent bit turns a NaN encoding into a finite number.
    if (!allow_nan && IsNanBits(t, b)) b &= ~(uint64_t{1} << (bits - 2));
    return b;
  });
}

OpCase SpaceToBatchCase(Tensor data, std::vector<int64_t> block, std::vector<int64_t> pads_begin,
                        std::vector<int64_t> pads_end) {
  return BlockOpCase(Op::kSpaceToBatch, std::move(data), block, pads_begin, pads_end);
}

OpCase BatchToSpaceCase(Tensor data, std::vector<int64_t> block, std::vector<int64_t> crops_begin,
                        std::vector<int64_t> crops_end) {
  return BlockOpCase(Op::kBatchToSpace, std::move(data), block, crops_begin, crops_end);
}

OpCase DepthCase(Op op, Tensor data, int64_t block_size, std::string mode) {
  return DepthOpCase(op, std::move(data), block_size, std::move(mode));
}

OpCase PatchesCase(Tensor data, std::vector<int64_t> sizes, std::vector<int64_t> strides,
                   std::vector<int64_t> rates, std::string auto_pad) {
  return PatchOpCase(std::move(data), std::move(sizes), std::move(strides), std::move(rates),
                     std::move(auto_pad));
}

std::vector<OpCase> ValidCases(Op op, ElementType t, int count, uint32_t seed,
                               const std::string& mode) {
  std::mt19937 rng(seed);
  auto pick = [&rng](int lo, int hi) {
    return static_cast<int64_t>(std::uniform_int_distribution<int>(lo, hi)(rng));
  };
  std::vector<OpCase> cases;
  for (int k = 0; k < count; ++k) {
    OpCase c;
    switch (op) {
      case Op::kSpaceToBatch: {
        // Output dims and blocks first, then the padded input: valid by construction.
        const int64_t n = pick(1, 2), ch = pick(1, 3), bh = pick(1, 3), bw = pick(1, 3);
        // Padded size P = block * out; pads_begin in [0, 2], the data at least P - begin - 2.
        const int64_t ph = bh * pick(1, 3), pw = bw * pick(1, 3);
        const int64_t pbh = pick(0, std::min<int64_t>(2, ph)),
                      pbw = pick(0, std::min<int64_t>(2, pw));
        const int64_t h =
            pick(static_cast<int>(std::max<int64_t>(0, ph - pbh - 2)), static_cast<int>(ph - pbh));
        const int64_t w =
            pick(static_cast<int>(std::max<int64_t>(0, pw - pbw - 2)), static_cast<int>(pw - pbw));
        const int64_t pe_h = ph - pbh - h, pe_w = pw - pbw - w;
        c = SpaceToBatchCase(PositionTensor(t, {n, ch, h, w}), {1, 1, bh, bw}, {0, 0, pbh, pbw},
                             {0, 0, pe_h, pe_w});
        break;
      }
      case Op::kBatchToSpace: {
        const int64_t n = pick(1, 2), ch = pick(1, 3), bh = pick(1, 3), bw = pick(1, 3);
        const int64_t h = pick(1, 3), w = pick(1, 3);
        const int64_t cbh = pick(0, bh * h), cbw = pick(0, bw * w);
        const int64_t ceh = pick(0, bh * h - cbh), cew = pick(0, bw * w - cbw);
        c = BatchToSpaceCase(PositionTensor(t, {n * bh * bw, ch, h, w}), {1, 1, bh, bw},
                             {0, 0, cbh, cbw}, {0, 0, ceh, cew});
        break;
      }
      case Op::kSpaceToDepth: {
        const int64_t b = pick(1, 3);
        c = DepthCase(op,
                      PositionTensor(t, {pick(1, 2), pick(1, 3), b * pick(1, 3), b * pick(1, 3)}),
                      b, mode);
        break;
      }
      case Op::kDepthToSpace: {
        const int64_t b = pick(1, 3);
        c = DepthCase(op,
                      PositionTensor(t, {pick(1, 2), b * b * pick(1, 3), pick(1, 3), pick(1, 3)}),
                      b, mode);
        break;
      }
      case Op::kExtractImagePatches: {
        static const char* kPads[] = {"valid", "same_upper", "same_lower"};
        const int64_t kh = pick(1, 3), kw = pick(1, 3), rh = pick(1, 2), rw = pick(1, 2);
        // Input at least as large as the effective kernel, so `valid` has a patch.
        const int64_t h = rh * (kh - 1) + 1 + pick(0, 4), w = rw * (kw - 1) + 1 + pick(0, 4);
        c = PatchesCase(PositionTensor(t, {pick(1, 2), pick(1, 3), h, w}), {kh, kw},
                        {pick(1, 3), pick(1, 3)}, {rh, rw}, kPads[k % 3]);
        break;
      }
    }
    c.id = absl::StrCat(OpPrefix(op), "_", ElementTypeName(t), "_", seed, "_", k);
    cases.push_back(std::move(c));
  }
  return cases;
}

std::string CompareWithOracle(Backend& backend, const OpCase& c) {
  absl::StatusOr<Expectation> e = Evaluate(c);
  if (!e.ok()) return absl::StrCat("oracle error: ", e.status().ToString());
  if (e->kind != ExpectationKind::kValid) {
    return absl::StrCat("case is not valid for the oracle: ", e->message);
  }
  RunOutcome r = backend.Run(c);
  if (r.kind != RunOutcome::Kind::kOutput) {
    return absl::StrCat(r.kind == RunOutcome::Kind::kRejected ? "rejected: " : "unsupported: ",
                        r.message);
  }
  const Tensor& want = *e->output;
  const Tensor& got = *r.output;
  if (got.type != want.type) return "wrong element type";
  if (got.shape != want.shape) {
    return absl::StrCat("shape ", ShapeToString(got.shape), ", expected ",
                        ShapeToString(want.shape));
  }
  for (int64_t i = 0; i < want.NumElements(); ++i) {
    if (got.GetBits(i) != want.GetBits(i)) {
      return absl::StrCat("element ", i, " has bits 0x", absl::Hex(got.GetBits(i)), ", expected 0x",
                          absl::Hex(want.GetBits(i)));
    }
  }
  return "";
}

std::string RunInChild(const std::function<int()>& fn) {
  const pid_t pid = fork();
  if (pid == 0) {
    // Default dispositions, so a crash ends the child with its signal even where a sanitizer
    // runtime installed its own handlers; _exit skips atexit handlers (and leak checks).
    for (int sig : {SIGFPE, SIGSEGV, SIGBUS, SIGILL, SIGABRT}) signal(sig, SIG_DFL);
    _exit(fn());
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return "fork failed";
  if (WIFSIGNALED(status)) return absl::StrCat("signal:", WTERMSIG(status));
  return absl::StrCat("exit:", WEXITSTATUS(status));
}

}  // namespace dmconf::testing
