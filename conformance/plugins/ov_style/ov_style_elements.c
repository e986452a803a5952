/* Element types of the OpenVINO-style plugin: bit widths, packing (docs/element-types.md:
 * u1/u2 first element in the most significant bits, 4-bit types first element in the low
 * nibble, u3/u6 split 3-byte groups), integer inputs, checked arithmetic. */
#include <string.h>

#include "conformance/plugins/ov_style/ov_style.h"

typedef struct {
  const char* name;
  int bits;
  int integer; /* 1 unsigned integer, 2 signed integer */
} OvType;

/* The 24 fixed-width OpenVINO types (errata D3). "T2: any supported integer type" (boolean is
 * not one, errata E11). */
static const OvType kTypes[] = {
    {"boolean", 8, 0}, {"u1", 1, 1},     {"u2", 2, 1},     {"u3", 3, 1},     {"u4", 4, 1},
    {"u6", 6, 1},      {"u8", 8, 1},     {"u16", 16, 1},   {"u32", 32, 1},   {"u64", 64, 1},
    {"i4", 4, 2},      {"i8", 8, 2},     {"i16", 16, 2},   {"i32", 32, 2},   {"i64", 64, 2},
    {"nf4", 4, 0},     {"f4e2m1", 4, 0}, {"f8e4m3", 8, 0}, {"f8e5m2", 8, 0}, {"f8e8m0", 8, 0},
    {"f16", 16, 0},    {"bf16", 16, 0},  {"f32", 32, 0},   {"f64", 64, 0},
};

static const OvType* Find(const char* name) {
  size_t i;
  if (name == NULL) return NULL;
  for (i = 0; i < sizeof(kTypes) / sizeof(kTypes[0]); ++i)
    if (strcmp(kTypes[i].name, name) == 0) return &kTypes[i];
  return NULL;
}

int OvElementBits(const char* type) {
  const OvType* t = Find(type);
  return t ? t->bits : 0;
}

int OvIsIntegerType(const char* type) {
  const OvType* t = Find(type);
  return t != NULL && t->integer != 0;
}

OvOp OvOpOf(const char* name) {
  if (name == NULL) return kOvUnknownOp;
  if (strcmp(name, "SpaceToBatch") == 0) return kOvS2B;
  if (strcmp(name, "BatchToSpace") == 0) return kOvB2S;
  if (strcmp(name, "SpaceToDepth") == 0) return kOvS2D;
  if (strcmp(name, "DepthToSpace") == 0) return kOvD2S;
  if (strcmp(name, "ExtractImagePatches") == 0) return kOvEip;
  return kOvUnknownOp;
}

uint64_t OvPackedBytes(int bits, int64_t n) {
  if (bits == 3 || bits == 6) {
    const uint64_t per = (uint64_t)(24 / bits);
    return 3 * (((uint64_t)n + per - 1) / per);
  }
  return ((uint64_t)n * (uint64_t)bits + 7) / 8;
}

/* Split layout: a group of n = 24 / bits elements in 3 bytes; bytes 0-1 (big-endian word) hold
 * the low 16 / n bits of each element, byte 2 the high 8 / n bits, first element most
 * significant in both. */
static uint64_t GetSplit(const uint8_t* p, int bits, int64_t i) {
  const int n = 24 / bits, lb = 16 / n, hb = 8 / n;
  const uint8_t* g = p + 3 * (i / n);
  const int k = (int)(i % n);
  const unsigned word = ((unsigned)g[0] << 8) | g[1];
  const unsigned low = (word >> (16 - lb * (k + 1))) & ((1u << lb) - 1);
  const unsigned high = ((unsigned)g[2] >> (8 - hb * (k + 1))) & ((1u << hb) - 1);
  return (uint64_t)((high << lb) | low);
}

