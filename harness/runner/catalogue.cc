#include "harness/runner/catalogue.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/compare/float_bits.h"
#include "harness/gen/generate.h"
#include "oracle/case_factory.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

Tensor Ints(const std::vector<int64_t>& v, ElementType t = ElementType::kI64) {
  return IntegerInput(t, v);
}

Tensor ZeroData(ElementType t, Shape shape) {
  absl::StatusOr<Tensor> d = Tensor::Zeros(t, std::move(shape));
  return d.ok() ? *std::move(d) : Tensor{};
}

OpCase Blocks(Op op, ElementType t, Shape shape, std::vector<int64_t> block,
              std::vector<int64_t> begin, std::vector<int64_t> end,
              ElementType it = ElementType::kI64) {
  return BlockOpCase(op, ZeroData(t, std::move(shape)), block, begin, end, it);
}

OpCase Depth(Op op, ElementType t, Shape shape, std::optional<int64_t> b,
             std::optional<std::string> mode) {
  return DepthOpCase(op, ZeroData(t, std::move(shape)), b, std::move(mode));
}

OpCase Eip(ElementType t, Shape shape, std::vector<int64_t> k, std::vector<int64_t> s,
           std::vector<int64_t> r, std::optional<std::string> pad) {
  return PatchOpCase(ZeroData(t, std::move(shape)), std::move(k), std::move(s), std::move(r),
                     std::move(pad));
}

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

struct Builder {
  const CatalogueOptions& o;
  std::vector<OpCase> out;
  std::set<std::string> ids;

  bool Wanted(const OpCase& c) const {
    if (!o.ops.empty() && std::find(o.ops.begin(), o.ops.end(), c.op) == o.ops.end()) return false;
    if (!o.types.empty() &&
        std::find(o.types.begin(), o.types.end(), c.data.type) == o.types.end()) {
      return false;
    }
    return true;
  }

  void Add(OpCase c, const std::string& group, bool special = false,
           const std::string& suffix = "") {
    if (!Wanted(c)) return;
    FillData(c, special);
    c.id = absl::StrCat(group, "/", ParamId(c), special ? ".special" : ".pos", suffix);
    c.origin = group.substr(0, group.find('/'));
    if (!ids.insert(c.id).second) return;  // the same case from two sources: keep the first
    out.push_back(std::move(c));
  }

  // Add without refilling data (cases whose data the generator sized and filled).
  void AddAsIs(OpCase c, const std::string& group, const std::string& suffix) {
    if (!Wanted(c)) return;
    c.id = absl::StrCat(group, "/", ParamId(c), ".pos", suffix);
    c.origin = group.substr(0, group.find('/'));
    if (!ids.insert(c.id).second) return;
    out.push_back(std::move(c));
  }

  void Rule(const std::string& rule, OpCase neg, OpCase twin) {
    Add(std::move(neg), absl::StrCat("rule/", rule, "/neg"));
    Add(std::move(twin), absl::StrCat("rule/", rule, "/twin"));
  }
};

constexpr ElementType kF32 = ElementType::kF32;

