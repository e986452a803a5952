// Negative cases: start from a valid case (the twin), change one thing so that exactly one
// rule breaks. Where the rule needs a precondition the valid case may lack (a block >= 2 to
// break divisibility), the twin is adjusted first so that it stays valid.
#include <algorithm>
#include <array>
#include <limits>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "harness/gen/builders_internal.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

using gen_internal::Count;
using gen_internal::IntTensor;

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

using Ints = std::array<std::vector<int64_t>, 3>;

Ints GetInts(const OpCase& c) {
  Ints v;
  for (size_t k = 0; k < 3; ++k) {
    for (int64_t i = 0; i < c.int_inputs[k].NumElements(); ++i) {
      v[k].push_back(c.int_inputs[k].GetInteger(i).value_or(kMax));
    }
  }
  return v;
}

// Stores values back, keeping each input's type when the values fit it; otherwise i64 (all
// three for BatchToSpace, which needs one common type).
void PutInts(OpCase* c, const Ints& v) {
  bool all_fit = true;
  for (size_t k = 0; k < 3; ++k)
    all_fit = all_fit && MakeIntegerTensor(c->int_inputs[k].type, v[k]).ok();
  for (size_t k = 0; k < 3; ++k) {
    const ElementType t =
        (all_fit || c->op == Op::kSpaceToBatch) ? c->int_inputs[k].type : ElementType::kI64;
    c->int_inputs[k] = IntTensor(t, v[k]);
  }
}

// The data tensor of a reshaped case: positional bits, or shape and type only (!o.with_data).
void SetData(OpCase* c, const Shape& shape, const BuildOptions& o) {
  c->data = gen_internal::Data(o, c->data.type, shape);
}

const std::vector<ElementType>& NonIntegerTypes() {
  static const std::vector<ElementType> kTypes = {
      ElementType::kBoolean, ElementType::kF32,    ElementType::kF16, ElementType::kBf16,
      ElementType::kF64,     ElementType::kF8e4m3, ElementType::kNf4, ElementType::kF4e2m1};
  return kTypes;
}

BuildOptions WithRank(BuildOptions o, int lo, int hi) {
  o.min_rank = lo;
  o.max_rank = hi;
  return o;
}

// The rule's suffix after the op prefix ("block_shape.divides").
absl::string_view Suffix(const Rule& r) {
  absl::string_view id = r.id;
  return id.substr(id.find('.') + 1);
}

// ---- SpaceToBatch / BatchToSpace -------------------------------------------------------

// The state of one SpaceToBatch / BatchToSpace case being broken: the twin's integer inputs
// and the positions drawn for the rule (in the order the sweep has always drawn them).
struct BlockBreak {
  Chooser& ch;
  const BuildOptions& o;
  NegativeCase* n;
  Ints v;
  size_t N, k, axis, spatial;
  bool s2b;
};

// data.rank: a rank-2 twin cut to rank 1 (the batch axis and entry 0 of every integer input
// dropped) or rank 0.
void BreakBlockRank(Chooser& ch, Op op, const BuildOptions& o, NegativeCase* n) {
  n->twin = BuildValidCase(ch, op, WithRank(o, 2, 2));
  OpCase& b = n->broken = n->twin;
  Ints v = GetInts(b);
  if (ch.Bool()) {
    SetData(&b, {b.data.shape[1]}, o);
    for (auto& x : v) x.erase(x.begin());
  } else {
    SetData(&b, {}, o);
    for (auto& x : v) x.clear();
  }
  PutInts(&b, v);
}

