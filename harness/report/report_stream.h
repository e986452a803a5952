// A `dmconf-report/2` report read one case at a time: what `dmconf report merge` and
// `report diff` use, so that their memory does not grow with the number of cases. The same
// checks and errors as the report reader (report_reader.h), from the same code: the document
// without its cases is checked and decoded by ParseReport's checks, and each case by DecodeCase
// as the parser reaches its end; the case's JSON is then dropped.
//
// What the streamed reader adds, in place of ParseReport's estimate of what a whole document
// takes (io::CheckRoomToParse): before parsing, a scan of the file refuses nesting deeper than
// kMaxReportDepth (report.json.nesting) and a string or number longer than kMaxReportToken
// bytes (report.too_large); while parsing, a case of more than kMaxCaseValues JSON values or a
// document of more than kMaxHeadValues outside its cases (report.too_large).
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

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_REPORT_STREAM_H_
