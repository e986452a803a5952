// The dmconf-vector/1 reader on raw bytes: io::ParseVector must never crash, and a malformed
// input must give an error whose message starts with a rule id. When parsing succeeds, the
// canonical writer must be a fixed point: SerializeVector, ParseVector again, SerializeVector
// gives the same bytes (and the second parse succeeds).
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "fuzz/text_checks.h"
#include "harness/io/vector_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dmconf;
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<io::VectorCase> v = io::ParseVector(text, "input.json");
  if (!v.ok()) {
    CheckNamedError(v.status(), "ParseVector");
    return 0;
  }
  const std::string once = io::SerializeVector(*v);
  absl::StatusOr<io::VectorCase> back = io::ParseVector(once, "canonical.json");
  if (!back.ok()) {
    FuzzFailText("the canonical text of a parsed vector does not parse",
                 absl::StrCat(back.status().message(), "\n  text: ", once));
  }
  const std::string twice = io::SerializeVector(*back);
  if (twice != once) {
    size_t at = 0;
    while (at < once.size() && at < twice.size() && once[at] == twice[at]) ++at;
    FuzzFailText(
        "SerializeVector(ParseVector(SerializeVector(v))) differs from SerializeVector(v)",
        absl::StrCat("first difference at byte ", at, "\n  first:  ", once, "\n  second: ", twice));
  }
  return 0;
}
