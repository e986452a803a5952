// Known implementation mistakes, as models: for a case, the output an implementation that made
// the mistake would produce. Used twice, for different purposes:
//   - diagnosis (diagnosis.h) runs each model on a position-encoded copy of a failing case and
//     reports the one whose source map equals the backend's ("matches the other mode");
//   - the mutant backends (harness/backends/mutants) apply them to real cases, to prove the
//     suite catches each mistake (the comparator, not these models, decides the verdict).
//
// Example:
//   for (const Mistake& m : AllMistakes())
//     if (m.applies(c)) { absl::StatusOr<Tensor> wrong = m.apply(c); ... }
#ifndef DMCONF_HARNESS_COMPARE_MISTAKES_H_
#define DMCONF_HARNESS_COMPARE_MISTAKES_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "oracle/op_case.h"
#include "oracle/tensor.h"

namespace dmconf {

struct Mistake {
  absl::string_view id;           // "depth.mode_swapped"
  absl::string_view description;  // "the other mode (blocks_first and depth_first swapped)"
  // Whether the model applies to (and differs from the spec for) this case.
  bool (*applies)(const OpCase& c);
  // The output of the mistaken implementation. Errors: the model has no output here.
  absl::StatusOr<Tensor> (*apply)(const OpCase& c);
  // The terms of the fitted map (depth_fit.h, block_fit.h, patch_fit.h) that describe the same
  // mistake, as sets joined by '+', alternatives separated by '|': a fit that names one of
  // them says the same thing as the model; a fit that names other terms is another
  // explanation of the same output.
  absl::string_view fit_terms = "";
};

// Mistakes that move elements to the wrong place (recoverable from a source map).
absl::Span<const Mistake> AllMistakes();
const Mistake* FindMistake(absl::string_view id);

// Value-level mistakes on an output tensor (not visible in a source map).
Tensor QuietSignallingNaNs(Tensor t);  // sets the quiet bit of every NaN
Tensor CanonicaliseNaNs(Tensor t);     // every NaN becomes the default quiet NaN
Tensor FlushNegativeZero(Tensor t);    // -0 becomes +0
Tensor SwapNibbles(Tensor t);          // 4-bit types: the two nibbles of each byte swapped
Tensor ReverseBitOrder(Tensor t);      // u1: the bit order inside each byte reversed
Tensor SwapWordHalves(Tensor t);       // 64-bit types: the two 32-bit halves of each element
                                       // swapped (copied as two 4-byte words in reverse order)
Tensor ReverseElementBytes(Tensor t);  // 64-bit types: the 8 bytes of each element reversed

// Builds a tensor of `shape` and `type` whose element k copies src element source(k), or is
// zero when source(k) < 0.
template <typename F>
absl::StatusOr<Tensor> Gather(const Tensor& src, Shape shape, F source) {
  absl::StatusOr<Tensor> out = Tensor::Zeros(src.type, std::move(shape));
  if (!out.ok()) return out;
  const int64_t n = out->NumElements();
  for (int64_t k = 0; k < n; ++k) {
    const int64_t s = source(k);
    if (s >= 0) out->SetBits(k, src.GetBits(s));
  }
  return out;
}

// ExtractImagePatches with explicit padding and output size (mutants and their tests need
// paddings the attributes cannot express). channel_fastest = false gives patch-major order
// (channel = c * KH * KW + kh * KW + kw).
absl::StatusOr<Tensor> PatchesWithPads(const Tensor& data, const int64_t sizes[2],
                                       const int64_t strides[2], const int64_t rates[2],
                                       const int64_t pads_begin[2], const int64_t out_dims[2],
                                       bool channel_fastest);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_COMPARE_MISTAKES_H_