void Examples(Builder& b) {
  b.Add(Depth(Op::kSpaceToDepth, kF32, {5, 7, 4, 6}, 2, "blocks_first"), "example");
  b.Add(Depth(Op::kDepthToSpace, kF32, {5, 28, 2, 3}, 2, "blocks_first"), "example");
  b.Add(Blocks(Op::kSpaceToBatch, kF32, {2, 6, 10, 3, 3}, {1, 2, 4, 3, 1}, {0, 0, 1, 0, 0},
               {0, 0, 1, 0, 0}),
        "example");
  b.Add(Blocks(Op::kBatchToSpace, kF32, {48, 3, 3, 1, 3}, {1, 2, 4, 3, 1}, {0, 0, 1, 0, 0},
               {0, 0, 1, 0, 0}),
        "example");
  b.Add(Eip(kF32, {64, 3, 10, 10}, {3, 3}, {5, 5}, {1, 1}, "valid"), "example");
  // The ExtractImagePatches text's 1x1x10x10 image with its variations.
  b.Add(Eip(kF32, {1, 1, 10, 10}, {3, 3}, {5, 5}, {1, 1}, "valid"), "example");
  b.Add(Eip(kF32, {1, 1, 10, 10}, {4, 4}, {9, 9}, {1, 1}, "same_upper"), "example");
  b.Add(Eip(kF32, {1, 1, 10, 10}, {3, 3}, {5, 5}, {2, 2}, "valid"), "example");
  b.Add(Eip(kF32, {1, 1, 10, 10}, {2, 2}, {3, 3}, {1, 1}, "valid"), "example");
  b.Add(Eip(kF32, {1, 2, 5, 5}, {2, 2}, {3, 3}, {1, 1}, "valid"), "example");
}

