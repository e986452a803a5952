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

// The facts of an unheld entry.
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

CaseList::CaseList(std::vector<PreparedCase> held) {
  for (PreparedCase& p : held) held_.push_back(std::move(p));
}

void CaseList::MakeOrder() {
  if (!order_.empty() || held_.empty()) return;
  order_.reserve(held_.size());
  for (size_t k = 0; k < held_.size(); ++k) order_.push_back(k);
}

void CaseList::Add(PreparedCase p) {
  held_.push_back(std::move(p));
  if (!order_.empty()) order_.push_back(held_.size() - 1);
}

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
  MakeOrder();
  order_.push_back(kUnheld | static_cast<uint64_t>(sweep_index) | op << 32 | type << 35 |
                   rank << 40 | mode << 44);
  return true;
}

const PreparedCase* CaseList::Held(size_t i) const {
  if (order_.empty()) return &held_[i];
  const uint64_t e = order_[i];
  return (e & kUnheld) != 0 ? nullptr : &held_[e];
}

int64_t CaseList::SweepIndex(size_t i) const {
  if (order_.empty() || (order_[i] & kUnheld) == 0) return -1;
  return static_cast<int64_t>(order_[i] & 0x7fffffffu);
}

Op CaseList::OpAt(size_t i) const {
  const PreparedCase* p = Held(i);
  return p != nullptr ? p->c.op : FactsOf(order_[i]).op;
}

bool CaseList::InSlice(size_t i, const OpSupport& s) const {
  if (const PreparedCase* p = Held(i)) return OpSupportCovers(s, p->c);
  const Facts f = FactsOf(order_[i]);
  return OpSupportCovers(s, f.op, f.type, f.rank, f.mode);
}

bool CaseList::Matches(size_t i, const OpCase& c) const {
  if (Held(i) != nullptr) return true;
  const Facts f = FactsOf(order_[i]);
  const std::optional<std::string>& m = ModeOf(c);
  return c.op == f.op && c.data.type == f.type &&
         static_cast<int64_t>(c.data.shape.size()) == f.rank &&
         (f.mode == nullptr ? !m.has_value() : m.has_value() && *m == *f.mode);
}

void CaseList::Hold(size_t i, PreparedCase whole) {
  if (order_.empty()) {
    held_[i] = std::move(whole);
  } else if ((order_[i] & kUnheld) == 0) {
    held_[order_[i]] = std::move(whole);
  } else {
    held_.push_back(std::move(whole));
    order_[i] = held_.size() - 1;
  }
}

}  // namespace dmconf
