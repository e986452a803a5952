// Writes seed corpora: fuzz inputs that replay seeded-driver cases (RecordingChooser), so the
// corpora cover every lane, op and equivalence class from the first run on; or, with --golden,
// literal inputs (fuzz/literal_case.h) of vector files, one per distinct encoding.
//   dmconf_fuzz_make_corpus <out_dir> <count> [op index, -1 = all] [seed]
//   dmconf_fuzz_make_corpus --golden <out_dir> <op index, -1 = all> <vector dir>...
// The checked-in corpora under fuzz/corpus/ were made with the commands in docs/fuzzing.md.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "fuzz/fuzz_chooser.h"
#include "fuzz/literal_case.h"
#include "harness/base/files.h"
#include "harness/gen/generate.h"
#include "harness/io/vector_file.h"

namespace {

// False (with the error printed) when the file cannot be written.
bool WriteInput(const std::filesystem::path& path, const std::vector<uint8_t>& bytes) {
  const absl::Status s = dmconf::io::WriteFileAtomically(
      path.string(), absl::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  if (!s.ok()) std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
  return s.ok();
}

// False (with the error printed) when the folder cannot be made.
bool MakeFolder(const std::filesystem::path& dir) {
  const absl::Status s = dmconf::io::CreateDirectories(dir.string());
  if (!s.ok()) std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
  return s.ok();
}

// --golden <out_dir> <op index or -1> <vector dir>...: returns the exit code.
int Golden(int argc, char** argv) {
  using namespace dmconf;
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s --golden <out_dir> <op index or -1> <vector dir>...\n",
                 argv[0]);
    return 2;
  }
  const std::filesystem::path dir(argv[2]);
  const int op = std::atoi(argv[3]);
  if (!MakeFolder(dir)) return 1;
  // Keyed by the bytes as a string: g++ 12 at -O3 warns falsely (-Wstringop-overread) on
  // ordering vectors of bytes.
  std::set<std::string> seen;
  int written = 0, skipped = 0;
  for (int a = 4; a < argc; ++a) {
    absl::StatusOr<std::vector<std::string>> files = io::ListVectorFiles(argv[a]);
    if (!files.ok()) {
      std::fprintf(stderr, "%s\n", std::string(files.status().message()).c_str());
      return 1;
    }
    for (const std::string& path : *files) {
      absl::StatusOr<io::VectorCase> v = io::ReadVectorFile(path);
      if (!v.ok()) {
        std::fprintf(stderr, "%s\n", std::string(v.status().message()).c_str());
        return 1;
      }
      if (op >= 0 && v->c.op != static_cast<Op>(op)) continue;
      absl::StatusOr<std::vector<uint8_t>> in = EncodeLiteralInput(v->c);
      if (!in.ok()) {
        std::fprintf(stderr, "skipped %s: %s\n", path.c_str(),
                     std::string(in.status().message()).c_str());
        ++skipped;
        continue;
      }
      if (!seen.insert(std::string(in->begin(), in->end())).second) continue;
      if (!WriteInput(dir / ("golden-" + v->c.id), *in)) return 1;
      ++written;
    }
  }
  std::printf("%d literal inputs written to %s (%d vectors not expressible)\n", written,
              dir.c_str(), skipped);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace dmconf;
  if (argc > 1 && std::string(argv[1]) == "--golden") return Golden(argc, argv);
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <out_dir> <count> [op index or -1] [seed]\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir(argv[1]);
  const int count = std::atoi(argv[2]);
  const int op = argc > 3 ? std::atoi(argv[3]) : -1;
  const uint64_t seed = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 1;
  if (!MakeFolder(dir)) return 1;
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
                  std::string(GenKindName(g.kind)).c_str());
    if (!WriteInput(dir / name, bytes)) return 1;
  }
  return 0;
}
