// Where each element of a small wrong output came from: for a layout failure's minimal case
// (its shrunk repro), the data element each output element holds, beside the one it should
// hold. The report carries it (`shrunk.source_map`, docs/report-format.md) and the HTML page
// draws it in place of a heat map that would be solid red.
//
// It is made only when it can be read off the case: a wrong_values result whose output has at
// most kMaxSourceMapElements elements, all of its wrong elements listed, on data that identify
// positions (every element distinct and non-zero, IsPositionEncoded), with at least one wrong
// element holding some data element (an element moved, not a wrong value). The data ops only
// move elements, so an output element's bits equal those of the data element it was copied
// from; the backend's output is the oracle's with the listed wrong elements replaced.
//
// Example:
//   std::optional<CaseResult::Shrunk::SourceMap> m = SourceMapOf(minimal, minimal_result);
//   // m->holds == {0, 4, 1, 5, ...}, m->expected == {0, 1, 4, 5, ...}
#ifndef DMCONF_HARNESS_REPORT_SOURCE_MAP_H_
#define DMCONF_HARNESS_REPORT_SOURCE_MAP_H_

#include <cstdint>
#include <optional>

#include "harness/runner/runner.h"
#include "nlohmann/json.hpp"

namespace dmconf {

inline constexpr int64_t kMaxSourceMapElements = 64;

// `c` is the case that ran and `r` its result.
std::optional<CaseResult::Shrunk::SourceMap> SourceMapOf(const PreparedCase& c,
                                                         const CaseResult& r);

// {"shape", "input_shape", "holds", "expected"} as in the report.
nlohmann::ordered_json SourceMapJson(const CaseResult::Shrunk::SourceMap& m);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_SOURCE_MAP_H_
