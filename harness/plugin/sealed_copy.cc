#include "harness/plugin/sealed_copy.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace dmconf {
namespace {

absl::Status Failed(absl::string_view step, int err) {
  return absl::UnavailableError(absl::StrCat(step, ": ", strerror(err)));
}

// The struct at `offset` of `bytes`, when it lies inside them.
template <typename T>
bool ReadAt(absl::string_view bytes, uint64_t offset, T* out) {
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return false;
  std::memcpy(out, bytes.data() + offset, sizeof(T));
  return true;
}

// The NUL-terminated string at `offset` of the section [begin, begin + size) of `bytes`.
absl::string_view StringAt(absl::string_view bytes, uint64_t begin, uint64_t size,
                           uint64_t offset) {
  if (begin > bytes.size() || size > bytes.size() - begin || offset >= size) return {};
  const absl::string_view table = bytes.substr(begin + offset, size - offset);
  const size_t end = table.find('\0');
  return end == absl::string_view::npos ? absl::string_view() : table.substr(0, end);
}

}  // namespace

absl::StatusOr<int> SealedCopy(absl::string_view bytes) {
  const int fd = memfd_create("dmconf-plugin", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return Failed("memfd_create", errno);
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      close(fd);
      return Failed("write", err);
    }
    done += static_cast<size_t>(n);
  }
  if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0) {
    const int err = errno;
    close(fd);
    return Failed("seal", err);
  }
  return fd;
}

bool RunpathNamesOrigin(absl::string_view bytes) {
  Elf64_Ehdr eh;
  if (!ReadAt(bytes, 0, &eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
      eh.e_shentsize != sizeof(Elf64_Shdr)) {
    return false;
  }
  for (uint64_t i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr dyn;
    if (!ReadAt(bytes, eh.e_shoff + i * sizeof(Elf64_Shdr), &dyn)) return false;
    if (dyn.sh_type != SHT_DYNAMIC) continue;
    Elf64_Shdr str;
    if (!ReadAt(bytes, eh.e_shoff + uint64_t{dyn.sh_link} * sizeof(Elf64_Shdr), &str)) {
      return false;
    }
    for (uint64_t at = 0; at + sizeof(Elf64_Dyn) <= dyn.sh_size; at += sizeof(Elf64_Dyn)) {
      Elf64_Dyn d;
      if (!ReadAt(bytes, dyn.sh_offset + at, &d) || d.d_tag == DT_NULL) break;
      if (d.d_tag != DT_RUNPATH && d.d_tag != DT_RPATH) continue;
      const absl::string_view path = StringAt(bytes, str.sh_offset, str.sh_size, d.d_un.d_val);
      if (absl::StrContains(path, "$ORIGIN") || absl::StrContains(path, "${ORIGIN}")) return true;
    }
  }
  return false;
}

}  // namespace dmconf
