// Reading a `dmconf-report/2` document back (for `dmconf report html`): a report may come from
// another machine or be edited by hand, so everything the readers use is checked, and every
// error names a rule (report.*), the file and the JSON pointer.
//
// Rules: report.json.syntax (not JSON), report.duplicate_key (a key twice in one object),
// report.format (the "format" tag is not dmconf-report/2), report.field.missing,
// report.field.type (a member the readers use is absent or of the wrong JSON type),
// report.verdict.unknown (a verdict name dmconf does not know), report.field.value (a
// shrunk.source_map of more than 64 elements, or whose holds and expected differ in length).
//
// Example:
//   absl::StatusOr<nlohmann::json> r = LoadReport("reports/out/report.json");
//   // r.status(): "report.field.type: x.json: /backends/0/cases/3/failure: expected a boolean"
#ifndef DMCONF_HARNESS_REPORT_REPORT_READER_H_
#define DMCONF_HARNESS_REPORT_REPORT_READER_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"

namespace dmconf {

// Reports larger than this are refused by their size before they are read.
inline constexpr int64_t kMaxReportFileBytes = int64_t{4} << 30;
// Reports nested deeper than this are refused before they are parsed (report.json.nesting).
inline constexpr int kMaxReportDepth = 64;

absl::StatusOr<nlohmann::json> ParseReport(absl::string_view text, absl::string_view file);
absl::StatusOr<nlohmann::json> LoadReport(const std::string& path);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_REPORT_READER_H_
