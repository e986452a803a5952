// The kernel cases of a lane as it runs them: a hollow case (PreparedCase::hollow_index, data
// bytes left out so that a large run does not hold every tensor) and an unheld one (case_list.h,
// not held at all) are made whole (WholeCaseOf) when the lane first asks for it, and forgotten
// once the lane has moved past it. Every case a
// backend is asked, judged against or skipped with is whole, so the verdicts are those of a
// run whose cases were all held whole. One per lane (or per job thread).
//
// Example:
//   WholeCases whole(run, cases, options);
//   for (size_t i = 0; i < total; ++i) {
//     whole.Forget(i);
//     const PreparedCase& p = whole.At(i);   // and whole.At(j), j > i, for a batch ahead
//   }
#ifndef DMCONF_HARNESS_RUNNER_WHOLE_CASES_H_
#define DMCONF_HARNESS_RUNNER_WHOLE_CASES_H_

#include <cstddef>
#include <map>
#include <vector>

#include "harness/runner/runner.h"

namespace dmconf {

class WholeCases {
 public:
  WholeCases(const BackendRun& run, const CaseList& cases, const RunOptions& options)
      : run_(run), cases_(cases), options_(options) {}
  // Case i of the lane (CaseOf), whole. The reference holds until Forget(j) with j > i.
  const PreparedCase& At(size_t i);
  // Forgets the whole copies of the cases before i.
  void Forget(size_t i) { made_.erase(made_.begin(), made_.lower_bound(i)); }

 private:
  const BackendRun& run_;
  const CaseList& cases_;
  const RunOptions& options_;
  std::map<size_t, PreparedCase> made_;  // the cases made whole, by lane index
};

// The same for the shape cases of a lane (from lane index `first`, the first after the kernel
// cases): an unheld shape case is made again when the lane first asks for it, and forgotten once
// the lane has moved past it.
class WholeShapeCases {
 public:
  WholeShapeCases(const BackendRun& run, size_t first, const RunOptions& options)
      : run_(run), first_(first), options_(options) {}
  // The shape case of lane index i (>= first), whole. The reference holds until Forget(j),
  // j > i.
  const PreparedShapeCase& At(size_t i);
  // Forgets the cases made before lane index i.
  void Forget(size_t i) { made_.erase(made_.begin(), made_.lower_bound(i)); }

 private:
  const BackendRun& run_;
  size_t first_;
  const RunOptions& options_;
  std::map<size_t, PreparedShapeCase> made_;  // by lane index
};

}  // namespace dmconf

#endif  // DMCONF_HARNESS_RUNNER_WHOLE_CASES_H_
