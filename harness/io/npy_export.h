// Export of vectors for Python users who have numpy alone: one folder per vector with a .npy
// file per tensor, and a manifest.json that says what each file holds.
//
//   OUT/manifest.json      {"schema": "dmconf-npy-export/1", "vectors": [{"id", "op", "version",
//                           "attributes", "inputs": [{"name", "constant", "file", "ov_type",
//                           "shape", "encoding"}], "expectation": {"kind", "rule"?, "output"?},
//                           "classes"}]}
//   OUT/<id>/<name>.npy    one per input; OUT/<id>/expected_output.npy for valid cases
//
// numpy dtypes (NPY format 1.0, little-endian, C order, the tensor's own shape):
//   boolean u8 -> |u1; i8 |i1; u16 <u2; i16 <i2; u32 <u4; i32 <i4; u64 <u8; i64 <i8;
//   f16 <f2; f32 <f4; f64 <f8                                     (encoding "value")
//   u1 u2 u3 u4 u6 -> |u1 and i4 -> |i1, one element per byte      (encoding "value")
//   bf16 -> <u2; f8e4m3 f8e5m2 f8e8m0 -> |u1; nf4 f4e2m1 -> |u1, one element per byte
//                                                                 (encoding "bits": raw bits)
// Example:
//   np.load("OUT/s2d.example/data.npy")
#ifndef DMCONF_HARNESS_IO_NPY_EXPORT_H_
#define DMCONF_HARNESS_IO_NPY_EXPORT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "harness/io/vector_case.h"

namespace dmconf::io {

// NPY 1.0 bytes of a tensor, with the dtype above; *encoding is "value" or "bits".
std::string TensorToNpy(const Tensor& t, std::string* dtype, std::string* encoding);

// Writes the export of `vectors` into out_dir (created if missing).
absl::Status ExportNpy(const std::vector<VectorCase>& vectors, const std::string& out_dir);

}  // namespace dmconf::io

#endif  // DMCONF_HARNESS_IO_NPY_EXPORT_H_
