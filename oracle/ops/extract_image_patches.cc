// ExtractImagePatches-3 (spec/ExtractImagePatches-3.md). The spec gives no closed formulas;
// the output size and padding follow ERRATA E8, the depth order E9 (channel fastest, as the
// spec's example 5 shows).
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "oracle/ops/op_support.h"
#include "oracle/primitives/patch_gather.h"
#include "oracle/primitives/plain.h"

namespace dmconf::internal {
namespace {

constexpr const char* kAxis[2] = {"rows", "cols"};

// The rules on the rank and the attributes alone; adds violations and returns false on any.
bool CheckAttributes(const OpCase& c, Validation* v, ParsedCase* g) {
  const Shape& d = c.data.shape;
  bool ok = true;
  // "data: 4-D tensor of type T with shape [batch, depth, in_rows, in_cols]."
  if (d.size() != 4) {
    AddViolation(
        v, "eip.data.rank",
        absl::StrCat("data has rank ", d.size(), " (shape ", ShapeToString(d), "), 4 is required"));
    ok = false;
  }
  struct Attr {
    const std::vector<int64_t>* values;
    const char* name;
    int64_t min;
    RuleId length, range;  // range: sizes non-negative; strides, rates positive (ERRATA E7)
  };
  const Attr attrs[3] = {{&c.sizes, "sizes", 0, "eip.sizes.length", "eip.sizes.nonnegative"},
                         {&c.strides, "strides", 1, "eip.strides.length", "eip.strides.positive"},
                         {&c.rates, "rates", 1, "eip.rates.length", "eip.rates.positive"}};
  for (const Attr& a : attrs) {
    if (a.values->size() != 2) {
      AddViolation(v, a.length,
                   absl::StrCat(a.name, " has ", a.values->size(), " values [",
                                absl::StrJoin(*a.values, ","), "], 2 are required"));
      ok = false;
      continue;
    }
    for (size_t i = 0; i < 2; ++i) {
      const int64_t x = (*a.values)[i];
      if (x < a.min) {
        // sizes: "non-negative"; strides, rates: positive (ERRATA E7).
        AddViolation(v, a.range,
                     absl::StrCat(a.name, "[", i, "] (", kAxis[i], ") = ", x,
                                  a.min == 0 ? " is negative" : " is not positive"));
        ok = false;
      }
    }
  }
  if (!c.auto_pad.has_value()) {
    AddViolation(v, "eip.auto_pad.required",
                 "the auto_pad attribute is required (valid, same_upper or same_lower)");
    ok = false;
  } else if (std::optional<AutoPad> p = ParseAutoPad(*c.auto_pad); !p) {
    AddViolation(
        v, "eip.auto_pad.enum",
        absl::StrCat("auto_pad '", *c.auto_pad, "' is not one of valid, same_upper, same_lower"));
    ok = false;
  } else {
    g->auto_pad = *p;
  }
  return ok;
}

// One axis's effective patch size, output size and padding (i = 0 rows, 1 cols); adds a
// violation and returns false when the effective size is not representable.
bool AxisGeometry(const OpCase& c, size_t i, Validation* v, ParsedCase* g) {
  g->in[i] = c.data.shape[i + 2];
  g->size[i] = c.sizes[i];
  g->stride[i] = c.strides[i];
  g->rate[i] = c.rates[i];
  // patch_sizes_eff = patch_sizes + (patch_sizes - 1) * (rates - 1) = rate * (size - 1) + 1
  std::optional<int64_t> eff = CheckedMul(g->rate[i], g->size[i] - 1);
  if (eff) eff = CheckedAdd(*eff, 1);
  // Only the effective patch size must be representable: it is a quantity the spec
  // defines. The padded extent in + eff is not (ERRATA D4a): it may exceed 2^63-1 while the
  // output is small, and nothing below forms it.
  if (!eff) {
    AddViolation(v, "eip.output.representable",
                 absl::StrCat(kAxis[i], ": the effective patch size rate * (size - 1) + 1 = ",
                              g->rate[i], " * ", g->size[i] - 1, " + 1 is above 2^63-1"));
    return false;
  }
  g->eff[i] = *eff;
  if (g->auto_pad == AutoPad::kValid) {
    // valid: out = ceil((in - eff + 1) / stride) if in >= eff, else 0; no padding.
    g->out[i] = g->in[i] >= g->eff[i] ? (g->in[i] - g->eff[i]) / g->stride[i] + 1 : 0;
    g->pad_begin[i] = 0;
    return true;
  }
  // same_upper / same_lower: out = ceil(in / stride);
  // total padding max(0, (out - 1) * stride + eff - in), the odd unit at the end
  // (same_upper) or at the beginning (same_lower). Formed as eff - (in - (out - 1) * stride),
  // where 0 < in - (out - 1) * stride <= stride: no intermediate exceeds eff.
  g->out[i] = g->in[i] / g->stride[i] + (g->in[i] % g->stride[i] != 0 ? 1 : 0);
  const int64_t total =
      g->out[i] == 0
          ? 0
          : std::max<int64_t>(0, g->eff[i] - (g->in[i] - (g->out[i] - 1) * g->stride[i]));
  g->pad_begin[i] = g->auto_pad == AutoPad::kSameUpper ? total / 2 : total - total / 2;
  return true;
}

// Fills the geometry; adds violations and returns false when it cannot.
bool Geometry(const OpCase& c, Validation* v, ParsedCase* g) {
  if (!CheckAttributes(c, v, g)) return false;
  if (c.sizes[0] == 0 || c.sizes[1] == 0) {
    AddViolation(v, "eip.sizes.zero",
                 absl::StrCat("sizes = [", c.sizes[0], ",", c.sizes[1],
                              "]: a patch of size 0 has no defined output (ERRATA E7)"));
    return false;
  }
  return AxisGeometry(c, 0, v, g) && AxisGeometry(c, 1, v, g);
}

}  // namespace

void ValidateExtractImagePatches(const OpCase& c, Validation* v) {
  if (!Geometry(c, v, &v->parsed)) return;
  const ParsedCase& g = v->parsed;
  const Shape& d = c.data.shape;
  // Output [batch, size[0] * size[1] * depth, out_rows, out_cols].
  std::optional<int64_t> depth = CheckedProduct({g.size[0], g.size[1], d[1]});
  Shape out = {d[0], depth.value_or(0), g.out[0], g.out[1]};
  if (!depth || !CheckedProduct(out)) {
    AddViolation(v, "eip.output.representable",
                 absl::StrCat("the output [", d[0], ", ", g.size[0], " * ", g.size[1], " * ", d[1],
                              ", ", g.out[0], ", ", g.out[1], "] has more than 2^63-1 elements"));
    return;
  }
  v->output_shape = out;
}

absl::StatusOr<Tensor> EvaluateExtractImagePatches(const OpCase& c, const Validation& v,
                                                   const EvalOptions& o) {
  const ParsedCase& g = v.parsed;  // the geometry validation computed
  std::vector<uint8_t> unpacked;
  PlainView data = PlainView::Of(c.data, &unpacked);
  absl::StatusOr<PlainResult> y =
      PlainResult::Make(c.data.type, v.output_shape, o.max_bytes, o.output_storage);
  if (!y.ok()) return y.status();
  // y[n, (kh * size_cols + kw) * depth + c, oh, ow] =
  //     pad(data)[n, c, oh * stride_rows + kh * rate_rows, ow * stride_cols + kw * rate_cols]
  // where pad() adds pad_begin zeros before each spatial axis (and enough after).
  PatchGeometry pg{g.size, g.stride, g.rate, g.pad_begin, g.out};
  PatchGather(data.data, c.data.shape, pg, data.elem_size, y->data(), o.threads);
  return std::move(*y).Finish();
}

}  // namespace dmconf::internal
