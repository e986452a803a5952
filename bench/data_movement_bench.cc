// Times the oracle's Evaluate() on the five data-movement ops (64 MiB inputs) against a
// memcpy of each output's bytes, and prints the ratios (docs/performance.md).
//
//   build/release/bench/dmconf_bench                       # every case, 5 repetitions, medians
//   build/release/bench/dmconf_bench --types=f32,u1 --benchmark_filter=Depth
//   build/release/bench/dmconf_bench --interleaved=7 --threads=2 --types=f32
//
// Google Benchmark mode (the default), per case, one thread, four benchmarks:
//   memcpy/<case>   memcpy of the output's byte count between two preallocated buffers;
//   <case>/reuse    dmconf::Evaluate with EvalOptions::output_storage (the output buffer is
//                   allocated once, outside the timing; validation is inside);
//   <case>/alloc    plain dmconf::Evaluate: a fresh, zero-filled output every time;
//   memcpy_fresh/<case>  its baseline: memcpy into a buffer allocated inside the timing.
// Interleaved mode (--interleaved=R): per case, R rounds of [memcpy split between --threads
// threads, memcpy, Evaluate with 1 thread, Evaluate with --threads threads] (the reuse
// variants), each timed once per round with std::chrono::steady_clock; prints the minimum of
// each over the rounds, the ratios of the minima to the memcpy minimum, the speed-up of
// --threads over 1 thread, and the same speed-up for memcpy (mcpy1/N: what the machine gave
// N threads at the time, the ceiling for a copy bound by memory bandwidth). On a loaded machine
// the minimum is the least disturbed run of each, and interleaving exposes memcpy and the op
// to the same load. It also prints the machine (processor, load average at the start and the
// end) and which cases miss the speed targets of docs/performance.md.
// --types=LIST (f32,u1,u4,u8,f16,f64; default all) selects the element types; --cases=REGEX
// (interleaved mode) the cases by name. The input tensors are built once, outside the timing.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "bench/bench_cases.h"
#include "bench/ratio_reporter.h"
#include "benchmark/benchmark.h"
#include "oracle/oracle.h"
#include "oracle/primitives/parallel.h"

