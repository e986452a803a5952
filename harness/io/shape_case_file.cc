#include "harness/io/shape_case_file.h"

#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "harness/base/files.h"
#include "harness/io/canonical_json.h"
#include "harness/io/shape_json.h"
#include "harness/io/vector_file.h"

namespace dmconf::io {
namespace {

using Json = nlohmann::json;

// JSON whitespace.
size_t SkipSpace(absl::string_view t, size_t i) {
  while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) ++i;
  return i;
}

// The end of the string that starts at t[i] == '"' (just past its closing quote), or npos.
size_t SkipString(absl::string_view t, size_t i) {
  for (++i; i < t.size(); ++i) {
    if (t[i] == '\\') {
      ++i;
    } else if (t[i] == '"') {
      return i + 1;
    }
  }
  return absl::string_view::npos;
}

// The end of the value that starts at t[i] (a string, a nested object or array, a number or a
// literal), or npos when the text ends first.
size_t SkipValue(absl::string_view t, size_t i) {
  if (i >= t.size()) return absl::string_view::npos;
  if (t[i] == '"') return SkipString(t, i);
  if (t[i] == '{' || t[i] == '[') {
    int depth = 0;
    while (i < t.size()) {
      const char ch = t[i];
      if (ch == '"') {
        i = SkipString(t, i);
        if (i == absl::string_view::npos) return i;
        continue;
      }
      if (ch == '{' || ch == '[') ++depth;
      if ((ch == '}' || ch == ']') && --depth == 0) return i + 1;
      ++i;
    }
    return absl::string_view::npos;
  }
  while (i < t.size() && t[i] != ',' && t[i] != '}' && t[i] != ']' && t[i] != ' ' && t[i] != '\n' &&
         t[i] != '\r' && t[i] != '\t') {
    ++i;
  }
  return i;
}

}  // namespace

std::string SerializeShapeCase(const ShapeCaseFile& f) { return DumpCanonical(ShapeCaseToJson(f)); }

absl::StatusOr<ShapeCaseFile> ParseShapeCase(absl::string_view text, absl::string_view file) {
  if (static_cast<int64_t>(text.size()) > kMaxShapeCaseFileBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("shape_case.json.too_large: ", file, ": ", text.size(), " bytes, above the ",
                     kMaxShapeCaseFileBytes, " bytes a shape-case file may have"));
  }
  absl::StatusOr<Json> j = Rebrand(ParseJsonText(text, file));
  if (!j.ok()) return j.status();
  try {
    return ShapeCaseFromJson(*j, file);
  } catch (const nlohmann::json::exception& e) {
    // Every access above is type-checked first; this is a last line of defence.
    return absl::InvalidArgumentError(
        absl::StrCat("shape_case.field.type: ", file, ": ", e.what()));
  }
}

absl::StatusOr<ShapeCaseFile> ReadShapeCaseFile(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFileToString(path, kMaxShapeCaseFileBytes);
  if (!text.ok()) return text.status();
  return ParseShapeCase(*text, path);
}

absl::Status WriteShapeCaseFile(const std::string& path, const ShapeCaseFile& f) {
  for (const std::optional<Tensor>& t : f.c.int_inputs) {
    if (!t) continue;
    if (absl::Status s = t->Validate("constant"); !s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("shape_case.write.unreadable: ", path, ": ", s.message(), "; not written"));
    }
  }
  const std::string text = SerializeShapeCase(f);
  if (static_cast<int64_t>(text.size()) > kMaxShapeCaseFileBytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat("shape_case.write.too_large: ", path, ": the file would take ", text.size(),
                     " bytes, above the ", kMaxShapeCaseFileBytes,
                     " bytes a shape-case file may have to be read back; not written"));
  }
  // Every file written must replay: one the reader refuses is not written.
  if (absl::StatusOr<ShapeCaseFile> back = ParseShapeCase(text, path); !back.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("shape_case.write.unreadable: ", path,
                                                   ": it would be refused on reading (",
                                                   back.status().message(), "); not written"));
  }
  return WriteFileAtomically(path, text);
}

bool LooksLikeShapeCase(absl::string_view text) {
  size_t i = SkipSpace(text, 0);
  if (i >= text.size() || text[i] != '{') return false;
  i = SkipSpace(text, i + 1);
  // Top-level members in order, until "schema" or the end of what the text holds.
  while (i < text.size() && text[i] == '"') {
    const size_t key_end = SkipString(text, i);
    if (key_end == absl::string_view::npos) return false;
    const absl::string_view key = text.substr(i + 1, key_end - i - 2);
    i = SkipSpace(text, key_end);
    if (i >= text.size() || text[i] != ':') return false;
    i = SkipSpace(text, i + 1);
    const size_t value_end = SkipValue(text, i);
    if (value_end == absl::string_view::npos) return false;
    if (key == "schema") {
      return text.substr(i, value_end - i) == absl::StrCat("\"", kShapeCaseSchema, "\"");
    }
    i = SkipSpace(text, value_end);
    if (i >= text.size() || text[i] != ',') return false;
    i = SkipSpace(text, i + 1);
  }
  return false;
}

}  // namespace dmconf::io
