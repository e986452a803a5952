// Text shown on the terminal: what is dmconf's own line structure and what came from outside.
//
// Every byte dmconf writes on its standard output and error passes one filter
// (harness/cli/terminal_text.h): control bytes (below 0x20 but tab, and DEL) are shown as \xNN,
// and so is every newline that is not dmconf's own. The filter tells them apart by the one rule
// dmconf's printing keeps: **a newline is dmconf's own when it ends the `<<` operand that holds
// it** (`std::cerr << cmd << ": " << s.message() << "\n"`, `"written: " << path << "\n"`). A
// newline with more text after it inside one operand came from outside: an id, a path, an
// option value, a plugin's message, embedded in a message (`backend.unknown: 'x\nFAKE: OK'`
// shows as `backend.unknown: 'x\x0aFAKE: OK'`), and can never start a line of its own.
//
// Text dmconf builds of several lines (the run's summary, the list of an expectations update,
// a report diff, a help page) is written with WriteLines, a line per operand, and the builder
// shows each field from outside through OneLine first: WriteLines cannot tell the newlines of a
// field from the builder's own. A value from outside that ends with a newline and is printed as
// an operand of its own ends its line early: the next line still starts with dmconf's own text.
//
// Example:
//   OneLine("x\nFAKE: OK\x1b")  == "x\\x0aFAKE: OK\\x1b"
//   WriteLines(std::cout, SummaryText(runs, options));
#ifndef DMCONF_HARNESS_BASE_SHOWN_TEXT_H_
#define DMCONF_HARNESS_BASE_SHOWN_TEXT_H_

#include <ostream>
#include <string>

#include "absl/strings/string_view.h"

namespace dmconf {

// Whether `b` is shown as \xNN inside a line: a control byte (below 0x20 but tab; the newline
// included) or DEL.
bool ShownEscaped(unsigned char b);

// Appends `b` as \xNN (lower-case hex).
void AppendEscapedByte(unsigned char b, std::string* out);

// `text` from outside, for one line of dmconf's terminal output: every byte ShownEscaped as
// \xNN; anything else as it is (tabs and UTF-8 kept).
std::string OneLine(absl::string_view text);

// Writes dmconf's own text of several lines to `out` a line at a time (each line with its
// newline as one operand), so that the filter keeps its newlines. A last line without a newline
// is written as it is.
void WriteLines(std::ostream& out, absl::string_view text);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_BASE_SHOWN_TEXT_H_
