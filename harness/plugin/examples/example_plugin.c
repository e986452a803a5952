/* A complete dmconf plugin in plain C: DepthToSpace-1 and SpaceToDepth-1 for every element type
 * whose elements are whole bytes, any rank >= 3, both modes. It validates like the
 * specification (refusing what must be refused) and computes each output element with the
 * direct index formula:
 *   DepthToSpace: out[n, c', y...] = data[n, in_c, y_i / b ...], o_i = y_i % b,
 *                 in_c = flat(o) * C_out + c' (blocks_first) or c' * b^K + flat(o) (depth_first)
 *   SpaceToDepth: out[n, out_c, z...] = data[n, c, z_i * b + o_i ...],
 *                 out_c = flat(o) * C + c (blocks_first) or c * b^K + flat(o) (depth_first)
 * It is built in-tree as a shared library and loaded by the tests through the C ABI only.
 *
 * Built with DMCONF_EXAMPLE_FAULT set, the same source gives the misbehaving plugins the
 * isolation tests need: 1 = SIGSEGV, 2 = abort(), 3 = hang, whenever block_size == 3;
 * 4 = garbage (pseudo-random output bytes, no validation); 5 = any_mode (every check but the
 * mode's: an unknown mode string is taken as blocks_first, a bug that declared capabilities
 * must not hide); 6 = absent_block (run() reads an absent block_size as 0 and refuses the
 * case, which the spec makes valid with its default 1).
 *
 * Shape inference (ABI version 2, infer_static / infer_partial; the faults above are in run()
 * only): the Outputs formulas of the specifications on exact dims (static: any dim up to 2^63-1,
 * every product overflow-checked) or on intervals [lo, hi] (partial: a division d gives
 * [ceil(lo / d), floor(hi / d)], empty = not divisible; a product is overflow-checked and its
 * upper bound clamped to the largest representable multiple; an unbounded hi stays unbounded;
 * an unknown rank passes through). E.g. DepthToSpace, block_size 2, data [1, [8, 20], [3, inf)]
 * -> [1, [2, 5], [6, inf)]. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/plugin/dmconf_plugin.h"

#ifndef DMCONF_EXAMPLE_FAULT
#define DMCONF_EXAMPLE_FAULT 0
#endif

static const char* const kByteTypes =
    "boolean,u8,i8,f8e4m3,f8e5m2,f8e8m0,u16,i16,f16,bf16,u32,i32,f32,u64,i64,f64";

static const dmconf_op_support kOps[] = {
    {"DepthToSpace", kByteTypes, 3, DMCONF_PLUGIN_MAX_RANK, "blocks_first,depth_first"},
    {"SpaceToDepth", kByteTypes, 3, DMCONF_PLUGIN_MAX_RANK, "blocks_first,depth_first"},
};

/* Bytes per element of a whole-byte type; 0 for the others. */
static int ElementBytes(const char* t) {
  static const char* const k1[] = {"boolean", "u8", "i8", "f8e4m3", "f8e5m2", "f8e8m0"};
  static const char* const k2[] = {"u16", "i16", "f16", "bf16"};
  static const char* const k4[] = {"u32", "i32", "f32"};
  static const char* const k8[] = {"u64", "i64", "f64"};
  size_t i;
  for (i = 0; i < sizeof(k1) / sizeof(k1[0]); ++i)
    if (strcmp(t, k1[i]) == 0) return 1;
  for (i = 0; i < sizeof(k2) / sizeof(k2[0]); ++i)
    if (strcmp(t, k2[i]) == 0) return 2;
  for (i = 0; i < sizeof(k4) / sizeof(k4[0]); ++i)
    if (strcmp(t, k4[i]) == 0) return 4;
  for (i = 0; i < sizeof(k8) / sizeof(k8[0]); ++i)
    if (strcmp(t, k8[i]) == 0) return 8;
  return 0;
}

static int Reject(dmconf_result* r, const char* why) {
  snprintf(r->message, sizeof(r->message), "%s", why);
  return DMCONF_REJECTED;
}

