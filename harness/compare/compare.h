// Bit-exact comparison of a backend's outcome with the oracle's expectation.
//
// Example:
//   Comparison c = Compare(expectation, outcome, {});
//   if (c.verdict == Verdict::kWrongValues)
//     std::cout << c.detail;  // "first difference at [0,1,0,2]: expected 0x00000007, got 0x0..."
#ifndef DMCONF_HARNESS_COMPARE_COMPARE_H_
#define DMCONF_HARNESS_COMPARE_COMPARE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/backend/backend.h"
#include "harness/backend/verdict.h"
#include "oracle/oracle.h"

namespace dmconf {

// One differing element: its row-major (flat) index and both bit patterns.
struct WrongElement {
  int64_t flat = 0;
  uint64_t expected_bits = 0;
  uint64_t actual_bits = 0;
};

// At most this many differing elements are listed (Mismatch::listed): enough to draw where an
// output is wrong, small enough that a report of many failures stays readable.
inline constexpr int64_t kMaxListedWrongElements = 1024;

// The first differing element (row-major order), how many differ, and the first
// kMaxListedWrongElements of them.
struct Mismatch {
  std::vector<int64_t> index;  // multi-index into the output
  uint64_t expected_bits = 0;
  uint64_t actual_bits = 0;
  int64_t differing = 0;             // number of differing elements
  int64_t total = 0;                 // number of elements
  std::vector<int64_t> shape;        // the output's shape
  std::vector<WrongElement> listed;  // in row-major order
};

struct Comparison {
  Verdict verdict = Verdict::kHarnessError;
  std::string detail;  // one line: why (empty for pass)
  std::optional<Mismatch> mismatch;
};

// The verdict for a backend outcome. `e` is the oracle's expectation for the same case; a
// valid expectation without an output tensor gives harness_error.
Comparison Compare(const Expectation& e, const RunOutcome& r, const StrictnessOptions& o);

// Bitwise comparison of two tensors of the same type and shape; std::nullopt when equal.
std::optional<Mismatch> FirstMismatch(const Tensor& expected, const Tensor& actual);

// True when every differing element is a NaN in both tensors and one NaN change explains them
// all: quieting (quiet bit set, sign and payload kept) or canonicalisation (one pattern for
// every NaN, or one per sign). A NaN moved to another element's place is wrong_values.
bool OnlyNaNPayloadsDiffer(const Tensor& expected, const Tensor& actual);

// "0x0000002a" with as many hex digits as the type needs.
std::string FormatBits(ElementType t, uint64_t bits);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_COMPARE_COMPARE_H_
