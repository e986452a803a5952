// The report reader: a `dmconf-report/2` report read one case at a time, what `dmconf report
// html`, `report merge` and `report diff` use, so that their memory does not grow with the
// number of cases. Each case is read by DecodeCase (report_reader.h) as the parser reaches its
// end, and its JSON then dropped; the document without its cases is read by report_head.h.
//
// Limits: before parsing, a scan of the file refuses nesting deeper than kMaxReportDepth
// (report.json.nesting) and a string or number longer than kMaxReportToken bytes
// (report.too_large); while parsing, a case of more than kMaxCaseValues JSON values or a
// document of more than kMaxHeadValues outside its cases (report.too_large). Of a file with
// several faults, the error named is the first of, in this order: the scan's, the parser's
// (report.json.syntax, report.too_large), a duplicate key, the document outside its cases,
// the first bad case.
//
// Example:
//   absl::StatusOr<RunReport> head = StreamReport("s1.json",
//       [&](size_t backend, size_t index, const CaseResult& c) { tally[backend].Add(c); });
//   // head->backends[b].results are empty; a failing case's error names its JSON pointer.
#ifndef DMCONF_HARNESS_REPORT_REPORT_STREAM_H_
#define DMCONF_HARNESS_REPORT_REPORT_STREAM_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "harness/report/run_report.h"

namespace dmconf {

inline constexpr int64_t kMaxReportToken = int64_t{64} << 20;
inline constexpr int64_t kMaxCaseValues = int64_t{1} << 20;
inline constexpr int64_t kMaxHeadValues = int64_t{1} << 20;

// Called for backends[backend].cases[index], in the file's order; `c.known` is valid only
// during the call.
using CaseVisitor = std::function<void(size_t backend, size_t index, const CaseResult& c)>;

// The report without its cases (every backend's results empty), after `visit` saw each of
// them. With `only`, the cases of other backends are skipped unread (for a file read whole
// once already).
absl::StatusOr<RunReport> StreamReport(const std::string& path, const CaseVisitor& visit,
                                       std::optional<size_t> only = std::nullopt);

// The report with its cases in backends[].results (their `known` in `known`), read by
// StreamReport: for tests and tools on small reports; its memory grows with the cases.
absl::StatusOr<RunReport> LoadReport(const std::string& path);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_REPORT_STREAM_H_
