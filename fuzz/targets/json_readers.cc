// The other JSON readers on raw bytes: expectation (known-failure) files (ParseExpectations),
// vector-set manifests (io::ParseManifest) and reports (ParseReport, for `dmconf report`).
// Each input goes to all three. Never a crash; a malformed input gives an error whose message
// starts with a rule id; an accepted expectations file answers Find() for any backend / case
// id; an accepted report becomes an HTML page. The streamed report reader of `report merge`
// and `report diff` (StreamReport, given the bytes as a file) accepts exactly the reports
// ParseReport accepts, with the same cases.
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
#include "harness/report/report_reader.h"
#include "harness/report/report_stream.h"
#include "harness/runner/expectations.h"

namespace {

// StreamReport of `text` (written to an in-memory file) agrees with ParseReport's `whole`.
void CheckStreamedReader(absl::string_view text, const absl::StatusOr<dmconf::RunReport>& whole) {
  const int fd = memfd_create("report.json", MFD_CLOEXEC);
  if (fd < 0) return;
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  size_t cases = 0;
  const absl::StatusOr<dmconf::RunReport> streamed =
      dmconf::StreamReport("/proc/self/fd/" + std::to_string(fd),
                           [&cases](size_t, size_t, const dmconf::CaseResult&) { ++cases; });
  close(fd);
  if (done != text.size()) return;
  if (!streamed.ok()) dmconf::CheckNamedError(streamed.status(), "StreamReport");
  if (streamed.ok() != whole.ok()) {
    dmconf::FuzzFailText("StreamReport and ParseReport disagree on acceptance",
                         streamed.ok() ? whole.status().message() : streamed.status().message());
  }
  if (!whole.ok()) return;
  size_t whole_cases = 0;
  for (const dmconf::BackendRun& b : whole->backends) whole_cases += b.results.size();
  if (cases != whole_cases) {
    dmconf::FuzzFailText("StreamReport saw another number of cases than ParseReport", "");
  }
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
  absl::StatusOr<RunReport> r = ParseReport(text, "report.json");
  if (r.ok()) {
    (void)HtmlReport(r->Input());
  } else {
    CheckNamedError(r.status(), "ParseReport");
  }
  CheckStreamedReader(text, r);
  return 0;
}
