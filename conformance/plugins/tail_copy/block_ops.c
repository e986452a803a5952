/* BatchToSpace-2 and SpaceToBatch-2 kernels of the tail_copy plugin, from the specifications:
 *   BatchToSpace: out[n, j_1..j_{N-1}] = data[flat(o_1..o_{N-1}) * batch_out + n, d_1..d_{N-1}],
 *     p_i = j_i + crops_begin[i], o_i = p_i % B_i, d_i = p_i / B_i (flat: last axis fastest).
 *   SpaceToBatch: out[flat(o_1..o_{N-1}) * batch + n, j_1..j_{N-1}] = data[n, d_1..d_{N-1}] with
 *     d_i = j_i * B_i + o_i - pads_begin[i], or 0 where some d_i is outside [0, D_i).
 * An output row (last axis) with block_shape[last] == 1 is one contiguous input run, copied by
 * the row copy helper; with block_shape[last] > 1 its elements are copied one by one. */
#include <string.h>

#include "conformance/plugins/tail_copy/tail_copy.h"

#define kMaxRank DMCONF_PLUGIN_MAX_RANK

/* The values of one 1-D integer input; huge[i]: a u64 value above 2^63-1 (v[i] is then 0). */
typedef struct {
  int64_t v[kMaxRank];
  int huge[kMaxRank];
} IntValues;

/* An integer element type: bits per element (8 to 64, or 1 to 6 for the packed ones) and its
 * signedness; 0 bits for any other type (boolean and the float types are not integer types). */
static int IntTypeBits(const char* type, int* is_signed) {
  static const struct {
    const char* name;
    int bits, is_signed;
  } kInts[] = {{"i8", 8, 1},   {"i16", 16, 1}, {"i32", 32, 1}, {"i64", 64, 1}, {"u8", 8, 0},
               {"u16", 16, 0}, {"u32", 32, 0}, {"u64", 64, 0}, {"u1", 1, 0},   {"u2", 2, 0},
               {"u3", 3, 0},   {"u4", 4, 0},   {"u6", 6, 0},   {"i4", 4, 1}};
  size_t i;
  for (i = 0; type != NULL && i < sizeof(kInts) / sizeof(kInts[0]); ++i) {
    if (strcmp(type, kInts[i].name) == 0) {
      *is_signed = kInts[i].is_signed;
      return kInts[i].bits;
    }
  }
  return 0;
}

/* Packed bytes of n elements (docs/element-types.md): u3 / u6 in 3-byte groups. */
static uint64_t PackedBytes(int bits, int64_t n) {
  if (bits >= 8) return (uint64_t)n * (uint64_t)(bits / 8);
  if (bits == 3 || bits == 6) return 3u * (uint64_t)((n + 24 / bits - 1) / (24 / bits));
  return (uint64_t)((n * bits + 7) / 8);
}

/* Element i of a packed sub-byte tensor, as its unsigned bit pattern. */
static uint64_t SubByteElement(const unsigned char* p, int bits, int64_t i) {
  if (bits == 1) return (p[i / 8] >> (7 - i % 8)) & 1u;
  if (bits == 2) return (p[i / 4] >> (6 - 2 * (i % 4))) & 3u;
  if (bits == 4) return (p[i / 2] >> (4 * (i % 2))) & 15u;
  /* u3 / u6: bytes 0-1 (big-endian word) hold the low bits, byte 2 the high bits. */
  const int per = 24 / bits, k = (int)(i % per), lo_bits = 16 / per, hi_bits = 8 / per;
  const unsigned char* g = p + 3 * (i / per);
  const unsigned word = ((unsigned)g[0] << 8) | g[1];
  const unsigned lo = (word >> (16 - lo_bits * (k + 1))) & ((1u << lo_bits) - 1u);
  const unsigned hi = ((unsigned)g[2] >> (8 - hi_bits * (k + 1))) & ((1u << hi_bits) - 1u);
  return ((uint64_t)hi << lo_bits) | lo;
}

