// The dmconf subprocess adapter protocol, versions 1 and 2 (`dmconf-subprocess/1`, `/2`;
// docs/subprocess-protocol.md). Version 2 adds shape inference (plugin ABI version 2's
// infer_static / infer_partial); an adapter answers hello with the version it speaks.
//
// A backend written in any language runs as a child process and speaks newline-delimited JSON on
// its stdin/stdout: one request per line, one response per line. Three requests:
//   {"protocol":"dmconf-subprocess/1","request":"hello"}
//       -> {"protocol":"dmconf-subprocess/1","name":...,"version":...,"capabilities":[...]}
//   {"request":"run","id":...,"op":...,"attributes":{...},"inputs":[{tensor}, ...]}
//       -> {"id":...,"outcome":"output","output":{tensor}}
//        | {"id":...,"outcome":"rejected" | "unsupported","message":...}
//   {"request":"shutdown"}  (no response; the adapter exits 0)
// Version 2 only (the hello response says "infer_static": true / "infer_partial": true):
//   {"request":"infer_static" | "infer_partial","id":...,"op":...,"element_type":...,
//    "attributes":{...},"data":DIMS,"inputs":[{"constant":true, tensor as in run}
//                                    | {"constant":false,"name":...,"type":...,"shape":DIMS}]}
//       -> {"id":...,"outcome":"shape","type":...,"shape":DIMS}
//        | {"id":...,"outcome":"rejected" | "unsupported","message":...}
//   DIMS: null (unknown rank) or an array of [lo, hi] (hi null: unbounded); a non-constant
//   integer input has a known element type and a (partial) shape, its values unknown.
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
#include "oracle/partial/partial_infer.h"

namespace dmconf::subprocess {

inline constexpr absl::string_view kProtocol = "dmconf-subprocess/1";
inline constexpr absl::string_view kProtocol2 = "dmconf-subprocess/2";

struct Hello {
  std::string name;
  std::string version;
  Capabilities capabilities;  // version 2: infer_static / infer_partial as the adapter says
  std::string protocol = std::string(kProtocol);
};

// Shape inference requests (version 2).
std::string EncodeShapeRequest(absl::string_view id, bool partial, const PartialCase& c);
absl::StatusOr<ShapeOutcome> DecodeShapeResponse(absl::string_view line, absl::string_view id);
struct ShapeRequest {
  std::string id;
  bool partial = false;  // infer_partial (else infer_static)
  PartialCase c;
};
absl::StatusOr<ShapeRequest> DecodeShapeRequest(absl::string_view line);
std::string EncodeShapeResponse(absl::string_view id, const ShapeOutcome& r);

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
