// Helpers for testing real backend adapters against the oracle: case builders that are valid
// by construction, a deterministic case set, a comparison that names the first differing
// element, and a forked-child runner for probes that may crash the library.
#ifndef DMCONF_CONFORMANCE_BACKENDS_BACKEND_TEST_UTIL_H_
#define DMCONF_CONFORMANCE_BACKENDS_BACKEND_TEST_UTIL_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "oracle/oracle.h"

namespace dmconf::testing {

// Element i holds bits derived from i (a multiplicative hash), masked to the type's width, with
// the floating-point NaN encodings avoided unless `allow_nan` (NaN payload handling is tested
// separately). Every element of a small tensor is distinct where the width allows.
Tensor PositionTensor(ElementType t, Shape shape, bool allow_nan = false);

OpCase SpaceToBatchCase(Tensor data, std::vector<int64_t> block, std::vector<int64_t> pads_begin,
                        std::vector<int64_t> pads_end);
OpCase BatchToSpaceCase(Tensor data, std::vector<int64_t> block, std::vector<int64_t> crops_begin,
                        std::vector<int64_t> crops_end);
OpCase DepthCase(Op op, Tensor data, int64_t block_size, std::string mode);
OpCase PatchesCase(Tensor data, std::vector<int64_t> sizes, std::vector<int64_t> strides,
                   std::vector<int64_t> rates, std::string auto_pad);

// A deterministic set of valid 4-D cases for `op` (seeded PRNG, valid by construction):
// S2B/B2S block and pad/crop H and W only; S2D/D2S with the given mode; EIP with every auto_pad.
std::vector<OpCase> ValidCases(Op op, ElementType t, int count, uint32_t seed,
                               const std::string& mode = "blocks_first");

// Runs the backend and the oracle; empty when the backend's output is bit-identical to the
// oracle's, else a description of the first difference (or of the non-output outcome).
std::string CompareWithOracle(Backend& backend, const OpCase& c);

// Runs fn() in a forked child. Returns "exit:<code>" or "signal:<number>".
std::string RunInChild(const std::function<int()>& fn);

}  // namespace dmconf::testing

#endif  // DMCONF_CONFORMANCE_BACKENDS_BACKEND_TEST_UTIL_H_
