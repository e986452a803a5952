// Writes seed corpora: fuzz inputs that replay seeded-driver cases (RecordingChooser), so the
// corpora cover every lane, op and equivalence class from the first run on.
//   dmconf_fuzz_make_corpus <out_dir> <count> [op index, -1 = all] [seed]
// The checked-in corpora under fuzz/corpus/ were made with the commands in docs/fuzzing.md.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "fuzz/fuzz_chooser.h"
#include "harness/gen/generate.h"

int main(int argc, char** argv) {
  using namespace dmconf;
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <out_dir> <count> [op index or -1] [seed]\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir(argv[1]);
  const int count = std::atoi(argv[2]);
  const int op = argc > 3 ? std::atoi(argv[3]) : -1;
  const uint64_t seed = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 1;
  std::filesystem::create_directories(dir);
  GenerateOptions o;
  o.build.max_elements = 256;
  if (op >= 0) o.ops = {static_cast<Op>(op)};
  for (int i = 0; i < count; ++i) {
    SeededChooser inner(MixSeed(seed, static_cast<uint64_t>(i)));
    RecordingChooser rec(&inner);
    GeneratedCase g = GenerateCase(rec, o);
    const std::vector<uint8_t> bytes = rec.Bytes();
    char name[64];
    std::snprintf(name, sizeof(name), "seed-%04d-%s-%s", i, std::string(OpPrefix(g.c.op)).c_str(),
                  std::string(LaneName(g.lane)).c_str());
    std::ofstream f(dir / name, std::ios::binary);
    f.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  }
  return 0;
}