static void Fault(const dmconf_case* c) {
  if (DMCONF_EXAMPLE_FAULT == 0 || DMCONF_EXAMPLE_FAULT == 4) return;
  if (!c->has_block_size || c->block_size != 3) return;
  if (DMCONF_EXAMPLE_FAULT == 1) raise(SIGSEGV);
  if (DMCONF_EXAMPLE_FAULT == 2) abort();
  if (DMCONF_EXAMPLE_FAULT == 3) {
    for (;;) pause();
  }
}

/* ---- Shape inference ------------------------------------------------------------------------ */

#define kUnbounded ((int64_t)DMCONF_UNBOUNDED)

static int MulOk(int64_t a, int64_t b, int64_t* out) { return !__builtin_mul_overflow(a, b, out); }

static int ShapeReject(dmconf_shape_result* r, const char* why) {
  snprintf(r->message, sizeof(r->message), "%s", why);
  return DMCONF_REJECTED;
}

/* in / d over an interval: [ceil(lo / d), floor(hi / d)]; 0 when no value in it is divisible by
 * d (d >= 1, lo >= 0). An unbounded dim is still at most 2^63-1 in every instance, so a
 * multiple of d must lie in [lo, 2^63-1] (OpenVINO's [a, inf) / d is empty there too). */
static int DivideDim(dmconf_dim in, int64_t d, dmconf_dim* out) {
  const int64_t lo = in.lo / d + (in.lo % d != 0 ? 1 : 0);
  if (lo > (in.hi == kUnbounded ? INT64_MAX : in.hi) / d) return 0;
  out->lo = lo;
  out->hi = in.hi == kUnbounded ? kUnbounded : in.hi / d;
  return 1;
}

/* in * f over an interval (f >= 1; f_ok 0: f is above 2^63-1, so only in = 0 is accepted). 0
 * when every product is above 2^63-1; an upper bound above it is clamped to the largest
 * representable multiple of f (those instances are rejected, they need no room). */
static int ScaleDim(dmconf_dim in, int f_ok, int64_t f, dmconf_dim* out) {
  int64_t p;
  if (!f_ok) {
    if (in.lo > 0) return 0;
    out->lo = out->hi = 0;
    return 1;
  }
  if (!MulOk(in.lo, f, &out->lo)) return 0;
  out->hi = in.hi == kUnbounded ? kUnbounded : MulOk(in.hi, f, &p) ? p : (INT64_MAX / f) * f;
  return 1;
}

/* Static (every dim lo == hi) and partial inference share the interval formulas: on exact
 * dims they are the exact ones; run() uses them too, so that its output shape is the
 * overflow-checked one. any_mode (the any_mode fault, run() only): an unknown mode passes. */