/* Reads one integer input of shape [rank]; what breaks T2's rules or the shape is refused. */
static int ReadInts(const dmconf_tensor* t, const char* what, int rank, IntValues* out,
                    dmconf_result* r) {
  const unsigned char* p = (const unsigned char*)t->data;
  int is_signed = 0, i, j;
  const int bits = IntTypeBits(t->element_type, &is_signed);
  if (bits == 0) return TcReject(r, "%s: not an integer type", what);
  if (t->rank != 1 || t->shape[0] != rank) return TcReject(r, "%s: shape must be [%d]", what, rank);
  if (t->byte_size != PackedBytes(bits, rank) || (rank > 0 && p == NULL))
    return TcReject(r, "%s: byte size", what);
  for (i = 0; i < rank; ++i) {
    uint64_t u = 0;
    if (bits >= 8) {
      for (j = bits / 8 - 1; j >= 0; --j) u = (u << 8) | p[i * (bits / 8) + j];
    } else {
      u = SubByteElement(p, bits, i);
    }
    out->huge[i] = 0;
    if (is_signed && bits < 64 && (u >> (bits - 1)) & 1u) {
      out->v[i] = (int64_t)u - ((int64_t)1 << bits); /* sign extension */
    } else if (is_signed) {
      memcpy(&out->v[i], &u, sizeof(u));
    } else if (u > (uint64_t)INT64_MAX) {
      out->v[i] = 0;
      out->huge[i] = 1;
    } else {
      out->v[i] = (int64_t)u;
    }
  }
  return DMCONF_OK;
}

/* The three integer inputs; same_type: BatchToSpace's one common T2. */
static int ReadInputs(const dmconf_case* c, const char* const names[3], int same_type,
                      IntValues v[3], dmconf_result* r) {
  int k, status;
  if (c->num_int_inputs != 3 || c->int_inputs == NULL)
    return TcReject(r, "3 integer inputs expected");
  for (k = 0; k < 3; ++k) {
    status = ReadInts(&c->int_inputs[k], names[k], c->data.rank, &v[k], r);
    if (status != DMCONF_OK) return status;
  }
  if (same_type && (strcmp(c->int_inputs[0].element_type, c->int_inputs[1].element_type) != 0 ||
                    strcmp(c->int_inputs[0].element_type, c->int_inputs[2].element_type) != 0))
    return TcReject(r, "block_shape, crops_begin and crops_end must share one type");
  return DMCONF_OK;
}

/* block_shape >= 1, the others >= 0 (a huge value is positive); batch axis 1 / 0 / 0. */
static int CheckValues(const IntValues v[3], const char* const names[3], int rank,
                       dmconf_result* r) {
  int i;
  for (i = 0; i < rank; ++i) {
    if (!v[0].huge[i] && v[0].v[i] < 1) return TcReject(r, "%s[%d] must be >= 1", names[0], i);
    if (!v[1].huge[i] && v[1].v[i] < 0) return TcReject(r, "%s[%d] must be >= 0", names[1], i);
    if (!v[2].huge[i] && v[2].v[i] < 0) return TcReject(r, "%s[%d] must be >= 0", names[2], i);
  }
  /* "expected to be 1 / 0" (ERRATA E5, unspecified): refused. */
  if (v[0].huge[0] || v[0].v[0] != 1 || v[1].huge[0] || v[1].v[0] != 0 || v[2].huge[0] ||
      v[2].v[0] != 0)
    return TcReject(r, "batch axis: block_shape[0] must be 1 and %s[0], %s[0] 0", names[1],
                    names[2]);
  return DMCONF_OK;
}

/* Element count of a shape, 0 with a zero dim; 0 returned in *ok when it exceeds 2^63-1. */
static int64_t CountOf(const int64_t* shape, int rank, int* ok) {
  int64_t n = 1;
  int i;
  *ok = 1;
  for (i = 0; i < rank; ++i)
    if (shape[i] == 0) return 0;
  for (i = 0; i < rank; ++i)
    if (__builtin_mul_overflow(n, shape[i], &n)) *ok = 0;
  return *ok ? n : 0;
}

