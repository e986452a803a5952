#include "oracle/rules.h"

#include <array>

#include "oracle/rule_table.h"

namespace dmconf {

absl::string_view RuleKindName(RuleKind k) {
  switch (k) {
    case RuleKind::kMustReject:
      return "must_reject";
    case RuleKind::kUnspecified:
      return "unspecified";
    case RuleKind::kMalformed:
      return "malformed";
  }
  return "?";
}

absl::Span<const Rule> AllRules() { return rule_table::kRuleTable; }

const Rule* FindRule(absl::string_view id) {
  for (const Rule& r : rule_table::kRuleTable) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

}  // namespace dmconf
