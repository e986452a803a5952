#include "harness/io/vector_case.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "absl/strings/str_cat.h"
#include "harness/io/element_json.h"
#include "oracle/input_names.h"

namespace dmconf::io {
namespace {

// Layout of the IEEE-like float types: exponent field position and width, mantissa width, and
// the quiet bit of NaNs (-1 when the type has no signalling NaNs).
struct FloatLayout {
  int man_bits;
  int exp_bits;
  int quiet_bit;
};

std::optional<FloatLayout> LayoutOf(ElementType t) {
  switch (t) {
    case ElementType::kF16:
      return FloatLayout{10, 5, 9};
    case ElementType::kBf16:
      return FloatLayout{7, 8, 6};
    case ElementType::kF32:
      return FloatLayout{23, 8, 22};
    case ElementType::kF64:
      return FloatLayout{52, 11, 51};
    case ElementType::kF8e5m2:
      return FloatLayout{2, 5, 1};
    case ElementType::kF8e4m3:
      return FloatLayout{3, 4, -1};
    case ElementType::kF4e2m1:
      return FloatLayout{1, 2, -1};
    default:
      return std::nullopt;
  }
}

void AddSpecialClasses(const Tensor& t, std::set<std::string>* out) {
  const int64_t n = t.NumElements();
  if (IsIntegerType(t.type)) {
    const int w = BitWidth(t.type);
    const uint64_t all = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
    const bool is_signed = IsSignedIntegerType(t.type);
    const uint64_t max_bits = is_signed ? all >> 1 : all;
    const uint64_t min_bits = uint64_t{1} << (w - 1);
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t b = t.GetBits(i);
      if (b == max_bits) out->insert("special:int_max");
      if (is_signed && b == min_bits) out->insert("special:int_min");
    }
    return;
  }
  const std::optional<FloatLayout> layout = LayoutOf(t.type);
  if (!IsFloatEncoded(t.type)) return;
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t b = t.GetBits(i);
    const std::optional<double> v = FloatValue(t.type, b);
    if (!v) continue;
    if (std::isnan(*v)) {
      out->insert("special:nan");
      if (layout && layout->quiet_bit >= 0 && ((b >> layout->quiet_bit) & 1) == 0) {
        out->insert("special:snan");
      }
    } else if (std::isinf(*v)) {
      out->insert("special:inf");
    } else if (*v == 0 && std::signbit(*v)) {
      out->insert("special:neg_zero");
    } else if (layout && *v != 0) {
      const uint64_t exp = (b >> layout->man_bits) & ((uint64_t{1} << layout->exp_bits) - 1);
      if (exp == 0) out->insert("special:subnormal");
    }
  }
}

}  // namespace

bool IsKnownProvenanceKind(absl::string_view kind) {
  return kind == "generated" || kind == "spec_example" || kind == "model" || kind == "external" ||
         kind == "regression" || kind == "hand_written";
}

std::vector<std::string> InputNames(Op op) {
  std::vector<std::string> names = {std::string(kDataInputName)};
  for (absl::string_view n : IntInputNames(op)) names.emplace_back(n);
  return names;
}

std::vector<bool> DefaultConstantFlags(const OpCase& c) {
  std::vector<bool> flags(1 + c.int_inputs.size(), true);
  flags[0] = false;
  return flags;
}

bool IsValidVectorId(absl::string_view id) {
  if (id.empty() || id.size() > 200 || id[0] == '.') return false;
  for (char ch : id) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                    (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-' || ch == '+';
    if (!ok) return false;
  }
  return true;
}

std::vector<std::string> DerivedClasses(const OpCase& c, const Expectation& e) {
  std::set<std::string> out;
  out.insert(absl::StrCat("op:", OpName(c.op)));
  out.insert(absl::StrCat("type:", ElementTypeName(c.data.type)));
  out.insert(absl::StrCat("rank:", c.data.shape.size()));
  if (c.mode) out.insert(absl::StrCat("mode:", *c.mode));
  if (c.auto_pad) out.insert(absl::StrCat("auto_pad:", *c.auto_pad));
  if (!c.int_inputs.empty()) {
    out.insert(absl::StrCat("int_type:", ElementTypeName(c.int_inputs[0].type)));
  }
  out.insert(absl::StrCat("expect:", ExpectationKindName(e.kind)));
  if (e.rule != nullptr) out.insert(absl::StrCat("rule:", e.rule->id));
  if (c.data.NumElements() == 0) out.insert("zero_sized");
  AddSpecialClasses(c.data, &out);
  return {out.begin(), out.end()};
}

absl::StatusOr<VectorCase> VectorCaseFromOracle(OpCase c, const Provenance& provenance,
                                                const std::vector<std::string>& extra_classes,
                                                const EvalOptions& eval) {
  if (!IsValidVectorId(c.id)) {
    return absl::InvalidArgumentError(
        absl::StrCat("vector.id.syntax: '", c.id, "' is not 1-200 characters of [A-Za-z0-9._+-]"));
  }
  absl::StatusOr<Expectation> e = Evaluate(c, eval);
  if (!e.ok()) return e.status();
  VectorCase v;
  v.c = std::move(c);  // taken by value: a caller done with its case moves it, no copy
  v.constant = DefaultConstantFlags(v.c);
  v.expected = *std::move(e);
  v.provenance = provenance;
  std::vector<std::string> classes = DerivedClasses(v.c, v.expected);
  classes.insert(classes.end(), extra_classes.begin(), extra_classes.end());
  std::sort(classes.begin(), classes.end());
  classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
  v.classes = std::move(classes);
  return v;
}

}  // namespace dmconf::io
