// Which backend the differential target drives (set by CMake from the adapters built).
#ifndef DMCONF_FUZZ_TARGETS_BACKEND_DIFF_BACKENDS_H_
#define DMCONF_FUZZ_TARGETS_BACKEND_DIFF_BACKENDS_H_

#include <cstdlib>
#include <memory>
#include <string>

#include "harness/backend/backend.h"
#ifdef DMCONF_FUZZ_HAVE_EIGEN
#include "harness/backends/eigen/eigen_backend.h"
#endif
#ifdef DMCONF_FUZZ_HAVE_XNNPACK
#include "harness/backends/xnnpack/xnnpack_backend.h"
#endif

namespace dmconf {

inline std::unique_ptr<Backend> MakeFuzzBackend() {
  const char* env = std::getenv("DMCONF_FUZZ_BACKEND");
  const std::string want = env ? env : "eigen";
#ifdef DMCONF_FUZZ_HAVE_XNNPACK
  if (want == "xnnpack") return MakeXnnpackBackend();
#endif
#ifdef DMCONF_FUZZ_HAVE_EIGEN
  if (want == "eigen") return MakeEigenBackend();
#endif
  return nullptr;
}

}  // namespace dmconf

#endif  // DMCONF_FUZZ_TARGETS_BACKEND_DIFF_BACKENDS_H_
