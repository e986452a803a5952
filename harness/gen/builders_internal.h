// Internal to harness/gen: choices shared by the per-op builders.
#ifndef DMCONF_HARNESS_GEN_BUILDERS_INTERNAL_H_
#define DMCONF_HARNESS_GEN_BUILDERS_INTERNAL_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "harness/gen/builders.h"

namespace dmconf::gen_internal {

// An integer in [lo, hi] (lo <= hi) skewed towards lo: mostly within lo + 2, sometimes within
// lo + 7, sometimes anywhere.
int64_t Count(Chooser& ch, int64_t lo, int64_t hi);
// A dim in [0, cap] (cap >= 1): 0 only when o.zero_size, else in [1, cap], skewed small.
int64_t Dim(Chooser& ch, const BuildOptions& o, int64_t cap);
// Batch: 1, 2..3 or 0 (zero only when allowed), at most cap.
int64_t Batch(Chooser& ch, const BuildOptions& o, int64_t cap);
// Channels: 1..3, 7..9, 15..17 (around CPU blocked-layout widths 8 and 16) or 0; at most cap.
int64_t Channels(Chooser& ch, const BuildOptions& o, int64_t cap);
// A block: 1, 2..4, or large (5..cap), at most cap (cap >= 1).
int64_t Block(Chooser& ch, int64_t cap);
// Pads (or crops) summing to at most total: none, begin only, end only, or both. With
// zero_size false they leave at least one element of a non-empty dim.
std::pair<int64_t, int64_t> Pads(Chooser& ch, const BuildOptions& o, int64_t total);

int Rank(Chooser& ch, const BuildOptions& o, int lo, int hi);
ElementType DataType(Chooser& ch, const BuildOptions& o);
// An integer type for block/pads/crops values, simplest (i64) first.
ElementType IntType(Chooser& ch);
// A 1-D integer tensor of type t holding values; i64 when the values do not fit t.
Tensor IntTensor(ElementType t, const std::vector<int64_t>& values);
// A mode / auto_pad value from `all` allowed by o.modes.
std::string Mode(Chooser& ch, const BuildOptions& o, const std::vector<std::string>& all);

// The data tensor: positional bits, or shape and type only when !o.with_data.
Tensor Data(const BuildOptions& o, ElementType t, const Shape& shape);

// max(x, 1): zero dims count as one when budgeting elements.
inline int64_t AtLeast1(int64_t x) { return x < 1 ? 1 : x; }

OpCase BuildSpaceToBatch(Chooser& ch, const BuildOptions& o);
OpCase BuildBatchToSpace(Chooser& ch, const BuildOptions& o);
OpCase BuildSpaceToDepth(Chooser& ch, const BuildOptions& o);
OpCase BuildDepthToSpace(Chooser& ch, const BuildOptions& o);
OpCase BuildExtractImagePatches(Chooser& ch, const BuildOptions& o);

}  // namespace dmconf::gen_internal

#endif  // DMCONF_HARNESS_GEN_BUILDERS_INTERNAL_H_
