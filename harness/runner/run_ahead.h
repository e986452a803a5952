// Cases run ahead through a backend that answers many questions per round trip
// (Backend::RunBatch, BatchCapacity() > 1: the isolated worker): the runner and `dmconf fuzz`
// send the next cases of a lane in one batch, then judge each case from the outcome kept here,
// as RunCase / RunShapeCase would have judged it had it asked the backend itself. A case the
// batch did not answer (the worker crashed or hung on an earlier item, paused the batch to
// have its processes counted, or the batch was full) has no outcome here: the judge then asks
// the backend (a fresh worker after a crash or hang), and the caller's next batch starts with
// the case after it. Kernel cases: KernelBatches; shape cases: ShapeBatches (each keeps its
// last batch in a LaneBatch).
//
// Example:
//   RunAhead ahead;
//   ahead.Batch(isolated, caps, {&a.c, &b.c});
//   CaseResult ra = RunCase(isolated, name, caps, a, options, ahead.TakeRun(0),
//                           ahead.TakeInferred(0));
#ifndef DMCONF_HARNESS_RUNNER_RUN_AHEAD_H_
#define DMCONF_HARNESS_RUNNER_RUN_AHEAD_H_

#include <algorithm>
#include <optional>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/types/span.h"
#include "harness/backend/backend.h"

namespace dmconf {

class RunAhead {
 public:
  // Sends the cases in one batch: each case's Run and, when caps.infer_static, its
  // InferStatic (of PartialCase::FromStatic), in the order RunCase asks them. Forgets the last
  // batch. Returns how many cases got their Run answered (a prefix of `cases`). meanwhile():
  // the caller's work while the backend answers (Backend::RunBatch).
  size_t Batch(
      Backend& backend, const Capabilities& caps, absl::Span<const OpCase* const> cases,
      absl::FunctionRef<void()> meanwhile = [] {});
  // Case k of the last batch: its answered Run / InferStatic, moved out; nullopt when the
  // batch did not answer it.
  std::optional<RunOutcome> TakeRun(size_t k);
  bool HasRun(size_t k) const { return k < runs_.size() && runs_[k].has_value(); }
  std::optional<ShapeOutcome> TakeInferred(size_t k);

 private:
  std::vector<PartialCase> partials_;
  std::vector<BatchItem> items_;
  std::vector<size_t> case_of_item_;
  std::vector<std::optional<RunOutcome>> runs_;
  std::vector<std::optional<ShapeOutcome>> inferred_;
};

// The backend to send batches to: `backend` when it answers many questions per round trip
// (BatchCapacity() > 1), else null (the cases are asked one by one).
inline Backend* BatchingBackend(Backend* backend) {
  return backend != nullptr && backend->BatchCapacity() > 1 ? backend : nullptr;
}

// The last batch of a lane sent ahead: the lane indices it holds, ascending, and their items,
// with a cursor that follows the lane as it asks for index after index. KernelBatches and
// ShapeBatches keep one each.
template <typename Item>
class LaneBatch {
 public:
  // Where index i sits in the last batch, if it does and answered(slot) holds; nullopt when
  // a new batch must start at i. Indices are asked in ascending order.
  template <typename Answered>
  std::optional<size_t> Find(size_t i, Answered answered) {
    while (cursor_ < lanes_.size() && lanes_[cursor_] < i) ++cursor_;
    if (cursor_ < lanes_.size() && lanes_[cursor_] == i && answered(cursor_)) return cursor_;
    return std::nullopt;
  }
  // A new batch: index i with `first`, then up to want - 1 more of the indices after it
  // (below `total`, looking at most 4 * want ahead) for which next(j), a std::optional<Item>,
  // holds an item (nullopt: an index not sent now).
  template <typename Next>
  const std::vector<Item>& Start(size_t i, Item first, size_t total, size_t want, Next next) {
    lanes_.assign(1, i);
    items_.assign(1, std::move(first));
    for (size_t j = i + 1; j < total && j < i + 4 * want && lanes_.size() < want; ++j) {
      if (std::optional<Item> item = next(j)) {
        lanes_.push_back(j);
        items_.push_back(*std::move(item));
      }
    }
    cursor_ = 0;
    return items_;
  }

