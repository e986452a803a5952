#include "harness/report/certificate_seal.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "harness/base/files.h"
#include "harness/io/sha256.h"

namespace dmconf {

absl::StatusOr<PinnedLibrary> PinLibrary(const std::string& path) {
  absl::StatusOr<std::string> bytes = io::ReadFileToString(path, kMaxCertifiedLibraryBytes);
  if (!bytes.ok()) return bytes.status();
  PinnedLibrary out;
  out.sha256 = io::Sha256Hex(*bytes);
  out.bytes = std::make_shared<const std::string>(*std::move(bytes));
  return out;
}

absl::Status CheckLibraryUnchanged(const std::string& path, const PinnedLibrary& pinned) {
  absl::StatusOr<std::string> now = io::Sha256FileHex(path, kMaxCertifiedLibraryBytes);
  if (now.ok() && *now == pinned.sha256) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "certify.plugin.changed: ", path, " changed during the run (SHA-256 ", pinned.sha256,
      " at the start, ", now.ok() ? *now : std::string(now.status().message()),
      " now); every worker ran the bytes read at the start, but a statement naming this "
      "file would not describe it: no statement written"));
}

absl::StatusOr<std::vector<CertifiedFile>> HashRunOutputs(const std::string& dir) {
  std::vector<CertifiedFile> out;
  for (const auto& [role, file] : {std::pair<const char*, const char*>{"report", "report.json"},
                                   {"junit", "junit.xml"},
                                   {"html", "report.html"}}) {
    absl::StatusOr<std::string> sha =
        io::Sha256FileHex(absl::StrCat(dir, "/", file), kMaxCertifiedOutputBytes);
    if (!sha.ok()) return sha.status();
    out.push_back({role, file, *sha});
  }
  return out;
}

nlohmann::ordered_json SealCertificate(const CertificateInput& in) {
  nlohmann::ordered_json cert = CertificateJson(in);
  cert["digest"] = io::Sha256Hex(cert.dump());
  return cert;
}

absl::Status WriteCertificate(const std::string& dir, const nlohmann::ordered_json& cert) {
  for (const auto& [name, text] :
       {std::pair<std::string, std::string>{"certificate.json", cert.dump(2) + "\n"},
        {"certificate.md", CertificateMarkdown(cert)}}) {
    if (absl::Status s = io::WriteFileAtomically(absl::StrCat(dir, "/", name), text); !s.ok()) {
      return s;
    }
  }
  return absl::OkStatus();
}

}  // namespace dmconf
