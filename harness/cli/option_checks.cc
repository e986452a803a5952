#include "harness/cli/option_checks.h"

#include <cmath>
#include <iostream>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "harness/base/shown_text.h"

namespace dmconf::cli {
namespace {

// Digits with at most one leading sign: absl::SimpleAtoi also accepts surrounding spaces and
// a leading '+', which a strict command line does not need.
bool IsDecimal(const std::string& s, bool allow_minus) {
  size_t i = 0;
  if (allow_minus && !s.empty() && s[0] == '-') i = 1;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  return true;
}

std::string Bound(int64_t v) {
  if (v == INT64_MAX) return "2^63-1";
  if (v == INT64_MIN) return "-2^63";
  return absl::StrCat(v);
}

}  // namespace

CLI::Validator IntegerIn(int64_t lo, int64_t hi) {
  const std::string range = absl::StrCat("[", Bound(lo), ", ", Bound(hi), "]");
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        int64_t v = 0;
        if (!IsDecimal(text, /*allow_minus=*/true) || !absl::SimpleAtoi(text, &v) || v < lo ||
            v > hi) {
          return absl::StrCat("cli.integer: '", text, "' is not an integer in ", range,
                              " (values out of range are refused, never saturated)");
        }
        return "";
      },
      "INT in " + range, "IntegerIn");
}

CLI::Validator Unsigned64() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        uint64_t v = 0;
        if (!IsDecimal(text, /*allow_minus=*/false) || !absl::SimpleAtoi(text, &v)) {
          return absl::StrCat("cli.integer: '", text,
                              "' is not an unsigned integer in [0, 2^64-1]");
        }
        return "";
      },
      "UINT64", "Unsigned64");
}

CLI::Validator SecondsIn(double max) {
  return CLI::Validator(
      [max](std::string& text) -> std::string {
        double v = 0;
        if (!absl::SimpleAtod(text, &v) || !std::isfinite(v) || !(v > 0) || v > max) {
          return absl::StrCat("cli.seconds: '", text, "' is not a number of seconds in (0, ", max,
                              "]");
        }
        return "";
      },
      absl::StrCat("SECONDS in (0, ", max, "]"), "SecondsIn");
}

CLI::Validator NonEmptyPath() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return text.empty() ? "cli.path.empty: the path is empty" : "";
      },
      "PATH", "NonEmptyPath");
}

CLI::Validator NonEmptyList() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return text.find_first_not_of(", ") == std::string::npos
                   ? "cli.list.empty: the list is empty; leave the option out for all"
                   : "";
      },
      "LIST", "NonEmptyList");
}

int ExitForParseError(const CLI::App& app, const CLI::ParseError& e) {
  // CLI11 writes a help page or a failure message of several lines as one piece: written again
  // a line at a time (harness/base/shown_text.h), the argument a message quotes (its first
  // line, e.what()) shown as one line first.
  std::ostringstream out, err;
  const int code = app.exit(e, out, err);
  WriteLines(std::cout, out.str());
  std::string failure = err.str();
  const std::string what = e.what();
  if (absl::StartsWith(failure, what)) failure = OneLine(what) + failure.substr(what.size());
  WriteLines(std::cerr, failure);
  return code == 0 ? 0 : kUsageExitCode;
}

}  // namespace dmconf::cli