// The rules on the integer inputs themselves: their type, a common type, their shape.
bool BreakBlockInputs(BlockBreak& c, absl::string_view s) {
  OpCase& b = c.n->broken;
  const size_t k = c.k;
  if (s == "inputs.integer_type") {
    const ElementType t = c.ch.Pick<ElementType>(NonIntegerTypes());
    const Tensor& old = b.int_inputs[k];
    b.int_inputs[k] = *MakeTensor(t, old.shape, [&](int64_t i) { return old.GetBits(i); });
    return true;
  }
  if (s == "inputs.same_type") {
    const ElementType cur = b.int_inputs[k].type;
    std::vector<ElementType> others;
    for (ElementType t : {ElementType::kI32, ElementType::kI64, ElementType::kU64,
                          ElementType::kU32, ElementType::kI16, ElementType::kU16}) {
      if (t != cur && MakeIntegerTensor(t, c.v[k]).ok()) others.push_back(t);
    }
    b.int_inputs[k] = IntTensor(c.ch.Pick<ElementType>(others), c.v[k]);
    return true;
  }
  if (s != "inputs.shape") return false;
  const Tensor& old = b.int_inputs[k];
  switch (c.ch.Index(3)) {
    case 0:  // one value too many
      c.v[k].push_back(k == 0 ? 1 : 0);
      b.int_inputs[k] = IntTensor(old.type, c.v[k]);
      break;
    case 1:  // one value too few
      c.v[k].pop_back();
      b.int_inputs[k] = IntTensor(old.type, c.v[k]);
      break;
    default: {  // 2-D [1, N]
      Tensor t = old;
      t.shape = {1, static_cast<int64_t>(c.N)};
      b.int_inputs[k] = t;
    }
  }
  return true;
}

// The rules broken by one integer value; the values are stored back by the caller.
bool BreakBlockValue(BlockBreak& c, absl::string_view s) {
  Ints& v = c.v;
  OpCase& b = c.n->broken;
  if (s == "block_shape.positive") {
    v[0][c.axis] = c.ch.Bool() ? 0 : -Count(c.ch, 1, 5);
  } else if (s == "pads_begin.nonnegative" || s == "crops_begin.nonnegative") {
    v[1][c.axis] = -Count(c.ch, 1, 5);
  } else if (s == "pads_end.nonnegative" || s == "crops_end.nonnegative") {
    v[2][c.axis] = -Count(c.ch, 1, 5);
  } else if (s == "block_shape.batch_one") {
    v[0][0] = c.ch.Int(2, 3);
    if (!c.s2b) {  // keep the batch divisible by prod(block_shape), which includes B_0
      Shape d = b.data.shape;
      d[0] *= v[0][0];
      SetData(&b, d, c.o);
    }
  } else if (s == "pads_begin.batch_zero" || s == "crops_begin.batch_zero") {
    v[1][0] = c.ch.Int(1, 3);
  } else if (s == "pads_end.batch_zero" || s == "crops_end.batch_zero") {
    v[2][0] = c.ch.Int(1, 3);
  } else if (s == "crops.fit") {
    const int64_t full = b.data.shape[c.spatial] * v[0][c.spatial];
    v[2][c.spatial] = full - v[1][c.spatial] + c.ch.Int(1, 3);
  } else {
    return false;
  }
  PutInts(&b, v);
  return true;
}

// The divisibility rules. Where the twin has no block >= 2 to break, it gets one first (and
// stays valid); the broken case is the twin with the dim made one to B - 1 larger.
bool BreakBlockDivisible(BlockBreak& c, absl::string_view s) {
  Ints& v = c.v;
  const size_t sp = c.spatial;
  Shape d = c.n->broken.data.shape;
  if (s == "block_shape.divides") {
    if (v[0][sp] == 1) {
      v[0][sp] = 2;
      if ((d[sp] + v[1][sp] + v[2][sp]) % 2 != 0) ++d[sp];
      SetData(&c.n->twin, d, c.o);
      PutInts(&c.n->twin, v);
    }
    d[sp] += c.ch.Int(1, v[0][sp] - 1);
  } else if (s == "batch.divisible") {
    int64_t prod = 1;
    for (int64_t x : v[0]) prod *= x;
    if (prod == 1) {  // twin: a block of 2 on one axis, batch doubled
      v[0][sp] = 2;
      d[0] *= 2;
      prod = 2;
      SetData(&c.n->twin, d, c.o);
      PutInts(&c.n->twin, v);
    }
    d[0] += c.ch.Int(1, prod - 1);
  } else {
    return false;
  }
  c.n->broken = c.n->twin;
  SetData(&c.n->broken, d, c.o);
  return true;
}

