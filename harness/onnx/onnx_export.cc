#include "harness/onnx/onnx_export.h"

#include <unistd.h>

#include <filesystem>
#include <map>
#include <set>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/base/files.h"
#include "harness/base/output_paths.h"
#include "harness/io/canonical_json.h"
#include "harness/io/case_json.h"
#include "harness/io/vector_file.h"
#include "harness/onnx/case_model.h"
#include "harness/onnx/model_builder.h"
#include "harness/onnx/model_check.h"
#include "harness/onnx/onnx_import.h"
#include "harness/onnx/onnx_parse.h"
#include "harness/onnx/tensor_proto.h"

namespace dmconf::io {
namespace {

// Serialises a tensor as a .pb file's contents, or says why it cannot be.
absl::StatusOr<std::string> TensorFile(const Tensor& t, const std::string& name) {
  if (static_cast<int64_t>(t.bytes.size()) > onnx_io::kMaxOnnxTensorFileBytes - 4096) {
    return absl::InvalidArgumentError(absl::StrCat("onnx.export.size: the ", name, " tensor has ",
                                                   t.bytes.size(),
                                                   " bytes, more than import-onnx reads"));
  }
  absl::StatusOr<::onnx::TensorProto> p = onnx_io::TensorToProto(t, name);
  if (!p.ok()) return p.status();
  return p->SerializeAsString();
}

struct Folder {
  std::string model, input, output;
};

// The files of one vector's folder, or the reason it is skipped (a status whose message starts
// with onnx.export.*), or a checker failure (returned as an error by ExportOnnx).
absl::StatusOr<Folder> Render(const VectorCase& v, bool* checker_failed) {
  if (v.expected.kind != ExpectationKind::kValid || !v.expected.output) {
    return absl::InvalidArgumentError(
        absl::StrCat("onnx.export.case: a ", ExpectationKindName(v.expected.kind),
                     " case; an ONNX node test holds an expected output"));
  }
  if (v.constant != DefaultConstantFlags(v.c)) {
    return absl::InvalidArgumentError(
        "onnx.export.constant: a block, pad or crop input is not constant; the export makes "
        "them initializers");
  }
  absl::StatusOr<::onnx::ModelProto> m = onnx_io::CaseModel(v.c);
  if (!m.ok()) return m.status();
  ::onnx::StringStringEntryProto* meta = m->add_metadata_props();
  meta->set_key(kOnnxVectorMetadataKey);
  meta->set_value(OnnxVectorMetadata(v));
  m->set_doc_string(absl::StrCat("dmconf vector ", v.c.id, ": ", OpName(v.c.op), "-",
                                 OpVersion(v.c.op), " ", AttributesToString(v.c)));
  absl::Status checked = onnx_io::CheckOnnxModel(*m);
  if (!checked.ok()) {
    *checker_failed = true;
    return absl::InternalError(absl::StrCat(v.c.id, ": ", checked.message()));
  }
  Folder f;
  f.model = m->SerializeAsString();
  if (static_cast<int64_t>(f.model.size()) > onnx_io::kMaxOnnxModelBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("onnx.export.size: the model has ", f.model.size(), " bytes, more than the ",
                     onnx_io::kMaxOnnxModelBytes, " import-onnx reads"));
  }
  absl::StatusOr<std::string> in = TensorFile(v.c.data, "data");
  if (!in.ok()) return in.status();
  absl::StatusOr<std::string> out = TensorFile(*v.expected.output, "output");
  if (!out.ok()) return out.status();
  f.input = *std::move(in);
  f.output = *std::move(out);
  return f;
}

// The files an export writes in each test folder, the only ones it ever removes.
constexpr const char* kFolderFiles[] = {"model.onnx", "test_data_set_0/input_0.pb",
                                        "test_data_set_0/output_0.pb"};

absl::Status WriteFolder(const std::string& out_dir, const std::string& name, const Folder& f) {
  const std::string dir = absl::StrCat(out_dir, "/", name);
  const std::string* bytes[] = {&f.model, &f.input, &f.output};
  for (const char* file : kFolderFiles) {
    absl::Status s = CheckInsideFolder(out_dir, absl::StrCat(name, "/", file));
    if (!s.ok()) return s;
  }
  absl::Status s = CreateDirectories(dir + "/test_data_set_0");
  for (size_t i = 0; s.ok() && i < 3; ++i) {
    s = WriteFileAtomically(absl::StrCat(dir, "/", kFolderFiles[i]), *bytes[i]);
  }
  return s;
}

// Removes a test folder an earlier export wrote: its three files, then the folders if they are
// empty (rmdir). Anything else in it, and the folder with it, is kept; a link anywhere is
// refused (CheckInsideFolder), so nothing outside out_dir is touched.
absl::Status RemoveEarlierFolder(const std::string& out_dir, const std::string& name) {
  for (const char* file : kFolderFiles) {
    absl::Status s = CheckInsideFolder(out_dir, absl::StrCat(name, "/", file));
    if (!s.ok()) return s;
  }
  const std::string dir = absl::StrCat(out_dir, "/", name);
  for (const char* file : kFolderFiles) unlink(absl::StrCat(dir, "/", file).c_str());
  rmdir(absl::StrCat(dir, "/test_data_set_0").c_str());
  rmdir(dir.c_str());
  return absl::OkStatus();
}

// The folders the list of an earlier export in `dir` names (only names this export could
// have written; nothing else is ever removed).
std::set<std::string> EarlierFolders(const std::string& dir) {
  std::set<std::string> out;
  absl::StatusOr<std::string> text =
      ReadFileToString(absl::StrCat(dir, "/", kOnnxExportListName), kMaxOnnxExportListBytes);
  if (!text.ok()) return out;
  absl::StatusOr<nlohmann::json> j = ParseJsonText(*text, kOnnxExportListName);
  if (!j.ok() || !j->is_object() || !(*j)["exported"].is_array()) return out;
  for (const nlohmann::json& e : (*j)["exported"]) {
    if (!e.is_object() || !e["folder"].is_string()) continue;
    const std::string name = e["folder"].get<std::string>();
    if (absl::StartsWith(name, "test_dmconf_") &&
        name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
            std::string::npos) {
      out.insert(name);
    }
  }
  return out;
}

}  // namespace

