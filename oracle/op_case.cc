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

std::string AttributesToString(const OpCase& c) {
  std::vector<std::string> parts;
  switch (c.op) {
    case Op::kSpaceToBatch:
    case Op::kBatchToSpace: {
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
      break;
    }
    case Op::kSpaceToDepth:
    case Op::kDepthToSpace:
      parts.push_back(c.block_size ? absl::StrCat("block_size=", *c.block_size)
                                   : std::string("block_size=(default)"));
      parts.push_back(absl::StrCat("mode=", c.mode ? *c.mode : std::string("(absent)")));
      break;
    case Op::kExtractImagePatches:
      parts.push_back(absl::StrCat("sizes=[", absl::StrJoin(c.sizes, ","), "]"));
      parts.push_back(absl::StrCat("strides=[", absl::StrJoin(c.strides, ","), "]"));
      parts.push_back(absl::StrCat("rates=[", absl::StrJoin(c.rates, ","), "]"));
      parts.push_back(
          absl::StrCat("auto_pad=", c.auto_pad ? *c.auto_pad : std::string("(absent)")));
      break;
  }
  return absl::StrJoin(parts, " ");
}

}  // namespace dmconf
