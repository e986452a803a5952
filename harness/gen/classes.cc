// Equivalence classes of generated cases (generate.h).
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "harness/gen/generate.h"

namespace dmconf {
namespace {

constexpr int kWidths[] = {1, 2, 3, 4, 6, 8, 16, 32, 64};

std::vector<int64_t> Values(const Tensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(t.GetInteger(i).value_or(0));
  return v;
}

std::string PadPattern(int64_t b, int64_t e) {
  if (b == 0 && e == 0) return "none";
  if (e == 0) return "begin";
  if (b == 0) return "end";
  return "both";
}

void Channels(const std::string& p, int64_t c, std::vector<std::string>* out) {
  if (c >= 7 && c <= 9) out->push_back(p + ".channels~8");
  if (c >= 15 && c <= 17) out->push_back(p + ".channels~16");
}

std::vector<std::string> ValidClasses(const OpCase& c) {
  const std::string p(OpPrefix(c.op));
  const Shape& d = c.data.shape;
  std::vector<std::string> out;
  out.push_back(absl::StrCat(p, ".rank=", d.size()));
  out.push_back(absl::StrCat(p, ".bits=", BitWidth(c.data.type)));
  if (std::find(d.begin(), d.end(), 0) != d.end()) out.push_back(p + ".zero_size");
  if (!d.empty() && d[0] > 1) out.push_back(p + ".batch>1");
  switch (c.op) {
    case Op::kSpaceToBatch:
    case Op::kBatchToSpace: {
      if (c.int_inputs.size() != 3) break;
      const std::vector<int64_t> B = Values(c.int_inputs[0]), b = Values(c.int_inputs[1]),
                                 e = Values(c.int_inputs[2]);
      const std::string pads = c.op == Op::kSpaceToBatch ? ".pads=" : ".crops=";
      for (size_t i = 1; i < B.size() && i < b.size() && i < e.size(); ++i) {
        out.push_back(p + (B[i] == 1 ? ".block=1" : ".block>1"));
        if (B[i] >= 5) out.push_back(p + ".block_large");
        out.push_back(p + pads + PadPattern(b[i], e[i]));
      }
      break;
    }
    case Op::kSpaceToDepth:
    case Op::kDepthToSpace: {
      const int64_t bs = c.block_size.value_or(1);
      out.push_back(p + (bs == 1 ? ".block=1" : ".block>1"));
      if (bs >= 4) out.push_back(p + ".block_large");
      if (c.mode) out.push_back(absl::StrCat(p, ".mode=", *c.mode));
      if (d.size() > 1) Channels(p, d[1], &out);
      break;
    }
    case Op::kExtractImagePatches: {
      if (c.auto_pad) out.push_back(absl::StrCat(p, ".auto_pad=", *c.auto_pad));
      if (d.size() != 4 || c.sizes.size() != 2 || c.strides.size() != 2 || c.rates.size() != 2) {
        break;
      }
      Channels(p, d[1], &out);
      for (size_t i = 0; i < 2; ++i) {
        out.push_back(p + (c.strides[i] > c.sizes[i] ? ".stride>size" : ".stride<=size"));
        out.push_back(p + (c.rates[i] > 1 ? ".rate>1" : ".rate=1"));
        if (d[2 + i] < c.rates[i] * (c.sizes[i] - 1) + 1) out.push_back(p + ".in<eff");
      }
      if (d[2] != d[3] || c.sizes[0] != c.sizes[1] || c.strides[0] != c.strides[1] ||
          c.rates[0] != c.rates[1]) {
        out.push_back(p + ".nonsquare");
      }
      break;
    }
  }
  // A case lists a class once.
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

std::vector<std::string> Classify(const GeneratedCase& g) {
  switch (g.kind) {
    case GenKind::kNegative:
      return {absl::StrCat("negative.", g.rule ? g.rule->id : "?")};
    case GenKind::kOverflow:
      return {absl::StrCat("overflow.", OpPrefix(g.c.op))};
    case GenKind::kValid:
      break;
  }
  return ValidClasses(g.c);
}

const std::vector<std::string>& DeclaredClasses() {
  static const std::vector<std::string> kClasses = [] {
    std::vector<std::string> v;
    for (Op op : AllOps()) {
      const std::string p(OpPrefix(op));
      const bool block_op = op == Op::kSpaceToBatch || op == Op::kBatchToSpace;
      const int lo = block_op ? 2 : (op == Op::kExtractImagePatches ? 4 : 3);
      const int hi = op == Op::kExtractImagePatches ? 4 : 8;
      for (int r = lo; r <= hi; ++r) v.push_back(absl::StrCat(p, ".rank=", r));
      for (int w : kWidths) v.push_back(absl::StrCat(p, ".bits=", w));
      v.push_back(p + ".zero_size");
      v.push_back(p + ".batch>1");
      if (op != Op::kExtractImagePatches) {
        v.push_back(p + ".block=1");
        v.push_back(p + ".block>1");
        v.push_back(p + ".block_large");
      }
      if (block_op) {
        for (const char* pat : {"none", "begin", "end", "both"}) {
          v.push_back(absl::StrCat(p, op == Op::kSpaceToBatch ? ".pads=" : ".crops=", pat));
        }
      } else {
        v.push_back(p + ".channels~8");
        v.push_back(p + ".channels~16");
      }
      if (op == Op::kSpaceToDepth || op == Op::kDepthToSpace) {
        v.push_back(p + ".mode=blocks_first");
        v.push_back(p + ".mode=depth_first");
      }
      if (op == Op::kExtractImagePatches) {
        for (const char* a : {"valid", "same_upper", "same_lower"}) {
          v.push_back(absl::StrCat(p, ".auto_pad=", a));
        }
        for (const char* x :
             {"stride>size", "stride<=size", "rate=1", "rate>1", "in<eff", "nonsquare"}) {
          v.push_back(absl::StrCat(p, ".", x));
        }
      }
      v.push_back(absl::StrCat("overflow.", p));
    }
    for (const Rule* r : BreakableRules()) v.push_back(absl::StrCat("negative.", r->id));
    return v;
  }();
  return kClasses;
}

void ClassCounter::Add(const GeneratedCase& g) {
  ++total_;
  for (const std::string& c : Classify(g)) ++counts_[c];
}

std::vector<std::string> ClassCounter::Missing() const {
  std::vector<std::string> out;
  for (const std::string& c : DeclaredClasses()) {
    if (counts_.find(c) == counts_.end()) out.push_back(c);
  }
  return out;
}

std::string ClassCounter::Report() const {
  std::string out = absl::StrCat("equivalence classes over ", total_, " cases:\n");
  const std::vector<std::string>& declared = DeclaredClasses();
  for (const std::string& c : declared) {
    auto it = counts_.find(c);
    absl::StrAppend(&out, "  ", c, " ", it == counts_.end() ? 0 : it->second, "\n");
  }
  for (const auto& [c, n] : counts_) {
    if (std::find(declared.begin(), declared.end(), c) == declared.end()) {
      absl::StrAppend(&out, "  (undeclared) ", c, " ", n, "\n");
    }
  }
  return out;
}

}  // namespace dmconf
