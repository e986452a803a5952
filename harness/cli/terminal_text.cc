#include "harness/cli/terminal_text.h"

#include <iostream>

namespace dmconf::cli {
namespace {

bool IsControl(unsigned char b) { return (b < 0x20 && b != '\n' && b != '\t') || b == 0x7f; }

void AppendEscaped(unsigned char b, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out->append("\\x");
  out->push_back(kHex[b >> 4]);
  out->push_back(kHex[b & 0xf]);
}

}  // namespace

std::string EscapeControl(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    const auto b = static_cast<unsigned char>(ch);
    if (IsControl(b)) {
      AppendEscaped(b, &out);
    } else {
      out.push_back(ch);
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
    if (!IsControl(b)) continue;
    if (i > plain && target_->sputn(s + plain, i - plain) != i - plain) return plain;
    std::string esc;
    AppendEscaped(b, &esc);
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
