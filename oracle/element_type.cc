#include "oracle/element_type.h"

#include <array>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace dmconf {
namespace {

struct TypeInfo {
  ElementType type;
  absl::string_view name;
  int bits;
  bool is_integer;
  bool is_signed;
  Packing packing;
};

// OpenVINO's element types (src/core/include/openvino/core/type/element_type.hpp) less
// `string` (not fixed-width, see docs/errata.md D3) and the placeholder types (dynamic).
constexpr std::array<TypeInfo, 24> kTypes = {{
    {ElementType::kBoolean, "boolean", 8, false, false, Packing::kBytes},
    {ElementType::kU1, "u1", 1, true, false, Packing::kMsbFirst},
    {ElementType::kU2, "u2", 2, true, false, Packing::kMsbFirst},
    {ElementType::kU3, "u3", 3, true, false, Packing::kSplit},
    {ElementType::kU4, "u4", 4, true, false, Packing::kLowNibbleFirst},
    {ElementType::kU6, "u6", 6, true, false, Packing::kSplit},
    {ElementType::kI4, "i4", 4, true, true, Packing::kLowNibbleFirst},
    {ElementType::kNf4, "nf4", 4, false, false, Packing::kLowNibbleFirst},
    {ElementType::kF4e2m1, "f4e2m1", 4, false, false, Packing::kLowNibbleFirst},
    {ElementType::kU8, "u8", 8, true, false, Packing::kBytes},
    {ElementType::kI8, "i8", 8, true, true, Packing::kBytes},
    {ElementType::kF8e4m3, "f8e4m3", 8, false, false, Packing::kBytes},
    {ElementType::kF8e5m2, "f8e5m2", 8, false, false, Packing::kBytes},
    {ElementType::kF8e8m0, "f8e8m0", 8, false, false, Packing::kBytes},
    {ElementType::kU16, "u16", 16, true, false, Packing::kBytes},
    {ElementType::kI16, "i16", 16, true, true, Packing::kBytes},
    {ElementType::kF16, "f16", 16, false, false, Packing::kBytes},
    {ElementType::kBf16, "bf16", 16, false, false, Packing::kBytes},
    {ElementType::kU32, "u32", 32, true, false, Packing::kBytes},
    {ElementType::kI32, "i32", 32, true, true, Packing::kBytes},
    {ElementType::kF32, "f32", 32, false, false, Packing::kBytes},
    {ElementType::kU64, "u64", 64, true, false, Packing::kBytes},
    {ElementType::kI64, "i64", 64, true, true, Packing::kBytes},
    {ElementType::kF64, "f64", 64, false, false, Packing::kBytes},
}};

constexpr std::array<ElementType, kTypes.size()> MakeAll() {
  std::array<ElementType, kTypes.size()> all{};
  for (size_t i = 0; i < kTypes.size(); ++i) all[i] = kTypes[i].type;
  return all;
}
constexpr std::array<ElementType, kTypes.size()> kAll = MakeAll();

const TypeInfo& Info(ElementType t) { return kTypes[static_cast<size_t>(t)]; }

}  // namespace

absl::Span<const ElementType> AllElementTypes() { return kAll; }

absl::string_view ElementTypeName(ElementType t) { return Info(t).name; }

absl::StatusOr<ElementType> ParseElementType(absl::string_view name) {
  for (const TypeInfo& info : kTypes) {
    if (info.name == name) return info.type;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("case.element_type.known: unknown element type '", name,
                   "' (known: boolean, u1, u2, u3, u4, u6, i4, nf4, f4e2m1, u8, i8, f8e4m3, "
                   "f8e5m2, f8e8m0, u16, i16, f16, bf16, u32, i32, f32, u64, i64, f64)"));
}

int BitWidth(ElementType t) { return Info(t).bits; }
bool IsIntegerType(ElementType t) { return Info(t).is_integer; }
bool IsSignedIntegerType(ElementType t) { return Info(t).is_signed; }
Packing PackingOf(ElementType t) { return Info(t).packing; }

}  // namespace dmconf
