// The report reader's second half (report_reader.cc is the first): a document whose shape
// CheckReportDocument has checked, turned into a RunReport. Internal to harness/report.
//
// Rules: report.field.missing / report.field.type (a member only this half reads: the
// capabilities, the mutants, a shrunk case's attempts), report.field.value (an op, element
// type or shard it does not know, bits that are not hex, a negative count or rank, a slice
// list that does not follow capabilities.ops), report.verdict.unknown.
#ifndef DMCONF_HARNESS_REPORT_REPORT_DECODE_H_
#define DMCONF_HARNESS_REPORT_REPORT_DECODE_H_

#include <deque>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "harness/base/json_location.h"
#include "harness/report/run_report.h"
#include "nlohmann/json.hpp"

namespace dmconf::report_internal {

// The checks of a parsed document (its format, the members the reader uses and their types,
// each case of backends[].cases: none when the streamed reader has taken them out).
absl::Status CheckReportDocument(const nlohmann::json& j, const io::JsonLoc& root);

// `j` must have passed CheckReportDocument.
absl::Status DecodeCheckedReport(const nlohmann::json& j, const io::JsonLoc& root, RunReport& out);

// One case that passed CheckCase; its `known` entry, if any, is added to `known`.
absl::StatusOr<CaseResult> DecodeCheckedCase(const nlohmann::json& c, const io::JsonLoc& at,
                                             std::deque<KnownFailure>& known);

}  // namespace dmconf::report_internal

#endif  // DMCONF_HARNESS_REPORT_REPORT_DECODE_H_
