// A rule id the compiler checks. AddViolation takes a RuleId, and a RuleId can only be made
// at compile time from a string that is in the rule table (oracle/rule_table.h): a misspelt
// id does not compile, and every violation has a rule (Validation::kind() never meets null).
//
// Example:
//   AddViolation(v, "s2d.block_size.divides", "...");    // compiles: the rule exists
//   AddViolation(v, "s2d.block_size.divide", "...");     // error: not a constant expression
#ifndef DMCONF_ORACLE_RULE_ID_H_
#define DMCONF_ORACLE_RULE_ID_H_

#include <string_view>

#include "oracle/rule_table.h"
#include "oracle/rules.h"

namespace dmconf {

class RuleId {
 public:
  // NOLINTNEXTLINE(google-explicit-constructor): written as a string literal at call sites.
  consteval RuleId(const char* id) : rule_(Find(id)) {}

  const Rule& rule() const { return *rule_; }
  absl::string_view id() const { return rule_->id; }

 private:
  static consteval const Rule* Find(std::string_view id) {
    for (const Rule& r : rule_table::kRuleTable) {
      if (std::string_view(r.id.data(), r.id.size()) == id) return &r;
    }
    // Reached only for an id the table lacks; a throw in a consteval call is a compile error.
    throw "unknown rule id: add it to oracle/rule_table.h or fix the spelling";
  }

  const Rule* rule_;
};

}  // namespace dmconf

#endif  // DMCONF_ORACLE_RULE_ID_H_
