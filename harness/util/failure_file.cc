#include "harness/util/failure_file.h"

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "harness/util/atomic_write.h"
#include "nlohmann/json.hpp"

namespace dmconf::util {
namespace {

nlohmann::ordered_json TensorJson(const Tensor& t) {
  return {{"element_type", std::string(ElementTypeName(t.type))},
          {"shape", t.shape},
          {"hex", absl::BytesToHexString(absl::string_view(
                      reinterpret_cast<const char*>(t.bytes.data()), t.bytes.size()))}};
}

}  // namespace

std::string SafeFileName(const std::string& id) {
  std::string out;
  for (char ch : id) {
    if (ch == '/') {
      out += "__";
    } else if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
               ch == '.' || ch == '-' || ch == '_') {
      out += ch;
    } else {
      out += '_';
    }
  }
  return out.empty() ? "case" : out;
}

absl::StatusOr<std::string> SaveFailure(const std::string& dir, const std::string& backend,
                                        const OpCase& c, const std::string& verdict,
                                        const std::string& detail) {
  const std::string sub = absl::StrCat(dir, "/", SafeFileName(backend));
  absl::Status s = MakeDirectories(sub);
  if (!s.ok()) return s;
  nlohmann::ordered_json j{{"format", "dmconf-failure/0"},
                           {"id", c.id},
                           {"backend", backend},
                           {"verdict", verdict},
                           {"detail", detail},
                           {"op", std::string(OpName(c.op))},
                           {"attributes", AttributesToString(c)},
                           {"data", TensorJson(c.data)}};
  nlohmann::ordered_json ints = nlohmann::ordered_json::array();
  for (const Tensor& t : c.int_inputs) ints.push_back(TensorJson(t));
  j["int_inputs"] = ints;
  const std::string path = absl::StrCat(sub, "/", SafeFileName(c.id), ".json");
  s = WriteFileAtomic(path, j.dump(1) + "\n");
  if (!s.ok()) return s;
  return path;
}

}  // namespace dmconf::util
