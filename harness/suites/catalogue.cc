#include "harness/suites/catalogue.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/base/parallel_ranges.h"
#include "harness/gen/case_ids.h"
#include "harness/gen/fills.h"
#include "harness/gen/generate.h"
#include "harness/suites/copy_tail.h"
#include "harness/suites/curated.h"
#include "harness/suites/model_cases.h"
#include "harness/suites/vector_sets.h"
#include "oracle/case_factory.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

// The special-value order of the edge cases: fixed, so an edge id always names the same data.
constexpr uint64_t kEdgeSpecialSeed = 1;

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

// A digest of what a case holds (op, attributes, data, integer inputs), not of its id: the
// "vector/" cases leave out a golden case that an earlier source already holds.
uint64_t ContentDigest(const OpCase& c) {
  uint64_t h = 14695981039346656037ull;  // FNV-1a
  auto mix = [&](absl::string_view bytes) {
    for (unsigned char ch : bytes) h = (h ^ ch) * 1099511628211ull;
  };
  auto tensor = [&](const Tensor& t) {
    mix(absl::StrCat("|", ElementTypeName(t.type), "[", absl::StrJoin(t.shape, ","), "]"));
    mix(absl::string_view(reinterpret_cast<const char*>(t.bytes.data()), t.bytes.size()));
  };
  mix(absl::StrCat(OpPrefix(c.op), "|", AttributesToString(c.op, c)));
  tensor(c.data);
  for (const Tensor& t : c.int_inputs) tensor(t);
  return h;
}

struct Builder {
  const CatalogueOptions& o;
  std::vector<OpCase> out;
  std::vector<int64_t> index;  // per case of `out`: its hollow index (Keep), or -1
  std::set<std::string> ids;
  std::set<uint64_t> contents;  // ContentDigest of every case Keep took

  bool Wanted(const OpCase& c) const {
    if (!o.ops.empty() && std::find(o.ops.begin(), o.ops.end(), c.op) == o.ops.end()) return false;
    if (!o.types.empty() &&
        std::find(o.types.begin(), o.types.end(), c.data.type) == o.types.end()) {
      return false;
    }
    return true;
  }

  // Adds c with the positional fill or, with `special`, the special-value fill (seeded by
  // special_seed).
  void Add(OpCase c, const std::string& group, bool special = false, const std::string& suffix = "",
           uint64_t special_seed = kEdgeSpecialSeed) {
    if (special) {
      FillSpecial(c.data, special_seed);
    } else {
      FillPositional(c.data);
    }
    AddAsIs(std::move(c), group, suffix, special);
  }

  // False when the filters drop c; else names it: its id and origin (the group's first part).
  bool Name(OpCase& c, const std::string& group, const std::string& suffix, bool special) const {
    if (!Wanted(c)) return false;
    c.id = CatalogueId(group, c, special, suffix);
    c.origin = group.substr(0, group.find('/'));
    return true;
  }

  // Adds c, named, unless its id is already in (the same case from two sources: the first
  // stays). `hollow_index`: for a hollow sweep case, its sweep index (-1: held whole).
  void Keep(OpCase c, int64_t hollow_index = -1) {
    if (!ids.insert(c.id).second) return;
    contents.insert(ContentDigest(c));
    out.push_back(std::move(c));
    index.push_back(hollow_index);
  }

  // Adds c with the data it has (harness/gen's cases and the curated ones come filled).
  void AddAsIs(OpCase c, const std::string& group, const std::string& suffix = "",
               bool special = false) {
    if (Name(c, group, suffix, special)) Keep(std::move(c));
  }
};

constexpr ElementType kF32 = ElementType::kF32;

