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
// `scope`: the ops it is about (`dmconf certify --ops`: some of the profile's; "conformant for
// SpaceToBatch, BatchToSpace of profile nchw-core/2"), and `coverage`, per op of the scope: the
// cases per element type, and per rule the negative cases (expected to be refused, or
// unspecified, for that rule) and the valid twins ("rule/<id>/twin/...") that ran; the rules
// the profile's ranks cannot break (rules_outside_ranks) and those of its ranks with no
// negative case or no twin in the run (rules_not_exercised).
//
// Verdict: "conformant" when every case of the scope ran (none unsupported) and passed: no
// new failure, no known failure, and, for a profile that requires it (version 2 on), every rule
// within its ranks exercised. Otherwise "not conformant", with each reason.
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

// A rule of a certified op (harness/suites/conformance_profiles.h ProfileRule).
struct CertifiedRule {
  std::string op;  // "SpaceToBatch"
  std::string rule;
  bool within_ranks = false;
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
  std::vector<std::string> ops;  // the ops certified, the profile's or some of them (--ops)
  bool whole_profile = true;     // false: --ops left some of the profile's ops out
  std::vector<CertifiedRule> rules;
  bool rules_required = false;  // a rule within the ranks and not exercised is a reason
};

// Everything but `digest`, which the caller adds (SHA-256 of dump(), harness/io/sha256.h).
nlohmann::ordered_json CertificateJson(const CertificateInput& in);
bool Conformant(const nlohmann::ordered_json& certificate);
// "conformant to profile nchw-core/2", "conformant for SpaceToBatch, BatchToSpace of profile
// nchw-core/2", "not conformant to profile ..." (the statement's headline).
std::string VerdictLine(const nlohmann::ordered_json& certificate);
// The statement as a Markdown page: every text from the backend or a file is escaped.
std::string CertificateMarkdown(const nlohmann::ordered_json& certificate);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_CERTIFICATE_H_
