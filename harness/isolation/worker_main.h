// The worker process's side of isolation (worker.h): it builds the backend, says it is ready,
// then answers requests until its request pipe closes.
#ifndef DMCONF_HARNESS_ISOLATION_WORKER_MAIN_H_
#define DMCONF_HARNESS_ISOLATION_WORKER_MAIN_H_

#include <cstdint>

#include "harness/backend/backend.h"

namespace dmconf {

// Serves requests read from in_fd, replying on out_fd with every reply framed for `token`
// (worker_protocol.h), until end of file; never returns (it _exits).
[[noreturn]] void WorkerMain(const BackendFactory& factory, int in_fd, int out_fd, uint64_t token);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_ISOLATION_WORKER_MAIN_H_