static int CheckedShape(const dmconf_shape_case* c, dmconf_shape_result* r, int any_mode) {
  const int d2s = strcmp(c->op, "DepthToSpace") == 0;
  /* block_size: "Default value: 1", "Range of values: a positive integer" */
  const int64_t b = c->has_block_size ? c->block_size : 1;
  const int rank = c->rank;
  dmconf_dim out[DMCONF_PLUGIN_MAX_RANK];
  int64_t bk = 1, total = 1;
  int bk_ok = 1, i, overflow = 0;
  if (!d2s && strcmp(c->op, "SpaceToDepth") != 0) return DMCONF_UNSUPPORTED;
  /* "data: input tensor of type T with rank >= 3" */
  if (rank != DMCONF_RANK_UNKNOWN && rank < 3) return ShapeReject(r, "data rank must be >= 3");
  if (b < 1) return ShapeReject(r, "block_size must be >= 1");
  /* mode: "Required: yes", blocks_first or depth_first */
  if (c->mode == NULL) return ShapeReject(r, "mode is required");
  if (!any_mode && strcmp(c->mode, "blocks_first") != 0 && strcmp(c->mode, "depth_first") != 0)
    return ShapeReject(r, "unknown mode");
  r->element_type = c->element_type; /* "type T": the data's */
  if (rank == DMCONF_RANK_UNKNOWN) {
    r->rank = DMCONF_RANK_UNKNOWN; /* a dynamic rank passes through */
    return DMCONF_OK;
  }
  if (rank > DMCONF_PLUGIN_MAX_RANK) return DMCONF_UNSUPPORTED;
  /* block_size ^ K, K = rank - 2 */
  for (i = 0; b > 1 && i < rank - 2 && bk_ok; ++i) bk_ok = MulOk(bk, b, &bk);
  out[0] = c->shape[0];
  if (d2s) {
    /* Output [N, C / (block_size ^ K), D1 * block_size, ..., DK * block_size]; "The depth
     * dimension size must be evenly divided by block_size ^ (len(input.shape) - 2)" (a
     * block_size ^ K above 2^63-1 divides only C = 0). */
    if (!bk_ok) {
      if (c->shape[1].lo > 0) return ShapeReject(r, "depth not divisible by block_size^K");
      out[1].lo = out[1].hi = 0;
    } else if (!DivideDim(c->shape[1], bk, &out[1])) {
      return ShapeReject(r, "depth not divisible by block_size^K");
    }
    for (i = 2; i < rank; ++i)
      if (!ScaleDim(c->shape[i], 1, b, &out[i]))
        return ShapeReject(r, "D_i * block_size above 2^63-1");
  } else {
    /* Output [N, C * (block_size ^ K), D1 / block_size, ..., DK / block_size]; "The spatial
     * dimensions must be evenly divided by block_size." */
    for (i = 2; i < rank; ++i)
      if (!DivideDim(c->shape[i], b, &out[i]))
        return ShapeReject(r, "spatial dim not divisible by block_size");
    if (!ScaleDim(c->shape[1], bk_ok, bk, &out[1]))
      return ShapeReject(r, "C * block_size^K above 2^63-1");
  }
  /* The output's element count must be representable: at least the smallest one (a partial
   * case's instances are bounded per dim, so even SpaceToDepth's can be too large). */
  for (i = 0; i < rank && out[i].lo != 0; ++i) overflow |= !MulOk(total, out[i].lo, &total);
  if (i == rank && overflow) return ShapeReject(r, "output above 2^63-1 elements");
  r->rank = rank;
  for (i = 0; i < rank; ++i) r->shape[i] = out[i];
  return DMCONF_OK;
}

static int InferShape(const dmconf_shape_case* c, dmconf_shape_result* r) {
  return CheckedShape(c, r, 0);
}

/* The output shape of a run() case, by the shape inference below (every product
 * overflow-checked, block_size absent = its default 1): DMCONF_OK with out[] set, or the
 * refusal with its message. */
static int RunShape(const dmconf_case* c, dmconf_result* r, int64_t* out) {
  dmconf_dim dims[DMCONF_PLUGIN_MAX_RANK];
  dmconf_shape_case sc;
  dmconf_shape_result sr;
  int i, status;
  memset(&sc, 0, sizeof(sc));
  memset(&sr, 0, sizeof(sr));
  for (i = 0; i < c->data.rank; ++i) dims[i].lo = dims[i].hi = c->data.shape[i];
  sc.op = c->op;
  sc.id = c->id;
  sc.element_type = c->data.element_type;
  sc.rank = c->data.rank;
  sc.shape = dims;
  sc.has_block_size = c->has_block_size;
  sc.block_size = c->block_size;
  sc.mode = c->mode;
  status = CheckedShape(&sc, &sr, DMCONF_EXAMPLE_FAULT == 5);
  if (status != DMCONF_OK) {
    memcpy(r->message, sr.message, sizeof(r->message));
    return status;
  }
  for (i = 0; i < c->data.rank; ++i) out[i] = sr.shape[i].lo;
  return DMCONF_OK;
}

/* The garbage fault: pseudo-random output bytes. */
static int FillGarbage(unsigned char* dst, int64_t bytes) {
  uint32_t x = 2463534242u;
  int64_t j;
  for (j = 0; j < bytes; ++j) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    dst[j] = (unsigned char)x;
  }
  return DMCONF_OK;
}

