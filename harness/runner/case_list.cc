#include "harness/runner/case_list.h"

#include <array>
#include <optional>
#include <utility>

namespace dmconf {

namespace {

// The specifications' modes (DepthToSpace-1, SpaceToDepth-1) and auto_pad values
// (ExtractImagePatches-3), coded 1..5; 0 is no mode.
constexpr std::array<const char*, 5> kModes = {"blocks_first", "depth_first", "valid", "same_upper",
                                               "same_lower"};

// The mode OpSupportCovers reads: ExtractImagePatches' auto_pad, the others' mode.
const std::optional<std::string>& ModeOf(const OpCase& c) {
  return c.op == Op::kExtractImagePatches ? c.auto_pad : c.mode;
}

// The code of the case's mode, or nullopt for a mode no specification names.
std::optional<uint64_t> ModeCode(const OpCase& c) {
  const std::optional<std::string>& m = ModeOf(c);
  if (!m.has_value()) return 0;
  for (size_t k = 0; k < kModes.size(); ++k) {
    if (*m == kModes[k]) return k + 1;
  }
  return std::nullopt;
}

// An unheld shape case's entry: the catalogue position in bits 0-28, the sweep index in 29-57,
// the op in 58-60 and whether it is static in bit 61 (k29 masks a position or an index).
constexpr uint64_t k29 = (uint64_t{1} << 29) - 1;

// The facts of an unheld kernel case's entry: the sweep index in bits 0-30, the op in 32-34,
// the element type in 35-39, the rank in 40-43 and the mode's code (ModeCode) in 44-46.
struct Facts {
  Op op;
  ElementType type;
  int64_t rank;
  const std::string* mode;  // nullptr: none
};

Facts FactsOf(uint64_t e) {
  static const std::array<std::string, 5> modes = {kModes[0], kModes[1], kModes[2], kModes[3],
                                                   kModes[4]};
  const uint64_t mode = (e >> 44) & 7;
  return {static_cast<Op>((e >> 32) & 7), static_cast<ElementType>((e >> 35) & 31),
          static_cast<int64_t>((e >> 40) & 15), mode == 0 ? nullptr : &modes[mode - 1]};
}

}  // namespace

bool CaseList::Fits(const OpCase& c, int64_t sweep_index) {
  return ModeCode(c).has_value() && c.data.shape.size() <= 15 && sweep_index >= 0 &&
         sweep_index < (int64_t{1} << 31) && static_cast<uint64_t>(c.op) <= 7 &&
         static_cast<uint64_t>(c.data.type) <= 31;
}

bool CaseList::AddUnheld(const OpCase& c, int64_t sweep_index) {
  if (!Fits(c, sweep_index)) return false;
  const uint64_t mode = *ModeCode(c);
  const uint64_t rank = c.data.shape.size();
  const auto op = static_cast<uint64_t>(c.op);
  const auto type = static_cast<uint64_t>(c.data.type);
  AddEntry(static_cast<uint64_t>(sweep_index) | op << 32 | type << 35 | rank << 40 | mode << 44);
  return true;
}

int64_t CaseList::SweepIndex(size_t i) const {
  return IsUnheld(i) ? static_cast<int64_t>(Entry(i) & 0x7fffffffu) : -1;
}

Op CaseList::OpAt(size_t i) const {
  const PreparedCase* p = Held(i);
  return p != nullptr ? p->c.op : FactsOf(Entry(i)).op;
}

bool CaseList::InSlice(size_t i, const OpSupport& s) const {
  if (const PreparedCase* p = Held(i)) return OpSupportCovers(s, p->c);
  const Facts f = FactsOf(Entry(i));
  return OpSupportCovers(s, f.op, f.type, f.rank, f.mode);
}

bool CaseList::Matches(size_t i, const OpCase& c) const {
  if (Held(i) != nullptr) return true;
  const Facts f = FactsOf(Entry(i));
  const std::optional<std::string>& m = ModeOf(c);
  return c.op == f.op && c.data.type == f.type &&
         static_cast<int64_t>(c.data.shape.size()) == f.rank &&
         (f.mode == nullptr ? !m.has_value() : m.has_value() && *m == *f.mode);
}

bool ShapeCaseList::Fits(int64_t position, int64_t sweep_index) {
  return position >= 0 && sweep_index >= 0 && static_cast<uint64_t>(position) <= k29 &&
         static_cast<uint64_t>(sweep_index) <= k29;
}

bool ShapeCaseList::AddUnheld(const ShapeCase& s, int64_t position, int64_t sweep_index) {
  if (!Fits(position, sweep_index) || static_cast<uint64_t>(s.c.op) > 7) return false;
  const auto op = static_cast<uint64_t>(s.c.op);
  const uint64_t is_static = s.c.IsStatic() ? 1 : 0;
  AddEntry(static_cast<uint64_t>(position) | static_cast<uint64_t>(sweep_index) << 29 | op << 58 |
           is_static << 61);
  return true;
}

int64_t ShapeCaseList::Position(size_t i) const {
  return IsUnheld(i) ? static_cast<int64_t>(Entry(i) & k29) : -1;
}

int64_t ShapeCaseList::SweepIndex(size_t i) const {
  return IsUnheld(i) ? static_cast<int64_t>((Entry(i) >> 29) & k29) : -1;
}

Op ShapeCaseList::OpAt(size_t i) const {
  const PreparedShapeCase* p = Held(i);
  return p != nullptr ? p->s.c.op : static_cast<Op>((Entry(i) >> 58) & 7);
}

bool ShapeCaseList::IsStatic(size_t i) const {
  const PreparedShapeCase* p = Held(i);
  return p != nullptr ? p->s.c.IsStatic() : ((Entry(i) >> 61) & 1) != 0;
}

bool ShapeCaseList::Matches(size_t i, const ShapeCase& s) const {
  return Held(i) != nullptr || (s.c.op == OpAt(i) && s.c.IsStatic() == IsStatic(i));
}

}  // namespace dmconf
