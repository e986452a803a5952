// The other JSON readers on raw bytes: expectation (known-failure) files (ParseExpectations),
// vector-set manifests (io::ParseManifest) and reports (the report reader of `dmconf report`,
// StreamReport, given the bytes as a file). Each input goes to all three. Never a crash; a
// malformed input gives an error whose message starts with a rule id; an accepted expectations
// file answers Find() for any backend / case id; an accepted report becomes an HTML page, and
// the page `report html` writes from the file (read twice, one case at a time) is the same
// bytes as the page of the report held whole (LoadReport).
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "fuzz/text_checks.h"
#include "harness/backend/verdict.h"
#include "harness/io/manifest.h"
#include "harness/report/html_report.h"
#include "harness/report/report_stream.h"
#include "harness/runner/expectations.h"

namespace {

// The report reader on `text`, written to an in-memory file.
void CheckReportReader(absl::string_view text) {
  const int fd = memfd_create("report.json", MFD_CLOEXEC);
  if (fd < 0) return;
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  if (done == text.size()) {
    const absl::StatusOr<dmconf::RunReport> whole = dmconf::LoadReport(path);
    const absl::StatusOr<std::string> streamed =
        dmconf::HtmlReportOfFile(path, {.max_failures = 3, .report_path = "report.json"});
    if (!whole.ok()) dmconf::CheckNamedError(whole.status(), "LoadReport");
    if (!streamed.ok()) dmconf::CheckNamedError(streamed.status(), "HtmlReportOfFile");
    if (streamed.ok() != whole.ok()) {
      dmconf::FuzzFailText("HtmlReportOfFile and LoadReport disagree on acceptance",
                           streamed.ok() ? whole.status().message() : streamed.status().message());
    }
    if (whole.ok() && streamed.ok() &&
        *streamed !=
            dmconf::HtmlReport(whole->Input(), {.max_failures = 3, .report_path = "report.json"})) {
      dmconf::FuzzFailText("the streamed page differs from the page of the whole report", "");
    }
  }
  close(fd);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dmconf;
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<Expectations> e = ParseExpectations(text, "input.json");
  if (e.ok()) {
    // Patterns are fuzzer-made: glob matching must stay linear enough and never crash.
    const absl::string_view id = text.substr(0, 64);
    for (const KnownFailure& k : e->known) {
      (void)GlobMatch(k.case_pattern, id);
      (void)GlobMatch(k.case_pattern, k.case_pattern);
    }
    (void)e->Find("armnn", id, Verdict::kWrongValues);
  } else {
    CheckNamedError(e.status(), "ParseExpectations");
  }
  absl::StatusOr<io::ManifestFile> m = io::ParseManifest(text, "MANIFEST.json");
  if (!m.ok()) CheckNamedError(m.status(), "ParseManifest");
  CheckReportReader(text);
  return 0;
}