static int Run(void* state, const dmconf_case* c, dmconf_result* r) {
  (void)state;
  Fault(c);
  const int d2s = strcmp(c->op, "DepthToSpace") == 0;
  if (!d2s && strcmp(c->op, "SpaceToDepth") != 0) return DMCONF_UNSUPPORTED;
  const int esize = ElementBytes(c->data.element_type);
  if (esize == 0) return DMCONF_UNSUPPORTED;
  const int rank = c->data.rank;
  const int64_t* in = c->data.shape;
  int i, status;
  if (rank < 0 || rank > DMCONF_PLUGIN_MAX_RANK) return DMCONF_UNSUPPORTED;
  if (DMCONF_EXAMPLE_FAULT == 6 && !c->has_block_size) return Reject(r, "block_size 0");
  /* Output shape, with every check of the specification. */
  int64_t out[DMCONF_PLUGIN_MAX_RANK];
  status = RunShape(c, r, out);
  if (status != DMCONF_OK) return status;
  /* "Default value: 1" */
  const int64_t b = c->has_block_size ? c->block_size : 1;
  const int depth_first = c->mode != NULL && strcmp(c->mode, "depth_first") == 0;
  const int k = rank - 2;
  /* The output has as many elements as the data (a rearrangement), so total * esize is the
   * data's byte size. */
  int64_t total = 1;
  for (i = 0; i < rank; ++i)
    if (in[i] == 0) total = 0;
  for (i = 0; i < rank && total != 0; ++i) total *= in[i];
  r->element_type = c->data.element_type;
  r->rank = rank;
  for (i = 0; i < rank; ++i) r->shape[i] = out[i];
  unsigned char* dst = (unsigned char*)r->alloc_output(r, (uint64_t)(total * esize));
  if (dst == NULL && total > 0) return Reject(r, "output too large");
  if (total == 0) return DMCONF_OK;
  /* b^K: every output element exists, so it is at most C (DepthToSpace) or the output depth
   * (SpaceToDepth), both representable. */
  int64_t bk = 1;
  for (i = 0; i < k; ++i) bk *= b;
  if (DMCONF_EXAMPLE_FAULT == 4) return FillGarbage(dst, total * esize);
  const unsigned char* src = (const unsigned char*)c->data.data;
  int64_t idx[DMCONF_PLUGIN_MAX_RANK] = {0};
  int64_t e;
  for (e = 0; e < total; ++e) {
    /* idx: the output multi-index of element e (odometer, last axis fastest). */
    int64_t flat_o = 0, s[DMCONF_PLUGIN_MAX_RANK];
    s[0] = idx[0];
    if (d2s) {
      for (i = 2; i < rank; ++i) {
        flat_o = flat_o * b + idx[i] % b;
        s[i] = idx[i] / b;
      }
      s[1] = depth_first ? idx[1] * bk + flat_o : flat_o * out[1] + idx[1];
    } else {
      /* out_c = flat(o) * C + c  or  c * b^K + flat(o) */
      const int64_t ch = in[1];
      const int64_t oc = idx[1];
      const int64_t c_in = depth_first ? oc / bk : oc % ch;
      int64_t o = depth_first ? oc % bk : oc / ch;
      for (i = rank - 1; i >= 2; --i) {
        s[i] = idx[i] * b + o % b;
        o /= b;
      }
      s[1] = c_in;
    }
    int64_t off = 0;
    for (i = 0; i < rank; ++i) off = off * in[i] + s[i];
    memcpy(dst + e * esize, src + off * esize, (size_t)esize);
    for (i = rank - 1; i >= 0; --i) {
      if (++idx[i] < out[i]) break;
      idx[i] = 0;
    }
  }
  return DMCONF_OK;
}

static int InferStatic(void* state, const dmconf_shape_case* c, dmconf_shape_result* r) {
  (void)state;
  return InferShape(c, r);
}

static int InferPartial(void* state, const dmconf_shape_case* c, dmconf_shape_result* r) {
  (void)state;
  return InferShape(c, r);
}

static const dmconf_plugin kPlugin = {
    DMCONF_PLUGIN_ABI_VERSION,
#if DMCONF_EXAMPLE_FAULT == 0
    "example",
#else
    "example-fault",
#endif
    (int32_t)(sizeof(kOps) / sizeof(kOps[0])),
    kOps,
    NULL,
    NULL,
    Run,
    InferStatic,
    InferPartial,
};

DMCONF_PLUGIN_EXPORT const dmconf_plugin* dmconf_plugin_get(uint32_t abi_version) {
  return abi_version == DMCONF_PLUGIN_ABI_VERSION ? &kPlugin : NULL;
}
