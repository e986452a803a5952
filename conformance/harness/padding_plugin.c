/* SpaceToBatch-2 for f32 data with i64 block_shape / pads, rank 2 to 6, written the way a kernel
 * that fills only what it copies would be: PADDING_MODE 0 writes the padding zeros (correct),
 * PADDING_MODE 1 never writes them and leaves whatever the output buffer held (a bug that a
 * zero-filled buffer used to hide). Used by padding_fill_test.sh through the C ABI.
 *   out[(off * B) + n, o_1, ..., o_{N-1}] = pad(data)[n, o_1 * b_1 + off_1, ...],
 *   off = the block offsets (off_1, ..., off_{N-1}) in row-major order over (b_1, ..., b_{N-1}),
 *   pad(data)[n, p_1, ...] = data[n, p_1 - pads_begin_1, ...] inside the data, else 0. */
#include <stdio.h>
#include <string.h>

/* Built against the version-1 header: proves version-1 plugins keep loading. */
#include "conformance/harness/dmconf_plugin_v1.h"

#ifndef PADDING_MODE
#define PADDING_MODE 0
#endif

static const dmconf_op_support kOps[] = {{"SpaceToBatch", "f32", 2, 6, NULL}};

static int Reject(dmconf_result* r, const char* why) {
  snprintf(r->message, sizeof r->message, "%s", why);
  return DMCONF_REJECTED;
}

static int Run(void* state, const dmconf_case* c, dmconf_result* r) {
  (void)state;
  if (strcmp(c->op, "SpaceToBatch") != 0 || strcmp(c->data.element_type, "f32") != 0)
    return DMCONF_UNSUPPORTED;
  const int rank = c->data.rank;
  if (rank < 2) return Reject(r, "data rank must be >= 2");
  if (rank > 6) return DMCONF_UNSUPPORTED;
  if (c->num_int_inputs != 3) return Reject(r, "three integer inputs expected");
  const int64_t* v[3];
  for (int k = 0; k < 3; ++k) {
    const dmconf_tensor* t = &c->int_inputs[k];
    if (strcmp(t->element_type, "i64") != 0) return DMCONF_UNSUPPORTED;
    if (t->rank != 1 || t->shape[0] != rank) return Reject(r, "inputs must have shape [rank]");
    v[k] = (const int64_t*)t->data;
  }
  const int64_t *block = v[0], *pb = v[1], *pe = v[2];
  if (block[0] != 1) return Reject(r, "block_shape[0] must be 1");
  int64_t out[6], total = 1, blocks = 1;
  for (int i = 0; i < rank; ++i) {
    if (block[i] < 1 || pb[i] < 0 || pe[i] < 0) return Reject(r, "block_shape or pads invalid");
    if (block[i] > 64 || pb[i] > 4096 || pe[i] > 4096) return DMCONF_UNSUPPORTED; /* our limits */
    int64_t padded;
    if (__builtin_add_overflow(c->data.shape[i], pb[i] + pe[i], &padded))
      return Reject(r, "padded dim not representable in int64");
    if (padded % block[i] != 0) return Reject(r, "padded dim not divisible by block");
    out[i] = padded / block[i];
    blocks *= block[i]; /* at most 64^6 */
  }
  if (__builtin_mul_overflow(c->data.shape[0], blocks, &out[0]))
    return Reject(r, "output batch not representable in int64");
  /* The element count, as unsupported past our limit (a zero dim makes it 0 whatever the rest;
   * the checked product stops at the limit, so it cannot wrap). */
  int zero = 0;
  for (int i = 0; i < rank; ++i) zero |= out[i] == 0;
  for (int i = 0; i < rank && !zero; ++i) {
    if (__builtin_mul_overflow(total, out[i], &total) || total > ((int64_t)1 << 24))
      return DMCONF_UNSUPPORTED;
  }
  if (zero) total = 0;
  r->element_type = "f32";
  r->rank = rank;
  for (int i = 0; i < rank; ++i) r->shape[i] = out[i];
  float* y = (float*)r->alloc_output(r, (uint64_t)total * sizeof(float));
  if (y == NULL) return Reject(r, "output too large");
  const float* x = (const float*)c->data.data;
  const int64_t batch = c->data.shape[0];
  for (int64_t flat = 0; flat < total; ++flat) {
    /* Output multi-index, last axis fastest. */
    int64_t idx[6], rest = flat;
    for (int i = rank - 1; i >= 0; --i) {
      idx[i] = rest % out[i];
      rest /= out[i];
    }
    const int64_t n = idx[0] % batch;
    int64_t off = idx[0] / batch, src = n, inside = 1;
    int64_t offs[6];
    for (int i = rank - 1; i >= 1; --i) {
      offs[i] = off % block[i];
      off /= block[i];
    }
    for (int i = 1; i < rank; ++i) {
      const int64_t p = idx[i] * block[i] + offs[i] - pb[i];
      if (p < 0 || p >= c->data.shape[i]) inside = 0;
      src = src * c->data.shape[i] + (inside ? p : 0);
    }
    if (inside) {
      y[flat] = x[src];
    } else if (PADDING_MODE == 0) {
      y[flat] = 0.0f;
    }
  }
  return DMCONF_OK;
}

static const dmconf_plugin kPlugin = {1u, "padding", 1, kOps, NULL, NULL, Run};

DMCONF_PLUGIN_EXPORT const dmconf_plugin* dmconf_plugin_get(uint32_t abi_version) {
  return abi_version == 1u ? &kPlugin : NULL;
}
