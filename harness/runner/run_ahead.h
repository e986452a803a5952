// Cases run ahead through a backend that answers many questions per round trip
// (Backend::RunBatch, BatchCapacity() > 1: the isolated worker): the runner and `dmconf fuzz`
// send the next cases of a lane in one batch, then judge each case from the outcome kept here,
// as RunCase / RunShapeCase would have judged it had it asked the backend itself. A case the
// batch did not answer (the worker crashed or hung on an earlier item, or the batch was full)
// has no outcome here: the judge then asks the backend (a fresh worker), and the caller's next
// batch starts with the case after it. Kernel cases: KernelBatches; shape cases: ShapeBatches.
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

#include "absl/types/span.h"
#include "harness/backend/backend.h"

namespace dmconf {

class RunAhead {
 public:
  // Sends the cases in one batch: each case's Run and, when caps.infer_static, its
  // InferStatic (of PartialCase::FromStatic), in the order RunCase asks them. Forgets the last
  // batch. Returns how many cases got their Run answered (a prefix of `cases`).
  size_t Batch(Backend& backend, const Capabilities& caps, absl::Span<const OpCase* const> cases);
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
  // The slot of case i in the batch that answered it, sending a new batch if needed; nullopt
  // for a backend that is not isolated, or a case that does not run (would_run(i) is null).
  template <typename WouldRun>
  std::optional<size_t> Slot(size_t i, size_t total, WouldRun would_run, const Capabilities& caps) {
    if (backend_ == nullptr) return std::nullopt;
    while (cursor_ < cases_.size() && cases_[cursor_] < i) ++cursor_;
    if (cursor_ < cases_.size() && cases_[cursor_] == i && ahead_.HasRun(cursor_)) return cursor_;
    const OpCase* first = would_run(i);
    if (first == nullptr) return std::nullopt;
    const size_t want = BatchCases(caps);
    cases_.assign(1, i);
    pointers_.assign(1, first);
    for (size_t j = i + 1; j < total && j < i + 4 * want && cases_.size() < want; ++j) {
      if (const OpCase* c = would_run(j)) {
        cases_.push_back(j);
        pointers_.push_back(c);
      }
    }
    ahead_.Batch(*backend_, caps, pointers_);
    cursor_ = 0;
    return 0;
  }

 private:
  Backend* backend_;
  RunAhead ahead_;
  std::vector<size_t> cases_;  // the case indices of the last batch, ascending
  std::vector<const OpCase*> pointers_;
  size_t cursor_ = 0;
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
    while (cursor_ < cases_.size() && cases_[cursor_] < i) ++cursor_;
    // Not in the last batch, or in it but not answered (an earlier item ended the worker).
    if (cursor_ >= cases_.size() || cases_[cursor_] != i || !answers_[cursor_].has_value()) {
      const std::optional<BatchItem> first = would_ask(i);
      if (!first.has_value()) return std::nullopt;
      Send(i, total, *first, would_ask);
    }
    std::optional<ShapeOutcome> out = std::move(answers_[cursor_]);
    answers_[cursor_].reset();
    return out;
  }

 private:
  template <typename WouldAsk>
  void Send(size_t i, size_t total, BatchItem first, WouldAsk& would_ask) {
    const size_t want = BatchCases();
    cases_.assign(1, i);
    items_.assign(1, first);
    for (size_t j = i + 1; j < total && j < i + 4 * want && cases_.size() < want; ++j) {
      if (const std::optional<BatchItem> item = would_ask(j)) {
        cases_.push_back(j);
        items_.push_back(*item);
      }
    }
    answers_.assign(items_.size(), std::nullopt);
    backend_->RunBatch(items_,
                       [&](size_t k, BatchAnswer&& a) { answers_[k] = std::move(a.shape); });
    cursor_ = 0;
  }

  Backend* backend_;
  std::vector<size_t> cases_;  // the question indices of the last batch, ascending
  std::vector<BatchItem> items_;
  std::vector<std::optional<ShapeOutcome>> answers_;
  size_t cursor_ = 0;
};

}  // namespace dmconf

#endif  // DMCONF_HARNESS_RUNNER_RUN_AHEAD_H_
