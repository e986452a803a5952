#include "oracle/case_factory.h"

#include <utility>

namespace dmconf {

Tensor IntegerInput(ElementType t, const std::vector<int64_t>& values) {
  absl::StatusOr<Tensor> r = MakeIntegerTensor(t, values);
  if (r.ok()) return *std::move(r);
  Tensor raw;
  raw.type = t;
  raw.shape = {static_cast<int64_t>(values.size())};
  absl::StatusOr<Tensor> zeros = Tensor::Zeros(t, raw.shape);
  if (zeros.ok()) raw = *std::move(zeros);
  for (size_t i = 0; i < values.size() && !raw.bytes.empty(); ++i) {
    raw.SetBits(static_cast<int64_t>(i), static_cast<uint64_t>(values[i]));
  }
  return raw;
}

OpCase BlockOpCase(Op op, Tensor data, const std::vector<int64_t>& block,
                   const std::vector<int64_t>& begin, const std::vector<int64_t>& end,
                   ElementType int_type) {
  OpCase c;
  c.op = op;
  c.data = std::move(data);
  c.int_inputs = {IntegerInput(int_type, block), IntegerInput(int_type, begin),
                  IntegerInput(int_type, end)};
  return c;
}

OpCase DepthOpCase(Op op, Tensor data, std::optional<int64_t> block_size,
                   std::optional<std::string> mode) {
  OpCase c;
  c.op = op;
  c.data = std::move(data);
  c.block_size = block_size;
  c.mode = std::move(mode);
  return c;
}

OpCase PatchOpCase(Tensor data, std::vector<int64_t> sizes, std::vector<int64_t> strides,
                   std::vector<int64_t> rates, std::optional<std::string> auto_pad) {
  OpCase c;
  c.op = Op::kExtractImagePatches;
  c.data = std::move(data);
  c.sizes = std::move(sizes);
  c.strides = std::move(strides);
  c.rates = std::move(rates);
  c.auto_pad = std::move(auto_pad);
  return c;
}

}  // namespace dmconf
