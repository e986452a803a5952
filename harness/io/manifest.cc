#include "harness/io/manifest.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "absl/strings/str_cat.h"
#include "harness/base/files.h"
#include "harness/base/json_location.h"
#include "harness/io/canonical_json.h"
#include "harness/io/sha256.h"
#include "harness/io/vector_file.h"

namespace dmconf::io {

std::string ManifestText(const ManifestInfo& info, std::vector<ManifestEntry> entries) {
  std::sort(entries.begin(), entries.end(),
            [](const ManifestEntry& a, const ManifestEntry& b) { return a.path < b.path; });
  nlohmann::ordered_json j;
  j["schema"] = kManifestSchema;
  j["generator"] = info.generator;
  if (!info.profile.empty()) j["profile"] = info.profile;
  if (info.seed) j["seed"] = *info.seed;
  if (!info.source.empty()) j["source"] = info.source;
  if (!info.ops.empty()) j["ops"] = info.ops;
  if (!info.types.empty()) j["types"] = info.types;
  j["file_count"] = entries.size();
  int64_t total = 0;
  std::map<std::string, int64_t> coverage;
  for (const ManifestEntry& e : entries) {
    total += static_cast<int64_t>(e.bytes.size());
    for (const std::string& c : e.classes) ++coverage[c];
  }
  j["total_bytes"] = total;
  nlohmann::ordered_json cov = nlohmann::ordered_json::object();
  for (const auto& [cls, n] : coverage) cov[cls] = n;
  j["coverage"] = std::move(cov);
  nlohmann::ordered_json files = nlohmann::ordered_json::array();
  for (const ManifestEntry& e : entries) {
    nlohmann::ordered_json f;
    f["path"] = e.path;
    f["bytes"] = e.bytes.size();
    f["sha256"] = Sha256Hex(e.bytes);
    files.push_back(std::move(f));
  }
  j["files"] = std::move(files);
  return DumpCanonical(j);
}

absl::StatusOr<ManifestFile> ReadManifest(const std::string& dir) {
  const std::string path = absl::StrCat(dir, "/", kManifestName);
  absl::StatusOr<std::string> text = ReadFileToString(path, kMaxManifestBytes);
  if (!text.ok()) return text.status();
  return ParseManifest(*text, path);
}

namespace {

// The manifest's description of its set (schema, generator, profile, seed, source, subset).
absl::Status ReadInfo(const nlohmann::json& j, const JsonLoc& root, ManifestInfo* info) {
  absl::StatusOr<const nlohmann::json*> schema = Member(j, root, "schema", true);
  if (!schema.ok()) return schema.status();
  if (**schema != kManifestSchema) {
    return LocError("vector.schema.version", root.Key("schema"),
                    absl::StrCat("expected '", kManifestSchema, "'"));
  }
  for (auto [key, dst] :
       {std::pair{"generator", &info->generator}, std::pair{"profile", &info->profile},
        std::pair{"source", &info->source}}) {
    absl::StatusOr<const nlohmann::json*> v = Member(j, root, key, false);
    if (!v.ok()) return v.status();
    if (*v == nullptr) continue;
    absl::StatusOr<std::string> str = ReadString(**v, root.Key(key));
    if (!str.ok()) return str.status();
    *dst = *str;
  }
  absl::StatusOr<const nlohmann::json*> seed = Member(j, root, "seed", false);
  if (!seed.ok()) return seed.status();
  if (*seed != nullptr) {
    absl::StatusOr<uint64_t> v = ReadUint64(**seed, root.Key("seed"));
    if (!v.ok()) return v.status();
    info->seed = *v;
  }
  for (auto [key, dst] : {std::pair{"ops", &info->ops}, std::pair{"types", &info->types}}) {
    absl::StatusOr<const nlohmann::json*> v = Member(j, root, key, false);
    if (!v.ok()) return v.status();
    if (*v == nullptr) continue;
    absl::StatusOr<std::vector<std::string>> list = ReadStringList(**v, root.Key(key));
    if (!list.ok()) return list.status();
    *dst = *list;
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ManifestFile> ParseManifest(absl::string_view text, absl::string_view file) {
  const std::string path(file);
  absl::StatusOr<nlohmann::json> j = ParseJsonText(text, path);
  if (!j.ok()) return j.status();
  const JsonLoc root{path, ""};
  try {
    absl::Status s = CheckObject(*j, root,
                                 {"schema", "generator", "profile", "seed", "source", "ops",
                                  "types", "file_count", "total_bytes", "coverage", "files"});
    if (!s.ok()) return s;
    ManifestFile m;
    s = ReadInfo(*j, root, &m.info);
    if (!s.ok()) return s;
    absl::StatusOr<const nlohmann::json*> files = Member(*j, root, "files", true);
    if (!files.ok()) return files.status();
    if (!(*files)->is_array()) {
      return LocError("vector.field.type", root.Key("files"), "expected an array");
    }
    for (size_t i = 0; i < (*files)->size(); ++i) {
      const nlohmann::json& f = (**files)[i];
      const JsonLoc at = root.Key("files").Index(i);
      s = CheckObject(f, at, {"path", "bytes", "sha256"});
      if (!s.ok()) return s;
      ManifestFile::File out;
      absl::StatusOr<const nlohmann::json*> p = Member(f, at, "path", true);
      if (!p.ok()) return p.status();
      absl::StatusOr<std::string> ps = ReadString(**p, at.Key("path"));
      if (!ps.ok()) return ps.status();
      absl::StatusOr<const nlohmann::json*> b = Member(f, at, "bytes", true);
      if (!b.ok()) return b.status();
      absl::StatusOr<int64_t> bs = ReadInt64(**b, at.Key("bytes"));
      if (!bs.ok()) return bs.status();
      absl::StatusOr<const nlohmann::json*> h = Member(f, at, "sha256", true);
      if (!h.ok()) return h.status();
      absl::StatusOr<std::string> hs = ReadString(**h, at.Key("sha256"));
      if (!hs.ok()) return hs.status();
      // A manifest names files of its own set: a path that could leave the set's folder
      // ("../x", "/etc/x", "a/../../x") is refused, naming the entry.
      const std::filesystem::path rel(*ps);
      bool escapes = ps->empty() || rel.is_absolute() || ps->find('\0') != std::string::npos;
      for (const auto& part : rel) escapes |= part == "..";
      if (escapes) {
        return LocError("vector.manifest.path", at.Key("path"),
                        absl::StrCat("'", *ps, "' is not a path inside the set's folder"));
      }
      out.path = *ps;
      out.bytes = *bs;
      out.sha256 = *hs;
      m.files.push_back(std::move(out));
    }
    return m;
  } catch (const nlohmann::json::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("vector.field.type: ", path, ": ", e.what()));
  }
}

}  // namespace dmconf::io
