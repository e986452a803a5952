#include "harness/compare/shape_terms.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

using Wide = __int128;

// One formula with a term changed: its id, what it says, and the shape it gives (empty when
// it gives none here).
struct Variant {
  const char* id;
  const char* description;
  std::vector<Wide> shape;
};

Wide FloorDiv(Wide a, Wide b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
Wide CeilDiv(Wide a, Wide b) { return -FloorDiv(-a, b); }

// ExtractImagePatches, per spatial axis (spec): eff = rate * (size - 1) + 1;
// valid: out = floor((in - eff) / stride) + 1 when in >= eff, else 0; same_*: ceil(in / stride).
struct PatchAxis {
  Wide in, size, stride, rate;
};
Wide ValidOut(Wide in, Wide eff, Wide stride, bool plus_one, bool ceil) {
  if (in < eff) return 0;
  const Wide q = ceil ? CeilDiv(in - eff, stride) : FloorDiv(in - eff, stride);
  return plus_one ? q + 1 : q;
}

std::vector<Variant> PatchVariants(const OpCase& c, const ParsedCase& p) {
  const bool valid = p.auto_pad == AutoPad::kValid;
  const Wide N = c.data.shape[0], C = c.data.shape[1];
  const Wide K = Wide{p.size[0]} * p.size[1];
  // out(axis) with the given stride, rate, eff rule and formula switches
  auto out = [&](int a, Wide stride, Wide rate, bool rate_in_eff, bool plus_one, bool ceil,
                 bool as_valid) -> Wide {
    const Wide eff = rate_in_eff ? rate * (p.size[a] - 1) + 1 : p.size[a];
    if (as_valid) return ValidOut(p.in[a], eff, stride, plus_one, ceil);
    return ceil ? CeilDiv(p.in[a], stride) : FloorDiv(p.in[a], stride);
  };
  auto shape = [&](Wide depth, auto per_axis) {
    return std::vector<Wide>{N, depth, per_axis(0), per_axis(1)};
  };
  std::vector<Variant> v;
  if (valid) {
    v.push_back({"eip.shape.plus_one", "the +1 of floor((in - eff) / stride) + 1 left out",
                 shape(C * K, [&](int a) {
                   return out(a, p.stride[a], p.rate[a], true, false, false, true);
                 })});
    v.push_back({"eip.shape.ceil", "ceil((in - eff) / stride) where the spec floors",
                 shape(C * K, [&](int a) {
                   return out(a, p.stride[a], p.rate[a], true, true, true, true);
                 })});
    v.push_back({"eip.shape.rate_ignored",
                 "the effective patch size without the rate (eff = size, not rate * (size - 1) + "
                 "1)",
                 shape(C * K, [&](int a) {
                   return out(a, p.stride[a], p.rate[a], false, true, false, true);
                 })});
    v.push_back(
        {"eip.shape.rate_stride_swapped", "strides and rates exchanged", shape(C * K, [&](int a) {
           return out(a, p.rate[a], p.stride[a], true, true, false, true);
         })});
    v.push_back(
        {"eip.shape.row_rate", "the row rate used for columns too", shape(C * K, [&](int a) {
           return out(a, p.stride[a], p.rate[0], true, true, false, true);
         })});
    v.push_back(
        {"eip.shape.col_rate", "the column rate used for rows too", shape(C * K, [&](int a) {
           return out(a, p.stride[a], p.rate[1], true, true, false, true);
         })});
    v.push_back({"eip.shape.padding", "valid padding computed as same (ceil(in / stride))",
                 shape(C * K, [&](int a) {
                   return out(a, p.stride[a], p.rate[a], true, true, true, false);
                 })});
  } else {
    v.push_back({"eip.shape.ceil", "floor(in / stride) where the spec takes ceil(in / stride)",
                 shape(C * K, [&](int a) {
                   return out(a, p.stride[a], p.rate[a], true, true, false, false);
                 })});
    v.push_back({"eip.shape.rate_stride_swapped", "strides and rates exchanged (ceil(in / rate))",
                 shape(C * K, [&](int a) {
                   return out(a, p.rate[a], p.stride[a], true, true, true, false);
                 })});
    v.push_back({"eip.shape.padding", "same padding computed as valid", shape(C * K, [&](int a) {
                   return out(a, p.stride[a], p.rate[a], true, true, false, true);
                 })});
  }
  v.push_back({"eip.shape.depth", "the depth not multiplied by the patch size (C, not C * KH * KW)",
               shape(C, [&](int a) { return Wide{p.out[a]}; })});
  return v;
}

// SpaceToDepth: [N, C * b^K, D_i / b]; DepthToSpace: [N, C / b^K, D_i * b] (K spatial axes).
std::vector<Variant> DepthVariants(const OpCase& c, const ParsedCase& p, const Shape& expected) {
  const bool s2d = c.op == Op::kSpaceToDepth;
  const Wide C = c.data.shape[1], b = p.block_size;
  std::vector<Variant> v;
  for (int power : {1, 2}) {
    std::vector<Wide> s(expected.begin(), expected.end());
    Wide bp = 1;
    for (int i = 0; i < power; ++i) bp *= b;
    if (s2d) {
      s[1] = C * bp;
    } else if (C % bp == 0) {
      s[1] = C / bp;
    } else {
      continue;
    }
    v.push_back({s2d ? "s2d.shape.block_power" : "d2s.shape.block_power",
                 power == 1 ? "the channels scaled by block_size once, not block_size ^ (rank - 2)"
                            : "the channels scaled by block_size ^ 2 (a 4-D formula), not "
                              "block_size ^ (rank - 2)",
                 s});
  }
  return v;
}

// SpaceToBatch: [N * prod(B), (D_i + pb_i + pe_i) / B_i]; BatchToSpace:
// [N / prod(B), D_i * B_i - cb_i - ce_i].
std::vector<Variant> BlockVariants(const OpCase& c, const ParsedCase& p, const Shape& expected) {
  const bool s2b = c.op == Op::kSpaceToBatch;
  const std::vector<int64_t>& B = p.block_inputs[0];
  const std::vector<int64_t>& begin = p.block_inputs[1];
  const std::vector<int64_t>& end = p.block_inputs[2];
  const size_t rank = c.data.shape.size();
  if (B.size() != rank || begin.size() != rank || end.size() != rank) return {};
  auto spatial = [&](bool with_begin, bool with_end) {
    std::vector<Wide> s(expected.begin(), expected.end());
    for (size_t i = 1; i < rank; ++i) {
      const Wide d = c.data.shape[i];
      const Wide b = with_begin ? begin[i] : 0, e = with_end ? end[i] : 0;
      s[i] = s2b ? FloorDiv(d + b + e, B[i]) : d * B[i] - b - e;
    }
    return s;
  };
  std::vector<Variant> v;
  v.push_back({s2b ? "s2b.shape.pads_begin" : "b2s.shape.crops_begin",
               s2b ? "pads_begin left out" : "crops_begin left out", spatial(false, true)});
  v.push_back({s2b ? "s2b.shape.pads_end" : "b2s.shape.crops_end",
               s2b ? "pads_end left out" : "crops_end left out", spatial(true, false)});
  std::vector<Wide> batch(expected.begin(), expected.end());
  batch[0] = c.data.shape[0];
  v.push_back({s2b ? "s2b.shape.batch" : "b2s.shape.batch",
               s2b ? "the batch not multiplied by prod(block_shape)"
                   : "the batch not divided by prod(block_shape)",
               batch});
  return v;
}

bool SameShape(const std::vector<Wide>& a, const Shape& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) return false;
  }
  return true;
}

}  // namespace

