#include "harness/runner/run_ahead.h"

#include <utility>

namespace dmconf {

size_t RunAhead::Batch(Backend& backend, const Capabilities& caps,
                       absl::Span<const OpCase* const> cases, absl::FunctionRef<void()> meanwhile) {
  partials_.clear();
  items_.clear();
  case_of_item_.clear();
  runs_.assign(cases.size(), std::nullopt);
  inferred_.assign(cases.size(), std::nullopt);
  if (caps.infer_static) {
    partials_.reserve(cases.size());  // items_ point into it: no reallocation
    for (const OpCase* c : cases) partials_.push_back(PartialCase::FromStatic(*c));
  }
  for (size_t k = 0; k < cases.size(); ++k) {
    items_.push_back({BatchItem::Kind::kRun, cases[k], nullptr});
    case_of_item_.push_back(k);
    if (caps.infer_static) {
      items_.push_back({BatchItem::Kind::kInferStatic, nullptr, &partials_[k]});
      case_of_item_.push_back(k);
    }
  }
  // One round trip: RunBatch answers a prefix of the items.
  backend.RunBatch(
      items_,
      [&](size_t i, BatchAnswer&& a) {
        const size_t k = case_of_item_[i];
        if (items_[i].kind == BatchItem::Kind::kRun) {
          runs_[k] = std::move(a.run);
        } else {
          inferred_[k] = std::move(a.shape);
        }
      },
      meanwhile);
  size_t answered = 0;
  while (answered < runs_.size() && runs_[answered].has_value()) ++answered;
  return answered;
}

std::optional<RunOutcome> RunAhead::TakeRun(size_t k) {
  if (k >= runs_.size()) return std::nullopt;
  std::optional<RunOutcome> out = std::move(runs_[k]);
  runs_[k].reset();
  return out;
}

std::optional<ShapeOutcome> RunAhead::TakeInferred(size_t k) {
  if (k >= inferred_.size()) return std::nullopt;
  std::optional<ShapeOutcome> out = std::move(inferred_[k]);
  inferred_[k].reset();
  return out;
}

}  // namespace dmconf
