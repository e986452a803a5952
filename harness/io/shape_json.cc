#include "harness/io/shape_json.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/io/element_json.h"
#include "harness/io/tensor_json.h"
#include "harness/io/vector_file.h"

namespace dmconf::io {
namespace {

using Json = nlohmann::json;
using OJson = nlohmann::ordered_json;

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

// An exact dim is an integer, an interval [lo, hi] with hi null when unbounded.
OJson DimToJson(const Dim& d) {
  if (d.IsStatic()) return OJson(d.lo);
  OJson pair = OJson::array();
  pair.push_back(d.lo);
  pair.push_back(d.hi ? OJson(*d.hi) : OJson(nullptr));
  return pair;
}

// One bound of a dim: an integer 0 <= v <= 2^63-1. nlohmann reads a non-negative integer as
// uint64, a negative one as int64 and an integer beyond 2^64-1 as a double.
absl::StatusOr<int64_t> ReadDimBound(const Json& v, const JsonLoc& loc) {
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(kInt64Max)) {
      return LocError("shape_case.dim.range", loc,
                      absl::StrCat(u, " is above 2^63-1 (9223372036854775807)"));
    }
    return static_cast<int64_t>(u);
  }
  if (v.is_number_integer()) {
    const int64_t s = v.get<int64_t>();
    if (s < 0)
      return LocError("shape_case.dim.range", loc, absl::StrCat("dim ", s, " is negative"));
    return s;
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    // 9223372036854775808.0 == 2^63: integers this large were written beyond uint64.
    if (std::isfinite(d) && d == std::floor(d) && (d < 0 || d >= 9223372036854775808.0)) {
      return LocError("shape_case.dim.range", loc,
                      absl::StrCat(v.dump(), d < 0 ? " is negative" : " is above 2^63-1"));
    }
    return LocError("shape_case.dim.type", loc,
                    absl::StrCat("expected an integer, found the number ", v.dump(),
                                 " (dims are written as integers)"));
  }
  return LocError("shape_case.dim.type", loc,
                  absl::StrCat("expected an integer, found ", v.type_name()));
}

// 5 (exact), [lo, hi] or [lo, null] (unbounded).
absl::StatusOr<Dim> ReadDim(const Json& v, const JsonLoc& loc) {
  if (v.is_number()) {
    absl::StatusOr<int64_t> x = ReadDimBound(v, loc);
    if (!x.ok()) return x.status();
    return Dim::Exact(*x);
  }
  if (!v.is_array() || v.size() != 2) {
    return LocError("shape_case.dim.type", loc,
                    absl::StrCat("expected a dim (an integer, or [lo, hi] with hi null when "
                                 "unbounded), found ",
                                 v.is_array() ? absl::StrCat("an array of ", v.size()) : "",
                                 v.is_array() ? "" : v.type_name()));
  }
  absl::StatusOr<int64_t> lo = ReadDimBound(v[0], loc.Index(0));
  if (!lo.ok()) return lo.status();
  if (v[1].is_null()) return Dim::AtLeast(*lo);
  absl::StatusOr<int64_t> hi = ReadDimBound(v[1], loc.Index(1));
  if (!hi.ok()) return hi.status();
  if (*lo > *hi) {
    return LocError("shape_case.dim.interval", loc,
                    absl::StrCat("lo ", *lo, " is above hi ", *hi, " (an empty interval)"));
  }
  return Dim::Range(*lo, *hi);
}

}  // namespace

absl::Status Rebrand(absl::Status s) {
  constexpr absl::string_view kFrom = "vector.";
  if (s.ok() || !absl::StartsWith(s.message(), kFrom)) return s;
  return absl::Status(s.code(), absl::StrCat("shape_case.", s.message().substr(kFrom.size())));
}

// null for an unknown rank.
OJson PartialShapeToJson(const PartialShape& p) {
  if (!p.dims) return OJson(nullptr);
  OJson a = OJson::array();
  for (const Dim& d : *p.dims) a.push_back(DimToJson(d));
  return a;
}

// An array of dims, or null for an unknown rank. The length is checked before any dim is read.
absl::StatusOr<PartialShape> ReadPartialShape(const Json& v, const JsonLoc& loc) {
  if (v.is_null()) return PartialShape::DynamicRank();
  if (!v.is_array()) {
    return LocError("shape_case.field.type", loc,
                    absl::StrCat("expected a shape (an array of dims, or null for an unknown "
                                 "rank), found ",
                                 v.type_name()));
  }
  if (v.size() > kMaxRank) {
    return LocError("shape_case.shape.rank", loc,
                    absl::StrCat(v.size(), " dims; at most ", kMaxRank, " are accepted"));
  }
  std::vector<Dim> dims;
  dims.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    absl::StatusOr<Dim> d = ReadDim(v[i], loc.Index(i));
    if (!d.ok()) return d.status();
    dims.push_back(*d);
  }
  return PartialShape::Of(std::move(dims));
}

