// Partial shapes: interval dims [lo, hi] (hi may be unbounded) and possibly unknown rank, as
// OpenVINO's PartialShape / Dimension describe them.
//
// Example:
//   PartialShape p = PartialShape::Of({Dim::Exact(1), Dim::Range(2, 8), Dim::AtLeast(3)});
//   p.ToString() == "[1,[2,8],[3,inf)]";   p.Contains({1, 4, 100}) == true
//   PartialShape::DynamicRank().ToString() == "[...]"
#ifndef DMCONF_ORACLE_PARTIAL_PARTIAL_SHAPE_H_
#define DMCONF_ORACLE_PARTIAL_PARTIAL_SHAPE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "oracle/shape.h"

namespace dmconf {

struct Dim {
  int64_t lo = 0;
  std::optional<int64_t> hi;  // std::nullopt: unbounded

  static Dim Exact(int64_t v) { return {v, v}; }
  static Dim Range(int64_t lo, int64_t hi) { return {lo, hi}; }
  static Dim AtLeast(int64_t lo) { return {lo, std::nullopt}; }
  static Dim Any() { return {0, std::nullopt}; }  // OpenVINO's "?"

  bool IsStatic() const { return hi && *hi == lo; }
  bool Contains(int64_t v) const { return v >= lo && (!hi || v <= *hi); }
  // "3", "[2,8]", "[3,inf)", "?".
  std::string ToString() const;
  friend bool operator==(const Dim& a, const Dim& b) { return a.lo == b.lo && a.hi == b.hi; }
};

struct PartialShape {
  std::optional<std::vector<Dim>> dims;  // std::nullopt: unknown rank

  static PartialShape DynamicRank() { return {}; }
  static PartialShape Of(std::vector<Dim> d) { return {std::move(d)}; }
  static PartialShape Static(const Shape& s);

  bool RankKnown() const { return dims.has_value(); }
  // True when the rank matches (or is unknown) and every dim lies in its interval.
  bool Contains(const Shape& s) const;
  // "[1,[2,8],?]" or "[...]" for an unknown rank.
  std::string ToString() const;
  // Every dim well formed: 0 <= lo <= hi. Errors name `case.tensor.dims_nonnegative`.
  absl::Status Validate(absl::string_view what) const;
};

}  // namespace dmconf

#endif  // DMCONF_ORACLE_PARTIAL_PARTIAL_SHAPE_H_