void Rules(Builder& b) {
  const Op s2b = Op::kSpaceToBatch, b2s = Op::kBatchToSpace;
  // SpaceToBatch: twin [2,4,6] block [1,2,3] pads [0,1,0] / [0,1,3] -> [12,3,3].
  auto s2b_case = [&](Shape s, std::vector<int64_t> bl, std::vector<int64_t> pb,
                      std::vector<int64_t> pe, ElementType it = ElementType::kI64) {
    return Blocks(s2b, kF32, std::move(s), std::move(bl), std::move(pb), std::move(pe), it);
  };
  const OpCase s2b_twin = s2b_case({2, 4, 6}, {1, 2, 3}, {0, 1, 0}, {0, 1, 3});
  b.Rule("s2b.data.rank", s2b_case({4}, {1}, {0}, {0}), s2b_case({2, 4}, {1, 2}, {0, 0}, {0, 0}));
  {
    OpCase neg = s2b_twin;
    neg.int_inputs[0] = Ints({1, 2, 3}, ElementType::kBoolean);
    b.Rule("s2b.inputs.integer_type", neg,
           s2b_case({2, 4, 6}, {1, 2, 3}, {0, 1, 0}, {0, 1, 3}, ElementType::kI32));
  }
  b.Rule("s2b.inputs.shape", s2b_case({2, 4, 6}, {1, 2}, {0, 1}, {0, 1}), s2b_twin);
  b.Rule("s2b.block_shape.positive", s2b_case({2, 4, 6}, {1, 0, 3}, {0, 1, 0}, {0, 1, 3}),
         s2b_twin);
  b.Rule("s2b.pads_begin.nonnegative", s2b_case({2, 4, 6}, {1, 2, 3}, {0, -1, 0}, {0, 1, 3}),
         s2b_twin);
  b.Rule("s2b.pads_end.nonnegative", s2b_case({2, 4, 6}, {1, 2, 3}, {0, 1, 0}, {0, 1, -3}),
         s2b_twin);
  b.Rule("s2b.block_shape.divides", s2b_case({2, 4, 6}, {1, 2, 3}, {0, 1, 0}, {0, 0, 3}), s2b_twin);
  b.Rule("s2b.block_shape.batch_one", s2b_case({2, 4, 6}, {2, 2, 3}, {0, 1, 0}, {0, 1, 3}),
         s2b_twin);
  b.Rule("s2b.pads_begin.batch_zero", s2b_case({2, 4, 6}, {1, 2, 3}, {1, 1, 0}, {0, 1, 3}),
         s2b_twin);
  b.Rule("s2b.pads_end.batch_zero", s2b_case({2, 4, 6}, {1, 2, 3}, {0, 1, 0}, {1, 1, 3}), s2b_twin);

  // BatchToSpace: twin [12,2,3] block [1,2,3] crops [0,1,0] / [0,0,2] -> [2,3,7].
  auto b2s_case = [&](Shape s, std::vector<int64_t> bl, std::vector<int64_t> cb,
                      std::vector<int64_t> ce, ElementType it = ElementType::kI64) {
    return Blocks(b2s, kF32, std::move(s), std::move(bl), std::move(cb), std::move(ce), it);
  };
  const OpCase b2s_twin = b2s_case({12, 2, 3}, {1, 2, 3}, {0, 1, 0}, {0, 0, 2});
  b.Rule("b2s.data.rank", b2s_case({4}, {1}, {0}, {0}), b2s_case({4, 2}, {1, 2}, {0, 0}, {0, 0}));
  {
    OpCase neg = b2s_twin;
    neg.int_inputs = {Ints({1, 2, 3}, ElementType::kBoolean),
                      Ints({0, 1, 0}, ElementType::kBoolean),
                      Ints({0, 0, 2}, ElementType::kBoolean)};
    b.Rule("b2s.inputs.integer_type", neg,
           b2s_case({12, 2, 3}, {1, 2, 3}, {0, 1, 0}, {0, 0, 2}, ElementType::kI32));
    OpCase mixed = b2s_twin;
    mixed.int_inputs[0] = Ints({1, 2, 3}, ElementType::kI32);
    b.Rule("b2s.inputs.same_type", mixed, b2s_twin);
  }
  b.Rule("b2s.inputs.shape", b2s_case({12, 2, 3}, {1, 2}, {0, 1}, {0, 0}), b2s_twin);
  b.Rule("b2s.block_shape.positive", b2s_case({12, 2, 3}, {1, -2, 3}, {0, 1, 0}, {0, 0, 2}),
         b2s_twin);
  b.Rule("b2s.crops_begin.nonnegative", b2s_case({12, 2, 3}, {1, 2, 3}, {0, -1, 0}, {0, 0, 2}),
         b2s_twin);
  b.Rule("b2s.crops_end.nonnegative", b2s_case({12, 2, 3}, {1, 2, 3}, {0, 1, 0}, {0, 0, -2}),
         b2s_twin);
  b.Rule("b2s.batch.divisible", b2s_case({10, 2, 3}, {1, 2, 3}, {0, 1, 0}, {0, 0, 2}), b2s_twin);
  b.Rule("b2s.crops.fit", b2s_case({12, 2, 3}, {1, 2, 3}, {0, 3, 0}, {0, 2, 2}), b2s_twin);
  b.Rule("b2s.block_shape.batch_one", b2s_case({24, 2, 3}, {2, 2, 3}, {0, 1, 0}, {0, 0, 2}),
         b2s_twin);
  b.Rule("b2s.crops_begin.batch_zero", b2s_case({12, 2, 3}, {1, 2, 3}, {1, 1, 0}, {0, 0, 2}),
         b2s_twin);
  b.Rule("b2s.crops_end.batch_zero", b2s_case({12, 2, 3}, {1, 2, 3}, {0, 1, 0}, {1, 0, 2}),
         b2s_twin);

  // SpaceToDepth / DepthToSpace.
  for (Op op : {Op::kSpaceToDepth, Op::kDepthToSpace}) {
    const bool s2d = op == Op::kSpaceToDepth;
    const std::string p = s2d ? "s2d" : "d2s";
    const Shape good = s2d ? Shape{1, 2, 4, 6} : Shape{1, 8, 2, 3};
    const Shape not_divisible = s2d ? Shape{1, 2, 4, 5} : Shape{1, 6, 2, 3};
    const OpCase twin = Depth(op, kF32, good, 2, "depth_first");
    b.Rule(p + ".data.rank", Depth(op, kF32, {4, 4}, 2, "blocks_first"),
           Depth(op, kF32, s2d ? Shape{1, 2, 4} : Shape{1, 4, 3}, 2, "blocks_first"));
    b.Rule(p + ".block_size.positive", Depth(op, kF32, good, 0, "depth_first"), twin);
    b.Rule(p + ".mode.required", Depth(op, kF32, good, 2, std::nullopt), twin);
    b.Rule(p + ".mode.enum", Depth(op, kF32, good, 2, "columns_first"), twin);
    b.Rule(p + ".block_size.divides", Depth(op, kF32, not_divisible, 2, "depth_first"), twin);
  }

  // ExtractImagePatches: twin [1,2,5,5] sizes 2x2 strides 2x2 rates 1x1 same_lower.
  const OpCase eip = Eip(kF32, {1, 2, 5, 5}, {2, 2}, {2, 2}, {1, 1}, "same_lower");
  b.Rule("eip.data.rank", Eip(kF32, {2, 5, 5}, {2, 2}, {2, 2}, {1, 1}, "same_lower"), eip);
  b.Rule("eip.sizes.length", Eip(kF32, {1, 2, 5, 5}, {2}, {2, 2}, {1, 1}, "same_lower"), eip);
  b.Rule("eip.strides.length", Eip(kF32, {1, 2, 5, 5}, {2, 2}, {2, 2, 2}, {1, 1}, "same_lower"),
         eip);
  b.Rule("eip.rates.length", Eip(kF32, {1, 2, 5, 5}, {2, 2}, {2, 2}, {}, "same_lower"), eip);
  b.Rule("eip.sizes.nonnegative", Eip(kF32, {1, 2, 5, 5}, {-1, 2}, {2, 2}, {1, 1}, "same_lower"),
         eip);
  b.Rule("eip.strides.positive", Eip(kF32, {1, 2, 5, 5}, {2, 2}, {0, 2}, {1, 1}, "same_lower"),
         eip);
  b.Rule("eip.rates.positive", Eip(kF32, {1, 2, 5, 5}, {2, 2}, {2, 2}, {1, 0}, "same_lower"), eip);
  b.Rule("eip.auto_pad.required", Eip(kF32, {1, 2, 5, 5}, {2, 2}, {2, 2}, {1, 1}, std::nullopt),
         eip);
  b.Rule("eip.auto_pad.enum", Eip(kF32, {1, 2, 5, 5}, {2, 2}, {2, 2}, {1, 1}, "same"), eip);
  b.Rule("eip.sizes.zero", Eip(kF32, {1, 2, 5, 5}, {0, 2}, {2, 2}, {1, 1}, "same_lower"), eip);
}

