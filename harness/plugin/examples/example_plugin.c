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
 * must not hide). */
#include <signal.h>
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

static int Run(void* state, const dmconf_case* c, dmconf_result* r) {
  (void)state;
  Fault(c);
  const int d2s = strcmp(c->op, "DepthToSpace") == 0;
  if (!d2s && strcmp(c->op, "SpaceToDepth") != 0) return DMCONF_UNSUPPORTED;
  const int esize = ElementBytes(c->data.element_type);
  if (esize == 0) return DMCONF_UNSUPPORTED;
  const int rank = c->data.rank;
  const int64_t* in = c->data.shape;
  int i;
  if (rank > DMCONF_PLUGIN_MAX_RANK) return DMCONF_UNSUPPORTED;
  if (DMCONF_EXAMPLE_FAULT != 4) {
    if (rank < 3) return Reject(r, "data rank must be >= 3");
    if (!c->has_block_size || c->block_size < 1) return Reject(r, "block_size must be >= 1");
    if (c->mode == NULL) return Reject(r, "mode is required");
    if (DMCONF_EXAMPLE_FAULT != 5 && strcmp(c->mode, "blocks_first") != 0 &&
        strcmp(c->mode, "depth_first") != 0)
      return Reject(r, "unknown mode");
  }
  const int64_t b = c->has_block_size && c->block_size > 0 ? c->block_size : 1;
  const int depth_first = c->mode != NULL && strcmp(c->mode, "depth_first") == 0;
  const int k = rank - 2;
  int64_t bk = 1; /* b^K */
  for (i = 0; i < k; ++i) {
    if (bk > ((int64_t)1 << 40) / b) return Reject(r, "block_size^K too large");
    bk *= b;
  }
  /* Output shape. */
  int64_t out[DMCONF_PLUGIN_MAX_RANK];
  out[0] = in[0];
  if (d2s) {
    if (DMCONF_EXAMPLE_FAULT != 4 && in[1] % bk != 0)
      return Reject(r, "depth not divisible by block_size^K");
    out[1] = in[1] / bk;
    for (i = 2; i < rank; ++i) out[i] = in[i] * b;
  } else {
    for (i = 2; i < rank; ++i) {
      if (DMCONF_EXAMPLE_FAULT != 4 && in[i] % b != 0)
        return Reject(r, "spatial dim not divisible by block_size");
      out[i] = in[i] / b;
    }
    out[1] = in[1] * bk;
  }
  int64_t total = 1;
  for (i = 0; i < rank; ++i) total *= out[i];
  r->element_type = c->data.element_type;
  r->rank = rank;
  for (i = 0; i < rank; ++i) r->shape[i] = out[i];
  unsigned char* dst = (unsigned char*)r->alloc_output(r, (uint64_t)(total * esize));
  if (dst == NULL && total > 0) return Reject(r, "output too large");
  if (DMCONF_EXAMPLE_FAULT == 4) {
    uint32_t x = 2463534242u;
    int64_t j;
    for (j = 0; j < total * esize; ++j) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      dst[j] = (unsigned char)x;
    }
    return DMCONF_OK;
  }
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
    NULL,
    NULL,
};

DMCONF_PLUGIN_EXPORT const dmconf_plugin* dmconf_plugin_get(uint32_t abi_version) {
  return abi_version == DMCONF_PLUGIN_ABI_VERSION ? &kPlugin : NULL;
}
