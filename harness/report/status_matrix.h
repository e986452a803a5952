// The implementation-status matrix of one backend's run: per op x element type x rank x lane,
// whether the backend implements that cell (its cases ran and passed), does not (none ran:
// every case unsupported) or gets it wrong (a case failed, new or known). Written in the run
// report (`backends[].status_matrix`, docs/report-format.md), shown on the HTML page, and in
// the conformance statement (certificate.h, docs/certify.md): one computation for all three.
//
// The lane is "kernel" for a kernel case and "shape" for a case of the shape-inference lane
// (static and partial together); the rank is the data's, -1 for a shape case of unknown rank.
//
// Example:
//   nlohmann::ordered_json m = StatusMatrixJson(run);
//   // [{"op":"DepthToSpace","element_type":"f32","rank":4,"lane":"kernel",
//   //   "status":"implemented","cases":12}, ...]
#ifndef DMCONF_HARNESS_REPORT_STATUS_MATRIX_H_
#define DMCONF_HARNESS_REPORT_STATUS_MATRIX_H_

#include <cstdint>

#include "harness/runner/case_tally.h"
#include "harness/runner/runner.h"
#include "nlohmann/json.hpp"

namespace dmconf {

// One {op, element_type, rank, lane, status, cases} per cell that has a case, sorted by op,
// element type, rank and lane (the enums' order).
// (StatusCell, the cells, in case_tally.h.)
nlohmann::ordered_json StatusMatrixJson(const BackendRun& run);
nlohmann::ordered_json StatusMatrixJson(const StatusCells& cells);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_STATUS_MATRIX_H_
