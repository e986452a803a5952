// report_roundtrip REPORT.json...: each report, decoded by the report reader (LoadReport)
// and written again by the writer (JsonReportText), is the document it was read from: the same
// JSON value (keys in any order). Each case also goes through the per-case pair on its own
// (DecodeCase, then CaseJson) and comes back equal. The first difference is printed as a JSON
// patch from the file's value to the rewritten one. Exit status 0: all equal; 1: a difference
// or a report the reader refused; 2: usage.
#include <deque>
#include <iostream>
#include <string>

#include "harness/base/files.h"
#include "harness/base/json_location.h"
#include "harness/report/report.h"
#include "harness/report/report_reader.h"
#include "harness/report/report_stream.h"
#include "nlohmann/json.hpp"

namespace {

using nlohmann::json;

bool Same(const std::string& what, const json& read, const json& written) {
  if (read == written) return true;
  std::cout << "FAIL " << what
            << ": written again it differs: " << json::diff(read, written).dump().substr(0, 2000)
            << "\n";
  return false;
}

// Every case of the report, one at a time.
bool CasesRoundTrip(const std::string& file, const json& read) {
  std::deque<dmconf::KnownFailure> known;
  for (size_t b = 0; b < read["backends"].size(); ++b) {
    const json& cases = read["backends"][b]["cases"];
    for (size_t c = 0; c < cases.size(); ++c) {
      const dmconf::io::JsonLoc at =
          dmconf::io::JsonLoc{file, ""}.Key("backends").Index(b).Key("cases").Index(c);
      absl::StatusOr<dmconf::CaseResult> r = dmconf::DecodeCase(cases[c], at, known);
      if (!r.ok()) {
        std::cout << "FAIL " << at.ToString() << ": " << r.status().message() << "\n";
        return false;
      }
      if (!Same(at.ToString(), cases[c], json(dmconf::CaseJson(*r)))) return false;
    }
  }
  return true;
}

bool RoundTrip(const std::string& file) {
  absl::StatusOr<std::string> text = dmconf::io::ReadFileToString(file, int64_t{1} << 30);
  if (!text.ok()) {
    std::cout << "FAIL " << text.status().message() << "\n";
    return false;
  }
  absl::StatusOr<dmconf::RunReport> decoded = dmconf::LoadReport(file);
  if (!decoded.ok()) {
    std::cout << "FAIL " << decoded.status().message() << "\n";
    return false;
  }
  const json read = json::parse(*text);
  const json written = json::parse(dmconf::JsonReportText(decoded->Input()));
  if (!Same(file, read, written) || !CasesRoundTrip(file, read)) return false;
  std::cout << "ok   " << file << ": " << read["summary"]["cases"] << " cases written again\n";
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: report_roundtrip REPORT.json...\n";
    return 2;
  }
  bool ok = true;
  for (int i = 1; i < argc; ++i) ok = RoundTrip(argv[i]) && ok;
  return ok ? 0 : 1;
}
