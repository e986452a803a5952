#include "harness/io/canonical_json.h"

#include <algorithm>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "harness/io/element_json.h"

namespace dmconf::io {
namespace {

using Json = nlohmann::ordered_json;

constexpr size_t kMaxPerLine = 16;

bool IsScalar(const Json& j) { return !j.is_array() && !j.is_object(); }

bool AllScalars(const Json& j) {
  for (const Json& e : j) {
    if (!IsScalar(e)) return false;
  }
  return true;
}

void DumpValue(const Json& j, int indent, size_t row, const TensorRefs* refs, std::string* out);

// Writes `n` elements whose text `element(i)` gives as DumpScalarArray writes an array of them.
template <typename ElementText>
void DumpElements(size_t n, ElementText element, int indent, size_t row, std::string* out) {
  if (n == 0) {
    *out += "[]";
    return;
  }
  if (row == 0 || n <= row) {
    *out += "[";
    for (size_t i = 0; i < n; ++i) {
      if (i > 0) *out += ", ";
      *out += element(i);
    }
    *out += "]";
    return;
  }
  const std::string pad(static_cast<size_t>(indent + 2), ' ');
  *out += "[\n";
  for (size_t i = 0; i < n; ++i) {
    if (i % row == 0) {
      if (i > 0) *out += ",\n";
      *out += pad;
    } else {
      *out += ", ";
    }
    *out += element(i);
  }
  absl::StrAppend(out, "\n", std::string(static_cast<size_t>(indent), ' '), "]");
}

// One value's text. A string from a backend (a failure's note) may hold bytes that are not
// UTF-8: they become U+FFFD rather than an exception that loses the file (valid text is
// written as before, so hashes of existing files do not change).
std::string Dump(const Json& v) { return v.dump(-1, ' ', false, Json::error_handler_t::replace); }

void DumpScalarArray(const Json& j, int indent, size_t row, std::string* out) {
  DumpElements(
      j.size(), [&j](size_t i) { return Dump(j[i]); }, indent, row, out);
}

// Row length of a "data" array: the innermost dim of the sibling "shape" (trailing dims of 1
// merged with the next one), at most 16.
size_t RowLength(const Json& object) {
  auto shape = object.find("shape");
  if (shape == object.end() || !shape->is_array()) return kMaxPerLine;
  int64_t row = 1;
  for (size_t k = shape->size(); k-- > 0 && row < 2;) {
    const Json& d = (*shape)[k];
    if (!d.is_number_integer() || d.get<int64_t>() <= 0 ||
        d.get<int64_t>() > static_cast<int64_t>(kMaxPerLine)) {
      return kMaxPerLine;
    }
    row *= d.get<int64_t>();
  }
  return row > static_cast<int64_t>(kMaxPerLine) ? kMaxPerLine : static_cast<size_t>(row);
}

void DumpValue(const Json& j, int indent, size_t row, const TensorRefs* refs, std::string* out) {
  const std::string pad(static_cast<size_t>(indent + 2), ' ');
  if (j.is_binary() && refs != nullptr && j.get_binary().has_subtype() &&
      j.get_binary().subtype() < refs->tensors.size()) {
    const Tensor& t = *refs->tensors[j.get_binary().subtype()];
    DumpElements(
        static_cast<size_t>(t.NumElements()),
        [&t](size_t i) { return EncodeElement(t.type, t.GetBits(static_cast<int64_t>(i))).dump(); },
        indent, row, out);
    return;
  }
  if (j.is_object()) {
    if (j.empty()) {
      *out += "{}";
      return;
    }
    *out += "{\n";
    bool first = true;
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (!first) *out += ",\n";
      first = false;
      absl::StrAppend(out, pad, Dump(Json(it.key())), ": ");
      DumpValue(it.value(), indent + 2, it.key() == "data" ? RowLength(j) : 0, refs, out);
    }
    absl::StrAppend(out, "\n", std::string(static_cast<size_t>(indent), ' '), "}");
  } else if (j.is_array()) {
    if (AllScalars(j)) {
      DumpScalarArray(j, indent, row, out);
      return;
    }
    *out += "[\n";
    for (size_t i = 0; i < j.size(); ++i) {
      if (i > 0) *out += ",\n";
      *out += pad;
      DumpValue(j[i], indent + 2, 0, refs, out);
    }
    absl::StrAppend(out, "\n", std::string(static_cast<size_t>(indent), ' '), "]");
  } else {
    *out += Dump(j);
  }
}

}  // namespace

std::string DumpCanonical(const nlohmann::ordered_json& j, const TensorRefs* refs) {
  std::string out;
  if (refs != nullptr && !refs->tensors.empty()) {
    // At most 24 bytes per element: a quoted 64-bit hex string and its separator.
    size_t elements = 0;
    for (const Tensor* t : refs->tensors) elements += static_cast<size_t>(t->NumElements());
    out.reserve(std::min(refs->max_reserve, elements * 24 + 4096));
  }
  DumpValue(j, 0, 0, refs, &out);
  out += "\n";
  return out;
}

}  // namespace dmconf::io
