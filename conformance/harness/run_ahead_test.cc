// Batches sent ahead (harness/runner/run_ahead.h): which questions a batch holds, which answer
// goes to which question, what happens after a batch that ended early, and that a backend
// which does not batch (BatchCapacity() 1, the Backend default) is asked one question at a
// time. The backend here records every RunBatch call; each answer names its own question (its
// shape is the question's data shape), so a misplaced answer shows.
#include "harness/runner/run_ahead.h"

#include <optional>
#include <vector>

#include "gtest/gtest.h"
#include "harness/backend/backend.h"

namespace dmconf {
namespace {

// Answers InferStatic / InferPartial with the question's own data shape; batches of up to
// `capacity` items; when `stop_at` names an item's first dim, the batch ends after that item
// (as an isolated worker's batch ends at a crash), answered as a crash.
class RecordingBackend : public Backend {
 public:
  explicit RecordingBackend(size_t capacity) : capacity_(capacity) {}
  std::string Name() const override { return "recording"; }
  Capabilities GetCapabilities() const override { return SupportEverything(); }
  RunOutcome Run(const OpCase&) override { return RunOutcome::Of(RunOutcome::Kind::kRejected, ""); }
  ShapeOutcome InferStatic(const PartialCase& c) override {
    ++single_calls;
    return Echo(c);
  }
  ShapeOutcome InferPartial(const PartialCase& c) override {
    ++single_calls;
    return Echo(c);
  }
  size_t BatchCapacity() const override { return capacity_; }
  using Backend::RunBatch;
  size_t RunBatch(absl::Span<const BatchItem> items,
                  absl::FunctionRef<void(size_t, BatchAnswer&&)> done,
                  absl::FunctionRef<void()> meanwhile) override {
    if (capacity_ == 1) return Backend::RunBatch(items, done, meanwhile);
    meanwhile();
    std::vector<int64_t> firsts;
    for (const BatchItem& item : items) firsts.push_back(FirstDim(*item.pc));
    batches.push_back(firsts);
    for (size_t i = 0; i < items.size(); ++i) {
      BatchAnswer a;
      a.shape = Echo(*items[i].pc);
      if (FirstDim(*items[i].pc) == stop_at) {
        a.shape.kind = RunOutcome::Kind::kCrash;
        stop_at = -1;  // the next batch (a fresh worker) answers it
        done(i, std::move(a));
        return i + 1;
      }
      done(i, std::move(a));
    }
    return items.size();
  }

  static int64_t FirstDim(const PartialCase& c) { return (*c.data.dims)[0].lo; }
  static ShapeOutcome Echo(const PartialCase& c) {
    ShapeOutcome o;
    o.shape = c.data;
    return o;
  }

  std::vector<std::vector<int64_t>> batches;  // per RunBatch call, each item's first dim
  int single_calls = 0;
  int64_t stop_at = -1;

