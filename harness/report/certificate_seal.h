// What binds a conformance statement (certificate.h) to what ran: the plugin file read and
// hashed once before the run (its bytes are what every worker loads), checked to hold them
// still after it; the SHA-256 of the run's outputs; the statement's digest; and its two files
// written. `dmconf certify` (harness/cli/cmd_certify.cc) calls these in that order.
//
// Rules: certify.plugin.changed (the plugin file no longer holds the bytes that ran), and the
// io.* rules of reading and writing files (harness/base/files.h).
//
// Example:
//   absl::StatusOr<PinnedLibrary> lib = PinLibrary("./libmine.so");
//   ... the run, its workers loading lib->bytes ...
//   if (absl::Status s = CheckLibraryUnchanged("./libmine.so", *lib); !s.ok()) return s;
//   in.library_sha256 = lib->sha256;
//   in.files = *HashRunOutputs("out");
//   absl::Status w = WriteCertificate("out", SealCertificate(in));
#ifndef DMCONF_HARNESS_REPORT_CERTIFICATE_SEAL_H_
#define DMCONF_HARNESS_REPORT_CERTIFICATE_SEAL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "harness/report/certificate.h"
#include "nlohmann/json.hpp"

namespace dmconf {

// Largest plugin file a statement is made for (its bytes are held for the run), and largest
// output whose SHA-256 it names.
inline constexpr int64_t kMaxCertifiedLibraryBytes = int64_t{1} << 30;
inline constexpr int64_t kMaxCertifiedOutputBytes = int64_t{1} << 40;

// A plugin file as read once before the run: its bytes and their SHA-256.
struct PinnedLibrary {
  std::shared_ptr<const std::string> bytes;
  std::string sha256;
};
absl::StatusOr<PinnedLibrary> PinLibrary(const std::string& path);

// certify.plugin.changed when `path` no longer holds the pinned bytes (or cannot be read).
absl::Status CheckLibraryUnchanged(const std::string& path, const PinnedLibrary& pinned);

// The run's report.json, junit.xml and report.html under `dir`, each with its SHA-256, in
// that order (CertificateInput::files).
absl::StatusOr<std::vector<CertifiedFile>> HashRunOutputs(const std::string& dir);

// CertificateJson(in) with "digest": the SHA-256 of its compact dump() without the digest.
nlohmann::ordered_json SealCertificate(const CertificateInput& in);

// certificate.json (indented) and certificate.md (CertificateMarkdown) under `dir`, each
// written atomically.
absl::Status WriteCertificate(const std::string& dir, const nlohmann::ordered_json& cert);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_REPORT_CERTIFICATE_SEAL_H_
