#include "fuzz/literal_case.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "fuzz/fuzz_chooser.h"
#include "harness/gen/builders.h"
#include "oracle/shape.h"
#include "oracle/tensor.h"

namespace dmconf {
namespace {

constexpr int64_t kMaxRank = 10;        // data dims
constexpr int64_t kMaxIntInputs = 4;    // integer inputs
constexpr int64_t kMaxIntRank = 3;      // dims of an integer input
constexpr int64_t kMaxIntDim = 16;      // each of those dims
constexpr int64_t kMaxAttrLength = 10;  // sizes, strides, rates
constexpr int64_t kMaxTextLength = 32;  // a mode / auto_pad outside the known names

// One case is coded by one template (CodeCase below) run with either of two IOs, so the
// encoder and the decoder cannot drift apart.

// Decoding: every value comes from the chooser.
class ReadIO {
 public:
  static constexpr bool kEncoding = false;
  explicit ReadIO(Chooser* ch) : ch_(ch) {}
  void Int(int64_t lo, int64_t hi, int64_t* v) { *v = ch_->Int(lo, hi); }
  void Fail(absl::string_view) {}

 private:
  Chooser* ch_;
};

// Encoding: each value is recorded as the bytes FuzzChooser reads back (RecordingChooser).
class WriteIO {
 public:
  static constexpr bool kEncoding = true;
  void Int(int64_t lo, int64_t hi, int64_t* v) {
    if (*v < lo || *v > hi) return Fail(absl::StrCat(*v, " is outside [", lo, ", ", hi, "]"));
    script_.next = *v;
    rec_.Int(lo, hi);
  }
  void Fail(absl::string_view what) {
    if (error_.empty()) error_ = std::string(what);
  }
  const std::string& error() const { return error_; }
  std::vector<uint8_t> Bytes() const { return rec_.Bytes(); }

