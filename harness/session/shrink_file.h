// `dmconf shrink`'s session: the one case of a file (a dmconf-vector/1 kernel case or a
// dmconf-shape-case/1 shape case) run on one backend through an isolated worker, confirmed to
// fail by its replays (harness/shrink/replay.h), shrunk (harness/shrink), and the minimal case
// written to --out or beside the file as <name>.min.json, with what was kept and the repro
// line printed. The command line (harness/cli/cmd_shrink.cc) parses the flags and calls it.
//
// Exit status: 0 a minimal case was written; 1 the case does not fail on the backend, or fails
// flakily (nothing written); 2 the backend, the file, --out or the write failed (printed with
// its rule on `err`).
//
// Example:
//   ShrinkFileRequest r{.file = "bug.json", .backend = "xnnpack"};
//   int status = ShrinkFile(r, std::cout, std::cerr);
//   // "minimal: 96 -> 4 data elements, wrong_values kept, ..." and "repro: dmconf run ..."
#ifndef DMCONF_HARNESS_SESSION_SHRINK_FILE_H_
#define DMCONF_HARNESS_SESSION_SHRINK_FILE_H_

#include <cstdint>
#include <ostream>
#include <string>

namespace dmconf {

struct ShrinkFileRequest {
  std::string file;
  std::string backend, backend_lib;  // exactly one
  std::string out;                   // empty: beside `file` as <name>.min.json
  std::string memory_limit = "auto";
  double timeout = 10.0;    // seconds per attempt
  double seconds = 60.0;    // budget of the whole shrink
  int64_t attempts = 5000;  // most candidates judged
};

int ShrinkFile(const ShrinkFileRequest& r, std::ostream& out, std::ostream& err);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_SESSION_SHRINK_FILE_H_
