// A conformance statement (`dmconf certify`): what a vendor may publish after running a
// conformance profile (harness/suites/conformance_profiles.h) against its backend. JSON
// (format dmconf-certificate/1, schema reports/dmconf-certificate-1.schema.json) and Markdown.
//
// It holds: the profile and its version, the dmconf version, the backend's declared name with
// its file and the file's SHA-256, pass counts per op x element type x lane, the
// implementation-status matrix (op x element type x rank x lane: implemented, unsupported or
// failing), the known failures with their reasons, the verdict and the reasons for it, who
// signed it off, `run`: the run it states (an id the run's report records too, as
// `options.certificate.id`, and the file name and SHA-256 of that run's report, JUnit and HTML
// page, written with it), and `digest`: the SHA-256 of the statement's canonical text without
// the digest (a check that it was not edited, not a cryptographic signature).
//
// Verdict: "conformant" when every case of the profile ran (none unsupported) and passed: no
// new failure, no known failure. Otherwise "not conformant", with each reason.
//
// Example:
//   CertificateInput in{profile_json, &run, sha, "Jane Doe <jane@example.com>", time, id,
//                       {{"report", "report.json", report_sha}}};
//   nlohmann::ordered_json c = CertificateJson(in);
//   std::string md = CertificateMarkdown(c);
#ifndef DMCONF_HARNESS_REPORT_CERTIFICATE_H_
#define DMCONF_HARNESS_REPORT_CERTIFICATE_H_

#include <string>
#include <vector>

#include "harness/runner/runner.h"
#include "nlohmann/json.hpp"

namespace dmconf {

// One output of the run the statement is bound to: its role ("report", "junit", "html"), its
// file name beside the statement, and its SHA-256.
struct CertifiedFile {
  std::string role, file, sha256;
};

struct CertificateInput {
  // {"id", "name", "version", "description", "ops", "element_types", "ranks", "lanes"}.
  nlohmann::ordered_json profile;
  const BackendRun* run = nullptr;
  std::string library_sha256;  // of the plugin file; empty for a registered backend
  std::string signed_off_by;   // as given; empty: not signed off
  std::string time;            // UTC, ISO 8601
  std::string run_id;          // 32 hex digits, also in the report's options.certificate.id
  std::vector<CertifiedFile> files;
};

// Everything but `digest`, which the caller adds (SHA-256 of dump(), harness/io/sha256.h).
nlohmann::ordered_json CertificateJson(const CertificateInput& in);
bool Conformant(const nlohmann::ordered_json& certificate);
// The statement as a Markdown page: every text from the backend or a file is escaped.
std::string CertificateMarkdown(const nlohmann::ordered_json& certificate);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_CERTIFICATE_H_
