#include "oracle/ops/op_support.h"

#include "absl/strings/str_cat.h"
#include "oracle/input_names.h"

namespace dmconf::internal {

void AddViolation(Validation* v, RuleId rule, absl::string_view detail) {
  v->violations.push_back({&rule.rule(), absl::StrCat(rule.id(), ": ", detail)});
}

std::vector<std::optional<int64_t>> IntegerValues(const Tensor& t) {
  std::vector<std::optional<int64_t>> out;
  const int64_t n = t.NumElements();
  out.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) out.push_back(t.GetInteger(i));
  return out;
}

bool CheckDepthAttributes(const OpCase& c, const DepthRules& rules, Validation* v) {
  ParsedCase* out = &v->parsed;
  bool ok = true;
  // block_size: "Default value: 1, Required: no" (ERRATA E10: absent means 1).
  out->block_size = c.block_size.value_or(1);
  if (out->block_size < 1) {
    AddViolation(v, rules.block_size_positive,
                 absl::StrCat("block_size = ", out->block_size, " is not a positive integer"));
    ok = false;
  }
  if (!c.mode.has_value()) {
    AddViolation(v, rules.mode_required,
                 "the mode attribute is required (blocks_first or depth_first)");
    ok = false;
  } else if (std::optional<DepthMode> m = ParseDepthMode(*c.mode); !m) {
    AddViolation(v, rules.mode_enum,
                 absl::StrCat("mode '", *c.mode, "' is not blocks_first or depth_first"));
    ok = false;
  } else {
    out->mode = *m;
  }
  return ok;
}

bool CheckBlockInputs(const OpCase& c, const BlockRules& rules, Validation* v) {
  const absl::Span<const absl::string_view> names = IntInputNames(c.op);
  std::array<std::vector<std::optional<int64_t>>, 3> values;  // nullopt: above INT64_MAX
  const int64_t rank = static_cast<int64_t>(c.data.shape.size());
  const bool rank_ok = rank >= 2;
  bool usable = true;
  for (size_t k = 0; k < 3; ++k) {
    const Tensor& t = c.int_inputs[k];
    if (!IsIntegerType(t.type)) {
      AddViolation(v, rules.integer_type,
                   absl::StrCat(names[k], " has element type ", ElementTypeName(t.type),
                                ", not an integer type"));
      usable = false;
      continue;
    }
    if (t.shape.size() != 1 || (rank_ok && t.shape[0] != rank)) {
      AddViolation(v, rules.shape,
                   absl::StrCat(names[k], " has shape ", ShapeToString(t.shape), ", expected [",
                                rank, "] (the rank of data)"));
      usable = false;
      continue;
    }
    values[k] = IntegerValues(t);
  }
  if (rules.one_type && IsIntegerType(c.int_inputs[0].type) &&
      IsIntegerType(c.int_inputs[1].type) && IsIntegerType(c.int_inputs[2].type) &&
      (c.int_inputs[0].type != c.int_inputs[1].type ||
       c.int_inputs[0].type != c.int_inputs[2].type)) {
    AddViolation(v, "b2s.inputs.same_type",
                 absl::StrCat("block_shape, crops_begin and crops_end have types ",
                              ElementTypeName(c.int_inputs[0].type), ", ",
                              ElementTypeName(c.int_inputs[1].type), ", ",
                              ElementTypeName(c.int_inputs[2].type), "; one type is required"));
  }
  if (!usable) return false;
  // Values: block_shape >= 1; begin / end >= 0.
  for (size_t k = 0; k < 3; ++k) {
    const std::vector<std::optional<int64_t>>& row = values[k];
    for (size_t i = 0; i < row.size(); ++i) {
      if (!row[i].has_value()) {
        AddViolation(
            v, rules.representable,
            absl::StrCat(names[k], "[", i, "] = ", c.int_inputs[k].GetBits(i), " is above 2^63-1"));
        usable = false;
      } else if (k == 0 ? *row[i] < 1 : *row[i] < 0) {
        AddViolation(v, rules.value[k],
                     absl::StrCat(names[k], "[", i, "] = ", *row[i],
                                  k == 0 ? " is less than 1" : " is negative"));
        usable = false;
      }
    }
  }
  if (!usable) return usable;
  for (size_t k = 0; k < 3; ++k) {
    v->parsed.block_inputs[k].clear();
    for (const std::optional<int64_t>& x : values[k]) v->parsed.block_inputs[k].push_back(*x);
  }
  const std::array<std::vector<int64_t>, 3>& vals = v->parsed.block_inputs;
  // Index 0: "block_shape[0] is expected to be 1", "pads_begin[0] / pads_end[0] expected 0".
  if (rank_ok) {
    if (vals[0][0] != 1) {
      AddViolation(v, rules.batch_one,
                   absl::StrCat("block_shape[0] = ", vals[0][0], " (expected 1)"));
    }
    for (size_t k = 1; k < 3; ++k) {
      if (vals[k][0] != 0) {
        AddViolation(v, rules.batch_zero[k - 1],
                     absl::StrCat(names[k], "[0] = ", vals[k][0], " (expected 0)"));
      }
    }
  }
  return rank_ok;
}

}  // namespace dmconf::internal