 private:
  struct Script : Chooser {
    int64_t next = 0;
    int64_t Int(int64_t, int64_t) override { return next; }
  };
  Script script_;
  RecordingChooser rec_{&script_};
  std::string error_;
};

// Any int64 in four magnitude buckets, so small values cost one or two bytes.
template <class IO>
void Value(IO& io, int64_t* v) {
  constexpr int64_t k32 = int64_t{1} << 32;
  int64_t bucket = (*v >= 0 && *v <= 15)       ? 0
                   : (*v >= 0 && *v <= 65535)  ? 1
                   : (*v >= -k32 && *v <= k32) ? 2
                                               : 3;
  io.Int(0, 3, &bucket);
  switch (bucket) {
    case 0:
      return io.Int(0, 15, v);
    case 1:
      return io.Int(0, 65535, v);
    case 2:
      return io.Int(-k32, k32, v);
    default:
      return io.Int(INT64_MIN, INT64_MAX, v);
  }
}

// The length of a vector or string.
template <class IO, class Xs>
void Length(IO& io, int64_t max, Xs* xs) {
  int64_t n = static_cast<int64_t>(xs->size());
  io.Int(0, max, &n);
  if constexpr (!IO::kEncoding) xs->resize(static_cast<size_t>(n));
}

template <class IO>
void Type(IO& io, ElementType* t) {
  const absl::Span<const ElementType> all = AllElementTypes();
  int64_t k = 0;
  while (k < static_cast<int64_t>(all.size()) && all[k] != *t) ++k;
  io.Int(0, static_cast<int64_t>(all.size()) - 1, &k);
  if constexpr (!IO::kEncoding) *t = all[k];
}

template <class IO>
void OptionalInt(IO& io, std::optional<int64_t>* x) {
  int64_t present = x->has_value() ? 1 : 0;
  io.Int(0, 1, &present);
  if (present == 0) return x->reset();
  int64_t v = x->value_or(0);
  Value(io, &v);
  *x = v;
}

// Absent, one of the known names, or any other text (length, then each byte).
template <class IO>
void Text(IO& io, std::optional<std::string>* s, std::initializer_list<const char*> names) {
  const int64_t other = static_cast<int64_t>(names.size()) + 1;
  int64_t k = 0;
  if (s->has_value()) {
    k = other;
    int64_t i = 1;
    for (const char* n : names) {
      if (**s == n) k = i;
      ++i;
    }
  }
  io.Int(0, other, &k);
  if (k == 0) return s->reset();
  if (k < other) {
    *s = names.begin()[k - 1];
    return;
  }
  std::string text = s->value_or("");
  Length(io, kMaxTextLength, &text);
  for (char& ch : text) {
    int64_t b = static_cast<unsigned char>(ch);
    io.Int(0, 255, &b);
    ch = static_cast<char>(b);
  }
  *s = text;
}

template <class IO>
void IntegerInput(IO& io, Tensor* t) {
  Type(io, &t->type);
  Length(io, kMaxIntRank, &t->shape);
  for (int64_t& d : t->shape) io.Int(0, kMaxIntDim, &d);
  std::vector<int64_t> bits;
  if constexpr (IO::kEncoding) {
    if (!t->Validate("integer input").ok()) return io.Fail("an integer input's bytes do not match");
    for (int64_t i = 0; i < t->NumElements(); ++i) bits.push_back(int64_t(t->GetBits(i)));
  } else {
    int64_t n = 1;
    for (int64_t d : t->shape) n *= d;  // at most 16^3
    bits.resize(static_cast<size_t>(n));
  }
  for (int64_t& b : bits) Value(io, &b);
  if constexpr (IO::kEncoding) return;
  absl::StatusOr<Tensor> x = MakeTensor(t->type, t->shape, [&](int64_t i) { return bits[i]; });
  if (x.ok()) *t = *std::move(x);
}

// Data: type, shape, then the bytes' form: 0 positional, 1 none, 2 one byte too many,
// 3 one byte too few.
template <class IO>
void Data(IO& io, Tensor* t, bool with_data) {
  Type(io, &t->type);
  Length(io, kMaxRank, &t->shape);
  for (int64_t& d : t->shape) Value(io, &d);
  const absl::StatusOr<int64_t> n = NumElements(t->shape);
  const bool buildable = n.ok() && *n <= kLiteralMaxElements;
  const int64_t expect = buildable ? PackedByteSize(t->type, *n).value_or(0) : 0;
  int64_t form = 0;
  if constexpr (IO::kEncoding) {
    const int64_t have = static_cast<int64_t>(t->bytes.size());
    if (!buildable && have != 0) {
      return io.Fail(absl::StrCat("data with bytes and more than ", kLiteralMaxElements,
                                  " elements (or an invalid shape)"));
    }
    if (have == expect) {
      form = 0;
    } else if (have == 0) {
      form = 1;
    } else if (have == expect + 1) {
      form = 2;
    } else if (have == expect - 1) {
      form = 3;
    } else {
      return io.Fail(absl::StrCat("data of ", have, " bytes (positional size ", expect, ")"));
    }
  }
  io.Int(0, 3, &form);
  if constexpr (IO::kEncoding) return;
  t->bytes.clear();
  if (!with_data || !buildable || form == 1) return;
  *t = PositionalTensor(t->type, t->shape);
  if (form == 2) t->bytes.push_back(0);
  if (form == 3 && !t->bytes.empty()) t->bytes.pop_back();
}

// The attribute bundle (oracle/op_attributes.h): block_size, mode, sizes, strides, rates,
// auto_pad, in that order.
template <class IO>
void CodeAttributes(IO& io, OpAttributes* a) {
  OptionalInt(io, &a->block_size);
  Text(io, &a->mode, {"blocks_first", "depth_first"});
  for (std::vector<int64_t>* v : {&a->sizes, &a->strides, &a->rates}) {
    Length(io, kMaxAttrLength, v);
    for (int64_t& x : *v) Value(io, &x);
  }
  Text(io, &a->auto_pad, {"valid", "same_upper", "same_lower"});
}

template <class IO>
void CodeCase(IO& io, OpCase* c, bool with_data) {
  const absl::Span<const Op> ops = AllOps();
  int64_t op = 0;
  while (op < static_cast<int64_t>(ops.size()) && ops[op] != c->op) ++op;
  io.Int(0, static_cast<int64_t>(ops.size()) - 1, &op);
  c->op = ops[op];
  Data(io, &c->data, with_data);
  Length(io, kMaxIntInputs, &c->int_inputs);
  for (Tensor& t : c->int_inputs) IntegerInput(io, &t);
  CodeAttributes(io, c);
}

}  // namespace

bool StripLiteralMagic(const uint8_t** data, size_t* size) {
  if (*size < sizeof(kLiteralMagic) || std::memcmp(*data, kLiteralMagic, sizeof(kLiteralMagic)))
    return false;
  *data += sizeof(kLiteralMagic);
  *size -= sizeof(kLiteralMagic);
  return true;
}

GeneratedCase LiteralCase(Chooser& ch, bool with_data) {
  GeneratedCase g;
  ReadIO io(&ch);
  CodeCase(io, &g.c, with_data);
  g.c.id = "fuzz-literal";
  g.c.origin = "fuzz literal input";
  return g;
}

bool SameLiteralCase(const OpCase& a, const OpCase& b) {
  return a.op == b.op && a.data.type == b.data.type && a.data.shape == b.data.shape &&
         a.data.bytes.size() == b.data.bytes.size() && a.int_inputs == b.int_inputs &&
         static_cast<const OpAttributes&>(a) == static_cast<const OpAttributes&>(b);
}

absl::StatusOr<std::vector<uint8_t>> EncodeLiteralInput(const OpCase& c) {
  WriteIO io;
  OpCase copy = c;
  CodeCase(io, &copy, /*with_data=*/true);
  if (!io.error().empty()) return absl::InvalidArgumentError("fuzz.literal: " + io.error());
  std::vector<uint8_t> out(kLiteralMagic, kLiteralMagic + sizeof(kLiteralMagic));
  const std::vector<uint8_t> body = io.Bytes();
  out.insert(out.end(), body.begin(), body.end());
  // Decode it back: the input must rebuild the case.
  FuzzedDataProvider fdp(body.data(), body.size());
  FuzzChooser ch(&fdp);
  const GeneratedCase back = LiteralCase(ch);
  if (!SameLiteralCase(back.c, c)) {
    return absl::InvalidArgumentError("fuzz.literal: the encoding does not decode to the case");
  }
  return out;
}

}  // namespace dmconf
