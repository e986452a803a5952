// The report reader's case: one case object of a `dmconf-report/2` document read into a
// CaseResult by its field list (report_reader.cc, one line per member, each read and checked
// by one call of report_fields.h). The reader itself is report_stream.h, which reads a report
// one case at a time (the only reader: `dmconf report html`, `merge` and `diff` all use it),
// calls DecodeCase on each case and report_head.h on the document around them; the writer is
// report.h, beside it. A report may come from another machine or be edited by hand, so
// everything the reader uses is checked, and every error names a rule (report.*), the file
// and the JSON pointer.
//
// Rules: report.json.syntax (not JSON), report.json.nesting, report.too_large,
// report.duplicate_key (a key twice in one object), report.format (the "format" tag is not
// dmconf-report/2), report.field.missing, report.field.type (a member the reader uses is
// absent or of the wrong JSON type), report.field.value (an op, element type, shard, count,
// rank or bits it cannot take; a shrunk.source_map of more than 64 elements, or whose holds
// and expected differ in length), report.verdict.unknown (a verdict name dmconf does not know).
//
// Example:
//   absl::StatusOr<CaseResult> c = DecodeCase(case_json, at, known);
//   // c.status(): "report.field.type: x.json: /backends/0/cases/3/failure: expected a boolean"
#ifndef DMCONF_HARNESS_REPORT_REPORT_READER_H_
#define DMCONF_HARNESS_REPORT_REPORT_READER_H_

#include <cstdint>
#include <deque>
#include <string>

#include "absl/status/statusor.h"
#include "harness/base/json_location.h"
#include "harness/report/run_report.h"
#include "nlohmann/json.hpp"

namespace dmconf {

// Reports larger than this are refused by their size before they are read.
inline constexpr int64_t kMaxReportFileBytes = int64_t{4} << 30;
// Reports nested deeper than this are refused before they are parsed (report.json.nesting).
inline constexpr int kMaxReportDepth = 64;

// One case object of a report (backends[i].cases[k], at `at`), read and checked; the
// counterpart of CaseJson (report.h), for a reader that takes cases one at a time. Its
// `known` entry, if any, is added to `known`.
absl::StatusOr<CaseResult> DecodeCase(const nlohmann::json& c, const io::JsonLoc& at,
                                      std::deque<KnownFailure>& known);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_REPORT_READER_H_
