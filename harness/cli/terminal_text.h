// The filter every byte dmconf prints on its standard output and error streams passes: control
// bytes (below 0x20 but tab, and DEL) are written as \xNN, and so is every newline that is not
// dmconf's own: one with more text after it inside the same `<<` operand. The rule that tells
// dmconf's own newlines from those of ids, paths, option values and plugin messages, and how
// text of several lines is written (WriteLines), is in harness/base/shown_text.h. Ids, paths,
// option values, plugin messages and element types come from users and plugins; an ESC, a
// carriage return or a newline among them could rewrite the terminal, hide a line or forge one
// (`dmconf run --backend $'x\nFAKE: OK'`). One filter on the two streams covers every message,
// present and future, rather than each call site (the progress display, written with stdio,
// keeps its own \r and ESC).
//
// Example (main.cc):
//   dmconf::cli::EscapeControlBytes guard;  // std::cout and std::cerr escaped until it ends
#ifndef DMCONF_HARNESS_CLI_TERMINAL_TEXT_H_
#define DMCONF_HARNESS_CLI_TERMINAL_TEXT_H_

#include <memory>
#include <streambuf>
#include <string>

namespace dmconf::cli {

// `text` as the filter writes it when it is one operand: control bytes, and newlines but the
// last byte, as \xNN.
std::string EscapeControl(const std::string& text);

// A streambuf that escapes as above and forwards everything to `target` unbuffered: each
// sputn is one operand.
class EscapingStreambuf : public std::streambuf {
 public:
  explicit EscapingStreambuf(std::streambuf* target) : target_(target) {}

 protected:
  int_type overflow(int_type ch) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override { return target_->pubsync(); }

 private:
  std::streambuf* target_;
};

// Installs EscapingStreambuf on std::cout and std::cerr; restores them when destroyed.
class EscapeControlBytes {
 public:
  EscapeControlBytes();
  ~EscapeControlBytes();
  EscapeControlBytes(const EscapeControlBytes&) = delete;
  EscapeControlBytes& operator=(const EscapeControlBytes&) = delete;

 private:
  std::streambuf* out_;
  std::streambuf* err_;
  std::unique_ptr<EscapingStreambuf> out_filter_, err_filter_;
};

}  // namespace dmconf::cli

#endif  // DMCONF_HARNESS_CLI_TERMINAL_TEXT_H_