// output.representable: an output dim above 2^63-1, the integer inputs widened to i64.
void BreakBlockRepresentable(BlockBreak& c) {
  Ints& v = c.v;
  OpCase& b = c.n->broken;
  Shape d = b.data.shape;
  if (c.s2b) {
    // D_i + pads_begin_i + pads_end_i above 2^63-1.
    v[1][c.spatial] = kMax - c.ch.Int(0, 2);
    v[2][c.spatial] = kMax - c.ch.Int(0, 2);
  } else {
    // D_i * B_i above 2^63-1, over an empty batch (0 is divisible by any product).
    d[0] = 0;
    d[c.spatial] = std::max<int64_t>(d[c.spatial], 2);
    v[0][c.spatial] = int64_t{1} << 62;
    SetData(&b, d, c.o);
  }
  b.int_inputs[1] = IntTensor(ElementType::kI64, v[1]);  // room for the huge values
  b.int_inputs[2] = IntTensor(ElementType::kI64, v[2]);
  b.int_inputs[0] = IntTensor(ElementType::kI64, v[0]);
}

bool BreakBlockOp(Chooser& ch, const Rule& r, const BuildOptions& o, NegativeCase* n) {
  const Op op = *r.op;
  const absl::string_view s = Suffix(r);
  if (s == "data.rank") {
    BreakBlockRank(ch, op, o, n);
    return true;
  }
  n->twin = BuildValidCase(ch, op, o);
  n->broken = n->twin;
  const size_t N = n->broken.data.shape.size();
  // The draws come in this order whatever the rule, so that a seed gives the same cases.
  const size_t k = ch.Index(3);
  const size_t axis = ch.Index(N);
  const size_t spatial = 1 + ch.Index(N - 1);
  BlockBreak c{ch, o, n, GetInts(n->broken), N, k, axis, spatial, op == Op::kSpaceToBatch};
  if (s == "output.representable") {
    BreakBlockRepresentable(c);
    return true;
  }
  return BreakBlockInputs(c, s) || BreakBlockDivisible(c, s) || BreakBlockValue(c, s);
}

// ---- SpaceToDepth / DepthToSpace -----------------------------------------------------

bool BreakDepthOp(Chooser& ch, const Rule& r, const BuildOptions& o, NegativeCase* n) {
  const Op op = *r.op;
  const absl::string_view s = Suffix(r);
  if (s == "data.rank") {
    n->twin = BuildValidCase(ch, op, WithRank(o, 3, 3));
    n->broken = n->twin;
    Shape d = n->broken.data.shape;
    d.resize(static_cast<size_t>(ch.Int(0, 2)));
    SetData(&n->broken, d, o);
    return true;
  }
  n->twin = BuildValidCase(ch, op, o);
  OpCase& b = n->broken = n->twin;
  Shape d = b.data.shape;
  const int K = static_cast<int>(d.size()) - 2;
  const size_t spatial = 2 + ch.Index(static_cast<size_t>(K));
  if (s == "block_size.positive") {
    b.block_size = ch.Bool() ? 0 : -Count(ch, 1, 5);
  } else if (s == "mode.required") {
    b.mode.reset();
  } else if (s == "mode.enum") {
    static const std::vector<std::string> kBad = {"BLOCKS_FIRST", "blocks-first", "depth first", "",
                                                  "explicit",     "depth_first "};
    b.mode = ch.Pick<std::string>(kBad);
  } else if (s == "block_size.divides") {
    int64_t bs = *b.block_size;
    if (bs == 1) {  // twin: block 2 (S2D: every spatial dim doubled; D2S: C times 2^K)
      bs = 2;
      n->twin.block_size = 2;
      if (op == Op::kSpaceToDepth) {
        for (size_t i = 2; i < d.size(); ++i) d[i] *= 2;
      } else {
        d[1] <<= K;
      }
      SetData(&n->twin, d, o);
    }
    b = n->twin;
    if (op == Op::kSpaceToDepth) {
      d[spatial] += ch.Int(1, bs - 1);
    } else {
      int64_t bk = 1;
      for (int k = 0; k < K; ++k) bk *= bs;
      d[1] += ch.Int(1, bk - 1);
    }
    SetData(&b, d, o);
  } else if (s == "output.representable") {
    b.block_size = int64_t{1} << 62;
    if (op == Op::kSpaceToDepth) {
      // C * block_size^K above 2^63-1; the spatial dims are 0 (divisible by anything).
      d[1] = std::max<int64_t>(d[1], 2);
      for (size_t i = 2; i < d.size(); ++i) d[i] = 0;
    } else {
      // D_i * block_size above 2^63-1; C = 0 is divisible by any block_size^K.
      d[1] = 0;
      d[spatial] = std::max<int64_t>(d[spatial], 2);
    }
    SetData(&b, d, o);
  } else {
    return false;
  }
  return true;
}