std::optional<Diagnosis> ShapeDiagnosis(const OpCase& c, const Shape& expected,
                                        const Shape& actual) {
  if (expected == actual) return std::nullopt;
  absl::StatusOr<Validation> val = Validate(c);
  if (!val.ok() || val->kind() != ExpectationKind::kValid || c.data.shape.size() < 2) {
    return std::nullopt;
  }
  const ParsedCase& p = val->parsed;
  std::vector<Variant> all;
  if (c.op == Op::kExtractImagePatches && c.data.shape.size() == 4) {
    all = PatchVariants(c, p);
  } else if (c.op == Op::kSpaceToDepth || c.op == Op::kDepthToSpace) {
    all = DepthVariants(c, p, expected);
  } else if (c.op == Op::kSpaceToBatch || c.op == Op::kBatchToSpace) {
    all = BlockVariants(c, p, expected);
  }
  std::vector<const Variant*> fit;
  for (const Variant& v : all) {
    if (!SameShape(v.shape, expected) && SameShape(v.shape, actual)) fit.push_back(&v);
  }
  Diagnosis d;
  const std::string shapes =
      absl::StrCat(ShapeToString(actual), " where the spec says ", ShapeToString(expected));
  if (fit.empty()) {
    d.summary = absl::StrCat("the output shape ", shapes,
                             ": no single term of the spec's shape formula explains it");
    return d;
  }
  std::vector<std::string> ids, descriptions;
  for (const Variant* v : fit) {
    ids.emplace_back(v->id);
    descriptions.emplace_back(v->description);
  }
  d.mistake = absl::StrJoin(ids, "|");
  d.summary = fit.size() == 1 ? absl::StrCat("the output shape ", shapes,
                                             " is the spec's formula with ", descriptions[0])
                              : absl::StrCat("the output shape ", shapes,
                                             ": ambiguous: ", absl::StrJoin(descriptions, ", "),
                                             " fit equally (this case cannot tell them apart)");
  return d;
}

}  // namespace dmconf
