#include "harness/io/atomic_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"

namespace dmconf::io {

absl::Status WriteFileAtomically(const std::string& path, absl::string_view contents) {
  const std::string tmp = absl::StrCat(path, ".tmp.", ::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) {
    return absl::UnavailableError(absl::StrCat("io.write: ", tmp, ": ", std::strerror(errno)));
  }
  const size_t written = std::fwrite(contents.data(), 1, contents.size(), f);
  const bool flushed = std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
  const int err = errno;
  const bool closed = std::fclose(f) == 0;
  if (written != contents.size() || !flushed || !closed) {
    std::remove(tmp.c_str());
    return absl::UnavailableError(absl::StrCat("io.write: ", tmp, ": ", std::strerror(err)));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int rename_err = errno;
    std::remove(tmp.c_str());
    return absl::UnavailableError(
        absl::StrCat("io.write: ", path, ": ", std::strerror(rename_err)));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> ReadFileToString(const std::string& path, int64_t max_bytes) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return absl::InvalidArgumentError(absl::StrCat("io.read: ", path, ": is a directory"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(absl::StrCat("io.read: ", path, ": ", std::strerror(errno)));
  }
  std::string out;
  char buf[65536];
  while (in) {
    in.read(buf, sizeof buf);
    out.append(buf, static_cast<size_t>(in.gcount()));
    if (static_cast<int64_t>(out.size()) > max_bytes) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "io.read.too_large: ", path, ": larger than the limit of ", max_bytes, " bytes"));
    }
  }
  if (in.bad()) return absl::DataLossError(absl::StrCat("io.read: ", path, ": read error"));
  return out;
}

}  // namespace dmconf::io
