#include "oracle/op_case.h"

#include <array>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "oracle/input_names.h"
#include "oracle/op_table.h"

namespace dmconf {
namespace {

// The ops, in enum order (the op table's column `op`).
std::vector<Op> OpsOfTable() {
  std::vector<Op> ops;
  for (const OpRow& row : OpTable()) ops.push_back(row.op);
  return ops;
}

}  // namespace

absl::Span<const Op> AllOps() {
  static const std::vector<Op>& ops = *new std::vector<Op>(OpsOfTable());
  return ops;
}
absl::string_view OpName(Op op) { return OpRowOf(op).name; }
int OpVersion(Op op) { return OpRowOf(op).version; }
absl::string_view OpPrefix(Op op) { return OpRowOf(op).prefix; }

absl::Span<const absl::string_view> IntInputNames(Op op) { return OpRowOf(op).int_inputs; }

absl::StatusOr<Op> ParseOp(absl::string_view name) {
  std::vector<std::string> names, prefixes;
  for (const OpRow& row : OpTable()) {
    if (name == row.name || name == row.prefix ||
        name == absl::StrCat(row.name, "-", row.version)) {
      return row.op;
    }
    names.push_back(absl::StrCat(row.name, "-", row.version));
    prefixes.emplace_back(row.prefix);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("case.op.known: unknown op '", name, "' (known: ", absl::StrJoin(names, ", "),
                   ", or the prefixes ", absl::StrJoin(prefixes, ", "), ")"));
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
  switch (OpRowOf(op).attributes) {
    case AttributeGroup::kNone:
      break;
    case AttributeGroup::kBlock:
      parts.push_back(a.block_size ? absl::StrCat("block_size=", *a.block_size)
                                   : std::string("block_size=(default)"));
      parts.push_back(absl::StrCat("mode=", a.mode ? *a.mode : std::string("(absent)")));
      break;
    case AttributeGroup::kPatches:
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
  if (!OpRowOf(c.op).int_inputs.empty()) return IntInputsToString(c);
  return AttributesToString(c.op, c);
}

}  // namespace dmconf
