// The other JSON readers on raw bytes: expectation (known-failure) files (ParseExpectations),
// vector-set manifests (io::ParseManifest) and reports (ParseReport, for `dmconf report`).
// Each input goes to all three. Never a crash; a malformed input gives an error whose message
// starts with a rule id; an accepted expectations file answers Find() for any backend / case
// id; an accepted report becomes an HTML page.
#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "fuzz/text_checks.h"
#include "harness/backend/verdict.h"
#include "harness/io/manifest.h"
#include "harness/report/html_report.h"
#include "harness/report/report_reader.h"
#include "harness/runner/expectations.h"

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
  return 0;
}
