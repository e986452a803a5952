#include "harness/io/element_json.h"

#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace dmconf::io {
namespace {

uint64_t Mask(int bits) { return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1; }

// Largest integer every reader's double holds exactly; larger values are written in hex so a
// JavaScript or Python reader never rounds them.
constexpr double kMaxExactInteger = 9007199254740992.0;  // 2^53

std::string Hex(ElementType t, uint64_t bits) {
  return absl::StrFormat("0x%0*x", (BitWidth(t) + 3) / 4, bits);
}

absl::StatusOr<uint64_t> ParseHex(ElementType t, const std::string& s) {
  const int bits = BitWidth(t);
  if (s.size() < 3 || s.size() > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X')) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", s.substr(0, 40), "' is not a hex bit string like ", Hex(t, 0)));
  }
  uint64_t v = 0;
  for (size_t i = 2; i < s.size(); ++i) {
    const char c = s[i];
    int d;
    if (c >= '0' && c <= '9') {
      d = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      d = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      d = c - 'A' + 10;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("'", s, "' is not a hex bit string like ", Hex(t, 0)));
    }
    v = (v << 4) | static_cast<uint64_t>(d);
  }
  if (v > Mask(bits)) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", s, "' has more than the ", bits, " bits of ", ElementTypeName(t)));
  }
  return v;
}

absl::StatusOr<uint64_t> DecodeInteger(ElementType t, const nlohmann::json& v) {
  const int bits = BitWidth(t);
  const bool is_bool = t == ElementType::kBoolean;
  if (is_bool && v.is_boolean()) return v.get<bool>() ? 1 : 0;
  if (!v.is_number_integer()) {
    return absl::InvalidArgumentError(
        absl::StrCat(ElementTypeName(t), " elements are JSON integers, not ", v.type_name(),
                     v.is_number_float() ? absl::StrCat(" ", v.dump()) : std::string()));
  }
  if (IsSignedIntegerType(t)) {
    const int64_t lo = bits == 64 ? INT64_MIN : -(int64_t{1} << (bits - 1));
    const int64_t hi = bits == 64 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1;
    if (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
      return absl::InvalidArgumentError(
          absl::StrCat(v.dump(), " is outside the range of ", ElementTypeName(t)));
    }
    const int64_t x = v.get<int64_t>();
    if (x < lo || x > hi) {
      return absl::InvalidArgumentError(absl::StrCat(x, " is outside the range of ",
                                                     ElementTypeName(t), " [", lo, ", ", hi, "]"));
    }
    return static_cast<uint64_t>(x) & Mask(bits);
  }
  if (!v.is_number_unsigned()) {
    return absl::InvalidArgumentError(
        absl::StrCat(v.dump(), " is negative; ", ElementTypeName(t), " is unsigned"));
  }
  const uint64_t x = v.get<uint64_t>();
  if (x > Mask(bits)) {
    return absl::InvalidArgumentError(
        absl::StrCat(x, " is outside the range of ", ElementTypeName(t), " [0, ", Mask(bits), "]"));
  }
  return x;
}

}  // namespace

nlohmann::ordered_json EncodeElement(ElementType t, uint64_t bits) {
  bits &= Mask(BitWidth(t));
  if (IsIntegerType(t)) {
    if (IsSignedIntegerType(t)) {
      const int w = BitWidth(t);
      int64_t v = static_cast<int64_t>(bits);
      if (w < 64 && (bits >> (w - 1)) & 1) v = static_cast<int64_t>(bits | ~Mask(w));
      return v;
    }
    return bits;
  }
  if (t == ElementType::kBoolean) return bits;
  const std::optional<double> v = FloatValue(t, bits);
  if (v && std::isfinite(*v) && *v == std::floor(*v) && std::fabs(*v) <= kMaxExactInteger &&
      !(*v == 0 && std::signbit(*v))) {
    return static_cast<int64_t>(*v);
  }
  return Hex(t, bits);
}

absl::StatusOr<uint64_t> DecodeElement(ElementType t, const nlohmann::json& v) {
  if (IsIntegerType(t) || t == ElementType::kBoolean) return DecodeInteger(t, v);
  if (v.is_string()) return ParseHex(t, v.get<std::string>());
  if (!IsFloatEncoded(t)) {
    return absl::InvalidArgumentError(absl::StrCat(ElementTypeName(t),
                                                   " elements are hex bit strings like ", Hex(t, 0),
                                                   ", not ", v.type_name()));
  }
  if (!v.is_number()) {
    return absl::InvalidArgumentError(absl::StrCat(
        ElementTypeName(t), " elements are numbers or hex bit strings, not ", v.type_name()));
  }
  double d;
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    d = u <= (uint64_t{1} << 53) ? static_cast<double>(u) : NAN;
  } else if (v.is_number_integer()) {
    const int64_t i = v.get<int64_t>();
    d = i >= -(int64_t{1} << 53) && i <= (int64_t{1} << 53) ? static_cast<double>(i) : NAN;
  } else {
    d = v.get<double>();
  }
  if (!std::isfinite(d)) {
    return absl::InvalidArgumentError(absl::StrCat(
        v.dump(),
        " is not a finite number within +-2^53 or with a fraction; write the bits in hex (",
        Hex(t, 0), ")"));
  }
  const std::optional<uint64_t> bits = ExactFloatBits(t, d);
  if (!bits) {
    return absl::InvalidArgumentError(absl::StrCat(v.dump(), " is not exactly representable in ",
                                                   ElementTypeName(t), "; write its bits in hex"));
  }
  return *bits;
}

}  // namespace dmconf::io
