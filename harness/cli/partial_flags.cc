#include "harness/cli/partial_flags.h"

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace dmconf::cli {
namespace {

absl::Status Bad(const std::string& s, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat(
      "case.flags.partial_shape: --shape '", s.substr(0, 80), "': ", why,
      " (dims are N, a..b, a.., ..b or ?, comma-separated; ... alone is an unknown rank)"));
}

bool IsUnknownInput(const std::string& s) { return absl::StripAsciiWhitespace(s) == "?"; }

}  // namespace

bool IsPartial(const CaseFlags& f) {
  return absl::StrContains(f.shape, "?") || absl::StrContains(f.shape, "..") ||
         IsUnknownInput(f.block_shape) || IsUnknownInput(f.begin) || IsUnknownInput(f.end);
}

absl::StatusOr<PartialShape> ParsePartialShape(const std::string& s) {
  absl::string_view rest = absl::StripAsciiWhitespace(s);
  if (rest == "...") return PartialShape::DynamicRank();
  absl::ConsumePrefix(&rest, "[");
  absl::ConsumeSuffix(&rest, "]");
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
      if (!absl::SimpleAtoi(part, &lo)) return Bad(s, absl::StrCat("'", part, "' is not a dim"));
      dims.push_back(Dim::Exact(lo));
      continue;
    }
    const absl::string_view a = part.substr(0, dots), b = part.substr(dots + 2);
    if (!a.empty() && !absl::SimpleAtoi(a, &lo)) {
      return Bad(s, absl::StrCat("'", a, "' is not an integer in [-2^63, 2^63-1]"));
    }
    if (b.empty()) {
      dims.push_back(Dim::AtLeast(lo));
      continue;
    }
    if (!absl::SimpleAtoi(b, &hi)) {
      return Bad(s, absl::StrCat("'", b, "' is not an integer in [-2^63, 2^63-1]"));
    }
    dims.push_back(Dim::Range(lo, hi));
  }
  return PartialShape::Of(std::move(dims));
}

absl::StatusOr<PartialCase> BuildPartialCase(const CaseFlags& f) {
  // Everything but the data shape and the non-constant inputs as for a static case: the
  // attribute and type checks stay in one place (BuildCase).
  CaseFlags fixed = f;
  fixed.shape = "";
  for (std::string* in : {&fixed.block_shape, &fixed.begin, &fixed.end}) {
    if (IsUnknownInput(*in)) *in = "";
  }
  absl::StatusOr<OpCase> c = BuildCase(fixed, /*with_data=*/false);
  if (!c.ok()) return c.status();
  absl::StatusOr<PartialShape> data = ParsePartialShape(f.shape);
  if (!data.ok()) return data.status();
  PartialCase p;
  p.op = c->op;
  p.type = c->data.type;
  p.data = *std::move(data);
  p.block_size = c->block_size;
  p.mode = c->mode;
  p.sizes = c->sizes;
  p.strides = c->strides;
  p.rates = c->rates;
  p.auto_pad = c->auto_pad;
  const std::string* inputs[3] = {&f.block_shape, &f.begin, &f.end};
  for (size_t k = 0; k < c->int_inputs.size() && k < 3; ++k) {
    p.int_types[k] = c->int_inputs[k].type;
    if (!IsUnknownInput(*inputs[k])) p.int_inputs[k] = c->int_inputs[k];
  }
  return p;
}

}  // namespace dmconf::cli
