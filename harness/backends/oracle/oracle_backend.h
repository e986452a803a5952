// The oracle as a backend: valid cases give the oracle's output, must_reject and unspecified
// cases are refused with the deciding rule's message. Supports every op, type, rank and mode.
//
// Example:
//   std::unique_ptr<Backend> b = MakeOracleBackend();
//   RunOutcome o = b->Run(c);
#ifndef DMCONF_HARNESS_BACKENDS_ORACLE_ORACLE_BACKEND_H_
#define DMCONF_HARNESS_BACKENDS_ORACLE_ORACLE_BACKEND_H_

#include <memory>

#include "harness/backend/backend.h"

namespace dmconf {

std::unique_ptr<Backend> MakeOracleBackend();

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BACKENDS_ORACLE_ORACLE_BACKEND_H_