void Edges(Builder& b) {
  const Op s2b = Op::kSpaceToBatch, b2s = Op::kBatchToSpace;
  const Op s2d = Op::kSpaceToDepth, d2s = Op::kDepthToSpace;
  // Zero-sized dims.
  b.Add(Blocks(s2b, kF32, {0, 4, 6}, {1, 2, 3}, {0, 1, 0}, {0, 1, 3}), "edge");
  b.Add(Blocks(s2b, kF32, {2, 0, 6}, {1, 2, 3}, {0, 0, 0}, {0, 0, 3}), "edge");
  b.Add(Blocks(b2s, kF32, {0, 2, 3}, {1, 2, 3}, {0, 1, 0}, {0, 0, 2}), "edge");
  b.Add(Depth(d2s, kF32, {0, 8, 2, 3}, 2, "blocks_first"), "edge");
  b.Add(Depth(s2d, kF32, {1, 2, 0, 6}, 2, "blocks_first"), "edge");
  b.Add(Eip(kF32, {0, 2, 5, 5}, {2, 2}, {2, 2}, {1, 1}, "valid"), "edge");
  // block_size 1 and block_shape of ones (identity).
  for (const char* mode : {"blocks_first", "depth_first"}) {
    b.Add(Depth(s2d, kF32, {1, 3, 2, 2}, 1, mode), "edge");
    b.Add(Depth(d2s, kF32, {1, 3, 2, 2}, 1, mode), "edge");
    // 3-D and 5-D data.
    b.Add(Depth(d2s, kF32, {2, 6, 3}, 2, mode), "edge");
    b.Add(Depth(s2d, kF32, {2, 3, 6}, 3, mode), "edge");
    b.Add(Depth(d2s, kF32, {1, 16, 2, 1, 3}, 2, mode), "edge");
    b.Add(Depth(s2d, kF32, {1, 2, 2, 4, 2}, 2, mode), "edge");
    b.Add(Depth(d2s, ElementType::kBoolean, {1, 8, 2, 2}, 2, mode), "edge");
    b.Add(Depth(d2s, kF32, {2, 18, 2, 2}, 3, mode), "edge");
  }
  b.Add(Blocks(s2b, kF32, {2, 3, 4}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}), "edge");
  // ExtractImagePatches: image smaller than the patch; odd same_* padding; rates > 1.
  for (const char* pad : {"valid", "same_upper", "same_lower"}) {
    b.Add(Eip(kF32, {1, 2, 2, 3}, {3, 3}, {1, 1}, {1, 1}, pad), "edge");
    b.Add(Eip(kF32, {2, 3, 6, 7}, {2, 3}, {2, 1}, {1, 2}, pad), "edge");
    b.Add(Eip(kF32, {1, 2, 7, 7}, {3, 2}, {3, 2}, {2, 1}, pad), "edge");
  }
  // Every element type through every op, position-coded, and special values for floats.
  for (ElementType t : AllElementTypes()) {
    for (bool special : {false, true}) {
      if (special && SpecialValues(t).empty() && t != ElementType::kF8e4m3) continue;
      b.Add(Blocks(s2b, t, {2, 3, 4}, {1, 2, 2}, {0, 1, 0}, {0, 0, 0}), "edge", special);
      b.Add(Blocks(b2s, t, {8, 2, 3}, {1, 2, 2}, {0, 1, 0}, {0, 0, 1}), "edge", special);
      b.Add(Depth(s2d, t, {1, 2, 4, 4}, 2, "blocks_first"), "edge", special);
      b.Add(Depth(d2s, t, {1, 8, 2, 3}, 2, "depth_first"), "edge", special);
      b.Add(Eip(t, {1, 2, 5, 4}, {2, 2}, {2, 1}, {1, 2}, "same_lower"), "edge", special);
    }
  }
  // Integer input types for block_shape / pads / crops.
  for (ElementType it : {ElementType::kI8, ElementType::kU8, ElementType::kI16, ElementType::kU16,
                         ElementType::kI32, ElementType::kU32, ElementType::kU64}) {
    b.Add(Blocks(s2b, kF32, {2, 4, 6}, {1, 2, 3}, {0, 1, 0}, {0, 1, 3}, it), "edge");
    b.Add(Blocks(b2s, kF32, {12, 2, 3}, {1, 2, 3}, {0, 1, 0}, {0, 0, 2}, it), "edge");
  }
}