absl::StatusOr<std::string> ReadStringMember(const Json& obj, const JsonLoc& loc,
                                             absl::string_view key) {
  absl::StatusOr<const Json*> m = Rebrand(Member(obj, loc, key, true));
  if (!m.ok()) return m.status();
  return Rebrand(ReadString(**m, loc.Key(key)));
}

// An element type by its exact name (f32, i64, u1, ...).
absl::StatusOr<ElementType> ReadElementType(const Json& obj, const JsonLoc& loc) {
  absl::StatusOr<std::string> name = ReadStringMember(obj, loc, "type");
  if (!name.ok()) return name.status();
  absl::StatusOr<ElementType> t = ParseElementType(*name);
  if (!t.ok() || ElementTypeName(*t) != *name) {
    return LocError("shape_case.type.known", loc.Key("type"),
                    absl::StrCat("unknown element type '", name->substr(0, 40),
                                 "' (known: boolean, u1, u2, u3, u4, u6, i4, nf4, f4e2m1, u8, i8, "
                                 "f8e4m3, f8e5m2, f8e8m0, u16, i16, f16, bf16, u32, i32, f32, "
                                 "u64, i64, f64)"));
  }
  return *t;
}

void ConstantToJson(const Tensor& t, OJson& in) {
  in["type"] = std::string(ElementTypeName(t.type));
  OJson values = OJson::array();
  // A malformed tensor (bytes that do not match the shape) is written without values; the
  // file is then refused on reading, and WriteShapeCaseFile refuses to write it.
  if (t.Validate("constant").ok()) {
    for (int64_t i = 0; i < t.NumElements(); ++i)
      values.push_back(EncodeElement(t.type, t.GetBits(i)));
  }
  in["values"] = std::move(values);
  if (t.shape.size() != 1) in["shape"] = t.shape;  // 1-D [N] is the default
}

// A constant's tensor: {"type", "values", "shape" (exact dims; default [len(values)])}. The
// shape's element count must equal the number of values (which the file holds) before anything
// is allocated.
absl::StatusOr<Tensor> ReadConstant(const Json& in, const JsonLoc& loc, ElementType type) {
  const Json& values = in["values"];
  const JsonLoc vloc = loc.Key("values");
  if (!values.is_array()) {
    return LocError("shape_case.field.type", vloc,
                    absl::StrCat("expected an array of values, found ", values.type_name()));
  }
  Shape shape = {static_cast<int64_t>(values.size())};
  if (auto it = in.find("shape"); it != in.end()) {
    const JsonLoc sloc = loc.Key("shape");
    absl::StatusOr<PartialShape> p = ReadPartialShape(*it, sloc);
    if (!p.ok()) return p.status();
    if (!p->dims) {
      return LocError("shape_case.input.shape", sloc,
                      "a constant has a known shape (null is for a non-constant input)");
    }
    shape.clear();
    // The element count, saturated at values.size() + 1 (so it never overflows).
    const uint64_t n = values.size();
    uint64_t count = 1;
    bool zero = false;
    for (size_t i = 0; i < p->dims->size(); ++i) {
      const Dim& d = (*p->dims)[i];
      if (!d.IsStatic()) {
        return LocError("shape_case.input.shape", sloc.Index(i),
                        absl::StrCat("a constant's dims are exact, found ", d.ToString()));
      }
      shape.push_back(d.lo);
      const uint64_t u = static_cast<uint64_t>(d.lo);
      if (u == 0) {
        zero = true;
      } else {
        count = u > n ? n + 1 : std::min(count * u, n + 1);  // count, u <= n + 1
      }
    }
    if (zero) count = 0;
    if (count != n) {
      return LocError("shape_case.input.shape", sloc,
                      absl::StrCat(values.size(), " values, but shape ", ShapeToString(shape),
                                   " has ", count > values.size() ? "more" : "fewer", " elements"));
    }
  }
  absl::StatusOr<Tensor> t = Tensor::Zeros(type, shape);
  if (!t.ok()) return LocError("shape_case.input.shape", loc, t.status().message());
  for (size_t i = 0; i < values.size(); ++i) {
    absl::StatusOr<uint64_t> bits = DecodeElement(type, values[i]);
    if (!bits.ok())
      return LocError("shape_case.input.value", vloc.Index(i), bits.status().message());
    t->SetBits(static_cast<int64_t>(i), *bits);
  }
  return t;
}

}  // namespace dmconf::io
