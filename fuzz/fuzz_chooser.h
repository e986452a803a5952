// The libFuzzer driver of the case builders: every choice comes from FuzzedDataProvider, so a
// fuzz input *is* a sequence of builder choices (structure-aware fuzzing: every input decodes
// to a well-formed OpCase). An exhausted input answers `lo`, the simplest choice.
//
// Example:
//   extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
//     FuzzedDataProvider fdp(data, size);
//     FuzzChooser ch(&fdp);
//     GeneratedCase g = GenerateCase(ch);
//     ...
//   }
#ifndef DMCONF_FUZZ_FUZZ_CHOOSER_H_
#define DMCONF_FUZZ_FUZZ_CHOOSER_H_

#include <fuzzer/FuzzedDataProvider.h>

#include "harness/gen/chooser.h"

namespace dmconf {

class FuzzChooser : public Chooser {
 public:
  explicit FuzzChooser(FuzzedDataProvider* fdp) : fdp_(fdp) {}
  int64_t Int(int64_t lo, int64_t hi) override {
    if (lo >= hi) return lo;
    return fdp_->ConsumeIntegralInRange<int64_t>(lo, hi);
  }
  FuzzedDataProvider& fdp() { return *fdp_; }

 private:
  FuzzedDataProvider* fdp_;
};

// Records the choices of another chooser as the bytes FuzzedDataProvider would consume to
// make the same choices (it reads integers from the end of the input, most significant byte
// first). Bytes() is then a fuzz input that replays the recorded case: seed corpora are made
// this way from the seeded driver.
class RecordingChooser : public Chooser {
 public:
  explicit RecordingChooser(Chooser* inner) : inner_(inner) {}
  int64_t Int(int64_t lo, int64_t hi) override;
  std::vector<uint8_t> Bytes() const { return {consumed_.rbegin(), consumed_.rend()}; }

 private:
  Chooser* inner_;
  std::vector<uint8_t> consumed_;  // in consumption order
};

inline int64_t RecordingChooser::Int(int64_t lo, int64_t hi) {
  const int64_t v = inner_->Int(lo, hi);
  if (lo >= hi) return v;
  const uint64_t range = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
  const uint64_t r = static_cast<uint64_t>(v) - static_cast<uint64_t>(lo);
  int bytes = 0;
  while (bytes < 8 && (range >> (8 * bytes)) > 0) ++bytes;
  for (int b = bytes - 1; b >= 0; --b) consumed_.push_back(static_cast<uint8_t>(r >> (8 * b)));
  return v;
}

}  // namespace dmconf

#endif  // DMCONF_FUZZ_FUZZ_CHOOSER_H_
