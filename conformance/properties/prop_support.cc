#include "conformance/properties/prop_support.h"

#include <cstdlib>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "harness/base/files.h"
#include "harness/gen/describe.h"
#include "harness/io/vector_case.h"
#include "harness/io/vector_file.h"
#include "rapidcheck.h"

namespace dmconf::props {

std::string PropertyFailureDir() {
  const char* env = std::getenv("DMCONF_PROPERTY_FAILURES");
  return env != nullptr && env[0] != '\0' ? env : "property-failures";
}

absl::StatusOr<std::string> SaveFailureVector(absl::string_view property, const OpCase& c,
                                              const std::string& dir) {
  OpCase named = c;
  named.id = std::string(property);
  io::Provenance p;
  p.kind = "regression";
  p.found_by = "property";
  p.note = std::string(property);
  absl::StatusOr<io::VectorCase> v = io::VectorCaseFromOracle(named, p, {});
  if (!v.ok()) return v.status();
  absl::Status made = io::CreateDirectories(dir);
  if (!made.ok()) return made;
  const std::string path = (std::filesystem::path(dir) / absl::StrCat(property, ".json")).string();
  absl::Status s = io::WriteVectorFile(path, *v);
  if (!s.ok()) return s;
  return path;
}

void RecordFailure(absl::string_view property, const OpCase& c, absl::string_view what) {
  const std::string repro = ReproCommand(c);
  RC_LOG() << property << " failed: " << what << "\n  repro: " << repro << "\n";
  const std::filesystem::path dir = PropertyFailureDir();
  const std::filesystem::path txt = dir / absl::StrCat(property, ".txt");
  absl::Status saved = io::CreateDirectories(dir.string());
  if (saved.ok()) {
    saved = io::WriteFileAtomically(txt.string(),
                                    absl::StrCat(property, ": ", what, "\n", repro, "\n"));
  }
  if (saved.ok()) {
    RC_LOG() << "  repro line saved to " << txt.string() << "\n";
  } else {
    RC_LOG() << "  repro line not saved: " << saved.message() << "\n";
  }
  absl::StatusOr<std::string> json = SaveFailureVector(property, c, dir.string());
  if (json.ok()) {
    RC_LOG() << "  case saved as " << *json << "\n";
  } else {
    RC_LOG() << "  case not saved as a vector: " << json.status().message() << "\n";
  }
}

std::map<uint64_t, int64_t> Histogram(const Tensor& t) {
  std::map<uint64_t, int64_t> h;
  for (int64_t i = 0; i < t.NumElements(); ++i) ++h[t.GetBits(i)];
  return h;
}

Tensor PermuteChannels(const Tensor& in, const std::vector<int64_t>& perm) {
  Tensor out = in;
  const int64_t N = in.shape[0], C = in.shape[1];
  const int64_t inner = C == 0 || N == 0 ? 0 : in.NumElements() / (N * C);
  for (int64_t n = 0; n < N; ++n) {
    for (int64_t j = 0; j < C; ++j) {
      for (int64_t k = 0; k < inner; ++k) {
        out.SetBits((n * C + j) * inner + k, in.GetBits((n * C + perm[j]) * inner + k));
      }
    }
  }
  return out;
}

Tensor I64(const std::vector<int64_t>& v) { return *MakeIntegerTensor(ElementType::kI64, v); }

std::vector<int64_t> IntValues(const Tensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(t.GetInteger(i).value_or(-1));
  return v;
}

}  // namespace dmconf::props