// ---- ExtractImagePatches -----------------------------------------------------------------

bool BreakEip(Chooser& ch, const Rule& r, const BuildOptions& o, NegativeCase* n) {
  const absl::string_view s = Suffix(r);
  n->twin = BuildValidCase(ch, Op::kExtractImagePatches, o);
  OpCase& b = n->broken = n->twin;
  const size_t i = ch.Index(2);
  if (s == "data.rank") {
    Shape d = b.data.shape;
    if (ch.Bool()) {
      d.pop_back();
    } else {
      d.push_back(1);
    }
    SetData(&b, d, o);
  } else if (s == "sizes.length" || s == "strides.length" || s == "rates.length") {
    std::vector<int64_t>& a =
        s == "sizes.length" ? b.sizes : (s == "strides.length" ? b.strides : b.rates);
    switch (ch.Index(3)) {
      case 0:
        a.pop_back();
        break;
      case 1:
        a.push_back(1);
        break;
      default:
        a.clear();
    }
  } else if (s == "sizes.nonnegative") {
    b.sizes[i] = -Count(ch, 1, 3);
  } else if (s == "strides.positive") {
    b.strides[i] = ch.Bool() ? 0 : -Count(ch, 1, 3);
  } else if (s == "rates.positive") {
    b.rates[i] = ch.Bool() ? 0 : -Count(ch, 1, 3);
  } else if (s == "auto_pad.required") {
    b.auto_pad.reset();
  } else if (s == "auto_pad.enum") {
    static const std::vector<std::string> kBad = {"explicit", "SAME_UPPER", "same",
                                                  "notset",   "",           "valid "};
    b.auto_pad = ch.Pick<std::string>(kBad);
  } else if (s == "sizes.zero") {
    b.sizes[i] = 0;
  } else if (s == "output.representable") {
    Shape d = b.data.shape;
    if (ch.Bool()) {
      // rate * (size - 1) above 2^63-1.
      b.rates[i] = int64_t{1} << 62;
      b.sizes[i] = std::max<int64_t>(b.sizes[i], 3);
    } else {
      // size_rows * size_cols * depth above 2^63-1 (depth >= 1).
      b.sizes = {int64_t{1} << 32, int64_t{1} << 32};
      d[1] = std::max<int64_t>(d[1], 1);
      SetData(&b, d, o);
    }
  } else {
    return false;
  }
  return true;
}

// ---- Malformed cases -----------------------------------------------------------------------

bool BreakMalformed(Chooser& ch, const Rule& r, const BuildOptions& o, NegativeCase* n) {
  const Op op = ch.Pick<Op>(AllOps());
  n->twin = BuildValidCase(ch, op, o);
  OpCase& b = n->broken = n->twin;
  Shape d = b.data.shape;
  const size_t axis = ch.Index(d.size());
  if (r.id == "case.tensor.dims_nonnegative") {
    d[axis] = -Count(ch, 1, 3);
    b.data.shape = d;
    b.data.bytes.clear();
  } else if (r.id == "case.tensor.size_representable") {
    // Every dim at least 2^16, so the product of >= 4 dims is above 2^63-1; no bytes.
    for (int64_t& x : d) x = std::max<int64_t>(x, int64_t{1} << 16);
    while (d.size() < 4) d.push_back(int64_t{1} << 21);
    d[0] = int64_t{1} << 62;
    b.data.shape = d;
    b.data.bytes.clear();
  } else if (r.id == "case.tensor.byte_size") {
    if (!b.data.bytes.empty() && ch.Bool()) {
      b.data.bytes.pop_back();
    } else {
      b.data.bytes.push_back(0);
    }
  } else if (r.id == "case.inputs.count") {
    if (b.int_inputs.empty()) {
      b.int_inputs.push_back(*MakeIntegerTensor(ElementType::kI64, {1}));
    } else {
      b.int_inputs.erase(b.int_inputs.begin() + static_cast<std::ptrdiff_t>(ch.Index(3)));
    }
  } else {
    return false;
  }
  return true;
}

