#include "harness/cli/case_flags.h"

#include <cstdint>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "harness/cli/option_checks.h"
#include "harness/gen/fills.h"

namespace dmconf::cli {

void AddCaseFlags(CLI::App* cmd, CaseFlags* f, bool with_data) {
  cmd->add_option("--op", f->op,
                  "SpaceToBatch, BatchToSpace, SpaceToDepth, DepthToSpace, ExtractImagePatches "
                  "(or s2b, b2s, s2d, d2s, eip)")
      ->required();
  cmd->add_option("--type", f->type, "element type of data (boolean, u1, ..., f64)")
      ->capture_default_str();
  cmd->add_option("--shape", f->shape, "data shape, comma-separated (e.g. 1,4,6,6)")->required();
  auto* g = cmd->add_option_group("SpaceToBatch / BatchToSpace");
  g->add_option("--block-shape", f->block_shape, "block_shape values, one per data axis");
  g->add_option("--pads-begin,--crops-begin", f->begin, "pads_begin (SpaceToBatch) or crops_begin");
  g->add_option("--pads-end,--crops-end", f->end, "pads_end (SpaceToBatch) or crops_end");
  g->add_option("--int-type", f->int_type, "element type of those three inputs")
      ->capture_default_str();
  auto* d = cmd->add_option_group("SpaceToDepth / DepthToSpace");
  d->add_option("--block-size", f->block_size, "block_size (absent: the spec default 1)")
      ->check(IntegerIn(INT64_MIN, INT64_MAX));
  d->add_option("--mode", f->mode, "blocks_first or depth_first");
  auto* e = cmd->add_option_group("ExtractImagePatches");
  e->add_option("--sizes", f->sizes, "sizes: rows,cols");
  e->add_option("--strides", f->strides, "strides: rows,cols");
  e->add_option("--rates", f->rates, "rates: rows,cols");
  e->add_option("--auto-pad", f->auto_pad, "valid, same_upper or same_lower");
  if (with_data) {
    cmd->add_option(
           "--data", f->data,
           "input values: iota (element i holds the number i where the type holds it exactly: "
           "integer types wrap to their width, float types while exact, else the bits of i; "
           "boolean the parity of i) or zeros")
        ->capture_default_str();
  }
}

absl::StatusOr<std::vector<int64_t>> ParseIntList(const std::string& s, const std::string& what) {
  std::vector<int64_t> out;
  absl::string_view rest = absl::StripAsciiWhitespace(s);
  absl::ConsumePrefix(&rest, "[");
  absl::ConsumeSuffix(&rest, "]");
  if (absl::StripAsciiWhitespace(rest).empty()) return out;
  for (absl::string_view part : absl::StrSplit(rest, ',')) {
    int64_t v;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(part), &v)) {
      return absl::InvalidArgumentError(
          absl::StrCat("case.flags.integer: ", what, ": '", part,
                       "' is not an integer in [-2^63, 2^63-1] (expected a comma-separated list)"));
    }
    out.push_back(v);
  }
  return out;
}

absl::StatusOr<OpCase> BuildCase(const CaseFlags& f, bool with_data) {
  OpCase c;
  absl::StatusOr<Op> op = ParseOp(f.op);
  if (!op.ok()) return op.status();
  c.op = *op;
  absl::StatusOr<ElementType> t = ParseElementType(f.type);
  if (!t.ok()) return t.status();
  absl::StatusOr<std::vector<int64_t>> shape = ParseIntList(f.shape, "--shape");
  if (!shape.ok()) return shape.status();
  c.data.type = *t;
  c.data.shape = *shape;
  if (with_data) {
    // Allocation is bounded: Zeros refuses more than kMaxTensorBytes with a rule-named error.
    absl::StatusOr<Tensor> data = Tensor::Zeros(*t, *shape, kMaxTensorBytes);
    if (!data.ok()) return data.status();
    if (f.data == "iota") {
      FillPositional(*data, /*first=*/0);  // harness/gen's positional fill, from 0
    } else if (f.data != "zeros") {
      return absl::InvalidArgumentError(
          absl::StrCat("case.flags.data: --data '", f.data, "' is not iota or zeros"));
    }
    c.data = *std::move(data);
  }
  if (c.op == Op::kSpaceToBatch || c.op == Op::kBatchToSpace) {
    absl::StatusOr<ElementType> it = ParseElementType(f.int_type);
    if (!it.ok()) return it.status();
    const bool s2b = c.op == Op::kSpaceToBatch;
    const std::pair<const std::string*, std::string> inputs[3] = {
        {&f.block_shape, "--block-shape"},
        {&f.begin, s2b ? "--pads-begin" : "--crops-begin"},
        {&f.end, s2b ? "--pads-end" : "--crops-end"}};
    for (const auto& [text, name] : inputs) {
      absl::StatusOr<std::vector<int64_t>> vals = ParseIntList(*text, name);
      if (!vals.ok()) return vals.status();
      // Any element type is a case: a non-integer one (f32 ...) holds each value as the
      // positional fill holds a number, and the oracle answers must_reject
      // `*.inputs.integer_type` ("T2: any supported integer type"), not a usage error.
      absl::StatusOr<Tensor> tensor =
          IsIntegerType(*it)
              ? MakeIntegerTensor(*it, *vals)
              : MakeTensor(*it, {static_cast<int64_t>(vals->size())},
                           [&](int64_t i) { return PositionalBits(*it, (*vals)[i], 0); });
      if (!tensor.ok()) return tensor.status();
      c.int_inputs.push_back(*std::move(tensor));
    }
  }
  c.block_size = f.block_size;
  c.mode = f.mode;
  c.auto_pad = f.auto_pad;
  for (auto [text, dst, name] :
       {std::tuple{&f.sizes, &c.sizes, "--sizes"}, std::tuple{&f.strides, &c.strides, "--strides"},
        std::tuple{&f.rates, &c.rates, "--rates"}}) {
    absl::StatusOr<std::vector<int64_t>> vals = ParseIntList(*text, name);
    if (!vals.ok()) return vals.status();
    *dst = *vals;
  }
  c.origin = "command line";
  return c;
}

}  // namespace dmconf::cli