std::string OnnxTestFolderName(const std::string& id) {
  std::string out = "test_dmconf_";
  for (char ch : id) {
    const bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                      (ch >= '0' && ch <= '9') || ch == '_';
    out += keep ? ch : '_';
  }
  return out;
}

std::string OnnxVectorMetadata(const VectorCase& v) {
  nlohmann::ordered_json j = VectorCaseToJson(v);
  for (nlohmann::ordered_json& in : j["inputs"]) in.erase("data");
  if (j["expectation"].contains("output")) j["expectation"]["output"].erase("data");
  return DumpCanonical(j);
}

absl::StatusOr<OnnxExport> ExportOnnx(const std::vector<VectorCase>& vectors,
                                      const std::string& out_dir) {
  absl::Status s = CreateDirectories(out_dir);
  if (!s.ok()) return s;
  const std::set<std::string> earlier = EarlierFolders(out_dir);
  OnnxExport result;
  std::map<std::string, std::string> folders;  // folder name -> vector id
  for (const VectorCase& v : vectors) {
    bool checker_failed = false;
    absl::StatusOr<Folder> f = Render(v, &checker_failed);
    if (checker_failed) return f.status();
    if (!f.ok()) {
      result.skipped.emplace_back(v.c.id, std::string(f.status().message()));
      continue;
    }
    const std::string name = OnnxTestFolderName(v.c.id);
    auto [it, fresh] = folders.emplace(name, v.c.id);
    if (!fresh) {
      return absl::InvalidArgumentError(absl::StrCat("onnx.export.name: vectors ", it->second,
                                                     " and ", v.c.id, " both give folder ", name));
    }
    s = WriteFolder(out_dir, name, *f);
    if (!s.ok()) return s;
    result.exported.emplace_back(v.c.id, name);
  }
  // Folders an earlier export wrote that this one does not: removed, so that a test runner
  // pointed at the folder runs exactly this export.
  for (const std::string& name : earlier) {
    if (folders.count(name) == 0) {
      s = RemoveEarlierFolder(out_dir, name);
      if (!s.ok()) return s;
    }
  }
  nlohmann::ordered_json list;
  list["schema"] = "dmconf-onnx-export/1";
  list["opset"] = onnx_io::kOnnxOpset;
  nlohmann::ordered_json exported = nlohmann::ordered_json::array();
  for (const auto& [id, folder] : result.exported) {
    exported.push_back({{"id", id}, {"folder", folder}});
  }
  nlohmann::ordered_json skipped = nlohmann::ordered_json::array();
  for (const auto& [id, why] : result.skipped) skipped.push_back({{"id", id}, {"reason", why}});
  list["exported"] = std::move(exported);
  list["skipped"] = std::move(skipped);
  s = WriteFileAtomically(absl::StrCat(out_dir, "/", kOnnxExportListName), DumpCanonical(list),
                          {kMaxOnnxExportListBytes, "an ONNX export list"});
  if (!s.ok()) return s;
  return result;
}

}  // namespace dmconf::io
