#include "harness/compare/shape_witness.h"

#include <algorithm>
#include <array>
#include <limits>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "oracle/input_names.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

bool BlockOp(Op op) { return op == Op::kSpaceToBatch || op == Op::kBatchToSpace; }

// The admissible values of one data dim: first, first + step, ..., last (empty: first > last).
struct Progression {
  int64_t first = 0, step = 1, last = -1;
  bool Empty() const { return first > last; }
  int64_t Count() const { return (last - first) / step; }  // the index of `last`
};

// x mod m in [0, m), m >= 1. (No sum of two residues is formed: m may be near 2^63.)
int64_t Mod(int64_t x, int64_t m) {
  const int64_t r = x % m;
  return r < 0 ? r + m : r;
}
// (a - b) mod m and (a + b) mod m for a, b in [0, m), without overflow.
int64_t SubMod(int64_t a, int64_t b, int64_t m) { return a >= b ? a - b : a + (m - b); }
int64_t AddMod(int64_t a, int64_t b, int64_t m) { return a >= m - b ? a - (m - b) : a + b; }

// Values v in [lo, hi] with v = r (mod m), m >= 1, 0 <= r < m.
Progression Congruent(int64_t lo, int64_t hi, int64_t m, int64_t r) {
  Progression p;
  p.step = m;
  const int64_t up = SubMod(r, Mod(lo, m), m);
  if (lo > hi || up > hi - lo) return p;  // empty (first > last)
  p.first = lo + up;
  p.last = hi - SubMod(Mod(hi, m), r, m);
  return p;
}

// ceil(a / b) for a >= 0, b >= 1.
int64_t CeilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

std::vector<int64_t> Values(const Tensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(t.GetInteger(i).value_or(kMax));
  return v;
}

// The integer inputs of an instance of rank r: constants as given, non-constants neutral
// (block 1, pads / crops 0) of length r. std::nullopt: a non-constant input cannot have
// length r.
std::optional<std::vector<Tensor>> Inputs(const PartialCase& c, size_t r) {
  std::vector<Tensor> out;
  if (!BlockOp(c.op)) return out;
  for (size_t k = 0; k < 3; ++k) {
    if (c.int_inputs[k]) {
      out.push_back(*c.int_inputs[k]);
      continue;
    }
    if (!c.int_shapes[k].Contains({static_cast<int64_t>(r)})) return std::nullopt;
    absl::StatusOr<Tensor> t = Tensor::Zeros(c.int_types[k], {static_cast<int64_t>(r)});
    if (!t.ok()) return std::nullopt;
    for (int64_t i = 0; k == 0 && i < t->NumElements(); ++i) t->SetBits(i, 1);
    out.push_back(*std::move(t));
  }
  return out;
}

