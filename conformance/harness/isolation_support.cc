#include "conformance/harness/isolation_support.h"

#include <utility>

namespace dmconf {

IsolationOptions Timeout(double seconds) {
  IsolationOptions o;
  o.timeout_seconds = seconds;
  return o;
}

OpCase D2s(int64_t block) {
  OpCase c;
  c.op = Op::kDepthToSpace;
  c.data =
      *MakeTensor(ElementType::kF32, {1, block * block, 1, 1}, [](int64_t i) { return i + 1; });
  c.block_size = block;
  c.mode = "blocks_first";
  return c;
}

std::vector<BatchItem> RunItems(const std::vector<OpCase>& cases) {
  std::vector<BatchItem> items;
  for (const OpCase& c : cases) items.push_back({BatchItem::Kind::kRun, &c, nullptr});
  return items;
}

bool EndedTheWorker(const BatchItem& item, const BatchAnswer& a) {
  const RunOutcome::Kind k = item.kind == BatchItem::Kind::kRun ? a.run.kind : a.shape.kind;
  return k == RunOutcome::Kind::kCrash || k == RunOutcome::Kind::kHang ||
         k == RunOutcome::Kind::kOutOfMemory;
}

size_t AskAll(IsolatedBackend& b, absl::Span<const BatchItem> items,
              absl::FunctionRef<void(size_t, BatchAnswer&&)> done,
              absl::FunctionRef<void()> meanwhile) {
  size_t next = 0;
  bool ended = false;
  while (next < items.size() && !ended) {
    const size_t first = next;
    next += b.RunBatch(
        items.subspan(first),
        [&](size_t i, BatchAnswer&& a) {
          ended = EndedTheWorker(items[first + i], a);
          done(first + i, std::move(a));
        },
        meanwhile);
  }
  return next;
}

}  // namespace dmconf
