// Diagnosis of a wrong output: which known mistake it matches, and where the first wrong
// element really came from.
//
// The catalogue's inputs encode their own position (element i holds i + 1, masked to the
// type's width, whenever that is unique), so the bits of a wrong output element name the input
// element the backend copied. Every explanation is evaluated on the same case: the value
// mistakes, each known mistake (mistakes.h) and the fitted map (depth_fit.h, block_fit.h,
// patch_fit.h); all that reproduce the output bit for bit are kept. A mistake is named only
// when it is the one explanation and, for one that moves elements, when the data identify
// positions; several are named as ambiguous ("a|b"); on data that do not identify positions
// (sub-byte types, special-value fills) a layout mistake is listed as consistent, not named. An
// empty output names nothing from its data; a wrong shape is fitted against the terms of the
// shape formula (shape_terms.h). docs/diagnoses.md.
//
// Example:
//   std::optional<Diagnosis> d = Diagnose(c, expected, actual);
//   // d->mistake == "depth.mode_swapped"
//   // d->summary == "matches the other mode (blocks_first and depth_first swapped); first
//   //               wrong element [0,1,0,0] holds input [0,4,0,0], expected input [0,1,0,0]"
#ifndef DMCONF_HARNESS_COMPARE_DIAGNOSIS_H_
#define DMCONF_HARNESS_COMPARE_DIAGNOSIS_H_

#include <optional>
#include <string>

#include "absl/types/span.h"
#include "oracle/op_case.h"
#include "oracle/tensor.h"

namespace dmconf {

struct Diagnosis {
  // id of the one matching mistake ("depth.mode_swapped"), or the differing terms of the
  // fitted map joined by '+' ("s2b.fit.pads"), or the term of the shape formula
  // ("eip.shape.plus_one"); several ids joined by '|' when they fit equally; empty when
  // nothing is named
  std::string mistake;
  std::string summary;  // one line for people
  // The diagnosis comes from diagnostic twins of the case (twin.h): the case's own data could
  // not identify positions. The summary starts "from N diagnostic twin(s)".
  bool from_twin = false;
};

// A mistake of the output's values as a whole (NaNs quieted, nibble order swapped, ...): the
// model is `apply` on the spec's output.
struct ValueMistake {
  const char* id;
  const char* description;
  Tensor (*apply)(Tensor);
  // The packing mistakes move elements inside each byte: like a layout mistake, only data that
  // identify positions could tell them from a layout bug that moves the same elements (an
  // ExtractImagePatches output of one byte, its patch offsets in another order, can equal the
  // reversed bit order of the right one).
  bool moves_elements = false;
};
absl::Span<const ValueMistake> ValueMistakes();

// `expected` is the oracle's output for c, `actual` the backend's (any type and shape).
// std::nullopt when nothing useful can be said.
std::optional<Diagnosis> Diagnose(const OpCase& c, const Tensor& expected, const Tensor& actual);

// The diagnosis of an output with elements the backend never wrote (flat indices found by
// running it over two different buffer fills, RunOutcome::unwritten; not empty): how many, the
// first, and whether they are all padding ("output.padding_not_written").
Diagnosis UnwrittenDiagnosis(const Tensor& expected, absl::Span<const int64_t> unwritten);

// Whether the data of c encodes positions (every element distinct and non-zero), so that the
// source of an output element can be recovered from its bits.
bool IsPositionEncoded(const Tensor& data);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_COMPARE_DIAGNOSIS_H_
