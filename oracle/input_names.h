// The names of an op's inputs, as the specifications name them: one table for the oracle's
// messages, the vector format, the subprocess protocol, ONNX models and reports.
//
// Example:
//   IntInputNames(Op::kBatchToSpace)[1] == "crops_begin"
//   IntInputNames(Op::kDepthToSpace).empty()
//   kDataInputName == "data"
#ifndef DMCONF_ORACLE_INPUT_NAMES_H_
#define DMCONF_ORACLE_INPUT_NAMES_H_

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "oracle/op_case.h"

namespace dmconf {

// The name of input 0 of every op, the data tensor.
inline constexpr absl::string_view kDataInputName = "data";

// The names of the integer inputs besides data, in input order (the specifications' input
// names): "block_shape", then "pads_begin", "pads_end" (SpaceToBatch) or "crops_begin",
// "crops_end" (BatchToSpace). Empty for the ops that take data only. The one table of them.
absl::Span<const absl::string_view> IntInputNames(Op op);

}  // namespace dmconf

#endif  // DMCONF_ORACLE_INPUT_NAMES_H_