/* Sets the result's shape and allocates the output; *dst NULL when it is empty. */
static int AllocOutput(const dmconf_case* c, dmconf_result* r, const int64_t* out, int esize,
                       int64_t* total, unsigned char** dst) {
  int i, ok;
  int64_t bytes;
  *total = CountOf(out, c->data.rank, &ok);
  if (!ok || __builtin_mul_overflow(*total, (int64_t)esize, &bytes))
    return TcReject(r, "output above 2^63-1 elements");
  r->element_type = c->data.element_type;
  r->rank = c->data.rank;
  for (i = 0; i < c->data.rank; ++i) r->shape[i] = out[i];
  *dst = (unsigned char*)r->alloc_output(r, (uint64_t)bytes);
  if (*total > 0 && *dst == NULL) return TcReject(r, "output too large");
  if (*total == 0) *dst = NULL;
  return DMCONF_OK;
}

/* Row-major element strides of the data. */
static void Strides(const int64_t* shape, int rank, int64_t* stride) {
  int i;
  stride[rank - 1] = 1;
  for (i = rank - 2; i >= 0; --i) stride[i] = stride[i + 1] * shape[i + 1];
}

/* Next multi-index over the first `axes` axes of shape (last fastest). */
static void Next(int64_t* idx, const int64_t* shape, int axes) {
  int i;
  for (i = axes - 1; i >= 0; --i) {
    if (++idx[i] < shape[i]) return;
    idx[i] = 0;
  }
}

int TcBatchToSpace(const dmconf_case* c, dmconf_result* r, int esize) {
  static const char* const kNames[3] = {"block_shape", "crops_begin", "crops_end"};
  const int rank = c->data.rank, last = rank - 1;
  const int64_t* in = c->data.shape;
  IntValues v[3];
  int64_t out[kMaxRank], stride[kMaxRank], idx[kMaxRank] = {0}, prod = 1, total, row;
  int i;
  unsigned char* dst;
  if (rank < 2) return TcReject(r, "data rank must be >= 2");
  if (rank > 6) return TcUnsupported(r, "rank above 6");
  int status = ReadInputs(c, kNames, 1, v, r);
  if (status == DMCONF_OK) status = CheckValues(v, kNames, rank, r);
  if (status != DMCONF_OK) return status;
  const int64_t* bs = v[0].v;
  const int64_t* cb = v[1].v;
  for (i = 0; i < rank; ++i)
    if (v[0].huge[i] || __builtin_mul_overflow(prod, bs[i], &prod))
      return TcReject(r, "product of block_shape above 2^63-1");
  if (in[0] % prod != 0) return TcReject(r, "batch not divisible by the product of block_shape");
  out[0] = in[0] / prod;
  for (i = 1; i < rank; ++i) {
    int64_t full, crop;
    if (__builtin_mul_overflow(in[i], bs[i], &full))
      return TcReject(r, "D_%d * block_shape above 2^63-1", i);
    if (v[1].huge[i] || v[2].huge[i] || __builtin_add_overflow(cb[i], v[2].v[i], &crop) ||
        crop > full)
      return TcReject(r, "crops of axis %d exceed D * block_shape", i);
    out[i] = full - crop;
  }
  status = AllocOutput(c, r, out, esize, &total, &dst);
  if (status != DMCONF_OK || total == 0) return status;
  /* A non-empty output has a non-empty input: its strides are representable. */
  Strides(in, rank, stride);
  const unsigned char* src = (const unsigned char*)c->data.data;
  const int64_t width = out[last], b_last = bs[last], cb_last = cb[last];
  for (row = 0; row < total / width; ++row, dst += width * esize) {
    int64_t flat = 0, off = 0, j;
    for (i = 1; i < last; ++i) {
      const int64_t p = idx[i] + cb[i];
      flat = flat * bs[i] + p % bs[i];
      off += p / bs[i] * stride[i];
    }
    if (b_last == 1) {
      const int64_t batch = flat * out[0] + idx[0];
      TcRowCopyB2s(dst, src + (batch * stride[0] + off + cb_last) * esize, width, esize);
    } else {
      for (j = 0; j < width; ++j) {
        const int64_t p = j + cb_last;
        const int64_t batch = (flat * b_last + p % b_last) * out[0] + idx[0];
        memcpy(dst + j * esize, src + (batch * stride[0] + off + p / b_last) * esize,
               (size_t)esize);
      }
    }
    Next(idx, out, last);
  }
  return DMCONF_OK;
}

