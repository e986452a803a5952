#include "harness/report/source_map.h"

#include <unordered_map>
#include <vector>

#include "harness/compare/diagnosis.h"

namespace dmconf {

std::optional<CaseResult::Shrunk::SourceMap> SourceMapOf(const PreparedCase& c,
                                                         const CaseResult& r) {
  if (r.verdict != Verdict::kWrongValues || !r.mismatch.has_value()) return std::nullopt;
  const Mismatch& m = *r.mismatch;
  if (m.total > kMaxSourceMapElements || static_cast<int64_t>(m.listed.size()) != m.differing) {
    return std::nullopt;
  }
  if (!c.expectation.ok() || !c.expectation->output.has_value()) return std::nullopt;
  const Tensor& want = *c.expectation->output;
  if (want.NumElements() != m.total || !IsPositionEncoded(c.c.data)) return std::nullopt;
  // Positional data: each data element's bits are its own, so bits name a flat index.
  std::unordered_map<uint64_t, int64_t> index_of;
  for (int64_t i = 0; i < c.c.data.NumElements(); ++i) index_of.emplace(c.c.data.GetBits(i), i);
  const auto source = [&index_of](uint64_t bits) -> int64_t {
    auto it = index_of.find(bits);
    return it == index_of.end() ? -1 : it->second;
  };
  CaseResult::Shrunk::SourceMap out;
  out.shape = m.shape;
  out.input_shape = c.c.data.shape;
  for (int64_t i = 0; i < m.total; ++i) {
    out.expected.push_back(source(want.GetBits(i)));
    out.holds.push_back(out.expected.back());
  }
  bool moved = false;
  for (const WrongElement& w : m.listed) {
    if (w.flat < 0 || w.flat >= m.total) return std::nullopt;
    out.holds[w.flat] = source(w.actual_bits);
    moved |= out.holds[w.flat] >= 0;
  }
  if (!moved) return std::nullopt;  // wrong values, not moved elements: nothing to map
  return out;
}

nlohmann::ordered_json SourceMapJson(const CaseResult::Shrunk::SourceMap& m) {
  return nlohmann::ordered_json{{"shape", m.shape},
                                {"input_shape", m.input_shape},
                                {"holds", m.holds},
                                {"expected", m.expected}};
}

}  // namespace dmconf
