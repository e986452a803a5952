#include "harness/gen/describe.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace dmconf {
namespace {

std::string Values(const Tensor& t) {
  std::vector<std::string> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    std::optional<int64_t> x = t.GetInteger(i);
    v.push_back(x ? absl::StrCat(*x) : absl::StrCat(t.GetBits(i)));
  }
  return absl::StrJoin(v, ",");
}

// The attribute bundle as `dmconf eval` flags (" --block-size 2 --mode 'blocks_first'").
std::string AttributeFlags(Op op, const OpAttributes& a) {
  std::string s;
  if (a.block_size) absl::StrAppend(&s, " --block-size ", *a.block_size);
  if (a.mode) absl::StrAppend(&s, " --mode '", *a.mode, "'");
  if (op == Op::kExtractImagePatches) {
    absl::StrAppend(&s, " --sizes '", absl::StrJoin(a.sizes, ","), "' --strides '",
                    absl::StrJoin(a.strides, ","), "' --rates '", absl::StrJoin(a.rates, ","), "'");
  }
  if (a.auto_pad) absl::StrAppend(&s, " --auto-pad '", *a.auto_pad, "'");
  return s;
}

}  // namespace

std::string ReproCommand(const OpCase& c) {
  std::string s =
      absl::StrCat("dmconf eval --op ", OpName(c.op), " --type ", ElementTypeName(c.data.type),
                   " --shape '", absl::StrJoin(c.data.shape, ","), "'");
  if (c.op == Op::kSpaceToBatch || c.op == Op::kBatchToSpace) {
    const bool s2b = c.op == Op::kSpaceToBatch;
    if (c.int_inputs.size() == 3) {
      absl::StrAppend(&s, " --int-type ", ElementTypeName(c.int_inputs[0].type), " --block-shape '",
                      Values(c.int_inputs[0]), "'", s2b ? " --pads-begin '" : " --crops-begin '",
                      Values(c.int_inputs[1]), "'", s2b ? " --pads-end '" : " --crops-end '",
                      Values(c.int_inputs[2]), "'");
    }
  }
  absl::StrAppend(&s, AttributeFlags(c.op, c));
  return s;
}

}  // namespace dmconf