namespace dmconf::bench {
namespace {

int64_t OutputBytes(const OpCase& c) {
  absl::StatusOr<Validation> v = Validate(c);
  if (!v.ok() || v->kind() != ExpectationKind::kValid) return -1;
  return *PackedByteSize(c.data.type, *CheckedProduct(v->output_shape));
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

// Removes "--name=value" from args and returns value (or `fallback` when absent).
std::string TakeFlag(std::vector<char*>* args, const char* name, std::string fallback) {
  const std::string prefix = std::string("--") + name + "=";
  for (auto it = args->begin() + 1; it != args->end(); ++it) {
    if (std::strncmp(*it, prefix.c_str(), prefix.size()) == 0) {
      std::string value = *it + prefix.size();
      args->erase(it);
      return value;
    }
  }
  return fallback;
}

double Seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

// The first "model name" of /proc/cpuinfo and the 1-minute load average of /proc/loadavg, for
// the record of a run ("unknown" where a file is absent).
std::string ProcField(const char* path, const char* key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (key == nullptr) return line.substr(0, line.find(' '));
    if (line.rfind(key, 0) == 0 && line.find(':') != std::string::npos) {
      return line.substr(line.find(':') + 2);
    }
  }
  return "unknown";
}
std::string CpuModel() { return ProcField("/proc/cpuinfo", "model name"); }
std::string LoadAverage() { return ProcField("/proc/loadavg", nullptr); }

// The speed targets of docs/performance.md: one thread within 1.25x a memcpy of the output for
// elements of a byte or more and within 3x for sub-byte ones; 2 threads at least 1.7x faster
// than one.
struct Targets {
  int cases = 0;
  std::vector<std::string> missed;
  void Check(const BenchCase& bc, double t1_m, double t1_tN, double m_mN, int threads) {
    ++cases;
    const double limit = BitWidth(bc.op_case.data.type) < 8 ? 3.0 : 1.25;
    char line[200];
    if (t1_m > limit) {
      std::snprintf(line, sizeof(line), "%s: t1/mcpy %.2fx, above %.2fx", bc.name.c_str(), t1_m,
                    limit);
      missed.push_back(line);
    }
    if (threads == 2 && t1_tN < 1.7) {
      std::snprintf(line, sizeof(line), "%s: t1/tN %.2fx, below 1.70x (memcpy: %.2fx)",
                    bc.name.c_str(), t1_tN, m_mN);
      missed.push_back(line);
    }
  }
  void Print(int threads) const {
    std::printf("targets: t1/mcpy <= 1.25x (elements of a byte or more), <= 3x (sub-byte)%s\n",
                threads == 2 ? "; t1/tN >= 1.70x" : " (t1/tN is judged with --threads=2 only)");
    for (const std::string& m : missed) std::printf("  missed: %s\n", m.c_str());
    std::printf("targets: %zu missed in %d cases\n", missed.size(), cases);
  }
};

// Interleaved mode: see the header. Returns 1 when an evaluation fails or differs.
int RunInterleaved(const std::vector<BenchCase>& cases, int rounds, int threads,
                   const std::regex& select) {
  using Clock = std::chrono::steady_clock;
  std::printf("machine: %s, %u hardware threads; load average (1 min) %s\n", CpuModel().c_str(),
              std::thread::hardware_concurrency(), LoadAverage().c_str());
  Targets targets;
  std::printf(
      "Interleaved: %d rounds of [memcpy on %d threads, memcpy, Evaluate 1 thread, Evaluate %d "
      "threads]; minimum of each, ratios of minima\n",
      rounds, threads, threads);
  std::printf("%-36s %10s %10s %10s %8s %8s %8s %8s\n", "case", "memcpy ms", "t1 ms", "tN ms",
              "t1/mcpy", "tN/mcpy", "t1/tN", "mcpy1/N");
  for (const BenchCase& bc : cases) {
    if (!std::regex_search(bc.name, select)) continue;
    const int64_t bytes = OutputBytes(bc.op_case);
    std::vector<uint8_t> src(static_cast<size_t>(bytes), 1), dst(static_cast<size_t>(bytes), 2);
    std::vector<uint8_t> storage1(static_cast<size_t>(bytes), 0xA5), storageN = storage1;
    EvalOptions o1, oN;
    o1.output_storage = &storage1;
    oN.output_storage = &storageN;
    oN.threads = threads;
    double best_m = 1e30, best_mN = 1e30, best_1 = 1e30, best_N = 1e30;
    for (int r = 0; r < rounds; ++r) {
      // The machine's own ceiling for N threads: memcpy split into N parts on N threads.
      Clock::time_point tm = Clock::now();
      dmconf::ParallelFor(threads, [&](int part) {
        const size_t lo = src.size() * static_cast<size_t>(part) / static_cast<size_t>(threads);
        const size_t hi = src.size() * static_cast<size_t>(part + 1) / static_cast<size_t>(threads);
        std::memcpy(dst.data() + lo, src.data() + lo, hi - lo);
      });
      benchmark::ClobberMemory();
      Clock::time_point t0 = Clock::now();
      std::memcpy(dst.data(), src.data(), src.size());
      benchmark::DoNotOptimize(dst.data());
      benchmark::ClobberMemory();
      Clock::time_point t1 = Clock::now();
      absl::StatusOr<Expectation> e1 = Evaluate(bc.op_case, o1);
      Clock::time_point t2 = Clock::now();
      absl::StatusOr<Expectation> eN = Evaluate(bc.op_case, oN);
      Clock::time_point t3 = Clock::now();
      if (!e1.ok() || !eN.ok() || !e1->output || !eN->output) {
        std::fprintf(stderr, "%s: evaluation failed\n", bc.name.c_str());
        return 1;
      }
      if (r == 0 && *e1->output != *eN->output) {
        std::fprintf(stderr, "%s: %d threads give other bits than 1\n", bc.name.c_str(), threads);
        return 1;
      }
      storage1 = std::move(e1->output->bytes);
      storageN = std::move(eN->output->bytes);
      best_mN = std::min(best_mN, Seconds(t0 - tm));
      best_m = std::min(best_m, Seconds(t1 - t0));
      best_1 = std::min(best_1, Seconds(t2 - t1));
      best_N = std::min(best_N, Seconds(t3 - t2));
    }
    std::printf("%-36s %10.2f %10.2f %10.2f %7.2fx %7.2fx %7.2fx %7.2fx\n", bc.name.c_str(),
                1e3 * best_m, 1e3 * best_1, 1e3 * best_N, best_1 / best_m, best_N / best_m,
                best_1 / best_N, best_m / best_mN);
    std::fflush(stdout);
    targets.Check(bc, best_1 / best_m, best_1 / best_N, best_m / best_mN, threads);
  }
  targets.Print(threads);
  std::printf("load average (1 min) at the end: %s\n", LoadAverage().c_str());
  return 0;
}

// "f32,u1" -> the types; exits on an unknown name.
std::vector<ElementType> ParseTypes(const std::string& list, bool* with_f32) {
  std::vector<ElementType> out;
  *with_f32 = false;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t end = std::min(list.find(',', start), list.size());
    const std::string name = list.substr(start, end - start);
    absl::StatusOr<ElementType> t = ParseElementType(name);
    if (!t.ok()) {
      std::fprintf(stderr, "--types: %s\n", std::string(t.status().message()).c_str());
      std::exit(2);
    }
    if (*t == ElementType::kF32) {
      *with_f32 = true;
    } else {
      out.push_back(*t);
    }
    start = end + 1;
  }
  return out;
}

}  // namespace
}  // namespace dmconf::bench

int main(int argc, char** argv) {
  using namespace dmconf::bench;  // NOLINT
  std::vector<char*> args(argv, argv + argc);
  bool with_f32 = true;
  const std::vector<dmconf::ElementType> widths =
      ParseTypes(TakeFlag(&args, "types", "f32,u1,u4,u8,f16,f64"), &with_f32);
  const int interleaved = std::atoi(TakeFlag(&args, "interleaved", "0").c_str());
  const int threads = std::atoi(TakeFlag(&args, "threads", "2").c_str());
  const std::string select = TakeFlag(&args, "cases", "");
  static std::vector<BenchCase> cases = MakeBenchCases(widths);
  // MakeBenchCases always starts with the ten f32 cases.
  if (!with_f32) cases.erase(cases.begin(), cases.begin() + 10);
  if (interleaved > 0)
    return RunInterleaved(cases, interleaved, std::max(1, threads), std::regex(select));

  // Defaults that make the numbers usable on a shared machine: repetitions, medians.
  std::string reps = "--benchmark_repetitions=5", aggr = "--benchmark_display_aggregates_only=true";
  std::string min_time = "--benchmark_min_time=0.3";
  if (!HasFlag(argc, argv, "--benchmark_repetitions")) args.push_back(reps.data());
  if (!HasFlag(argc, argv, "--benchmark_display_aggregates_only")) args.push_back(aggr.data());
  if (!HasFlag(argc, argv, "--benchmark_min_time")) args.push_back(min_time.data());
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 1;

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
