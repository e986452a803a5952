#include "harness/io/vector_file.h"

#include <algorithm>
#include <filesystem>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "harness/base/files.h"
#include "harness/base/json_location.h"
#include "harness/io/canonical_json.h"
#include "harness/io/case_json.h"

namespace dmconf::io {
namespace {

// "[json.exception.parse_error.101] parse error at line 3, column 1: syntax error ..." ->
// "line 3, column 1: syntax error ...".
std::string CleanParseError(absl::string_view what) {
  const size_t at = what.find(" at line ");
  if (at != absl::string_view::npos)
    what.remove_prefix(at + 4);
  else if (const size_t b = what.find("] "); b != absl::string_view::npos)
    what.remove_prefix(b + 2);
  return std::string(what);
}

}  // namespace

std::string SerializeVector(const VectorCase& v) {
  TensorRefs refs;  // big tensors are written from their bits, without a parsed copy
  return DumpCanonical(VectorCaseToJson(v, &refs), &refs);
}

absl::StatusOr<nlohmann::json> ParseJsonText(absl::string_view text, absl::string_view file,
                                             DeferredArrays* deferred) {
  if (JsonNestingDepth(text, kMaxJsonDepth) > kMaxJsonDepth) {
    return absl::InvalidArgumentError(absl::StrCat(
        "vector.json.nesting: ", file, ": JSON nested deeper than ", kMaxJsonDepth, " levels"));
  }
  try {
    JsonLoc duplicate{std::string(file), ""};
    nlohmann::json j = ParseJsonNotingDuplicates(text, &duplicate, deferred);
    if (!duplicate.pointer.empty()) {
      return LocError("vector.json.duplicate_key", duplicate,
                      "this key appears twice in one object (JSON readers disagree on which "
                      "one counts)");
    }
    return j;
  } catch (const nlohmann::json::exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat("vector.json.syntax: ", file, ": ", CleanParseError(e.what())));
  }
}

absl::StatusOr<VectorCase> ParseVector(absl::string_view text, absl::string_view file) {
  // Big tensors are decoded from the text, not held as parsed values (DeferredArrays).
  DeferredArrays deferred;
  deferred.text = text;
  absl::StatusOr<nlohmann::json> j = ParseJsonText(text, file, &deferred);
  if (!j.ok()) return j.status();
  try {
    return VectorCaseFromJson(*j, file, &deferred);
  } catch (const nlohmann::json::exception& e) {
    // Every access above is type-checked first; this is a last line of defence.
    return absl::InvalidArgumentError(
        absl::StrCat("vector.field.type: ", file, ": ", CleanParseError(e.what())));
  }
}

absl::StatusOr<VectorCase> ReadVectorFile(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFileToString(path, kMaxVectorFileBytes);
  if (!text.ok()) return text.status();
  return ParseVector(*text, path);
}

absl::Status WriteVectorFile(const std::string& path, const VectorCase& v) {
  auto too_large = [&](const std::string& size) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "vector.write.too_large: ", path, ": the file would take ", size, " bytes, above the ",
        kMaxVectorFileBytes, " bytes a vector file may have to be read back; not written"));
  };
  // Every element takes at least 3 bytes ("0, "): refuse a certain overflow before rendering.
  int64_t elements = v.c.data.NumElements();
  if (v.expected.output.has_value()) elements += v.expected.output->NumElements();
  if (elements * 3 > kMaxVectorFileBytes) {
    return too_large(absl::StrCat("at least ", elements * 3, " bytes (", elements, " elements)"));
  }
  const std::string text = SerializeVector(v);
  if (static_cast<int64_t>(text.size()) > kMaxVectorFileBytes) {
    return too_large(absl::StrCat(text.size(), " bytes"));
  }
  return WriteFileAtomically(path, text);
}

absl::StatusOr<std::vector<std::string>> ListVectorFiles(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return absl::NotFoundError(absl::StrCat("io.read: ", dir, ": not a directory"));
  }
  std::vector<std::string> out;
  fs::recursive_directory_iterator it(dir, ec), end;
  if (ec) return absl::UnavailableError(absl::StrCat("io.read: ", dir, ": ", ec.message()));
  for (; it != end; it.increment(ec)) {
    if (ec) return absl::UnavailableError(absl::StrCat("io.read: ", dir, ": ", ec.message()));
    if (!it->is_regular_file(ec)) continue;
    const std::string name = it->path().filename().string();
    if (!absl::EndsWith(name, ".json") || name == "MANIFEST.json" ||
        absl::EndsWith(name, ".schema.json")) {
      continue;
    }
    out.push_back(it->path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace dmconf::io
