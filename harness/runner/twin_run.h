// Diagnostic twins run through the backend (harness/compare/twin.h): a wrong output whose data
// cannot identify positions, and whose diagnosis names no mistake, is run again as its twins
// (the same op, shape, attributes and element type, self-identifying data) through the same
// route the case took (the isolated worker in a run), and the twins' outputs diagnose it. The
// twins stop at the first one without an output. docs/diagnoses.md.
//
// Example:
//   RunOutcome o = backend.Run(p.c);
//   CaseResult r = Judge(name, p, o, options);
//   DiagnoseByTwins(p, o, [&](const OpCase& t) { return backend.Run(t); }, options, r);
#ifndef DMCONF_HARNESS_RUNNER_TWIN_RUN_H_
#define DMCONF_HARNESS_RUNNER_TWIN_RUN_H_

#include <functional>

#include "harness/backend/backend.h"
#include "harness/runner/runner.h"

namespace dmconf {

using CaseRun = std::function<RunOutcome(const OpCase&)>;

// Replaces r.diagnosis by the twins' when r is a wrong output that asks for twins (WantsTwins)
// and options.diagnose and options.diagnostic_twins are set; `outcome` is the case's own.
// With options.diagnostic_twins, a nan_payload_changed case is run as its twins in either
// mode: when a twin comes back with an element from another place, the NaN was moved, not
// changed in place, and r becomes wrong_values (docs/errata.md D9); the caller then judges
// again whether r fails (its verdict changed).
void DiagnoseByTwins(const PreparedCase& p, const RunOutcome& outcome, const CaseRun& run,
                     const RunOptions& options, CaseResult& r);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_RUNNER_TWIN_RUN_H_
