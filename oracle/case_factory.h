// Builders of OpCase values for each op family, shared by the catalogue, the vector sets and
// the tests (one place that knows which OpCase fields each op uses).
//
// Example:
//   OpCase s2b = BlockOpCase(Op::kSpaceToBatch, data, {1, 2, 2, 1}, {0, 0, 1, 0}, {0, 0, 1, 0});
//   OpCase d2s = DepthOpCase(Op::kDepthToSpace, data, 2, "blocks_first");
//   OpCase eip = PatchOpCase(data, {3, 3}, {5, 5}, {1, 1}, "valid");
#ifndef DMCONF_ORACLE_CASE_FACTORY_H_
#define DMCONF_ORACLE_CASE_FACTORY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "oracle/op_case.h"
#include "oracle/tensor.h"

namespace dmconf {

// A 1-D tensor of type t holding `values`. A value the type cannot hold (a negative value in
// an unsigned type, anything but 0/1 in boolean, a non-integer type) keeps its low bits as
// they are: rule cases need exactly such inputs.
Tensor IntegerInput(ElementType t, const std::vector<int64_t>& values);

// SpaceToBatch (begin/end = pads) or BatchToSpace (begin/end = crops): data, block_shape,
// begin, end, the three integer inputs of type int_type.
OpCase BlockOpCase(Op op, Tensor data, const std::vector<int64_t>& block,
                   const std::vector<int64_t>& begin, const std::vector<int64_t>& end,
                   ElementType int_type = ElementType::kI64);

// SpaceToDepth / DepthToSpace; an absent block_size or mode stays absent.
OpCase DepthOpCase(Op op, Tensor data, std::optional<int64_t> block_size,
                   std::optional<std::string> mode);

// ExtractImagePatches; an absent auto_pad stays absent.
OpCase PatchOpCase(Tensor data, std::vector<int64_t> sizes, std::vector<int64_t> strides,
                   std::vector<int64_t> rates, std::optional<std::string> auto_pad);

}  // namespace dmconf

#endif  // DMCONF_ORACLE_CASE_FACTORY_H_
