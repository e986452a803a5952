#include "harness/io/sha256.h"

#include <openssl/evp.h>

#include <memory>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "harness/base/files.h"

namespace dmconf::io {
namespace {

std::string Hex(const unsigned char* digest, unsigned int length) {
  return absl::BytesToHexString(absl::string_view(reinterpret_cast<const char*>(digest), length));
}

}  // namespace

std::string Sha256Hex(absl::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1 ||
      length != 32) {
    return "";
  }
  return Hex(digest, length);
}

absl::StatusOr<std::string> Sha256FileHex(const std::string& path, int64_t max_bytes) {
  absl::StatusOr<FileChunks> file = FileChunks::Open(path, max_bytes);
  if (!file.ok()) return file.status();
  const std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  bool ok = ctx != nullptr && EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) == 1;
  for (;;) {
    absl::StatusOr<absl::string_view> piece = file->Next();
    if (!piece.ok()) return piece.status();
    if (piece->empty()) break;
    ok = ok && EVP_DigestUpdate(ctx.get(), piece->data(), piece->size()) == 1;
  }
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  ok = ok && EVP_DigestFinal_ex(ctx.get(), digest, &length) == 1 && length == 32;
  if (!ok) return absl::InternalError(absl::StrCat("io.sha256: ", path, ": libcrypto failed"));
  return Hex(digest, length);
}

}  // namespace dmconf::io