 private:
  size_t capacity_;
};

// Question j: a static DepthToSpace case whose first dim is j + 100 (so answers can be told
// apart).
std::vector<PartialCase> Questions(size_t n) {
  std::vector<PartialCase> out;
  for (size_t j = 0; j < n; ++j) {
    OpCase c;
    c.op = Op::kDepthToSpace;
    c.data.shape = {static_cast<int64_t>(j) + 100, 4, 1, 1};
    c.block_size = 2;
    out.push_back(PartialCase::FromStatic(c));
  }
  return out;
}

// Asks every question 0..n) in order through ShapeBatches, question j only when `asked(j)`;
// returns each answer's first dim (-1: the caller would ask alone; -2: a crash answer).
template <typename Asked>
std::vector<int64_t> AskAll(RecordingBackend& b, const std::vector<PartialCase>& q, Asked asked) {
  ShapeBatches batches(&b);
  const auto would_ask = [&](size_t j) -> std::optional<BatchItem> {
    if (!asked(j)) return std::nullopt;
    return BatchItem{BatchItem::Kind::kInferStatic, nullptr, &q[j]};
  };
  std::vector<int64_t> got;
  for (size_t j = 0; j < q.size(); ++j) {
    if (!asked(j)) continue;
    std::optional<ShapeOutcome> a = batches.Answer(j, q.size(), would_ask);
    if (!a.has_value()) {
      got.push_back(-1);
    } else {
      got.push_back(a->kind == RunOutcome::Kind::kCrash ? -2 : (*a->shape.dims)[0].lo);
    }
  }
  return got;
}

TEST(ShapeBatches, EachAnswerGoesToItsOwnQuestionInBatchesOfTheCapacity) {
  RecordingBackend b(4);
  const std::vector<PartialCase> q = Questions(10);
  // Questions 2 and 5 are not asked (skipped or not covered): no batch holds them.
  const auto asked = [](size_t j) { return j != 2 && j != 5; };
  EXPECT_EQ(AskAll(b, q, asked), (std::vector<int64_t>{100, 101, 103, 104, 106, 107, 108, 109}));
  const std::vector<std::vector<int64_t>> want = {{100, 101, 103, 104}, {106, 107, 108, 109}};
  EXPECT_EQ(b.batches, want);
  EXPECT_EQ(b.single_calls, 0);
}

TEST(ShapeBatches, ABatchThatEndedEarlyIsSentAgainFromTheFirstUnansweredQuestion) {
  RecordingBackend b(4);
  b.stop_at = 101;  // the batch ends at question 1, answered as a crash
  const std::vector<PartialCase> q = Questions(6);
  EXPECT_EQ(AskAll(b, q, [](size_t) { return true; }),
            (std::vector<int64_t>{100, -2, 102, 103, 104, 105}));
  const std::vector<std::vector<int64_t>> want = {{100, 101, 102, 103}, {102, 103, 104, 105}};
  EXPECT_EQ(b.batches, want);
}

TEST(ShapeBatches, ABackendThatDoesNotBatchIsAskedOneQuestionAtATime) {
  RecordingBackend b(1);
  const std::vector<PartialCase> q = Questions(5);
  // No answer ahead: the judge asks each question itself (RunShapeCase with nullopt).
  EXPECT_EQ(AskAll(b, q, [](size_t) { return true; }), (std::vector<int64_t>(5, -1)));
  EXPECT_TRUE(b.batches.empty());
  EXPECT_EQ(b.single_calls, 0);
}

// The Backend default RunBatch answers every item by its single call, in order.
TEST(BackendRunBatch, TheDefaultAsksEachItemByItsSingleCall) {
  RecordingBackend b(1);
  const std::vector<PartialCase> q = Questions(3);
  std::vector<BatchItem> items;
  for (const PartialCase& pc : q) items.push_back({BatchItem::Kind::kInferPartial, nullptr, &pc});
  std::vector<int64_t> got;
  EXPECT_EQ(b.RunBatch(items,
                       [&](size_t i, BatchAnswer&& a) {
                         EXPECT_EQ(i, got.size());
                         got.push_back((*a.shape.shape.dims)[0].lo);
                       }),
            3u);
  EXPECT_EQ(got, (std::vector<int64_t>{100, 101, 102}));
  EXPECT_EQ(b.single_calls, 3);
}

// KernelBatches batches exactly for a backend that says it batches, by its capacity (half of
// it when each case also carries its static shape question).
TEST(KernelBatches, BatchesByTheBackendsCapacity) {
  RecordingBackend one(1), many(8);
  Capabilities caps = SupportEverything();
  caps.infer_static = false;
  EXPECT_EQ(KernelBatches(&one).BatchCases(caps), 1u);
  EXPECT_EQ(KernelBatches(nullptr).BatchCases(caps), 1u);
  EXPECT_EQ(KernelBatches(&many).BatchCases(caps), 8u);
  caps.infer_static = true;
  EXPECT_EQ(KernelBatches(&many).BatchCases(caps), 4u);
}

}  // namespace
}  // namespace dmconf
