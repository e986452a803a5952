#include "harness/io/npy_export.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "harness/base/files.h"
#include "harness/base/output_paths.h"
#include "harness/io/canonical_json.h"
#include "harness/io/case_json.h"

namespace dmconf::io {
namespace {

struct NpyType {
  const char* dtype;
  int bytes;  // per element in the .npy file
  bool bits;  // raw bits rather than the value
};

NpyType NpyTypeOf(ElementType t) {
  switch (t) {
    case ElementType::kBoolean:
    case ElementType::kU8:
      return {"|u1", 1, false};
    case ElementType::kI8:
      return {"|i1", 1, false};
    case ElementType::kU16:
      return {"<u2", 2, false};
    case ElementType::kI16:
      return {"<i2", 2, false};
    case ElementType::kU32:
      return {"<u4", 4, false};
    case ElementType::kI32:
      return {"<i4", 4, false};
    case ElementType::kU64:
      return {"<u8", 8, false};
    case ElementType::kI64:
      return {"<i8", 8, false};
    case ElementType::kF16:
      return {"<f2", 2, false};
    case ElementType::kF32:
      return {"<f4", 4, false};
    case ElementType::kF64:
      return {"<f8", 8, false};
    case ElementType::kI4:
      return {"|i1", 1, false};
    case ElementType::kU1:
    case ElementType::kU2:
    case ElementType::kU3:
    case ElementType::kU4:
    case ElementType::kU6:
      return {"|u1", 1, false};
    case ElementType::kBf16:
      return {"<u2", 2, true};
    default:  // f8*, nf4, f4e2m1
      return {"|u1", 1, true};
  }
}

}  // namespace

std::string TensorToNpy(const Tensor& t, std::string* dtype, std::string* encoding) {
  const NpyType nt = NpyTypeOf(t.type);
  *dtype = nt.dtype;
  *encoding = nt.bits ? "bits" : "value";
  std::string shape = "(";
  for (int64_t d : t.shape) absl::StrAppend(&shape, d, ", ");
  if (t.shape.size() == 1) {
    shape.resize(shape.size() - 1);  // "(3,)"
  } else if (!t.shape.empty()) {
    shape.resize(shape.size() - 2);
  }
  shape += ")";
  std::string header =
      absl::StrCat("{'descr': '", nt.dtype, "', 'fortran_order': False, 'shape': ", shape, ", }");
  // Magic (6) + version (2) + header length (2) + header, padded with spaces to a multiple of
  // 64 and ended by '\n'.
  const size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header.size() & 0xFF);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  const int64_t n = t.NumElements();
  for (int64_t i = 0; i < n; ++i) {
    uint64_t bits = t.GetBits(i);
    if (t.type == ElementType::kI4 && (bits & 0x8)) bits |= ~uint64_t{0xF};  // sign-extend
    for (int k = 0; k < nt.bytes; ++k) out += static_cast<char>((bits >> (8 * k)) & 0xFF);
  }
  return out;
}

absl::Status ExportNpy(const std::vector<VectorCase>& vectors, const std::string& out_dir) {
  absl::Status made = CreateDirectories(out_dir);
  if (!made.ok()) return made;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const VectorCase& v : vectors) {
    const std::string dir = absl::StrCat(out_dir, "/", v.c.id);
    // An id of ".." or a link where the case's folder goes must not lead out of out_dir.
    made = CheckInsideFolder(out_dir, v.c.id);
    if (made.ok()) made = CreateDirectories(dir);
    if (!made.ok()) return made;
    auto write = [&](const Tensor& t, const std::string& name,
                     nlohmann::ordered_json* entry) -> absl::Status {
      std::string dtype, encoding;
      const std::string file = absl::StrCat(v.c.id, "/", name, ".npy");
      absl::Status s = CheckInsideFolder(out_dir, file);
      if (s.ok()) {
        s = WriteFileAtomically(absl::StrCat(out_dir, "/", file),
                                TensorToNpy(t, &dtype, &encoding));
      }
      (*entry)["file"] = file;
      (*entry)["ov_type"] = std::string(ElementTypeName(t.type));
      (*entry)["dtype"] = dtype;
      (*entry)["encoding"] = encoding;
      (*entry)["shape"] = t.shape;
      return s;
    };
    nlohmann::ordered_json e;
    e["id"] = v.c.id;
    e["op"] = std::string(OpName(v.c.op));
    e["version"] = OpVersion(v.c.op);
    e["attributes"] = AttributesToJson(v.c.op, v.c);
    nlohmann::ordered_json inputs = nlohmann::ordered_json::array();
    const std::vector<std::string> names = InputNames(v.c.op);
    for (size_t i = 0; i < 1 + v.c.int_inputs.size() && i < names.size(); ++i) {
      nlohmann::ordered_json in;
      in["name"] = names[i];
      in["constant"] = i < v.constant.size() ? static_cast<bool>(v.constant[i]) : i > 0;
      absl::Status s = write(i == 0 ? v.c.data : v.c.int_inputs[i - 1], names[i], &in);
      if (!s.ok()) return s;
      inputs.push_back(std::move(in));
    }
    e["inputs"] = std::move(inputs);
    nlohmann::ordered_json ex;
    ex["kind"] = std::string(ExpectationKindName(v.expected.kind));
    if (v.expected.rule != nullptr) ex["rule"] = std::string(v.expected.rule->id);
    if (v.expected.output) {
      nlohmann::ordered_json out;
      absl::Status s = write(*v.expected.output, "expected_output", &out);
      if (!s.ok()) return s;
      ex["output"] = std::move(out);
    }
    e["expectation"] = std::move(ex);
    e["classes"] = v.classes;
    list.push_back(std::move(e));
  }
  nlohmann::ordered_json manifest;
  manifest["schema"] = "dmconf-npy-export/1";
  manifest["vectors"] = std::move(list);
  if (absl::Status s = CheckInsideFolder(out_dir, "manifest.json"); !s.ok()) return s;
  return WriteFileAtomically(absl::StrCat(out_dir, "/manifest.json"), DumpCanonical(manifest));
}

}  // namespace dmconf::io
