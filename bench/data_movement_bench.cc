// Times the oracle's Evaluate() on the five data-movement ops (64 MiB f32 inputs, one thread)
// against a memcpy of each output's bytes, and prints the ratios (docs/performance.md).
//
//   build/release/bench/dmconf_bench                       # 5 repetitions, medians
//   build/release/bench/dmconf_bench --benchmark_repetitions=9 --benchmark_filter=Depth
//
// Per case, three benchmarks:
//   memcpy/<case>   memcpy of the output's byte count between two preallocated buffers;
//   <case>/reuse    dmconf::Evaluate with EvalOptions::output_storage (the output buffer is
//                   allocated once, outside the timing; validation is inside);
//   <case>/alloc    plain dmconf::Evaluate: a fresh, zero-filled output every time;
//   memcpy_fresh/<case>  its baseline: memcpy into a buffer allocated inside the timing.
// The input tensor is built once, outside the timing.
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench/bench_cases.h"
#include "bench/ratio_reporter.h"
#include "benchmark/benchmark.h"
#include "oracle/oracle.h"

namespace dmconf::bench {
namespace {

int64_t OutputBytes(const OpCase& c) {
  absl::StatusOr<Validation> v = Validate(c);
  if (!v.ok() || v->kind() != ExpectationKind::kValid) return -1;
  return *CheckedProduct(v->output_shape) * 4;
}

void Memcpy(benchmark::State& state, int64_t bytes) {
  // Both buffers are touched before timing, as the oracle's input and reused output are.
  std::vector<uint8_t> src(static_cast<size_t>(bytes), 1), dst(static_cast<size_t>(bytes), 2);
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), src.size());
    benchmark::DoNotOptimize(dst.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}

// The fair baseline of <case>/alloc: memcpy into a buffer allocated (not initialised) inside
// the timing, so it pays the same page faults as a fresh output tensor.
void MemcpyFresh(benchmark::State& state, int64_t bytes) {
  std::vector<uint8_t> src(static_cast<size_t>(bytes), 1);
  for (auto _ : state) {
    std::unique_ptr<uint8_t[]> dst(new uint8_t[static_cast<size_t>(bytes)]);
    std::memcpy(dst.get(), src.data(), src.size());
    benchmark::DoNotOptimize(dst.get());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}

void EvaluateReuse(benchmark::State& state, const OpCase* c, int64_t bytes) {
  std::vector<uint8_t> storage(static_cast<size_t>(bytes), 0xA5);
  EvalOptions o;
  o.output_storage = &storage;
  // Once outside the timing: the reused path must give the plain path's tensor.
  absl::StatusOr<Expectation> fresh = Evaluate(*c);
  absl::StatusOr<Expectation> reused = Evaluate(*c, o);
  if (!fresh.ok() || !reused.ok() || !fresh->output || !reused->output ||
      *fresh->output != *reused->output) {
    state.SkipWithError("the reused-output evaluation differs from the plain one");
    return;
  }
  fresh = absl::UnknownError("released");
  storage = std::move(reused->output->bytes);
  for (auto _ : state) {
    absl::StatusOr<Expectation> e = Evaluate(*c, o);
    benchmark::DoNotOptimize(e->output->bytes.data());
    storage = std::move(e->output->bytes);
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}

void EvaluateAlloc(benchmark::State& state, const OpCase* c, int64_t bytes) {
  for (auto _ : state) {
    absl::StatusOr<Expectation> e = Evaluate(*c);
    benchmark::DoNotOptimize(e->output->bytes.data());
  }
  state.SetBytesProcessed(state.iterations() * bytes);
}

bool HasFlag(int argc, char** argv, const char* prefix) {
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], prefix, std::strlen(prefix)) == 0) return true;
  }
  return false;
}

}  // namespace
}  // namespace dmconf::bench

int main(int argc, char** argv) {
  using namespace dmconf::bench;  // NOLINT
  // Defaults that make the numbers usable on a shared machine: repetitions, medians.
  std::vector<char*> args(argv, argv + argc);
  std::string reps = "--benchmark_repetitions=5", aggr = "--benchmark_display_aggregates_only=true";
  std::string min_time = "--benchmark_min_time=0.3";
  if (!HasFlag(argc, argv, "--benchmark_repetitions")) args.push_back(reps.data());
  if (!HasFlag(argc, argv, "--benchmark_display_aggregates_only")) args.push_back(aggr.data());
  if (!HasFlag(argc, argv, "--benchmark_min_time")) args.push_back(min_time.data());
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 1;

  static const std::vector<BenchCase> cases = MakeBenchCases();
  std::vector<std::string> names;
  for (const BenchCase& bc : cases) {
    const int64_t bytes = OutputBytes(bc.op_case);
    if (bytes < 0) {
      std::fprintf(stderr, "benchmark case %s is not valid\n", bc.name.c_str());
      return 1;
    }
    names.push_back(bc.name);
    benchmark::RegisterBenchmark(("memcpy/" + bc.name).c_str(), Memcpy, bytes)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((bc.name + "/reuse").c_str(), EvaluateReuse, &bc.op_case, bytes)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("memcpy_fresh/" + bc.name).c_str(), MemcpyFresh, bytes)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((bc.name + "/alloc").c_str(), EvaluateAlloc, &bc.op_case, bytes)
        ->Unit(benchmark::kMillisecond);
  }
  RatioReporter reporter(names);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