// The sweep is harness/gen's seeded driver (docs/generators.md): case i of seed s is
// SeededCase(s, i), valid by construction or breaking exactly one rule or an overflow case, so
// any sweep case can be rebuilt from (s, i) alone. One valid case in four gets special values.
void Sweep(Builder& b) {
  GenerateOptions g;
  g.ops = b.o.ops;
  g.build.data_types = b.o.types;
  for (int i = 0; i < b.o.sweep_count; ++i) {
    GeneratedCase gc = SeededCase(b.o.seed, static_cast<uint64_t>(i), g);
    const std::string suffix = absl::StrCat(".s", b.o.seed, "i", i);
    const std::string group = absl::StrCat("sweep/", LaneName(gc.lane));
    if (gc.lane == Lane::kValid) {
      if (MixSeed(b.o.seed, static_cast<uint64_t>(i)) % 4 == 0) {
        b.Add(std::move(gc.c), group, /*special=*/true, suffix);
      } else {
        b.AddAsIs(std::move(gc.c), group, suffix);  // the generator's positional data
      }
      continue;
    }
    // Malformed cases (a case.* rule) are not conformance cases: the oracle has no
    // expectation for them. Overflow cases are kept when refused or small enough to run.
    absl::StatusOr<Validation> v = Validate(gc.c);
    if (!v.ok()) continue;
    if (v->kind() == ExpectationKind::kValid) {
      int64_t n = 1;
      for (int64_t d : v->output_shape) {
        n = d > 0 && n > (int64_t{1} << 22) / d ? (int64_t{1} << 23) : n * d;
      }
      if (n > (int64_t{1} << 22)) continue;
    }
    if (!Evaluate(gc.c).ok()) continue;  // e.g. an intermediate over the size limit
    b.AddAsIs(std::move(gc.c), group, suffix);
  }
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
      absl::StrAppend(&id, ".b", c.block_size.has_value() ? absl::StrCat(*c.block_size) : "none",
                      ".", c.mode.value_or("nomode"));
      break;
    case Op::kExtractImagePatches:
      absl::StrAppend(&id, ".k", Dims(c.sizes), ".s", Dims(c.strides), ".r", Dims(c.rates), ".",
                      c.auto_pad.value_or("nopad"));
      break;
  }
  return id;
}

