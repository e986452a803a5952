#include "harness/cli/partial_flags.h"

#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "oracle/op_attributes.h"

namespace dmconf::cli {
namespace {

absl::Status Bad(absl::string_view flag, const std::string& s, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat(
      "case.flags.partial_shape: ", flag, " '", s.substr(0, 80), "': ", why,
      " (dims are N, a..b, a.., ..b or ?, comma-separated; ... alone is an unknown rank)"));
}

// `text` (a part of the flag's value `s`, which messages quote) as a partial shape.
absl::StatusOr<PartialShape> ParseShapeText(absl::string_view text, absl::string_view flag,
                                            const std::string& s) {
  absl::string_view rest = absl::StripAsciiWhitespace(text);
  const bool open = absl::ConsumePrefix(&rest, "[");
  if (open != absl::ConsumeSuffix(&rest, "]")) return Bad(flag, s, "unbalanced [ ]");
  rest = absl::StripAsciiWhitespace(rest);
  if (rest == "...") return PartialShape::DynamicRank();
  std::vector<Dim> dims;
  if (absl::StripAsciiWhitespace(rest).empty()) return PartialShape::Of(dims);
  for (absl::string_view part : absl::StrSplit(rest, ',')) {
    part = absl::StripAsciiWhitespace(part);
    if (part == "?") {
      dims.push_back(Dim::Any());
      continue;
    }
    const size_t dots = part.find("..");
    int64_t lo = 0, hi = 0;
    if (dots == absl::string_view::npos) {
      if (!absl::SimpleAtoi(part, &lo))
        return Bad(flag, s, absl::StrCat("'", part, "' is not a dim"));
      dims.push_back(Dim::Exact(lo));
      continue;
    }
    const absl::string_view a = part.substr(0, dots), b = part.substr(dots + 2);
    if (!a.empty() && !absl::SimpleAtoi(a, &lo)) {
      return Bad(flag, s, absl::StrCat("'", a, "' is not an integer in [-2^63, 2^63-1]"));
    }
    if (b.empty()) {
      dims.push_back(Dim::AtLeast(lo));
      continue;
    }
    if (!absl::SimpleAtoi(b, &hi)) {
      return Bad(flag, s, absl::StrCat("'", b, "' is not an integer in [-2^63, 2^63-1]"));
    }
    dims.push_back(Dim::Range(lo, hi));
  }
  return PartialShape::Of(std::move(dims));
}

// "?", "?[4]", "?[2..5]", "?[...]": a non-constant integer input.
bool IsNonConstantInput(const std::string& s) {
  return absl::StartsWith(absl::StripAsciiWhitespace(s), "?");
}

// The declared shape of a non-constant input: "?" alone is an unknown shape (unknown rank).
absl::StatusOr<PartialShape> ParseNonConstantInput(const std::string& s, absl::string_view flag) {
  absl::string_view rest = absl::StripAsciiWhitespace(s);
  absl::ConsumePrefix(&rest, "?");
  rest = absl::StripAsciiWhitespace(rest);
  if (rest.empty()) return PartialShape::DynamicRank();
  if (!absl::StartsWith(rest, "[")) {
    return absl::InvalidArgumentError(absl::StrCat(
        "case.flags.partial_shape: ", flag, " '", s.substr(0, 80),
        "': a non-constant input is ? (unknown shape) or ?[shape], e.g. ?[4], ?[2..5], ?[?], "
        "?[...]"));
  }
  return ParseShapeText(rest, flag, s);
}

}  // namespace

bool IsPartial(const CaseFlags& f) {
  return absl::StrContains(f.shape, "?") || absl::StrContains(f.shape, "..") ||
         IsNonConstantInput(f.block_shape) || IsNonConstantInput(f.begin) ||
         IsNonConstantInput(f.end);
}

absl::StatusOr<PartialShape> ParsePartialShape(const std::string& s, absl::string_view flag) {
  return ParseShapeText(s, flag, s);
}

absl::StatusOr<PartialCase> BuildPartialCase(const CaseFlags& f) {
  // Everything but the data shape and the non-constant inputs as for a static case: the
  // attribute and type checks stay in one place (BuildCase).
  CaseFlags fixed = f;
  fixed.shape = "";
  for (std::string* in : {&fixed.block_shape, &fixed.begin, &fixed.end}) {
    if (IsNonConstantInput(*in)) *in = "";
  }
  absl::StatusOr<OpCase> c = BuildCase(fixed, /*with_data=*/false);
  if (!c.ok()) return c.status();
  absl::StatusOr<PartialShape> data = ParsePartialShape(f.shape, "--shape");
  if (!data.ok()) return data.status();
  PartialCase p;
  p.op = c->op;
  p.type = c->data.type;
  p.data = *std::move(data);
  CopyAttributes(*c, p);
  const bool s2b = p.op == Op::kSpaceToBatch;
  const std::pair<const std::string*, const char*> inputs[3] = {
      {&f.block_shape, "--block-shape"},
      {&f.begin, s2b ? "--pads-begin" : "--crops-begin"},
      {&f.end, s2b ? "--pads-end" : "--crops-end"}};
  for (size_t k = 0; k < c->int_inputs.size() && k < 3; ++k) {
    const auto& [text, flag] = inputs[k];
    p.int_types[k] = c->int_inputs[k].type;
    if (!IsNonConstantInput(*text)) {
      p.int_inputs[k] = c->int_inputs[k];
      continue;
    }
    absl::StatusOr<PartialShape> shape = ParseNonConstantInput(*text, flag);
    if (!shape.ok()) return shape.status();
    p.int_shapes[k] = *std::move(shape);
  }
  return p;
}

}  // namespace dmconf::cli