// The curated cases (harness/gen/curated.h), shared with the golden vectors. The catalogue
// leaves out the `*.output.representable` pairs (dims or attributes near 2^63 over no data):
// its overflow lane covers those, and the golden vectors carry the pairs.
void Curated(Builder& b) {
  for (SpecExample& e : SpecExamples()) b.AddAsIs(std::move(e.c), "example");
  for (ModelCase& m : ModelCases()) b.AddAsIs(std::move(m.c), absl::StrCat("model/", m.name));
  for (RulePair& p : RulePairs()) {
    if (absl::EndsWith(p.rule, ".output.representable")) continue;
    b.AddAsIs(std::move(p.negative), absl::StrCat("rule/", p.rule, "/neg"));
    b.AddAsIs(std::move(p.twin), absl::StrCat("rule/", p.rule, "/twin"));
  }
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
  // block_size absent: "Default value: 1", a valid case (an implementation that reads the
  // absent attribute as 0 refuses it). Ranks 3 to 5, both modes, a few types.
  for (const char* mode : {"blocks_first", "depth_first"}) {
    b.Add(Depth(s2d, kF32, {1, 3, 2, 2}, std::nullopt, mode), "edge");
    b.Add(Depth(d2s, kF32, {1, 3, 2, 2}, std::nullopt, mode), "edge");
    b.Add(Depth(d2s, ElementType::kI8, {2, 5, 3}, std::nullopt, mode), "edge");
    b.Add(Depth(s2d, ElementType::kU16, {1, 2, 3, 1, 2}, std::nullopt, mode), "edge");
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
      if (special && SpecialBits(t).empty()) continue;
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

}  // namespace

bool RunnableGeneratedCase(const OpCase& c) {
  // Malformed cases (a case.* rule) are not conformance cases: the oracle has no expectation
  // for them. Overflow cases are kept when refused or small enough to run.
  absl::StatusOr<Validation> v = Validate(c);
  if (!v.ok()) return false;
  if (v->kind() == ExpectationKind::kValid) {
    int64_t n = 1;
    for (int64_t d : v->output_shape) {
      n = d > 0 && n > (int64_t{1} << 22) / d ? (int64_t{1} << 23) : n * d;
    }
    if (n > (int64_t{1} << 22)) return false;
  }
  return Evaluate(c).ok();  // e.g. an intermediate over the size limit
}

namespace {
// Divisibility broken with blocks of 3 to 6 (must_reject). Widened for the shape lane
// (KeepRuleBroken), a dim that breaks the rule becomes the widest interval whose every value
// breaks it, e.g. D_1 = 7 with block 4 -> [5, 7]: a shape inference that checks divisibility
// only for exact dims accepts it.
void BrokenDivisibility(Builder& b) {
  const Op s2b = Op::kSpaceToBatch, b2s = Op::kBatchToSpace;
  const Op s2d = Op::kSpaceToDepth, d2s = Op::kDepthToSpace;
  b.Add(Blocks(s2b, kF32, {1, 7, 4}, {1, 4, 1}, {0, 0, 0}, {0, 0, 0}), "edge");
  b.Add(Blocks(s2b, kF32, {1, 6, 6}, {1, 5, 4}, {0, 1, 0}, {0, 0, 1}), "edge");
  b.Add(Blocks(s2b, kF32, {2, 5, 3, 4}, {1, 3, 1, 6}, {0, 0, 0, 1}, {0, 0, 0, 0}), "edge");
  b.Add(Blocks(s2b, ElementType::kU8, {1, 8, 2}, {1, 3, 1}, {0, 1, 0}, {0, 1, 0}), "edge");
  b.Add(Blocks(s2b, kF32, {1, 11, 3}, {1, 6, 1}, {0, 0, 0}, {0, 0, 0}), "edge");
  b.Add(Blocks(s2b, kF32, {3, 4, 9}, {1, 1, 5}, {0, 0, 2}, {0, 0, 0}), "edge");
  b.Add(Blocks(b2s, kF32, {7, 2, 3}, {1, 2, 3}, {0, 0, 0}, {0, 0, 0}), "edge");
  b.Add(Blocks(b2s, kF32, {10, 1, 1, 2}, {1, 2, 2, 2}, {0, 0, 0, 0}, {0, 0, 0, 0}), "edge");
  for (const char* mode : {"blocks_first", "depth_first"}) {
    b.Add(Depth(s2d, kF32, {1, 2, 7, 8}, 4, mode), "edge");
    b.Add(Depth(s2d, kF32, {1, 1, 6, 5}, 3, mode), "edge");
    b.Add(Depth(s2d, ElementType::kI8, {2, 1, 9, 10, 4}, 4, mode), "edge");
    b.Add(Depth(d2s, kF32, {1, 10, 2, 2}, 2, mode), "edge");
    b.Add(Depth(d2s, kF32, {1, 14, 3}, 3, mode), "edge");
  }
}

// The sweep is harness/gen's seeded driver (docs/generators.md): case i of seed s is
// SeededCase(s, i), valid by construction or breaking exactly one rule or an overflow case, so
// any sweep case can be rebuilt from (s, i) alone. One valid case in four gets special values.
// The sweep draws over every op whatever --ops and keeps the wanted ones (Builder::Name): case
// i is the same case in a run of every op and in a run of its op alone, so that `dmconf run`
// is the union of its per-op runs (and of the per-op tests of dmconf_add_backend_tests).
GenerateOptions SweepOptions(const CatalogueOptions& o) {
  GenerateOptions g;
  g.build.data_types = o.types;
  return g;
}

// Sweep case i filled (`special`: with special values), not yet named.
GeneratedCase FilledSweepCase(uint64_t seed, const GenerateOptions& g, uint64_t i, bool* special) {
  GeneratedCase gc = SeededCase(seed, i, g);
  // The rest keep the generator's positional data.
  *special = FillSpecialIfDrawn(seed, i, gc);
  return gc;
}

// The sweep's generator options: as given (`whole`), without data (`shapes_only`: the builders
// draw the same choices with or without it) and with zero bytes (`zeroed`: the same choices and
// byte count, no fill).
struct SweepGenerators {
  explicit SweepGenerators(const CatalogueOptions& o)
      : whole(SweepOptions(o)), shapes_only(whole), zeroed(whole) {
    shapes_only.build.with_data = false;
    zeroed.build.positional = false;
  }
  GenerateOptions whole, shapes_only, zeroed;
};

// Sweep case i made alone, filled and named, or nullopt (not wanted, or not runnable). With
// `o.hollow`, its data bytes are left out when they can be (`*hollow` set): a case of the
// valid lane is built without its data at all (shapes_only); the others are built zeroed and
// emptied once named when their data is well formed. A case whose bytes are malformed (they
// are the case itself) is built with its own bytes.
std::optional<OpCase> SweepCase(const Builder& b, const SweepGenerators& gens, uint64_t i,
                                bool* hollow) {
  const GenerateOptions &g = gens.whole, &shapes_only = gens.shapes_only, &zeroed = gens.zeroed;
  *hollow = false;
  bool special = false;
  GeneratedCase gc;
  if (b.o.hollow) {
    gc = SeededCase(b.o.seed, i, shapes_only);
    special = DrawsSpecialValues(b.o.seed, i, gc.kind);
    if (gc.kind == GenKind::kValid) {
      // Its data is made again well formed when it runs: only if it can be made at all.
      *hollow = Tensor::ByteSize(gc.c.data.type, gc.c.data.shape).ok();
    } else {
      gc = SeededCase(b.o.seed, i, zeroed);
      // Tensor::Validate looks at the byte count alone, which the fill does not change.
      *hollow = gc.c.data.Validate("data").ok();
    }
  }
  if (!*hollow) gc = FilledSweepCase(b.o.seed, g, i, &special);
  // (A zeroed case still holds its bytes here: Evaluate reads them.)
  if (gc.kind != GenKind::kValid && !RunnableGeneratedCase(gc.c)) return std::nullopt;
  const std::string group = absl::StrCat("sweep/", GenKindName(gc.kind));
  if (!b.Name(gc.c, group, SweepSuffix(b.o.seed, i), special)) return std::nullopt;
  if (*hollow) std::vector<uint8_t>().swap(gc.c.data.bytes);  // its memory too
  return std::move(gc.c);
}

// The sweep's cases in index order; made in blocks, each block's cases in o.threads threads
// (each case depends on its index alone, so the cases are the same for any thread count).
// The last source of edition 1 (EditionTwo follows it). `after_block`, when set, is
// called after each block is added.
void Sweep(Builder& b, const std::function<void()>& after_block = {}) {
  const SweepGenerators gens(b.o);
  constexpr int kBlock = 4096;
  std::vector<std::optional<OpCase>> made;
  std::vector<char> hollow;
  for (int begin = 0; begin < b.o.sweep_count; begin += kBlock) {
    const int end = std::min(b.o.sweep_count, begin + kBlock);
    made.assign(static_cast<size_t>(end - begin), std::nullopt);
    hollow.assign(made.size(), 0);
    ForEachRange(made.size(), b.o.threads, [&](size_t from, size_t to) {
      for (size_t k = from; k < to; ++k) {
        bool h = false;
        made[k] = SweepCase(b, gens, static_cast<uint64_t>(begin) + k, &h);
        hollow[k] = h ? 1 : 0;
      }
    });
    // Kept without Keep's set, which no sweep id can be in: each starts with `sweep/`, which
    // no earlier source's group does, and ends with its own index (SweepSuffix: `...i<index>`,
    // the digits after the id's last `i`).
    for (size_t k = 0; k < made.size(); ++k) {
      if (!made[k].has_value()) continue;
      b.out.push_back(*std::move(made[k]));
      b.index.push_back(hollow[k] ? begin + static_cast<int64_t>(k) : -1);
    }
    if (after_block) after_block();
  }
}

// What edition 2 adds after the sweep (catalogue.h): the rule pairs at rank 4, BatchToSpace
// and SpaceToBatch at rank 4 in every element type, position-coded and with special values, and
// the copy-tail cases (copy_tail.h).
void EditionTwo(Builder& b) {
  if (b.o.edition < 2) return;
  for (CopyTailCase& t : CopyTailCases()) b.AddAsIs(std::move(t.c), "tail");
  for (RulePair& p : RulePairs(4)) {
    b.AddAsIs(std::move(p.negative), absl::StrCat("rule/", p.rule, "/neg"));
    b.AddAsIs(std::move(p.twin), absl::StrCat("rule/", p.rule, "/twin"));
  }
  const Op s2b = Op::kSpaceToBatch, b2s = Op::kBatchToSpace;
  for (ElementType t : AllElementTypes()) {
    for (bool special : {false, true}) {
      if (special && SpecialBits(t).empty()) continue;
      b.Add(Blocks(s2b, t, {2, 3, 4, 2}, {1, 2, 2, 1}, {0, 1, 0, 0}, {0, 0, 0, 1}), "edge",
            special);
      b.Add(Blocks(b2s, t, {8, 2, 3, 2}, {1, 2, 2, 1}, {0, 1, 0, 0}, {0, 0, 1, 1}), "edge",
            special);
    }
  }
}

// What edition 3 adds (catalogue.h): every case of the golden vectors (vectors/golden, at its
// seed) that no earlier case holds, as "vector/<vector id>".
void EditionThree(Builder& b) {
  if (b.o.edition < 3) return;
  absl::StatusOr<std::vector<OpCase>> golden = io::ProfileCases("golden", io::kDefaultSeed);
  if (!golden.ok()) return;  // (no error path here: the golden set's own tests report it)
  for (OpCase& c : *golden) {
    if (!b.Wanted(c) || b.contents.count(ContentDigest(c)) > 0) continue;
    c.id = absl::StrCat("vector/", c.id);
    c.origin = "vector";
    b.Keep(std::move(c));
  }
}

}  // namespace

std::vector<OpCase> DirectedSweep(const Capabilities& caps, uint64_t seed, int count_per_op) {
  bool narrow = false;
  for (const OpSupport& s : caps.ops) {
    narrow = narrow || s.element_types.size() < AllElementTypes().size();
  }
  CatalogueOptions none;
  Builder b{none, {}, {}, {}, {}};
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
      const std::string suffix = SweepSuffix(seed, index);
      if (DrawsSpecialValues(seed, index, gc.kind)) {
        b.Add(std::move(gc.c), "directed", /*special=*/true, suffix, seed);
      } else {
        b.AddAsIs(std::move(gc.c), "directed", suffix);
      }
    }
  }
  return std::move(b.out);
}

