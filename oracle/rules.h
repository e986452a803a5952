// The rule table: every normative sentence of the five specifications, plus the case-level
// rules for malformed input, with a stable id, a kind and the text it comes from.
//
// One table is used by the oracle, the generators, the tests, the reports and the docs
// (`dmconf rules` prints it; docs/rules.md is generated from it). Error messages start with the
// rule id: "s2b.block_shape.divides: (10 + 1 + 0) is not divisible by 4".
//
// Example:
//   const Rule* r = FindRule("s2d.block_size.divides");
//   r->kind == RuleKind::kMustReject
#ifndef DMCONF_ORACLE_RULES_H_
#define DMCONF_ORACLE_RULES_H_

#include <cstdint>
#include <optional>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "oracle/op_case.h"

namespace dmconf {

enum class RuleKind : uint8_t {
  // A conforming implementation must refuse the case (an error at shape inference or run).
  kMustReject,
  // The specification gives no result; an implementation may do anything but crash or hang.
  kUnspecified,
  // The case itself is malformed (not a well-formed tensor or attribute set); the oracle
  // answers with an absl::Status error naming the rule, never with an expectation.
  kMalformed,
};
absl::string_view RuleKindName(RuleKind k);  // "must_reject", "unspecified", "malformed"

struct Rule {
  absl::string_view id;  // "s2b.block_shape.divides"
  std::optional<Op> op;  // std::nullopt for case-level rules
  RuleKind kind;
  absl::string_view source;   // "SpaceToBatch-2, Inputs, pads_begin"
  absl::string_view text;     // the normative sentence, quoted or summarised
  absl::string_view erratum;  // ledger entry that decides it ("E5"), or empty
};

absl::Span<const Rule> AllRules();
// nullptr when no rule has that id.
const Rule* FindRule(absl::string_view id);

}  // namespace dmconf

#endif  // DMCONF_ORACLE_RULES_H_
