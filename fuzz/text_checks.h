// Checks shared by the targets that read text (vector_reader, json_readers): a reader's error
// must be an absl::Status whose message starts with a rule id ("vector.json.syntax: ...").
#ifndef DMCONF_FUZZ_TEXT_CHECKS_H_
#define DMCONF_FUZZ_TEXT_CHECKS_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace dmconf {

// True when message starts with a rule id: two or more '.'-separated words of [a-z0-9_], then
// ": ".
bool StartsWithRuleId(absl::string_view message);

// Aborts with "dmconf fuzz failure: <what>" and the detail on stderr, so libFuzzer keeps the
// input.
[[noreturn]] void FuzzFailText(absl::string_view what, absl::string_view detail);

// Aborts unless s is an error whose message starts with a rule id; `reader` names the reader.
void CheckNamedError(const absl::Status& s, absl::string_view reader);

}  // namespace dmconf

#endif  // DMCONF_FUZZ_TEXT_CHECKS_H_
