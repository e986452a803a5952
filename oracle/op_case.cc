#include "oracle/op_case.h"

#include <array>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "oracle/input_names.h"

namespace dmconf {
namespace {

struct OpInfo {
  Op op;
  absl::string_view name;
  int version;
  absl::string_view prefix;
};
constexpr std::array<OpInfo, 5> kOps = {{
    {Op::kSpaceToBatch, "SpaceToBatch", 2, "s2b"},
    {Op::kBatchToSpace, "BatchToSpace", 2, "b2s"},
    {Op::kSpaceToDepth, "SpaceToDepth", 1, "s2d"},
    {Op::kDepthToSpace, "DepthToSpace", 1, "d2s"},
    {Op::kExtractImagePatches, "ExtractImagePatches", 3, "eip"},
}};
constexpr std::array<Op, 5> kAllOps = {Op::kSpaceToBatch, Op::kBatchToSpace, Op::kSpaceToDepth,
                                       Op::kDepthToSpace, Op::kExtractImagePatches};

const OpInfo& Info(Op op) { return kOps[static_cast<size_t>(op)]; }

}  // namespace

absl::Span<const Op> AllOps() { return kAllOps; }
absl::string_view OpName(Op op) { return Info(op).name; }
int OpVersion(Op op) { return Info(op).version; }
absl::string_view OpPrefix(Op op) { return Info(op).prefix; }

absl::Span<const absl::string_view> IntInputNames(Op op) {
  static constexpr std::array<absl::string_view, 3> kSpaceToBatch = {"block_shape", "pads_begin",
                                                                     "pads_end"};
  static constexpr std::array<absl::string_view, 3> kBatchToSpace = {"block_shape", "crops_begin",
                                                                     "crops_end"};
  if (op == Op::kSpaceToBatch) return kSpaceToBatch;
  if (op == Op::kBatchToSpace) return kBatchToSpace;
  return {};
}

absl::StatusOr<Op> ParseOp(absl::string_view name) {
  for (const OpInfo& info : kOps) {
    if (name == info.name || name == info.prefix ||
        name == absl::StrCat(info.name, "-", info.version)) {
      return info.op;
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat("case.op.known: unknown op '", name,
                   "' (known: SpaceToBatch-2, BatchToSpace-2, SpaceToDepth-1, DepthToSpace-1, "
                   "ExtractImagePatches-3, or the prefixes s2b, b2s, s2d, d2s, eip)"));
}

absl::string_view DepthModeName(DepthMode m) {
  return m == DepthMode::kBlocksFirst ? "blocks_first" : "depth_first";
}
std::optional<DepthMode> ParseDepthMode(absl::string_view s) {
  if (s == "blocks_first") return DepthMode::kBlocksFirst;
  if (s == "depth_first") return DepthMode::kDepthFirst;
  return std::nullopt;
}

absl::string_view AutoPadName(AutoPad p) {
  switch (p) {
    case AutoPad::kValid:
      return "valid";
    case AutoPad::kSameUpper:
      return "same_upper";
    case AutoPad::kSameLower:
      return "same_lower";
  }
  return "?";
}
std::optional<AutoPad> ParseAutoPad(absl::string_view s) {
  if (s == "valid") return AutoPad::kValid;
  if (s == "same_upper") return AutoPad::kSameUpper;
  if (s == "same_lower") return AutoPad::kSameLower;
  return std::nullopt;
}

namespace {

// "block_shape=[2,2] pads_begin=[0,0] pads_end=[0,0]": the integer inputs of a SpaceToBatch /
// BatchToSpace case.
std::string IntInputsToString(const OpCase& c) {
  std::vector<std::string> parts;
  const absl::Span<const absl::string_view> names = IntInputNames(c.op);
  for (size_t k = 0; k < c.int_inputs.size() && k < names.size(); ++k) {
    const Tensor& t = c.int_inputs[k];
    std::vector<std::string> vals;
    const int64_t n = t.Validate(names[k]).ok() ? t.NumElements() : 0;
    // A non-integer input (a must_reject case) shows its type and element bits.
    const bool integer = IsIntegerType(t.type);
    for (int64_t i = 0; i < n; ++i) {
      std::optional<int64_t> v = integer ? t.GetInteger(i) : std::nullopt;
      vals.push_back(v         ? absl::StrCat(*v)
                     : integer ? absl::StrCat(t.GetBits(i), "u")
                               : absl::StrCat("0x", absl::Hex(t.GetBits(i))));
    }
    parts.push_back(absl::StrCat(names[k], "=", integer ? "" : ElementTypeName(t.type), "[",
                                 absl::StrJoin(vals, ","), "]"));
  }
  return absl::StrJoin(parts, " ");
}

}  // namespace

std::string AttributesToString(Op op, const OpAttributes& a) {
  std::vector<std::string> parts;
  switch (op) {
    case Op::kSpaceToBatch:
    case Op::kBatchToSpace:
      break;
    case Op::kSpaceToDepth:
    case Op::kDepthToSpace:
      parts.push_back(a.block_size ? absl::StrCat("block_size=", *a.block_size)
                                   : std::string("block_size=(default)"));
      parts.push_back(absl::StrCat("mode=", a.mode ? *a.mode : std::string("(absent)")));
      break;
    case Op::kExtractImagePatches:
      parts.push_back(absl::StrCat("sizes=[", absl::StrJoin(a.sizes, ","), "]"));
      parts.push_back(absl::StrCat("strides=[", absl::StrJoin(a.strides, ","), "]"));
      parts.push_back(absl::StrCat("rates=[", absl::StrJoin(a.rates, ","), "]"));
      parts.push_back(
          absl::StrCat("auto_pad=", a.auto_pad ? *a.auto_pad : std::string("(absent)")));
      break;
  }
  return absl::StrJoin(parts, " ");
}

std::string AttributesToString(const OpCase& c) {
  if (c.op == Op::kSpaceToBatch || c.op == Op::kBatchToSpace) return IntInputsToString(c);
  return AttributesToString(c.op, c);
}

}  // namespace dmconf
