#include "harness/backend/identity.h"

#include "absl/strings/str_cat.h"

namespace dmconf {

std::string SafeBackendName(absl::string_view declared) {
  std::string out;
  bool printable = false;
  for (char ch : declared.substr(0, kMaxBackendNameBytes)) {
    const bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                      (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '+' || ch == '-';
    out += keep ? ch : '_';
    printable = printable || (keep && ch != '.');
  }
  if (!printable) return "";
  if (out[0] == '.') out[0] = '_';
  return out;
}

std::string BackendIdentity(absl::string_view declared, absl::string_view path,
                            std::set<std::string>* taken) {
  std::string base = SafeBackendName(declared);
  if (base.empty()) base = std::string(path);
  std::string name = base;
  for (int n = 2; taken->count(name); ++n) name = absl::StrCat(base, "-", n);
  taken->insert(name);
  return name;
}

}  // namespace dmconf
