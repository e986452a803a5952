#include "harness/cli/terminal_text.h"

#include <iostream>

#include "harness/base/shown_text.h"

namespace dmconf::cli {
namespace {

// Whether byte i of an operand of n bytes is written as \xNN: a control byte, or a newline
// that does not end the operand (harness/base/shown_text.h).
bool Escaped(unsigned char b, size_t i, size_t n) {
  return b == '\n' ? i + 1 != n : ShownEscaped(b);
}

}  // namespace

std::string EscapeControl(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (Escaped(b, i, text.size())) {
      AppendEscapedByte(b, &out);
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

EscapingStreambuf::int_type EscapingStreambuf::overflow(int_type ch) {
  if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
  const char c = traits_type::to_char_type(ch);
  return xsputn(&c, 1) == 1 ? ch : traits_type::eof();
}

std::streamsize EscapingStreambuf::xsputn(const char* s, std::streamsize n) {
  std::streamsize plain = 0;  // the start of a run of bytes that need no escape
  for (std::streamsize i = 0; i < n; ++i) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (!Escaped(b, static_cast<size_t>(i), static_cast<size_t>(n))) continue;
    if (i > plain && target_->sputn(s + plain, i - plain) != i - plain) return plain;
    std::string esc;
    AppendEscapedByte(b, &esc);
    if (target_->sputn(esc.data(), 4) != 4) return i;
    plain = i + 1;
  }
  if (n > plain && target_->sputn(s + plain, n - plain) != n - plain) return plain;
  return n;
}

EscapeControlBytes::EscapeControlBytes()
    : out_(std::cout.rdbuf()),
      err_(std::cerr.rdbuf()),
      out_filter_(std::make_unique<EscapingStreambuf>(out_)),
      err_filter_(std::make_unique<EscapingStreambuf>(err_)) {
  std::cout.rdbuf(out_filter_.get());
  std::cerr.rdbuf(err_filter_.get());
}

EscapeControlBytes::~EscapeControlBytes() {
  std::cout.flush();
  std::cerr.flush();
  std::cout.rdbuf(out_);
  std::cerr.rdbuf(err_);
}

}  // namespace dmconf::cli
