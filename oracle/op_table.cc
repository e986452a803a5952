#include "oracle/op_table.h"

#include <array>
#include <cstddef>

namespace dmconf {
namespace {

constexpr std::array<absl::string_view, 3> kSpaceToBatchInputs = {"block_shape", "pads_begin",
                                                                  "pads_end"};
constexpr std::array<absl::string_view, 3> kBatchToSpaceInputs = {"block_shape", "crops_begin",
                                                                  "crops_end"};

constexpr std::array<OpRow, 5> kRows = {{
    {Op::kSpaceToBatch, "SpaceToBatch", 2, "s2b", kSpaceToBatchInputs, AttributeGroup::kNone, "",
     "each dim of the padded data by block_shape; the batch grows by their product"},
    {Op::kBatchToSpace, "BatchToSpace", 2, "b2s", kBatchToSpaceInputs, AttributeGroup::kNone, "",
     "the batch (dim 0) by the product of block_shape; each dim grows by its block, then is "
     "cropped"},
    {Op::kSpaceToDepth,
     "SpaceToDepth",
     1,
     "s2d",
     {},
     AttributeGroup::kBlock,
     "mode",
     "each spatial dim (2 on) by block_size; the channels grow by block_size^(rank-2)"},
    {Op::kDepthToSpace,
     "DepthToSpace",
     1,
     "d2s",
     {},
     AttributeGroup::kBlock,
     "mode",
     "the channels (dim 1) by block_size^(rank-2); each spatial dim grows by block_size"},
    {Op::kExtractImagePatches,
     "ExtractImagePatches",
     3,
     "eip",
     {},
     AttributeGroup::kPatches,
     "auto_pad",
     "rows and columns (dims 2, 3) walked by windows of sizes, strides and rates"},
}};

// The row of each op. A new enumerator of Op without a case here does not compile (-Wswitch,
// an error in the presets developers and CI build with); one with a case but no row fails the
// static_asserts below.
constexpr size_t kNoRow = static_cast<size_t>(-1);
constexpr size_t RowIndex(Op op) {
  switch (op) {
    case Op::kSpaceToBatch:
      return 0;
    case Op::kBatchToSpace:
      return 1;
    case Op::kSpaceToDepth:
      return 2;
    case Op::kDepthToSpace:
      return 3;
    case Op::kExtractImagePatches:
      return 4;
  }
  return kNoRow;  // not an op
}

// Row i is Op i, and every op has a row: checked at compile time.
constexpr bool RowsInEnumOrder() {
  for (size_t i = 0; i < kRows.size(); ++i) {
    if (static_cast<size_t>(kRows[i].op) != i || RowIndex(kRows[i].op) != i) return false;
  }
  return true;
}
static_assert(RowsInEnumOrder(), "op table rows must follow enum Op, one row per op");
static_assert(RowIndex(static_cast<Op>(kRows.size())) == kNoRow,
              "an op after the last row of the op table has no row");

}  // namespace

absl::Span<const OpRow> OpTable() { return kRows; }

const OpRow& OpRowOf(Op op) { return kRows[static_cast<size_t>(op)]; }

}  // namespace dmconf
