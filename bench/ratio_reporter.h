// A console reporter that also prints, at the end, each op's time as a ratio to the memcpy of
// its output bytes, from the medians of the repetitions.
//
// Benchmarks are named "memcpy/<case>", "<case>/reuse" and "<case>/alloc"; the summary has one
// row per case. Example of the summary:
//   case                        reuse  alloc   (median real time / median memcpy real time)
//   DepthToSpace/blocks_first   1.12x  2.31x
#ifndef DMCONF_BENCH_RATIO_REPORTER_H_
#define DMCONF_BENCH_RATIO_REPORTER_H_

#include <map>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"

namespace dmconf::bench {

class RatioReporter : public benchmark::ConsoleReporter {
 public:
  // case_names: the <case> part of the names, in the order the summary lists them.
  explicit RatioReporter(std::vector<std::string> case_names)
      : case_names_(std::move(case_names)) {}

  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

 private:
  struct Times {
    double real = 0, cpu = 0;
    double real_cv = 0;  // coefficient of variation of the real time over the repetitions
  };
  std::vector<std::string> case_names_;
  std::map<std::string, Times> medians_;  // by benchmark name
};

}  // namespace dmconf::bench

#endif  // DMCONF_BENCH_RATIO_REPORTER_H_
