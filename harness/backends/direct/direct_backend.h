// The `direct` backend: evaluates valid cases with the direct index formulas of oracle/direct,
// derived independently of the oracle's reshape/transpose primitives; refuses the cases the
// oracle's validation does not find valid (validation is shared: the rules are one table).
//
// Example:
//   std::unique_ptr<Backend> b = MakeDirectBackend();
#ifndef DMCONF_HARNESS_BACKENDS_DIRECT_DIRECT_BACKEND_H_
#define DMCONF_HARNESS_BACKENDS_DIRECT_DIRECT_BACKEND_H_

#include <memory>

#include "harness/backend/backend.h"

namespace dmconf {

std::unique_ptr<Backend> MakeDirectBackend();

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BACKENDS_DIRECT_DIRECT_BACKEND_H_
