// The byte format between the harness and its worker process: length-prefixed messages of
// little-endian integers, strings and byte blobs. Only ever read by the same build that wrote
// it, so it is not versioned; every read is bounds-checked (a dying worker may send garbage).
#ifndef DMCONF_HARNESS_ISOLATION_WIRE_H_
#define DMCONF_HARNESS_ISOLATION_WIRE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/backend/backend.h"
#include "oracle/op_case.h"

namespace dmconf::wire {

class Writer {
 public:
  void U8(uint8_t v) { buf_.push_back(static_cast<char>(v)); }
  void I64(int64_t v);
  void Str(const std::string& s);
  void Bytes(const std::vector<uint8_t>& b);
  void Ints(const std::vector<int64_t>& v);
  void OptStr(const std::optional<std::string>& s);
  void TensorT(const Tensor& t);
  // A length-prefixed blob written in place: Begin() leaves room for its length and returns
  // where; End(where) fills it in with the bytes written since.
  size_t Begin();
  void End(size_t where);
  // Overwrites the 8 bytes at `where` (written by I64) with v.
  void SetI64(size_t where, int64_t v);
  // Drops what was written from byte n on.
  void Truncate(size_t n) { buf_.resize(n); }
  // Empties the buffer for the next message; keeps its storage unless it is large (a big
  // output's buffer must not stay mapped under the worker's memory limit).
  void Clear();
  const std::string& data() const { return buf_; }

 private:
  std::string buf_;
};

class Reader {
 public:
  explicit Reader(absl::string_view data) : data_(data) {}
  bool U8(uint8_t* v);
  bool I64(int64_t* v);
  bool Str(std::string* s);
  bool Bytes(std::vector<uint8_t>* b);
  bool Ints(std::vector<int64_t>* v);
  bool OptStr(std::optional<std::string>* s);
  bool TensorT(Tensor* t);
  // A blob written by Writer::Str or Begin / End, without a copy: *s points into the data.
  bool View(absl::string_view* s);

 private:
  bool Take(size_t n, const char** p);
  absl::string_view data_;
  size_t pos_ = 0;
};

void WriteCase(Writer& w, const OpCase& c);
bool ReadCase(Reader& r, OpCase* c);
void WriteOutcome(Writer& w, const RunOutcome& o);
bool ReadOutcome(Reader& r, RunOutcome* o);
void WritePartialCase(Writer& w, const PartialCase& c);
bool ReadPartialCase(Reader& r, PartialCase* c);
void WriteShapeOutcome(Writer& w, const ShapeOutcome& o);
bool ReadShapeOutcome(Reader& r, ShapeOutcome* o);
void WriteCapabilities(Writer& w, const Capabilities& c);
bool ReadCapabilities(Reader& r, Capabilities* c);

}  // namespace dmconf::wire

#endif  // DMCONF_HARNESS_ISOLATION_WIRE_H_
