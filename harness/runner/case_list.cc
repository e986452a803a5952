#include "harness/runner/case_list.h"

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

namespace dmconf {

namespace {

// The specifications' modes (DepthToSpace-1, SpaceToDepth-1) and auto_pad values
// (ExtractImagePatches-3), coded 1..5; 0 is no mode; a list codes any other mode it keeps
// 6..15 (CaseList::kOtherModes).
const std::array<std::string, 5>& SpecModes() {
  static const std::array<std::string, 5> modes = {"blocks_first", "depth_first", "valid",
                                                   "same_upper", "same_lower"};
  return modes;
}
constexpr unsigned kFirstOtherMode = 6;

// The mode OpSupportCovers reads: ExtractImagePatches' auto_pad, the others' mode.
const std::optional<std::string>& ModeOf(const OpCase& c) {
  return c.op == Op::kExtractImagePatches ? c.auto_pad : c.mode;
}

// An unheld shape case's entry: the catalogue position in bits 0-28 and the sweep index in
// 29-57 (k29 masks a position or an index); its facts: the op in bits 0-2 and whether it is
// static in bit 3.
constexpr uint64_t k29 = (uint64_t{1} << 29) - 1;

// An unheld kernel case's entry is its sweep index; its facts: the op in bits 0-2, the element
// type in 3-7, the rank in 8-11 and the mode's code in 12-15.
struct Facts {
  Op op;
  ElementType type;
  int64_t rank;
  unsigned mode;  // its code
};

Facts FactsOf(uint16_t f) {
  return {static_cast<Op>(f & 7u), static_cast<ElementType>((f >> 3) & 31u),
          static_cast<int64_t>((f >> 8) & 15u), (f >> 12) & 15u};
}

}  // namespace

const std::string* CaseList::ModeOfCode(unsigned code) const {
  if (code == 0) return nullptr;
  if (code < kFirstOtherMode) return &SpecModes()[code - 1];
  return &other_modes_[code - kFirstOtherMode];
}

std::optional<uint16_t> CaseList::UnheldFacts(const OpCase& c, int64_t sweep_index) {
  if (c.data.shape.size() > 15 || sweep_index < 0 || sweep_index >= (int64_t{1} << 31) ||
      static_cast<uint64_t>(c.op) > 7 || static_cast<uint64_t>(c.data.type) > 31) {
    return std::nullopt;
  }
  const std::optional<unsigned> mode = ModeCode(ModeOf(c));
  if (!mode.has_value()) return std::nullopt;  // no code left
  const uint64_t rank = c.data.shape.size();
  const auto op = static_cast<uint64_t>(c.op);
  const auto type = static_cast<uint64_t>(c.data.type);
  return static_cast<uint16_t>(op | type << 3 | rank << 8 | uint64_t{*mode} << 12);
}

std::optional<unsigned> CaseList::ModeCode(const std::optional<std::string>& m) {
  if (!m.has_value()) return 0;
  const std::array<std::string, 5>& spec = SpecModes();
  if (const auto at = std::find(spec.begin(), spec.end(), *m); at != spec.end()) {
    return static_cast<unsigned>(at - spec.begin()) + 1;
  }
  const auto seen = other_modes_.begin() + other_mode_count_;
  if (const auto at = std::find(other_modes_.begin(), seen, *m); at != seen) {
    return kFirstOtherMode + static_cast<unsigned>(at - other_modes_.begin());
  }
  if (other_mode_count_ == kOtherModes) return std::nullopt;
  other_modes_[other_mode_count_] = *m;
  return kFirstOtherMode + static_cast<unsigned>(other_mode_count_++);
}

void CaseList::AddUnheld(int64_t sweep_index, uint16_t facts) {
  AddEntry(static_cast<uint64_t>(sweep_index), facts);
}

bool CaseList::AddUnheld(const OpCase& c, int64_t sweep_index) {
  const std::optional<uint16_t> facts = UnheldFacts(c, sweep_index);
  if (!facts.has_value()) return false;
  AddUnheld(sweep_index, *facts);
  return true;
}

int64_t CaseList::SweepIndex(size_t i) const {
  return IsUnheld(i) ? static_cast<int64_t>(Entry(i)) : -1;
}

Op CaseList::OpAt(size_t i) const {
  const PreparedCase* p = Held(i);
  return p != nullptr ? p->c.op : FactsOf(FactsAt(i)).op;
}

bool CaseList::InSlice(size_t i, const OpSupport& s) const {
  if (const PreparedCase* p = Held(i)) return OpSupportCovers(s, p->c);
  const Facts f = FactsOf(FactsAt(i));
  return OpSupportCovers(s, f.op, f.type, f.rank, ModeOfCode(f.mode));
}

bool CaseList::Matches(size_t i, const OpCase& c) const {
  if (Held(i) != nullptr) return true;
  const Facts f = FactsOf(FactsAt(i));
  const std::string* mode = ModeOfCode(f.mode);
  const std::optional<std::string>& m = ModeOf(c);
  return c.op == f.op && c.data.type == f.type &&
         static_cast<int64_t>(c.data.shape.size()) == f.rank &&
         (mode == nullptr ? !m.has_value() : m.has_value() && *m == *mode);
}

bool ShapeCaseList::Fits(int64_t position, int64_t sweep_index) {
  return position >= 0 && sweep_index >= 0 && static_cast<uint64_t>(position) <= k29 &&
         static_cast<uint64_t>(sweep_index) <= k29;
}

bool ShapeCaseList::AddUnheld(const ShapeCase& s, int64_t position, int64_t sweep_index) {
  if (!Fits(position, sweep_index) || static_cast<uint64_t>(s.c.op) > 7) return false;
  const auto op = static_cast<uint64_t>(s.c.op);
  const uint64_t is_static = s.c.IsStatic() ? 1 : 0;
  AddEntry(static_cast<uint64_t>(position) | static_cast<uint64_t>(sweep_index) << 29,
           static_cast<uint8_t>(op | is_static << 3));
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
  return p != nullptr ? p->s.c.op : static_cast<Op>(FactsAt(i) & 7u);
}

bool ShapeCaseList::IsStatic(size_t i) const {
  const PreparedShapeCase* p = Held(i);
  return p != nullptr ? p->s.c.IsStatic() : ((FactsAt(i) >> 3) & 1u) != 0;
}

bool ShapeCaseList::Matches(size_t i, const ShapeCase& s) const {
  return Held(i) != nullptr || (s.c.op == OpAt(i) && s.c.IsStatic() == IsStatic(i));
}

}  // namespace dmconf
