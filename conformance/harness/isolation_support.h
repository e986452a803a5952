// What the isolation tests share: cases, batch items, and a lane's way of asking them.
#ifndef DMCONF_CONFORMANCE_HARNESS_ISOLATION_SUPPORT_H_
#define DMCONF_CONFORMANCE_HARNESS_ISOLATION_SUPPORT_H_

#include <cstdint>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/types/span.h"
#include "harness/backend/backend.h"
#include "harness/isolation/worker.h"

namespace dmconf {

IsolationOptions Timeout(double seconds);

// A DepthToSpace f32 case [1, block^2, 1, 1], elements 1, 2, ...
OpCase D2s(int64_t block);

// A kernel run of each case, as batch items (pointing into `cases`).
std::vector<BatchItem> RunItems(const std::vector<OpCase>& cases);

// Whether an answer ended the worker (its crash, hang or death out of memory).
bool EndedTheWorker(const BatchItem& item, const BatchAnswer& a);

// Asks the items through b's batches as a lane does: what a batch left unanswered goes again in
// the next (the worker pauses a batch after an item during which a PID was allocated, by any
// process of this machine), until each item is answered or one ends the worker. Calls done(i,
// answer) for each answer, meanwhile() once per batch sent. Returns how many were answered.
size_t AskAll(
    IsolatedBackend& b, absl::Span<const BatchItem> items,
    absl::FunctionRef<void(size_t, BatchAnswer&&)> done,
    absl::FunctionRef<void()> meanwhile = [] {});

}  // namespace dmconf

#endif  // DMCONF_CONFORMANCE_HARNESS_ISOLATION_SUPPORT_H_