 private:
  std::vector<size_t> lanes_;  // the lane indices of the last batch, ascending
  std::vector<Item> items_;
  size_t cursor_ = 0;
};

// A lane's cases 0..total) sent ahead to a batching backend (BatchingBackend): when case i is
// to run and no batch answered it, the next batch is case i and the cases after it that would
// run now (would_run(j): the case, or null for one that is skipped or unsupported). A case
// whose verdict no longer needs the answer (its op used up a budget in between) drops it.
class KernelBatches {
 public:
  // backend: the lane's backend; batches only when BatchingBackend() keeps it.
  explicit KernelBatches(Backend* backend) : backend_(BatchingBackend(backend)) {}
  // How many cases one batch holds for a backend of these capabilities (1: no batches).
  size_t BatchCases(const Capabilities& caps) const {
    if (backend_ == nullptr) return 1;
    const size_t items = backend_->BatchCapacity();
    return caps.infer_static ? std::max<size_t>(1, items / 2) : items;
  }
  RunAhead& ahead() { return ahead_; }
  // The slot of case i in the batch that answered it, sending a new batch if needed (and
  // calling meanwhile() while the backend answers it); nullopt for a backend that is not
  // isolated, or a case that does not run (would_run(i) is null).
  template <typename WouldRun>
  std::optional<size_t> Slot(
      size_t i, size_t total, WouldRun would_run, const Capabilities& caps,
      absl::FunctionRef<void()> meanwhile = [] {}) {
    if (backend_ == nullptr) return std::nullopt;
    if (std::optional<size_t> k = batch_.Find(i, [&](size_t k) { return ahead_.HasRun(k); })) {
      return k;
    }
    const OpCase* first = would_run(i);
    if (first == nullptr) return std::nullopt;
    const auto next = [&](size_t j) -> std::optional<const OpCase*> {
      if (const OpCase* c = would_run(j)) return c;
      return std::nullopt;
    };
    ahead_.Batch(*backend_, caps, batch_.Start(i, first, total, BatchCases(caps), next), meanwhile);
    return 0;
  }

 private:
  Backend* backend_;
  RunAhead ahead_;
  LaneBatch<const OpCase*> batch_;
};

// A shape lane's questions 0..total) sent ahead to a batching backend, as KernelBatches sends
// kernel cases: when question i is to be asked and no batch answered it, the next batch is
// question i and the ones after it that would be asked now (would_ask(j): the item, whose
// pointee outlives the batch, or nullopt for a question that is skipped or not asked).
class ShapeBatches {
 public:
  explicit ShapeBatches(Backend* backend) : backend_(BatchingBackend(backend)) {}
  // How many questions one batch holds (1: no batches).
  size_t BatchCases() const { return backend_ == nullptr ? 1 : backend_->BatchCapacity(); }
  // The answer to question i, moved out, sending a new batch if needed (starting at i); nullopt
  // when the backend does not batch or the question is not asked (would_ask(i) is nullopt).
  // Each question is asked for once.
  template <typename WouldAsk>
  std::optional<ShapeOutcome> Answer(size_t i, size_t total, WouldAsk would_ask) {
    if (backend_ == nullptr) return std::nullopt;
    // Not in the last batch, or in it but not answered (an earlier item ended the worker).
    std::optional<size_t> k = batch_.Find(i, [&](size_t k) { return answers_[k].has_value(); });
    if (!k.has_value()) {
      std::optional<BatchItem> first = would_ask(i);
      if (!first.has_value()) return std::nullopt;
      const std::vector<BatchItem>& items = batch_.Start(i, *first, total, BatchCases(), would_ask);
      answers_.assign(items.size(), std::nullopt);
      backend_->RunBatch(items,
                         [&](size_t k, BatchAnswer&& a) { answers_[k] = std::move(a.shape); });
      k = 0;
    }
    std::optional<ShapeOutcome> out = std::move(answers_[*k]);
    answers_[*k].reset();
    return out;
  }

 private:
  Backend* backend_;
  LaneBatch<BatchItem> batch_;
  std::vector<std::optional<ShapeOutcome>> answers_;
};

}  // namespace dmconf

#endif  // DMCONF_HARNESS_RUNNER_RUN_AHEAD_H_