// The admissible values of data dim j in [lo, hi]: those the op's divisibility allows.
Progression Admissible(const PartialCase& c, const std::vector<Tensor>& ints, size_t rank, size_t j,
                       int64_t lo, int64_t hi) {
  const int64_t b = std::max<int64_t>(c.block_size.value_or(1), 1);
  auto only_zero = [&] { return Congruent(lo, std::min<int64_t>(hi, 0), 1, 0); };
  switch (c.op) {
    case Op::kSpaceToDepth:  // "The spatial dimensions must be evenly divided by block_size"
      return j >= 2 ? Congruent(lo, hi, b, 0) : Congruent(lo, hi, 1, 0);
    case Op::kDepthToSpace: {  // depth divisible by block_size ^ K
      if (j != 1) return Congruent(lo, hi, 1, 0);
      const std::optional<int64_t> bk = CheckedPow(b, static_cast<int64_t>(rank) - 2);
      return bk ? Congruent(lo, hi, *bk, 0) : only_zero();
    }
    case Op::kSpaceToBatch: {  // (D_j + pads_begin_j + pads_end_j) divisible by block_shape_j
      const std::vector<int64_t> B = Values(ints[0]), pb = Values(ints[1]), pe = Values(ints[2]);
      // A non-constant pad is chosen after the dims (SpaceToBatchVariants): any D_j.
      if (j == 0 || j >= B.size() || j >= pb.size() || j >= pe.size() || B[j] < 1 ||
          !c.int_inputs[1] || !c.int_inputs[2])
        return Congruent(lo, hi, 1, 0);
      // D_j = -(pads_begin_j + pads_end_j) (mod B_j).
      const int64_t P = AddMod(Mod(pb[j], B[j]), Mod(pe[j], B[j]), B[j]);
      return Congruent(lo, hi, B[j], SubMod(0, P, B[j]));
    }
    case Op::kBatchToSpace: {  // batch divisible by prod(block_shape); D_j * B_j >= crops
      const std::vector<int64_t> B = Values(ints[0]), cb = Values(ints[1]), ce = Values(ints[2]);
      if (j == 0) {
        std::optional<int64_t> prod = 1;
        for (int64_t x : B) prod = prod && x >= 1 ? CheckedMul(*prod, x) : std::nullopt;
        return prod ? Congruent(lo, hi, *prod, 0) : only_zero();
      }
      if (j >= B.size() || j >= cb.size() || j >= ce.size() || B[j] < 1)
        return Congruent(lo, hi, 1, 0);
      const std::optional<int64_t> C = CheckedAdd(cb[j], ce[j]);
      if (!C || *C <= 0) return Congruent(lo, hi, 1, 0);
      return Congruent(std::max(lo, CeilDiv(*C, B[j])), hi, 1, 0);
    }
    case Op::kExtractImagePatches:
      break;
  }
  return Congruent(lo, hi, 1, 0);
}

std::optional<Shape> Accepted(const OpCase& c) {
  absl::StatusOr<Validation> v = Validate(c);
  if (!v.ok() || v->kind() == ExpectationKind::kMustReject || v->output_shape.empty())
    return std::nullopt;
  return v->output_shape;
}

// The ranks an instance may have: the known one, else the lengths the inputs fix and the op's
// smallest ranks.
std::vector<size_t> Ranks(const PartialCase& c) {
  if (c.data.dims) return {c.data.dims->size()};
  std::set<size_t> r;
  for (size_t k = 0; BlockOp(c.op) && k < 3; ++k) {
    if (c.int_inputs[k]) r.insert(c.int_inputs[k]->shape.empty() ? 0 : c.int_inputs[k]->shape[0]);
    const PartialShape& s = c.int_shapes[k];
    if (!c.int_inputs[k] && s.dims && s.dims->size() == 1 && (*s.dims)[0].lo <= 8)
      r.insert(static_cast<size_t>((*s.dims)[0].lo));
  }
  const size_t low = BlockOp(c.op) ? 2 : c.op == Op::kExtractImagePatches ? 4 : 3;
  for (size_t x = low; x < low + 3; ++x) r.insert(x);
  return {r.begin(), r.end()};
}

class Search {
 public:
  Search(const PartialCase& c, const std::function<bool(const Shape&)>& wanted)
      : c_(c), wanted_(wanted) {}

  std::optional<ShapeInstance> Run() {
    for (size_t rank : Ranks(c_)) {
      std::optional<std::vector<Tensor>> ints = Inputs(c_, rank);
      if (!ints || rank > 64) continue;
      probe_ = Instance(rank, *ints);
      for (int64_t floor : {int64_t{0}, int64_t{1}}) {
        if (std::optional<ShapeInstance> w = FromBase(rank, *ints, floor)) return w;
      }
      if (std::optional<ShapeInstance> w = CropFit(rank, *ints)) return w;
    }
    return std::nullopt;
  }

 private:
  OpCase Instance(size_t rank, const std::vector<Tensor>& ints) const {
    OpCase o;
    o.op = c_.op;
    o.data.type = c_.type;
    o.data.shape.assign(rank, 0);
    o.int_inputs = ints;
    CopyAttributes(c_, o);
    return o;
  }