bool Break(Chooser& ch, const Rule& r, const BuildOptions& o, NegativeCase* n) {
  if (r.kind == RuleKind::kMalformed) return BreakMalformed(ch, r, o, n);
  if (!r.op) return false;
  switch (*r.op) {
    case Op::kSpaceToBatch:
    case Op::kBatchToSpace:
      return BreakBlockOp(ch, r, o, n);
    case Op::kSpaceToDepth:
    case Op::kDepthToSpace:
      return BreakDepthOp(ch, r, o, n);
    case Op::kExtractImagePatches:
      return BreakEip(ch, r, o, n);
  }
  return false;
}

}  // namespace

bool CanBreak(const Rule& rule) {
  if (rule.kind != RuleKind::kMalformed) return rule.op.has_value();
  return rule.id == "case.tensor.dims_nonnegative" || rule.id == "case.tensor.size_representable" ||
         rule.id == "case.tensor.byte_size" || rule.id == "case.inputs.count";
}

const std::vector<const Rule*>& BreakableRules() {
  static const std::vector<const Rule*> kRules = [] {
    std::vector<const Rule*> out;
    for (const Rule& r : AllRules()) {
      if (CanBreak(r)) out.push_back(&r);
    }
    return out;
  }();
  return kRules;
}

absl::StatusOr<NegativeCase> BuildNegativeCase(Chooser& ch, const Rule& rule,
                                               const BuildOptions& o) {
  NegativeCase n;
  n.rule = &rule;
  if (!CanBreak(rule) || !Break(ch, rule, o, &n)) {
    return absl::InvalidArgumentError(
        absl::StrCat("no negative-case construction for rule ", rule.id));
  }
  n.twin.origin = "gen:twin";
  n.broken.origin = absl::StrCat("gen:negative:", rule.id);
  return n;
}

absl::Status CheckNegativeCase(const NegativeCase& n) {
  absl::StatusOr<Validation> t = Validate(n.twin);
  if (!t.ok())
    return absl::InternalError(absl::StrCat("twin is malformed: ", t.status().message()));
  if (!t->violations.empty()) {
    return absl::InternalError(absl::StrCat("twin is not valid: ", t->violations[0].message));
  }
  if (n.rule->kind == RuleKind::kMalformed) {
    absl::StatusOr<Expectation> e = Evaluate(n.broken);
    if (e.ok()) {
      return absl::InternalError(absl::StrCat(
          "expected a ", n.rule->id, " error, the oracle answered ", ExpectationKindName(e->kind)));
    }
    if (!absl::StartsWith(e.status().message(), absl::StrCat(n.rule->id, ":"))) {
      return absl::InternalError(
          absl::StrCat("expected a ", n.rule->id, " error, got ", e.status().message()));
    }
    return absl::OkStatus();
  }
  absl::StatusOr<Validation> b = Validate(n.broken);
  if (!b.ok())
    return absl::InternalError(absl::StrCat("broken case is malformed: ", b.status().message()));
  if (b->violations.size() != 1 || b->violations[0].rule != n.rule) {
    std::string got;
    for (const Violation& x : b->violations) absl::StrAppend(&got, " [", x.message, "]");
    return absl::InternalError(
        absl::StrCat("expected exactly ", n.rule->id, ", got", got.empty() ? " nothing" : got));
  }
  return absl::OkStatus();
}

}  // namespace dmconf
