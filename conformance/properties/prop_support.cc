#include "conformance/properties/prop_support.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "harness/gen/describe.h"
#include "rapidcheck.h"

namespace dmconf::props {

void RecordFailure(absl::string_view property, const OpCase& c, absl::string_view what) {
  const std::string repro = ReproCommand(c);
  RC_LOG() << property << " failed: " << what << "\n  repro: " << repro << "\n";
  const char* env = std::getenv("DMCONF_FAILURE_DIR");
  const std::filesystem::path dir = env ? env : "property-failures";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::ofstream f(dir / absl::StrCat(property, ".txt"));
  f << property << ": " << what << "\n" << repro << "\n";
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