  std::optional<ShapeInstance> Check() {
    std::optional<Shape> out = Accepted(probe_);
    if (out && wanted_(*out)) return ShapeInstance{probe_, *out};
    std::vector<OpCase> variants = SpaceToBatchVariants();
    for (OpCase& b : BatchToSpaceVariants()) variants.push_back(std::move(b));
    for (OpCase& v : variants) {
      out = Accepted(v);
      if (out && wanted_(*out)) return ShapeInstance{std::move(v), *out};
    }
    return std::nullopt;
  }

  // BatchToSpace with a non-constant block_shape: one axis j >= 1 takes a divisor d of the
  // batch, the others 1 (B_0 = 1): d = batch (batch / prod(B) = 1, the smallest output batch),
  // and the small divisors and their cofactors (2, 3, ..., batch / 2, ...), so that the
  // extreme instances of a dim's bound are tried where the largest block overflows it
  // (docs/errata-partial.md D-P6: data [4, 2^61, 0] reaches 2^62 with B = [1, 2, 1], not
  // 2^63 - 1).
  std::vector<OpCase> BatchToSpaceVariants() const {
    std::vector<OpCase> out;
    if (c_.op != Op::kBatchToSpace || c_.int_inputs[0] || probe_.data.shape.size() < 2 ||
        probe_.data.shape[0] < 2) {
      return out;
    }
    const int64_t batch = probe_.data.shape[0];
    std::set<int64_t> divisors;
    for (int64_t k = 1; k <= 16 && k <= batch; ++k) {
      if (batch % k != 0) continue;
      divisors.insert(k);
      divisors.insert(batch / k);
    }
    divisors.erase(1);
    for (size_t j = 1; j < probe_.data.shape.size(); ++j) {
      for (auto it = divisors.rbegin(); it != divisors.rend(); ++it) {
        std::vector<int64_t> B(probe_.data.shape.size(), 1);
        B[j] = *it;
        absl::StatusOr<Tensor> t = MakeIntegerTensor(c_.int_types[0], B);
        if (!t.ok()) continue;
        OpCase o = probe_;
        o.int_inputs[0] = *std::move(t);
        out.push_back(std::move(o));
      }
    }
    return out;
  }

  // BatchToSpace with a non-constant block_shape and constant crops: a block chosen for the
  // crops. Each axis j with crops C_j > 0 takes a D_j of its interval and the smallest
  // B_j = ceil(C_j / D_j) with D_j * B_j <= 2^63-1 (its 65 smallest D_j and its largest are
  // tried, so a small divisor of C_j is found: crops 2^63-1 on D_j in [5, 8] are held by
  // D_j = 7 alone), the other axes their smallest dims and block 1, and the batch the
  // smallest multiple of prod(B) in its interval.
  std::optional<ShapeInstance> CropFit(size_t rank, const std::vector<Tensor>& ints) {
    if (c_.op != Op::kBatchToSpace || c_.int_inputs[0] || !c_.int_inputs[1] || !c_.int_inputs[2] ||
        rank < 2) {
      return std::nullopt;
    }
    const std::vector<int64_t> cb = Values(ints[1]), ce = Values(ints[2]);
    if (cb.size() != rank || ce.size() != rank) return std::nullopt;
    OpCase o = Instance(rank, ints);
    std::vector<int64_t> B(rank, 1);
    std::optional<int64_t> prod = 1;
    for (size_t j = 0; j < rank; ++j) {
      const Dim d = c_.data.dims ? (*c_.data.dims)[j] : Dim::Any();
      const int64_t lo = std::max<int64_t>(d.lo, 0), hi = d.hi.value_or(kMax);
      if (lo > hi) return std::nullopt;
      o.data.shape[j] = lo;
      const std::optional<int64_t> C = CheckedAdd(cb[j], ce[j]);
      if (j == 0 || !C || *C <= 0) continue;
      // Candidates for D_j: its 65 smallest values and its largest.
      std::vector<int64_t> ds;
      for (int64_t k = 0; k <= 64 && k <= hi - lo; ++k) ds.push_back(lo + k);
      if (hi - lo > 64) ds.push_back(hi);
      const auto fits = [&](int64_t v) { return v >= 1 && CheckedMul(v, CeilDiv(*C, v)); };
      const auto v = std::find_if(ds.begin(), ds.end(), fits);
      if (v == ds.end()) return std::nullopt;
      o.data.shape[j] = *v;
      B[j] = CeilDiv(*C, *v);
      prod = prod ? CheckedMul(*prod, B[j]) : std::nullopt;
    }
    if (!prod) return std::nullopt;
    const Dim d0 = c_.data.dims ? (*c_.data.dims)[0] : Dim::Any();
    const Progression batch =
        Congruent(std::max<int64_t>(d0.lo, 0), d0.hi.value_or(kMax), *prod, 0);
    if (batch.Empty()) return std::nullopt;
    o.data.shape[0] = batch.first;
    absl::StatusOr<Tensor> t = MakeIntegerTensor(c_.int_types[0], B);
    if (!t.ok()) return std::nullopt;
    o.int_inputs[0] = *std::move(t);
    std::optional<Shape> out = Accepted(o);
    if (out && wanted_(*out)) return ShapeInstance{std::move(o), *out};
    return std::nullopt;
  }

