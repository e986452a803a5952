#include "oracle/partial/partial_shape.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace dmconf {

std::string Dim::ToString() const {
  if (IsStatic()) return absl::StrCat(lo);
  if (lo == 0 && !hi) return "?";
  return hi ? absl::StrCat("[", lo, ",", *hi, "]") : absl::StrCat("[", lo, ",inf)");
}

PartialShape PartialShape::Static(const Shape& s) {
  std::vector<Dim> d;
  for (int64_t x : s) d.push_back(Dim::Exact(x));
  return Of(std::move(d));
}

bool PartialShape::Contains(const Shape& s) const {
  if (!dims) return true;
  if (dims->size() != s.size()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (!(*dims)[i].Contains(s[i])) return false;
  }
  return true;
}

std::string PartialShape::ToString() const {
  if (!dims) return "[...]";
  return absl::StrCat(
      "[", absl::StrJoin(*dims, ",", [](std::string* o, const Dim& d) { o->append(d.ToString()); }),
      "]");
}

absl::Status PartialShape::Validate(absl::string_view what) const {
  if (!dims) return absl::OkStatus();
  for (size_t i = 0; i < dims->size(); ++i) {
    const Dim& d = (*dims)[i];
    if (d.lo < 0 || (d.hi && *d.hi < d.lo)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "case.tensor.dims_nonnegative: dim ", i, " of ", what, " is ",
          d.hi ? absl::StrCat("[", d.lo, ",", *d.hi, "]") : absl::StrCat("[", d.lo, ",inf)"),
          ": an interval needs 0 <= lo <= hi"));
    }
  }
  return absl::OkStatus();
}

}  // namespace dmconf
