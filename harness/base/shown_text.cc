#include "harness/base/shown_text.h"

namespace dmconf {

bool ShownEscaped(unsigned char b) { return (b < 0x20 && b != '\t') || b == 0x7f; }

void AppendEscapedByte(unsigned char b, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->append("\\x");
  out->push_back(kHex[b >> 4]);
  out->push_back(kHex[b & 0xf]);
}

std::string OneLine(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    const auto b = static_cast<unsigned char>(ch);
    if (ShownEscaped(b)) {
      AppendEscapedByte(b, &out);
    } else {
      out.push_back(ch);
    }
  }
  return out;
}

void WriteLines(std::ostream& out, absl::string_view text) {
  while (!text.empty()) {
    const size_t end = text.find('\n');
    const size_t n = end == absl::string_view::npos ? text.size() : end + 1;
    out << text.substr(0, n);
    text.remove_prefix(n);
  }
}

}  // namespace dmconf
