// The dmconf subprocess adapter protocol, version 1 (`dmconf-subprocess/1`;
// docs/subprocess-protocol.md).
//
// A backend written in any language runs as a child process and speaks newline-delimited JSON on
// its stdin/stdout: one request per line, one response per line. Three requests:
//   {"protocol":"dmconf-subprocess/1","request":"hello"}
//       -> {"protocol":"dmconf-subprocess/1","name":...,"version":...,"capabilities":[...]}
//   {"request":"run","id":...,"op":...,"attributes":{...},"inputs":[{tensor}, ...]}
//       -> {"id":...,"outcome":"output","output":{tensor}}
//        | {"id":...,"outcome":"rejected" | "unsupported","message":...}
//   {"request":"shutdown"}  (no response; the adapter exits 0)
// A tensor is {"name":..., "type":"f32", "shape":[...], "data":"<base64 of the packed bytes>"}
// (oracle/tensor.h packing, little-endian); integer inputs also carry "values": [...].
//
// This file holds the pure encoding and decoding; subprocess_backend.h runs the process.
//
// Example:
//   std::string line = EncodeRunRequest(c);                 // one line, no '\n'
//   absl::StatusOr<RunOutcome> r = DecodeRunResponse(reply, c.id);
#ifndef DMCONF_HARNESS_BACKENDS_SUBPROCESS_PROTOCOL_H_
#define DMCONF_HARNESS_BACKENDS_SUBPROCESS_PROTOCOL_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "harness/backend/backend.h"
#include "oracle/op_case.h"

namespace dmconf::subprocess {

inline constexpr absl::string_view kProtocol = "dmconf-subprocess/1";

struct Hello {
  std::string name;
  std::string version;
  Capabilities capabilities;
};

std::string EncodeHelloRequest();
std::string EncodeRunRequest(const OpCase& c);
std::string EncodeShutdownRequest();

// Errors (rule-id prefixed): "subprocess.protocol: ..." for anything that is not a well-formed
// response of this protocol version (wrong version, missing fields, unknown names, bad base64,
// a byte count that does not match type and shape, a response to another case id).
absl::StatusOr<Hello> DecodeHelloResponse(absl::string_view line);
absl::StatusOr<RunOutcome> DecodeRunResponse(absl::string_view line, absl::string_view case_id);

// The adapter side, for C++ adapters and tests: parse a run request back into an OpCase, and
// encode a response.
absl::StatusOr<OpCase> DecodeRunRequest(absl::string_view line);
std::string EncodeRunResponse(absl::string_view case_id, const RunOutcome& r);
std::string EncodeHelloResponse(const Hello& h);

}  // namespace dmconf::subprocess

#endif  // DMCONF_HARNESS_BACKENDS_SUBPROCESS_PROTOCOL_H_
