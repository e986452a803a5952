// A libFuzzer-free driver for any compiler: feeds pseudo-random inputs (harness/gen's
// SeededChooser, seeded) to a target's non-aborting check, DmconfFuzzCheckOneInput (1 = a finding,
// already reported by the target), until a time budget runs out or the first finding. ctest uses it
// where libFuzzer is not available (g++ builds); it finds shallow bugs only: no coverage feedback,
// no mutation. On a finding the input is written to $DMCONF_FUZZ_FINDINGS (default
// ./dmconf-fuzz-findings) as random-<seed>-<n>.bin, which the target's _replay binary replays.
//
//   fuzz_plugin_shape_random <seconds> [seed] [max input bytes, default 512]
//   exit 0: no finding in the budget; 1: a finding (or an input that ran longer than
//   DMCONF_FUZZ_TIMEOUT seconds, default 10: a hang, as `dmconf run --timeout`); 2: usage
// Example:
//   DMCONF_FUZZ_PLUGIN=$PWD/libmine.so fuzz_plugin_shape_random 10 7
//   -> "fuzz_plugin_shape_random: 91234 inputs in 10.0 s (9123 exec/s), seed 7: no finding"
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "harness/base/files.h"
#include "harness/gen/chooser.h"
#include "harness/isolation/process_tree.h"

extern "C" int DmconfFuzzCheckOneInput(const uint8_t* data, size_t size);
// Optional (a weak symbol: null when the target does not define it): how many inputs so far
// became a case the target judged.
extern "C" uint64_t DmconfFuzzCasesJudged() __attribute__((weak));

namespace {

// An input that runs past the time limit is a hang: said, what it started killed, exit 1
// (async-signal-safe calls only). The seed and the budget replay it.
void OnTimeout(int) {
  static const char kMsg[] =
      "random driver: timeout: an input ran longer than DMCONF_FUZZ_TIMEOUT seconds (a hang); "
      "the same seed replays it\n";
  (void)!write(2, kMsg, sizeof kMsg - 1);
  dmconf::KillStrayChildren();
  _exit(1);
}

bool ParseNumber(const char* s, uint64_t* out) {
  char* end = nullptr;
  *out = std::strtoull(s, &end, 10);
  return end != s && *end == '\0' && s[0] != '-';
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t seconds = 0, seed = 1, max_len = 512;
  if (argc < 2 || argc > 4 || !ParseNumber(argv[1], &seconds) ||
      (argc > 2 && !ParseNumber(argv[2], &seed)) ||
      (argc > 3 && (!ParseNumber(argv[3], &max_len) || max_len == 0 || max_len > (1u << 20)))) {
    std::fprintf(stderr, "usage: %s <seconds> [seed] [max input bytes 1..1048576]\n", argv[0]);
    return 2;
  }
  const char* timeout_env = std::getenv("DMCONF_FUZZ_TIMEOUT");
  uint64_t timeout = 10;
  if (timeout_env != nullptr && (!ParseNumber(timeout_env, &timeout) || timeout == 0)) {
    std::fprintf(stderr, "%s: DMCONF_FUZZ_TIMEOUT must be a whole number of seconds above 0\n",
                 argv[0]);
    return 2;
  }
  signal(SIGALRM, OnTimeout);
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::seconds(seconds);
  dmconf::SeededChooser rng(seed);  // the project's one SplitMix64
  std::vector<uint8_t> input;
  uint64_t n = 0;
  for (;; ++n) {
    // The clock is read every 64 inputs: cheap enough not to show in exec/s.
    if ((n & 63) == 0 && std::chrono::steady_clock::now() >= deadline) break;
    input.resize(rng.Next() % (max_len + 1));
    for (size_t i = 0; i < input.size(); i += 8) {
      const uint64_t r = rng.Next();
      for (size_t k = 0; k < 8 && i + k < input.size(); ++k) input[i + k] = uint8_t(r >> (8 * k));
    }
    alarm(static_cast<unsigned>(timeout));
    const int found = DmconfFuzzCheckOneInput(input.data(), input.size());
    alarm(0);
    if (found != 0) {
      const char* dir = std::getenv("DMCONF_FUZZ_FINDINGS");
      const std::string folder = dir != nullptr && *dir != '\0' ? dir : "dmconf-fuzz-findings";
      const std::string file = (std::filesystem::path(folder) / ("random-" + std::to_string(seed) +
                                                                 "-" + std::to_string(n) + ".bin"))
                                   .string();
      // The one writer of the project: refuses devices, FIFOs and folders, never half-written.
      absl::Status s = dmconf::io::CreateDirectories(folder);
      if (s.ok()) {
        s = dmconf::io::WriteFileAtomically(
            file, absl::string_view(reinterpret_cast<const char*>(input.data()), input.size()));
      }
      if (!s.ok()) {
        std::fprintf(stderr, "%s: the input could not be saved: %s\n", argv[0],
                     std::string(s.message()).c_str());
      }
      std::printf("%s: finding after %llu inputs (seed %llu)%s%s\n", argv[0],
                  static_cast<unsigned long long>(n + 1), static_cast<unsigned long long>(seed),
                  s.ok() ? "; input saved as " : "", s.ok() ? file.c_str() : "");
      return 1;
    }
  }
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // A target that counts the inputs which became a case it judged (most decode to one, some to
  // none: a malformed or oversized case) says so, so that its rate can be set against a rate
  // of judged cases (bench/end_to_end.py, `dmconf fuzz`).
  std::string judged;
  if (DmconfFuzzCasesJudged != nullptr) {
    const uint64_t m = DmconfFuzzCasesJudged();
    judged = "; " + std::to_string(m) + " cases judged, " +
             std::to_string(secs > 0 ? static_cast<uint64_t>(double(m) / secs) : 0) + "/s";
  }
  std::printf("%s: %llu inputs in %.1f s (%.0f exec/s%s), seed %llu: no finding\n", argv[0],
              static_cast<unsigned long long>(n), secs, secs > 0 ? double(n) / secs : 0.0,
              judged.c_str(), static_cast<unsigned long long>(seed));
  return 0;
}
