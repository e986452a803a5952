// SHA-256 (FIPS 180-4) of a byte string, as 64 lower-case hex digits. Used for the manifests
// of vector sets, so a reader can check every file without trusting its name, and for the
// files a conformance statement names (dmconf certify).
//
// The digest is OpenSSL's libcrypto (EVP_Digest with EVP_sha256; Debian libssl3): maintained,
// security-updated, installed on every Debian system, and found by CMake's own FindOpenSSL.
// libcrypto fails only when it cannot allocate or no provider offers SHA-256; the result is then
// empty, which equals no recorded digest, so a check fails rather than passes.
//
// Example:
//   Sha256Hex("abc") ==
//       "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
//   absl::StatusOr<std::string> d = Sha256FileHex("out/report.json", int64_t{64} << 30);
#ifndef DMCONF_HARNESS_IO_SHA256_H_
#define DMCONF_HARNESS_IO_SHA256_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace dmconf::io {

std::string Sha256Hex(absl::string_view bytes);

// The SHA-256 of a regular file, read a piece at a time (its memory does not grow with the
// file), with the checks and errors of ReadFileToString (harness/base/files.h):
// "io.read: ...", "io.read.too_large: ..." above max_bytes.
absl::StatusOr<std::string> Sha256FileHex(const std::string& path, int64_t max_bytes);

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_IO_SHA256_H_