  // SpaceToBatch with non-constant inputs: values chosen for the probe's dims. A non-constant
  // pad makes D_i + pads divisible by B_i; a non-constant block_shape is 1 (the largest
  // outputs) or D_i + pads (outputs 1, the smallest).
  std::vector<OpCase> SpaceToBatchVariants() const {
    std::vector<OpCase> out;
    if (c_.op != Op::kSpaceToBatch || (c_.int_inputs[0] && c_.int_inputs[1] && c_.int_inputs[2]))
      return out;
    const size_t n = probe_.data.shape.size();
    for (bool block_fills : {false, true}) {
      if (block_fills && c_.int_inputs[0]) continue;
      std::array<std::vector<int64_t>, 3> v;
      for (size_t k = 0; k < 3; ++k) v[k] = Values(probe_.int_inputs[k]);
      if (v[0].size() != n || v[1].size() != n || v[2].size() != n) return out;
      // The pad that is not constant (pads_end first) takes up the remainder.
      const size_t free_pad = !c_.int_inputs[2] ? 2 : !c_.int_inputs[1] ? 1 : 0;
      for (size_t i = 1; i < n; ++i) {
        std::optional<int64_t> full = CheckedAdd(probe_.data.shape[i], v[1][i]);
        if (full) full = CheckedAdd(*full, v[2][i]);
        if (!full) continue;
        if (block_fills) v[0][i] = std::max<int64_t>(*full, 1);
        if (free_pad != 0 && v[0][i] >= 1) {
          const std::optional<int64_t> p =
              CheckedAdd(v[free_pad][i], (v[0][i] - *full % v[0][i]) % v[0][i]);
          if (p) v[free_pad][i] = *p;
        }
      }
      OpCase o = probe_;
      bool fits = true;
      for (size_t k = 0; k < 3; ++k) {
        if (c_.int_inputs[k]) continue;
        absl::StatusOr<Tensor> t = MakeIntegerTensor(c_.int_types[k], v[k]);
        fits = fits && t.ok();
        if (t.ok()) o.int_inputs[k] = *std::move(t);
      }
      if (fits) out.push_back(std::move(o));
    }
    return out;
  }

