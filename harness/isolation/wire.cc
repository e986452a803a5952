#include "harness/isolation/wire.h"

#include <cstring>

namespace dmconf::wire {

void Writer::I64(int64_t v) {
  for (int i = 0; i < 8; ++i)
    buf_.push_back(static_cast<char>((static_cast<uint64_t>(v) >> (8 * i)) & 0xff));
}
size_t Writer::Begin() {
  const size_t where = buf_.size();
  I64(0);
  return where;
}
void Writer::End(size_t where) { SetI64(where, static_cast<int64_t>(buf_.size() - where - 8)); }
void Writer::SetI64(size_t where, int64_t v) {
  for (int i = 0; i < 8; ++i) {
    buf_[where + i] = static_cast<char>((static_cast<uint64_t>(v) >> (8 * i)) & 0xff);
  }
}
void Writer::Clear() {
  constexpr size_t kKeep = size_t{1} << 20;
  if (buf_.capacity() > kKeep) {
    std::string().swap(buf_);
  } else {
    buf_.clear();
  }
}
void Writer::Str(const std::string& s) {
  I64(static_cast<int64_t>(s.size()));
  buf_.append(s);
}
void Writer::Bytes(const std::vector<uint8_t>& b) {
  I64(static_cast<int64_t>(b.size()));
  buf_.append(reinterpret_cast<const char*>(b.data()), b.size());
}
void Writer::Ints(const std::vector<int64_t>& v) {
  I64(static_cast<int64_t>(v.size()));
  for (int64_t x : v) I64(x);
}
void Writer::OptStr(const std::optional<std::string>& s) {
  U8(s.has_value() ? 1 : 0);
  if (s.has_value()) Str(*s);
}
void Writer::TensorT(const Tensor& t) {
  U8(static_cast<uint8_t>(t.type));
  Ints(t.shape);
  Bytes(t.bytes);
}

bool Reader::Take(size_t n, const char** p) {
  if (n > data_.size() - pos_) return false;
  *p = data_.data() + pos_;
  pos_ += n;
  return true;
}
bool Reader::U8(uint8_t* v) {
  const char* p;
  if (!Take(1, &p)) return false;
  *v = static_cast<uint8_t>(*p);
  return true;
}
bool Reader::I64(int64_t* v) {
  const char* p;
  if (!Take(8, &p)) return false;
  uint64_t x = 0;
  for (int i = 0; i < 8; ++i) x |= uint64_t{static_cast<uint8_t>(p[i])} << (8 * i);
  *v = static_cast<int64_t>(x);
  return true;
}
bool Reader::Str(std::string* s) {
  int64_t n;
  const char* p;
  if (!I64(&n) || n < 0 || !Take(static_cast<size_t>(n), &p)) return false;
  s->assign(p, static_cast<size_t>(n));
  return true;
}
bool Reader::View(absl::string_view* s) {
  int64_t n;
  const char* p;
  if (!I64(&n) || n < 0 || !Take(static_cast<size_t>(n), &p)) return false;
  *s = absl::string_view(p, static_cast<size_t>(n));
  return true;
}
bool Reader::Bytes(std::vector<uint8_t>* b) {
  int64_t n;
  const char* p;
  if (!I64(&n) || n < 0 || !Take(static_cast<size_t>(n), &p)) return false;
  b->assign(reinterpret_cast<const uint8_t*>(p), reinterpret_cast<const uint8_t*>(p) + n);
  return true;
}
bool Reader::Ints(std::vector<int64_t>* v) {
  int64_t n;
  if (!I64(&n) || n < 0 || static_cast<uint64_t>(n) > (data_.size() - pos_) / 8) return false;
  v->resize(static_cast<size_t>(n));
  for (int64_t& x : *v) {
    if (!I64(&x)) return false;
  }
  return true;
}
bool Reader::OptStr(std::optional<std::string>* s) {
  uint8_t has;
  if (!U8(&has)) return false;
  if (!has) {
    s->reset();
    return true;
  }
  std::string v;
  if (!Str(&v)) return false;
  *s = std::move(v);
  return true;
}
bool Reader::TensorT(Tensor* t) {
  uint8_t type;
  if (!U8(&type) || type >= AllElementTypes().size()) return false;
  t->type = static_cast<ElementType>(type);
  return Ints(&t->shape) && Bytes(&t->bytes);
}

namespace {

// The attribute bundle (oracle/op_attributes.h) of an OpCase or a PartialCase, in one order
// for both: block_size (present, value), mode, sizes, strides, rates, auto_pad.
void WriteAttributes(Writer& w, const OpAttributes& a) {
  w.U8(a.block_size.has_value() ? 1 : 0);
  w.I64(a.block_size.value_or(0));
  w.OptStr(a.mode);
  w.Ints(a.sizes);
  w.Ints(a.strides);
  w.Ints(a.rates);
  w.OptStr(a.auto_pad);
}

bool ReadAttributes(Reader& r, OpAttributes* a) {
  uint8_t has_block = 0;
  int64_t block = 0;
  if (!r.U8(&has_block) || !r.I64(&block)) return false;
  a->block_size = has_block ? std::optional<int64_t>(block) : std::nullopt;
  return r.OptStr(&a->mode) && r.Ints(&a->sizes) && r.Ints(&a->strides) && r.Ints(&a->rates) &&
         r.OptStr(&a->auto_pad);
}

}  // namespace

void WriteCase(Writer& w, const OpCase& c) {
  w.U8(static_cast<uint8_t>(c.op));
  w.TensorT(c.data);
  w.I64(static_cast<int64_t>(c.int_inputs.size()));
  for (const Tensor& t : c.int_inputs) w.TensorT(t);
  WriteAttributes(w, c);
  w.Str(c.id);
  w.Str(c.origin);
}

bool ReadCase(Reader& r, OpCase* c) {
  uint8_t op;
  int64_t n;
  if (!r.U8(&op) || op >= AllOps().size()) return false;
  c->op = static_cast<Op>(op);
  if (!r.TensorT(&c->data) || !r.I64(&n) || n < 0 || n > 64) return false;
  c->int_inputs.resize(static_cast<size_t>(n));
  for (Tensor& t : c->int_inputs) {
    if (!r.TensorT(&t)) return false;
  }
  return ReadAttributes(r, c) && r.Str(&c->id) && r.Str(&c->origin);
}

void WriteOutcome(Writer& w, const RunOutcome& o) {
  w.U8(static_cast<uint8_t>(o.kind));
  w.U8(o.output.has_value() ? 1 : 0);
  if (o.output.has_value()) w.TensorT(*o.output);
  w.Str(o.message);
  w.I64(static_cast<int64_t>(o.unwritten.size()));
  for (int64_t i : o.unwritten) w.I64(i);
}

bool ReadOutcome(Reader& r, RunOutcome* o) {
  uint8_t kind, has;
  if (!r.U8(&kind) || kind > static_cast<uint8_t>(RunOutcome::Kind::kInvalidAnswer) ||
      !r.U8(&has)) {
    return false;
  }
  o->kind = static_cast<RunOutcome::Kind>(kind);
  if (has) {
    Tensor t;
    if (!r.TensorT(&t)) return false;
    o->output = std::move(t);
  }
  int64_t n = 0;
  if (!r.Str(&o->message) || !r.I64(&n) || n < 0) return false;
  // Each index takes 8 bytes of the message: a count above what is left is malformed.
  if (o->output.has_value() ? n > o->output->NumElements() : n != 0) return false;
  o->unwritten.resize(static_cast<size_t>(n));
  for (int64_t& i : o->unwritten) {
    if (!r.I64(&i)) return false;
  }
  return true;
}

namespace {

void WritePartialShape(Writer& w, const PartialShape& p) {
  w.U8(p.dims ? 1 : 0);
  if (!p.dims) return;
  w.I64(static_cast<int64_t>(p.dims->size()));
  for (const Dim& d : *p.dims) {
    w.I64(d.lo);
    w.I64(d.hi.value_or(-1));
  }
}

bool ReadPartialShape(Reader& r, PartialShape* p) {
  uint8_t known = 0;
  if (!r.U8(&known)) return false;
  if (!known) {
    p->dims.reset();
    return true;
  }
  int64_t n = 0;
  if (!r.I64(&n) || n < 0 || n > 4096) return false;
  p->dims.emplace();
  for (int64_t i = 0; i < n; ++i) {
    Dim d;
    int64_t hi = 0;
    if (!r.I64(&d.lo) || !r.I64(&hi)) return false;
    if (hi >= 0) d.hi = hi;
    p->dims->push_back(d);
  }
  return true;
}

}  // namespace

void WritePartialCase(Writer& w, const PartialCase& c) {
  w.U8(static_cast<uint8_t>(c.op));
  w.U8(static_cast<uint8_t>(c.type));
  WritePartialShape(w, c.data);
  for (size_t k = 0; k < 3; ++k) {
    w.U8(c.int_inputs[k] ? 1 : 0);
    if (c.int_inputs[k]) w.TensorT(*c.int_inputs[k]);
    w.U8(static_cast<uint8_t>(c.int_types[k]));
    WritePartialShape(w, c.int_shapes[k]);
  }
  WriteAttributes(w, c);
}

bool ReadPartialCase(Reader& r, PartialCase* c) {
  uint8_t op = 0, type = 0;
  if (!r.U8(&op) || op >= AllOps().size() || !r.U8(&type) || type >= AllElementTypes().size()) {
    return false;
  }
  c->op = static_cast<Op>(op);
  c->type = static_cast<ElementType>(type);
  if (!ReadPartialShape(r, &c->data)) return false;
  for (size_t k = 0; k < 3; ++k) {
    uint8_t has = 0, t = 0;
    if (!r.U8(&has)) return false;
    if (has) {
      Tensor x;
      if (!r.TensorT(&x)) return false;
      c->int_inputs[k] = std::move(x);
    } else {
      c->int_inputs[k].reset();
    }
    if (!r.U8(&t) || t >= AllElementTypes().size()) return false;
    c->int_types[k] = static_cast<ElementType>(t);
    if (!ReadPartialShape(r, &c->int_shapes[k])) return false;
  }
  return ReadAttributes(r, c);
}

void WriteShapeOutcome(Writer& w, const ShapeOutcome& o) {
  w.U8(static_cast<uint8_t>(o.kind));
  WritePartialShape(w, o.shape);
  w.U8(static_cast<uint8_t>(o.type));
  w.Str(o.message);
}

bool ReadShapeOutcome(Reader& r, ShapeOutcome* o) {
  uint8_t kind = 0, type = 0;
  if (!r.U8(&kind) || kind > static_cast<uint8_t>(RunOutcome::Kind::kInvalidAnswer)) return false;
  o->kind = static_cast<ShapeOutcome::Kind>(kind);
  if (!ReadPartialShape(r, &o->shape) || !r.U8(&type) || type >= AllElementTypes().size()) {
    return false;
  }
  o->type = static_cast<ElementType>(type);
  return r.Str(&o->message);
}

void WriteCapabilities(Writer& w, const Capabilities& c) {
  w.U8(static_cast<uint8_t>((c.infer_static ? 1 : 0) | (c.infer_partial ? 2 : 0) |
                            (c.kernels ? 0 : 4)));
  w.I64(static_cast<int64_t>(c.ops.size()));
  for (const OpSupport& s : c.ops) {
    w.U8(static_cast<uint8_t>(s.op));
    w.I64(static_cast<int64_t>(s.element_types.size()));
    for (ElementType t : s.element_types) w.U8(static_cast<uint8_t>(t));
    w.I64(s.min_rank);
    w.I64(s.max_rank);
    w.I64(static_cast<int64_t>(s.modes.size()));
    for (const std::string& m : s.modes) w.Str(m);
    w.Str(s.notes);
  }
  w.Str(c.declared_name);
}

bool ReadCapabilities(Reader& r, Capabilities* c) {
  uint8_t si;
  int64_t n;
  if (!r.U8(&si) || !r.I64(&n) || n < 0 || n > 1024) return false;
  c->infer_static = (si & 1) != 0;
  c->infer_partial = (si & 2) != 0;
  c->kernels = (si & 4) == 0;
  c->ops.clear();
  for (int64_t i = 0; i < n; ++i) {
    OpSupport s;
    uint8_t op;
    int64_t nt, lo, hi, nm;
    if (!r.U8(&op) || op >= AllOps().size() || !r.I64(&nt) || nt < 0 || nt > 256) return false;
    s.op = static_cast<Op>(op);
    for (int64_t k = 0; k < nt; ++k) {
      uint8_t t;
      if (!r.U8(&t) || t >= AllElementTypes().size()) return false;
      s.element_types.insert(static_cast<ElementType>(t));
    }
    if (!r.I64(&lo) || !r.I64(&hi) || !r.I64(&nm) || nm < 0 || nm > 256) return false;
    s.min_rank = static_cast<int>(lo);
    s.max_rank = static_cast<int>(hi);
    for (int64_t k = 0; k < nm; ++k) {
      std::string m;
      if (!r.Str(&m)) return false;
      s.modes.insert(m);
    }
    if (!r.Str(&s.notes)) return false;
    c->ops.push_back(std::move(s));
  }
  return r.Str(&c->declared_name) && c->declared_name.size() <= 256;
}

}  // namespace dmconf::wire