void FillData(OpCase& c, bool special) {
  Tensor& d = c.data;
  const int w = BitWidth(d.type);
  const uint64_t mask = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  std::vector<uint64_t> specials = SpecialValues(d.type);
  if (d.type == ElementType::kF8e4m3) specials = {0x80, 0x7f, 0xff, 0x01, 0x7e};
  const int64_t n = d.NumElements();
  for (int64_t i = 0; i < n; ++i) {
    uint64_t bits = static_cast<uint64_t>(i + 1) & mask;
    if (w < 8) bits = static_cast<uint64_t>(i * 5 + 3) & mask;
    if (d.type == ElementType::kBoolean) bits = static_cast<uint64_t>(i + 1) & 1;
    if (special && !specials.empty() && i % 2 == 0) {
      bits = specials[static_cast<size_t>(i / 2) % specials.size()];
    }
    d.SetBits(i, bits);
  }
}

std::vector<OpCase> DirectedSweep(const Capabilities& caps, uint64_t seed, int count_per_op) {
  bool narrow = false;
  for (const OpSupport& s : caps.ops) {
    narrow = narrow || s.element_types.size() < AllElementTypes().size();
  }
  CatalogueOptions none;
  Builder b{none, {}, {}};
  if (!narrow || count_per_op <= 0) return {};
  for (const OpSupport& s : caps.ops) {
    GenerateOptions g;
    g.ops = {s.op};
    g.negative_weight = 0;
    g.overflow_weight = 0;
    g.build.data_types.assign(s.element_types.begin(), s.element_types.end());
    if (g.build.data_types.empty()) continue;
    g.build.min_rank = std::max(s.min_rank, 1);
    g.build.max_rank = std::min(s.max_rank, 8);
    g.build.modes.assign(s.modes.begin(), s.modes.end());
    for (int i = 0; i < count_per_op; ++i) {
      // Each op has its own index range, so adding an op never changes another op's cases.
      const uint64_t index = static_cast<uint64_t>(s.op) * 1000000u + static_cast<uint64_t>(i);
      // One case in four may have zero-sized dims: the rest go to data that moves.
      g.build.zero_size = (MixSeed(seed, index) >> 8) % 4 == 0;
      GeneratedCase gc = SeededCase(seed, index, g);
      const std::string suffix = absl::StrCat(".s", seed, "i", index);
      if (MixSeed(seed, index) % 4 == 0) {
        b.Add(std::move(gc.c), "directed", /*special=*/true, suffix);
      } else {
        b.AddAsIs(std::move(gc.c), "directed", suffix);
      }
    }
  }
  return std::move(b.out);
}

std::vector<OpCase> BuildCatalogue(const CatalogueOptions& o) {
  Builder b{o, {}, {}};
  Examples(b);
  Rules(b);
  Edges(b);
  Sweep(b);
  return std::move(b.out);
}

}  // namespace dmconf
