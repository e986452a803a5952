#include "harness/runner/parallel_lanes.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <latch>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "harness/isolation/fork_gate.h"
#include "harness/isolation/worker.h"
#include "harness/runner/budget.h"
#include "harness/runner/run_ahead.h"
#include "harness/runner/whole_cases.h"

namespace dmconf {

namespace {

// Chunks per job: enough that a job whose chunks are slow (hangs) leaves the rest to the
// others, few enough that each chunk fills the worker's batches.
constexpr size_t kChunksPerJob = 8;
constexpr size_t kMinChunkCases = 16;

// Per op, the first lane index at which some chunk used up a budget (SIZE_MAX: none yet).
class SharedBudgets {
 public:
  SharedBudgets() {
    for (std::atomic<size_t>& a : first_) a.store(SIZE_MAX);
  }
  // Whether case i of `op` comes after a used-up budget of its op: the sequential run skips it.
  bool Skips(Op op, size_t i) const { return i > first_[Slot(op)].load(); }
  void Record(Op op, size_t i) {
    std::atomic<size_t>& a = first_[Slot(op)];
    size_t seen = a.load();
    while (i < seen && !a.compare_exchange_weak(seen, i)) {
    }
  }

 private:
  static size_t Slot(Op op) { return static_cast<size_t>(op) % 8; }
  std::array<std::atomic<size_t>, 8> first_;
};

// What the threads share: the lane (kernel cases [0, total), then shape cases), the results
// (each written by the thread that runs its chunk), the chunks not yet taken and the progress.
struct Lanes {
  Lanes(const std::string& name, const CaseList& cases, size_t total, const RunOptions& options,
        BackendRun& run)
      : name(name), cases(cases), total(total), options(options), run(run) {}
  const std::string& name;
  const CaseList& cases;
  size_t total;  // kernel cases
  const RunOptions& options;
  BackendRun& run;
  size_t n = 0;      // kernel and shape cases
  size_t chunk = 1;  // cases per chunk
  std::atomic<size_t> next_chunk{0};
  SharedBudgets budgets;
  // Bit i % 64 of word i / 64 set: case i was not run (its op's budget was used up). A bit a
  // case, not a byte (a run of 10^7 cases), set atomically: two chunks may share a word.
  std::unique_ptr<std::atomic<uint64_t>[]> skipped;
  std::mutex progress_mutex;
  size_t done = 0;