static void SetSplit(uint8_t* p, int bits, int64_t i, uint64_t v) {
  const int n = 24 / bits, lb = 16 / n, hb = 8 / n;
  uint8_t* g = p + 3 * (i / n);
  const int k = (int)(i % n);
  unsigned word = ((unsigned)g[0] << 8) | g[1];
  const int ls = 16 - lb * (k + 1), hs = 8 - hb * (k + 1);
  word = (word & ~(((1u << lb) - 1) << ls)) | (((unsigned)v & ((1u << lb) - 1)) << ls);
  g[0] = (uint8_t)(word >> 8);
  g[1] = (uint8_t)word;
  g[2] = (uint8_t)((g[2] & ~(((1u << hb) - 1) << hs)) |
                   ((((unsigned)v >> lb) & ((1u << hb) - 1)) << hs));
}

uint64_t OvGetBits(const void* buf, int bits, int64_t i) {
  const uint8_t* p = (const uint8_t*)buf;
  uint64_t v = 0;
  int b;
  if (bits == 3 || bits == 6) return GetSplit(p, bits, i);
  if (bits == 4) return (p[i / 2] >> ((i % 2) * 4)) & 0xFu;
  if (bits < 8) {
    const int per = 8 / bits;
    const int shift = 8 - bits - (int)(i % per) * bits;
    return (uint64_t)((p[i / per] >> shift) & ((1u << bits) - 1));
  }
  for (b = bits / 8 - 1; b >= 0; --b) v = (v << 8) | p[i * (bits / 8) + b];
  return v;
}

void OvSetBits(void* buf, int bits, int64_t i, uint64_t v) {
  uint8_t* p = (uint8_t*)buf;
  int b;
  if (bits == 3 || bits == 6) {
    SetSplit(p, bits, i, v);
  } else if (bits == 4) {
    const int shift = (int)(i % 2) * 4;
    p[i / 2] = (uint8_t)((p[i / 2] & ~(0xFu << shift)) | ((v & 0xFu) << shift));
  } else if (bits < 8) {
    const int per = 8 / bits;
    const int shift = 8 - bits - (int)(i % per) * bits;
    const unsigned mask = ((1u << bits) - 1) << shift;
    p[i / per] = (uint8_t)((p[i / per] & ~mask) | (((unsigned)v << shift) & mask));
  } else {
    for (b = 0; b < bits / 8; ++b) p[i * (bits / 8) + b] = (uint8_t)(v >> (8 * b));
  }
}

int OvDecodeInts(const dmconf_tensor* t, OvIntIn* in) {
  const OvType* ty = Find(t->element_type);
  int64_t i, n = 1;
  int d;
  memset(in, 0, sizeof(*in));
  in->type = t->element_type;
  in->is_constant = 1;
  in->rank = t->rank;
  for (d = 0; d < t->rank; ++d) n *= t->shape[d];
  in->n = n;
  in->len.lo = in->len.hi = t->rank == 1 ? t->shape[0] : -1;
  in->vmin = INT64_MAX;
  if (ty == NULL || ty->integer == 0) return 0;
  for (i = 0; i < n; ++i) {
    uint64_t raw = OvGetBits(t->data, ty->bits, i);
    int64_t v;
    if (ty->integer == 2 && ty->bits < 64 && (raw >> (ty->bits - 1)) & 1u)
      v = (int64_t)(raw | ~((UINT64_C(1) << ty->bits) - 1)); /* sign extension */
    else if (ty->integer == 1 && raw > (uint64_t)INT64_MAX) {
      in->any_huge = 1;
      v = INT64_MAX;
    } else {
      v = (int64_t)raw;
    }
    if (v < in->vmin) in->vmin = v;
    if (i < OV_MAX_VALUES) in->v[i] = v;
  }
  return 1;
}

int OvMul(int64_t a, int64_t b, int64_t* r) {
  if (a == 0 || b == 0) {
    *r = 0;
    return 0;
  }
  return __builtin_mul_overflow(a, b, r);
}

int64_t OvSatMul(int64_t a, int64_t b) {
  int64_t r;
  return OvMul(a, b, &r) ? OV_MAX : r;
}

int64_t OvSatAdd(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? OV_MAX : r;
}

int64_t OvCeilDiv(int64_t a, int64_t b) { return a / b + (a % b != 0); }