int TcSpaceToBatch(const dmconf_case* c, dmconf_result* r, int esize) {
  static const char* const kNames[3] = {"block_shape", "pads_begin", "pads_end"};
  const int rank = c->data.rank, last = rank - 1;
  const int64_t* in = c->data.shape;
  IntValues v[3];
  int64_t out[kMaxRank], stride[kMaxRank], idx[kMaxRank] = {0}, o[kMaxRank], prod = 1, total;
  int64_t row;
  int i, prod_over = 0;
  unsigned char* dst;
  if (rank < 2) return TcReject(r, "data rank must be >= 2");
  if (rank > 6) return TcUnsupported(r, "rank above 6");
  int status = ReadInputs(c, kNames, 0, v, r);
  if (status == DMCONF_OK) status = CheckValues(v, kNames, rank, r);
  if (status != DMCONF_OK) return status;
  const int64_t* bs = v[0].v;
  const int64_t* pb = v[1].v;
  for (i = 1; i < rank; ++i) {
    int64_t padded;
    if (v[1].huge[i] || v[2].huge[i] || __builtin_add_overflow(in[i], pb[i], &padded) ||
        __builtin_add_overflow(padded, v[2].v[i], &padded))
      return TcReject(r, "D_%d + pads above 2^63-1", i);
    /* A block above 2^63-1 divides only an empty padded dim. */
    if (v[0].huge[i] ? padded != 0 : padded % bs[i] != 0)
      return TcReject(r, "block_shape[%d] does not divide D + pads", i);
    out[i] = v[0].huge[i] ? 0 : padded / bs[i];
    prod_over |= v[0].huge[i] || __builtin_mul_overflow(prod, bs[i], &prod);
  }
  /* Output batch = batch * prod(block_shape): representable, or 0 for an empty batch. */
  if (in[0] == 0) {
    out[0] = 0;
  } else if (prod_over || __builtin_mul_overflow(in[0], prod, &out[0])) {
    return TcReject(r, "batch * product of block_shape above 2^63-1");
  }
  status = AllocOutput(c, r, out, esize, &total, &dst);
  if (status != DMCONF_OK || total == 0) return status;
  /* The input may be empty here (all padding): its strides are not used then. */
  int in_ok;
  const int64_t in_count = CountOf(in, rank, &in_ok);
  if (in_count > 0) Strides(in, rank, stride);
  const unsigned char* src = (const unsigned char*)c->data.data;
  const int64_t width = out[last], b_last = bs[last], pb_last = pb[last], d_last = in[last];
  for (row = 0; row < total / width; ++row, dst += width * esize) {
    int64_t f = idx[0] / in[0], off = idx[0] % in[0] * (in_count > 0 ? stride[0] : 0), j;
    int inside = in_count > 0;
    for (i = last; i >= 1; --i) {
      o[i] = f % bs[i];
      f /= bs[i];
    }
    for (i = 1; i < last && inside; ++i) {
      const int64_t d = idx[i] * bs[i] + o[i] - pb[i];
      inside = d >= 0 && d < in[i];
      if (inside) off += d * stride[i];
    }
    if (!inside) {
      memset(dst, 0, (size_t)(width * esize));
    } else if (b_last == 1) {
      memset(dst, 0, (size_t)(pb_last * esize));
      TcRowCopyS2b(dst + pb_last * esize, src + off * esize, d_last, esize);
      memset(dst + (pb_last + d_last) * esize, 0, (size_t)((width - pb_last - d_last) * esize));
    } else {
      for (j = 0; j < width; ++j) {
        const int64_t d = j * b_last + o[last] - pb_last;
        if (d >= 0 && d < d_last)
          memcpy(dst + j * esize, src + (off + d) * esize, (size_t)esize);
        else
          memset(dst + j * esize, 0, (size_t)esize);
      }
    }
    Next(idx, out, last);
  }
  return DMCONF_OK;
}