  // Lane index i's shape case in options.shape_cases (i >= total).
  size_t ShapeIndex(size_t i) const { return run.shape_case_index[i - total]; }
  const ShapeCaseList& Shapes() const { return *options.shape_cases; }
  Op OpOf(size_t i) const {
    return i < total ? KernelOpOf(run, cases, i) : Shapes().OpAt(ShapeIndex(i));
  }
  void MarkSkipped(size_t i) {
    skipped[i / 64].fetch_or(uint64_t{1} << (i % 64), std::memory_order_relaxed);
  }
  // (Read once every job has ended.)
  bool Skipped(size_t i) const {
    return (skipped[i / 64].load(std::memory_order_relaxed) >> (i % 64) & 1) != 0;
  }
  void Progress(const CaseResult& r) {
    if (!options.progress) return;
    const std::lock_guard<std::mutex> lock(progress_mutex);
    options.progress(++done, n, r);
  }
};

// Kernel case i of a chunk that ends at `end`, made whole and run through the job's batches
// (run_ahead.h: the case and the ones after it that would run now); `streaks` are the chunk's.
CaseResult RunKernelCase(Lanes& l, Backend& backend, KernelBatches& batches, WholeCases& whole,
                         size_t i, size_t end, std::map<Op, Streak>& streaks) {
  const Capabilities& caps = l.run.capabilities;
  const auto would_run = [&](size_t j) -> const OpCase* {
    const PreparedCase& q = whole.At(j);
    return ShouldRun(backend, caps, q.c) && !streaks[q.c.op].Exhausted(l.options) &&
                   !l.budgets.Skips(q.c.op, j)
               ? &q.c
               : nullptr;
  };
  whole.Forget(i);
  const PreparedCase& p = whole.At(i);
  const std::optional<size_t> k = batches.Slot(i, std::min(end, l.total), would_run, caps);
  return k.has_value() ? RunCase(backend, l.name, caps, p, l.options, batches.ahead().TakeRun(*k),
                                 batches.ahead().TakeInferred(*k))
                       : RunCase(backend, l.name, caps, p, l.options);
}

// Shape case i of a chunk that ends at `end`, made whole (WholeShapeCases) and its question
// sent ahead in batches (ShapeBatches); `streaks` are the chunk's.
CaseResult RunShapeCaseOf(Lanes& l, Backend& backend, ShapeBatches& batches, WholeShapeCases& whole,
                          size_t i, size_t end, std::map<Op, Streak>& streaks) {
  const auto would_ask = [&](size_t j) -> std::optional<BatchItem> {
    const Op op = l.OpOf(j);
    if (streaks[op].Exhausted(l.options) || l.budgets.Skips(op, j)) return std::nullopt;
    return ShapeQuestion(l.run.capabilities, whole.At(j));
  };
  whole.Forget(i);
  const PreparedShapeCase& p = whole.At(i);
  return RunShapeCase(backend, l.name, l.run.capabilities, p, l.options,
                      batches.Answer(i, end, would_ask));
}

// The batches of one job's worker (kernel cases and shape questions), and the job's kernel
// cases made whole.
struct JobBatches {
  JobBatches(Backend* backend, const Lanes& l)
      : kernel(backend),
        shape(backend),
        whole(l.run, l.cases, l.options),
        whole_shapes(l.run, l.total, l.options) {}
  KernelBatches kernel;
  ShapeBatches shape;
  WholeCases whole;
  WholeShapeCases whole_shapes;
};

// Cases [begin, end) with chunk-local streaks; a case whose op used up a budget (in this chunk
// or, before it, in another) is marked skipped, its result left to ReplayBudgets.
void RunChunk(Lanes& l, Backend& backend, JobBatches& batches, size_t begin, size_t end) {
  std::map<Op, Streak> streaks;
  ResultList::Writer results(l.run.results);  // this chunk's: a passing result may be spooled
  for (size_t i = begin; i < end; ++i) {
    const Op op = l.OpOf(i);
    Streak& streak = streaks[op];
    CaseResult r;
    if (streak.Exhausted(l.options) || l.budgets.Skips(op, i)) {
      l.MarkSkipped(i);
      // (An unheld case is not made for its id: ReplayBudgets writes every skipped result.)
      if (i < l.total) {
        r.id = CaseOf(l.run, l.cases, i).c.id;
      } else if (const PreparedShapeCase* p = l.Shapes().Held(l.ShapeIndex(i))) {
        r.id = p->s.id;
      }
      r.op = op;
      r.verdict = Verdict::kSkippedAfterHangs;  // a placeholder for the progress display
    } else {
      r = i < l.total
              ? RunKernelCase(l, backend, batches.kernel, batches.whole, i, end, streaks)
              : RunShapeCaseOf(l, backend, batches.shape, batches.whole_shapes, i, end, streaks);
      streak.Count(r);
      if (streak.Exhausted(l.options)) l.budgets.Record(op, i);
    }
    l.Progress(r);
    results.Put(i, std::move(r));
  }
}

// A job: takes the next chunk until none is left.
void RunChunks(Lanes& l, Backend& backend) {
  JobBatches batches(&backend, l);
  for (;;) {
    const size_t begin = l.next_chunk.fetch_add(1) * l.chunk;
    if (begin >= l.n) return;
    RunChunk(l, backend, batches, begin, std::min(l.n, begin + l.chunk));
  }
}

// The sequential run's budgets replayed over the results in case order (the kernel lane's,
// then the shape lane's): each case the sequential run skips gets its skip result.
void ReplayBudgets(Lanes& l, Backend& first) {
  std::map<Op, Streak> streaks;
  for (size_t i = 0; i < l.n; ++i) {
    Streak& streak = streaks[l.OpOf(i)];
    std::optional<CaseResult> skip;
    if (i < l.total) {
      // The case is read (an unheld one made again) only for a skip.
      if (streak.Exhausted(l.options)) {
        skip = WithKernelCase(l.run, l.cases, i, l.options, [&](const PreparedCase& p) {
          return SkipKernelAfterBudget(l.name, streak, p, l.options);
        });
      }
    } else if (streak.Exhausted(l.options)) {
      skip = WithShapeCase(l.Shapes(), l.ShapeIndex(i), l.options, [&](const PreparedShapeCase& p) {
        return SkipShapeAfterBudget(l.name, streak, p, l.options);
      });
      if (skip.has_value()) {
        skip->lane = *ShapeLaneOf(l.run.capabilities, l.Shapes().IsStatic(l.ShapeIndex(i)));
      }
    }
    if (skip.has_value()) {
      l.run.results.Set(i, *std::move(skip));
      continue;
    }
    if (l.Skipped(i)) {
      // Never taken (see parallel_lanes.h): were it, the case runs here, as it would have.
      l.run.results.Set(
          i, i < l.total
                 ? RunCase(first, l.name, l.run.capabilities,
                           WholeCaseOf(l.run, l.cases, i, l.options), l.options)
                 : WithShapeCase(
                       l.Shapes(), l.ShapeIndex(i), l.options, [&](const PreparedShapeCase& p) {
                         return RunShapeCase(first, l.name, l.run.capabilities, p, l.options);
                       }));
    }
    // (A spooled result is a pass: it ends both streaks, its id not needed.)
    if (const CaseResult* held = l.run.results.Held(i)) {
      streak.Count(*held);
    } else {
      CaseResult passed;
      passed.verdict = l.run.results.VerdictAt(i);
      streak.Count(passed);
    }
  }
}

}  // namespace

void RunLanes(Backend& first, const std::string& name, const BackendFactory& factory,
              const CaseList& cases, size_t total, int jobs_wanted, const RunOptions& options,
              BackendRun& run) {
  Lanes l(name, cases, total, options, run);
  l.n = total + run.shape_case_index.size();
  const size_t jobs = static_cast<size_t>(std::max(jobs_wanted, 1));
  // One job: the whole lane is one chunk, its streaks those of the sequential run.
  l.chunk = jobs == 1 ? std::max<size_t>(l.n, 1)
                      : std::max(kMinChunkCases,
                                 (l.n + jobs * kChunksPerJob - 1) / (jobs * kChunksPerJob));
  l.skipped = std::make_unique<std::atomic<uint64_t>[]>((l.n + 63) / 64);  // all 0
  run.results.resize(l.n);
  const size_t chunks = (l.n + l.chunk - 1) / l.chunk;
  std::vector<int> starts(jobs, 0);
  std::vector<std::vector<std::string>> errors(jobs);  // each job's worker errors
  const size_t thread_count = std::max<size_t>(std::min(jobs, chunks), 1) - 1;  // no case: 0
  std::vector<std::thread> threads;
  threads.reserve(thread_count);
  // Each job forks its workers while the others work: every thread is busy at the fork gate
  // for all it does (isolation/fork_gate.h), and no thread ends, freeing its memory, until
  // every job is done and nothing forks any more.
  std::latch jobs_done(static_cast<std::ptrdiff_t>(thread_count) + 1);
  {
    const ForkGate::Busy busy;
    for (size_t t = 1; t <= thread_count; ++t) {
      threads.emplace_back([&, t] {
        {
          const ForkGate::Busy job_busy;
          IsolatedBackend backend(name, factory, IsolationFor(options));
          // Started as the first one was (capabilities asked); a worker that does not start
          // leaves its chunks to the others.
          backend.GetCapabilities();
          if (backend.StartupError().empty()) RunChunks(l, backend);
          starts[t] = backend.starts();
          errors[t] = backend.TakeUnattributedErrors();
        }
        jobs_done.arrive_and_wait();
      });
    }
    RunChunks(l, first);
  }
  jobs_done.count_down();
  for (std::thread& t : threads) t.join();
  ReplayBudgets(l, first);
  for (int s : starts) run.worker_starts += s;
  for (std::vector<std::string>& e : errors) {
    for (std::string& line : e) run.worker_errors.push_back(std::move(line));
  }
}

}  // namespace dmconf
