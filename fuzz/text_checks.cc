#include "fuzz/text_checks.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace dmconf {

bool StartsWithRuleId(absl::string_view message) {
  const size_t colon = message.find(": ");
  if (colon == absl::string_view::npos || colon == 0) return false;
  int words = 0;
  for (absl::string_view w : absl::StrSplit(message.substr(0, colon), '.')) {
    if (w.empty()) return false;
    for (char ch : w) {
      const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
      if (!ok) return false;
    }
    ++words;
  }
  return words >= 2;
}

void FuzzFailText(absl::string_view what, absl::string_view detail) {
  const std::string text = absl::StrCat("dmconf fuzz failure: ", what, "\n  ", detail, "\n");
  std::fputs(text.c_str(), stderr);
  std::abort();
}

void CheckNamedError(const absl::Status& s, absl::string_view reader) {
  if (s.ok()) return;
  if (!StartsWithRuleId(s.message())) {
    FuzzFailText(absl::StrCat(reader, ": error without a rule id"), s.message());
  }
}

}  // namespace dmconf
