#include "harness/gen/case_ids.h"

#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "oracle/op_table.h"

namespace dmconf {
namespace {

std::string Dims(const std::vector<int64_t>& v) {
  return v.empty() ? std::string("none") : absl::StrJoin(v, "x");
}

std::vector<int64_t> IntValues(const Tensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) {
    v.push_back(t.GetInteger(i).value_or(static_cast<int64_t>(t.GetBits(i))));
  }
  return v;
}

// The attribute bundle's part of an id: ".b2.blocks_first" (SpaceToDepth / DepthToSpace),
// ".k3x3.s1x1.r1x1.valid" (ExtractImagePatches), "" (SpaceToBatch / BatchToSpace).
std::string AttributesIdPart(Op op, const OpAttributes& a) {
  switch (OpRowOf(op).attributes) {
    case AttributeGroup::kBlock:
      return absl::StrCat(".b", a.block_size.has_value() ? absl::StrCat(*a.block_size) : "none",
                          ".", a.mode.value_or("nomode"));
    case AttributeGroup::kPatches:
      return absl::StrCat(".k", Dims(a.sizes), ".s", Dims(a.strides), ".r", Dims(a.rates), ".",
                          a.auto_pad.value_or("nopad"));
    case AttributeGroup::kNone:
      return "";
  }
  return "";
}

}  // namespace

std::string ParamId(const OpCase& c) {
  std::string id = absl::StrCat(OpPrefix(c.op), ".", ElementTypeName(c.data.type), ".",
                                c.data.shape.empty() ? std::string("scalar") : Dims(c.data.shape));
  switch (c.op) {
    case Op::kSpaceToBatch:
    case Op::kBatchToSpace: {
      const bool s2b = c.op == Op::kSpaceToBatch;
      const char* names[3] = {"B", s2b ? "pb" : "cb", s2b ? "pe" : "ce"};
      for (size_t i = 0; i < c.int_inputs.size() && i < 3; ++i) {
        absl::StrAppend(&id, ".", names[i], Dims(IntValues(c.int_inputs[i])));
      }
      if (!c.int_inputs.empty()) {
        std::string types;
        for (const Tensor& t : c.int_inputs) {
          if (types.find(std::string(ElementTypeName(t.type))) == std::string::npos) {
            absl::StrAppend(&types, types.empty() ? "" : "-", ElementTypeName(t.type));
          }
        }
        absl::StrAppend(&id, ".", types);
      }
      break;
    }
    case Op::kSpaceToDepth:
    case Op::kDepthToSpace:
    case Op::kExtractImagePatches:
      break;
  }
  absl::StrAppend(&id, AttributesIdPart(c.op, c));
  return id;
}

std::string CatalogueId(absl::string_view group, const OpCase& c, bool special,
                        absl::string_view suffix) {
  return absl::StrCat(group, "/", ParamId(c), special ? ".special" : ".pos", suffix);
}

std::string SweepSuffix(uint64_t seed, uint64_t index) {
  return absl::StrCat(".s", seed, "i", index);
}

std::string SeededCaseId(Op op, absl::string_view lane, uint64_t seed, uint64_t index) {
  return absl::StrCat("gen-", OpPrefix(op), "-", lane, "-s", seed, "-i", index);
}

std::string ShapeCaseId(bool partial, Op op, absl::string_view lane, uint64_t seed,
                        uint64_t index) {
  return absl::StrCat("shape-", partial ? "partial" : "static", "-", OpPrefix(op), "-", lane, "-s",
                      seed, "-i", index);
}

std::optional<SeedAndIndex> SeedAndIndexOf(absl::string_view id) {
  absl::ConsumeSuffix(&id, ".min");
  // The index: the digits at the end, after "i" (sweep) or "-i" (seeded, shape).
  const size_t i_digits = id.find_last_not_of("0123456789");
  if (i_digits == absl::string_view::npos || i_digits + 1 == id.size() || id[i_digits] != 'i') {
    return std::nullopt;
  }
  SeedAndIndex out;
  if (!absl::SimpleAtoi(id.substr(i_digits + 1), &out.index)) return std::nullopt;
  absl::string_view head = id.substr(0, i_digits);
  const bool dashed = absl::ConsumeSuffix(&head, "-");
  // The seed: the digits before it, after ".s" (sweep) or "-s" (seeded, shape).
  const size_t s_digits = head.find_last_not_of("0123456789");
  if (s_digits == absl::string_view::npos || s_digits + 1 == head.size() || s_digits < 1 ||
      head[s_digits] != 's' || head[s_digits - 1] != (dashed ? '-' : '.')) {
    return std::nullopt;
  }
  if (!absl::SimpleAtoi(head.substr(s_digits + 1), &out.seed)) return std::nullopt;
  return out;
}

std::string SpecExampleVectorId(absl::string_view example) {
  return absl::StrCat("spec.", example);
}

std::string RuleVectorId(absl::string_view rule, bool twin) {
  return absl::StrCat("rule.", rule, twin ? ".twin" : "");
}

std::string GeneratedVectorId(absl::string_view lane, Op op, uint64_t index) {
  return absl::StrCat("gen.", lane, ".", OpPrefix(op), ".", absl::StrFormat("%03d", index));
}

}  // namespace dmconf
