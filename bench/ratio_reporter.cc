#include "bench/ratio_reporter.h"

#include <cstdio>

namespace dmconf::bench {

void RatioReporter::ReportRuns(const std::vector<Run>& runs) {
  ConsoleReporter::ReportRuns(runs);
  for (const Run& r : runs) {
    const std::string& name = r.run_name.function_name;
    if (r.run_type == Run::RT_Aggregate) {
      if (r.aggregate_name == "median") {
        medians_[name].real = r.GetAdjustedRealTime();
        medians_[name].cpu = r.GetAdjustedCPUTime();
      } else if (r.aggregate_name == "cv") {
        medians_[name].real_cv = r.real_accumulated_time;  // a fraction, not a time
      }
    } else if (r.repetitions <= 1) {
      // Single run (--benchmark_repetitions=1): the run itself stands for the median.
      medians_[name].real = r.GetAdjustedRealTime();
      medians_[name].cpu = r.GetAdjustedCPUTime();
    }
  }
}

void RatioReporter::Finalize() {
  ConsoleReporter::Finalize();
  std::FILE* out = stdout;
  std::fprintf(out,
               "\nRatio to memcpy of the output bytes (median over repetitions; real time, cpu "
               "time in brackets; cv = spread of the op's real time)\n");
  std::fprintf(out, "%-28s %9s %20s %18s %7s %18s\n", "case", "memcpy ms", "reuse (preallocated)",
               "cv", "memcpy_fresh ms", "alloc (fresh)");
  for (const std::string& c : case_names_) {
    auto m = medians_.find("memcpy/" + c);
    auto reuse = medians_.find(c + "/reuse");
    auto fresh = medians_.find("memcpy_fresh/" + c);
    auto alloc = medians_.find(c + "/alloc");
    using It = std::map<std::string, Times>::const_iterator;
    auto cell = [&](It it, It base, char* buf, size_t n) {
      if (it == medians_.end() || base == medians_.end() || base->second.real <= 0 ||
          base->second.cpu <= 0) {
        std::snprintf(buf, n, "-");
      } else {
        std::snprintf(buf, n, "%.2fx (%.2fx)", it->second.real / base->second.real,
                      it->second.cpu / base->second.cpu);
      }
    };
    char a[64], b[64];
    cell(reuse, m, a, sizeof(a));
    cell(alloc, fresh, b, sizeof(b));
    std::fprintf(out, "%-28s %9.2f %20s %6.1f%% %18.2f %18s\n", c.c_str(),
                 m == medians_.end() ? 0.0 : m->second.real, a,
                 reuse == medians_.end() ? 0.0 : 100 * reuse->second.real_cv,
                 fresh == medians_.end() ? 0.0 : fresh->second.real, b);
  }
  std::fflush(out);
}

}  // namespace dmconf::bench
