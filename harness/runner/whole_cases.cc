#include "harness/runner/whole_cases.h"

namespace dmconf {

const PreparedCase& WholeCases::At(size_t i) {
  const bool unheld = i < cases_.size() && cases_.Held(i) == nullptr;
  if (!unheld) {
    const PreparedCase& p = CaseOf(run_, cases_, i);
    if (p.hollow_index < 0) return p;
  }
  auto it = made_.find(i);
  if (it == made_.end()) it = made_.emplace(i, WholeCaseOf(run_, cases_, i, options_)).first;
  return it->second;
}

const PreparedShapeCase& WholeShapeCases::At(size_t i) {
  const ShapeCaseList& shapes = *options_.shape_cases;
  const size_t k = run_.shape_case_index[i - first_];
  if (const PreparedShapeCase* p = shapes.Held(k)) return *p;
  auto it = made_.find(i);
  if (it == made_.end()) it = made_.emplace(i, WholeShapeCaseOf(shapes, k, options_)).first;
  return it->second;
}

}  // namespace dmconf