  // Every dim at its smallest admissible value >= floor, then each dim pushed to its largest.
  std::optional<ShapeInstance> FromBase(size_t rank, const std::vector<Tensor>& ints,
                                        int64_t floor) {
    std::vector<Progression> p(rank);
    for (size_t j = 0; j < rank; ++j) {
      const Dim d = c_.data.dims ? (*c_.data.dims)[j] : Dim::Any();
      p[j] = Admissible(c_, ints, rank, j, std::max(d.lo, floor), d.hi.value_or(kMax));
      if (p[j].Empty()) return std::nullopt;
      probe_.data.shape[j] = p[j].first;
    }
    if (std::optional<ShapeInstance> w = Check()) return w;
    for (size_t j = 0; j < rank; ++j) {
      const Shape base = probe_.data.shape;
      if (std::optional<ShapeInstance> w = Largest(j, p[j])) return w;
      probe_.data.shape = base;
    }
    for (size_t j = 1; j < rank; ++j) {
      if (std::optional<ShapeInstance> w = LargestPad(j)) return w;
    }
    return std::nullopt;
  }

  // SpaceToBatch with a non-constant pad: the largest pad of axis j (in steps of the block, so
  // that the padded dim stays divisible) that keeps the instance accepted.
  std::optional<ShapeInstance> LargestPad(size_t j) {
    std::vector<OpCase> v = SpaceToBatchVariants();
    if (v.empty() || (c_.int_inputs[1] && c_.int_inputs[2])) return std::nullopt;
    OpCase o = std::move(v.front());
    const size_t fp = !c_.int_inputs[2] ? 2 : 1;
    std::vector<int64_t> pads = Values(o.int_inputs[fp]);
    const std::vector<int64_t> B = Values(o.int_inputs[0]);
    if (j >= pads.size() || j >= B.size() || B[j] < 1) return std::nullopt;
    const int64_t p0 = pads[j];
    auto at = [&](int64_t k) {
      pads[j] = p0 + k * B[j];
      absl::StatusOr<Tensor> t = MakeIntegerTensor(c_.int_types[fp], pads);
      if (!t.ok()) return false;
      o.int_inputs[fp] = *std::move(t);
      return Accepted(o).has_value();
    };
    int64_t good = 0, bad = (kMax - p0) / B[j];
    if (bad == 0 || !at(0)) return std::nullopt;
    if (!at(bad)) {
      while (bad - good > 1) {
        const int64_t mid = good + (bad - good) / 2;
        (at(mid) ? good : bad) = mid;
      }
      at(good);
    }
    std::optional<Shape> out = Accepted(o);
    if (out && wanted_(*out)) return ShapeInstance{std::move(o), *out};
    return std::nullopt;
  }

  // The largest admissible value of dim j that keeps the instance accepted (outputs and
  // their element count grow with it, so acceptance is monotone).
  std::optional<ShapeInstance> Largest(size_t j, const Progression& p) {
    auto at = [&](int64_t k) {
      probe_.data.shape[j] = p.first + k * p.step;
      return Accepted(probe_).has_value();
    };
    int64_t good = 0, bad = p.Count();
    if (bad == 0) return std::nullopt;
    if (!at(bad)) {
      while (bad - good > 1) {
        const int64_t mid = good + (bad - good) / 2;
        (at(mid) ? good : bad) = mid;
      }
      at(good);
    }
    return Check();
  }

  const PartialCase& c_;
  const std::function<bool(const Shape&)>& wanted_;
  OpCase probe_;
};

}  // namespace

std::optional<ShapeInstance> FindInstance(const PartialCase& c,
                                          const std::function<bool(const Shape&)>& wanted) {
  return Search(c, wanted).Run();
}

std::string DescribeInstance(const PartialCase& c, const ShapeInstance& w) {
  std::string s = absl::StrCat("data ", ShapeToString(w.c.data.shape));
  const absl::Span<const absl::string_view> names = IntInputNames(c.op);
  for (size_t k = 0; k < names.size() && k < w.c.int_inputs.size(); ++k) {
    if (c.int_inputs[k]) continue;
    absl::StrAppend(&s, ", ", names[k], " [", absl::StrJoin(Values(w.c.int_inputs[k]), ","),
                    "] (not constant)");
  }
  return absl::StrCat(s, ": output ", ShapeToString(w.output));
}

}  // namespace dmconf