std::vector<OpCase> BuildCatalogue(const CatalogueOptions& o, std::vector<int64_t>* hollow_index) {
  Builder b{o, {}, {}, {}, {}};
  Curated(b);
  Edges(b);
  BrokenDivisibility(b);
  Sweep(b);
  EditionTwo(b);
  EditionThree(b);
  if (hollow_index != nullptr) *hollow_index = std::move(b.index);
  return std::move(b.out);
}

void ForEachCatalogueBlock(const CatalogueOptions& o, const CatalogueBlockFn& take) {
  Builder b{o, {}, {}, {}, {}};
  Curated(b);
  Edges(b);
  BrokenDivisibility(b);
  size_t first = 0;
  const auto hand_over = [&] {
    if (b.out.empty()) return;
    take(b.out, b.index, first);
    first += b.out.size();
    b.out.clear();
    b.index.clear();
  };
  hand_over();
  Sweep(b, hand_over);
  EditionTwo(b);
  EditionThree(b);
  hand_over();
}

namespace {

// Sweep case `index` of the catalogue of `o`, made alone, hollow or whole.
std::optional<OpCase> OneSweepCase(const CatalogueOptions& o, uint64_t index, bool hollow) {
  CatalogueOptions one = o;
  one.hollow = hollow;
  const Builder b{one, {}, {}, {}, {}};
  bool left_out = false;
  return SweepCase(b, SweepGenerators(one), index, &left_out);
}

}  // namespace

std::optional<OpCase> WholeSweepCase(const CatalogueOptions& o, uint64_t index) {
  return OneSweepCase(o, index, /*hollow=*/false);
}

std::optional<OpCase> HollowSweepCase(const CatalogueOptions& o, uint64_t index) {
  return OneSweepCase(o, index, /*hollow=*/true);
}

Tensor SweepData(const CatalogueOptions& o, uint64_t index) {
  bool special = false;
  return FilledSweepCase(o.seed, SweepOptions(o), index, &special).c.data;
}

}  // namespace dmconf
