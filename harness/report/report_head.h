// The report reader's document outside the cases: format, run, options, summary, each
// backend (capabilities, totals, counts, status matrix, slices), mutation, stale expectations
// and file errors, read and checked member by member by one field list (report_fields.h), as
// report_reader.cc reads a case. Internal to harness/report; report_stream.h calls it once
// the parse has taken the cases out.
//
// Rules: report.format (the "format" tag is not dmconf-report/2), report.field.missing,
// report.field.type, report.field.value (a shard, count, rank or op it cannot take; a slice
// list that does not follow capabilities.ops), report.verdict.unknown.
#ifndef DMCONF_HARNESS_REPORT_REPORT_HEAD_H_
#define DMCONF_HARNESS_REPORT_REPORT_HEAD_H_

#include "absl/status/status.h"
#include "harness/base/json_location.h"
#include "harness/report/run_report.h"
#include "nlohmann/json.hpp"

namespace dmconf::report_internal {

// `head` is a parsed report whose backends[].cases the streamed reader has taken out (what is
// left of each is read as a list, not decoded). Fills `out` but its backends' results.
absl::Status ReadReportHead(const nlohmann::json& head, const io::JsonLoc& root, RunReport& out);

}  // namespace dmconf::report_internal

#endif  // DMCONF_HARNESS_REPORT_REPORT_HEAD_H_
