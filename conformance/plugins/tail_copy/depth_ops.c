/* DepthToSpace-1 and SpaceToDepth-1 kernels of the tail_copy plugin, from the specifications'
 * reshape-transpose-reshape form: the output is transpose(x', perm) of x' = reshape(data, ...).
 * The permutation is simplified (axes of size 1 dropped, output-adjacent axes that are adjacent
 * in the input merged); when the innermost axis left has input stride 1 it is the innermost
 * contiguous block, copied by the row copy helper, otherwise elements are copied one by one. */
#include <string.h>

#include "conformance/plugins/tail_copy/tail_copy.h"

#define kMaxAxes (2 * DMCONF_PLUGIN_MAX_RANK)

/* Checks the case and computes the output shape and b^K (every product overflow-checked). */
static int DepthShape(const dmconf_case* c, dmconf_result* r, int d2s, int64_t* out, int64_t* bk) {
  const int rank = c->data.rank, k = rank - 2;
  const int64_t* in = c->data.shape;
  /* block_size: "Default value: 1", "Range of values: a positive integer". */
  const int64_t b = c->has_block_size ? c->block_size : 1;
  int i, bk_over = 0;
  if (rank < 3) return TcReject(r, "data rank must be >= 3");
  if (b < 1) return TcReject(r, "block_size must be >= 1");
  if (c->mode == NULL) return TcReject(r, "mode is required");
  if (strcmp(c->mode, "blocks_first") != 0 && strcmp(c->mode, "depth_first") != 0)
    return TcReject(r, "unknown mode '%s'", c->mode);
  if (rank > 6) return TcUnsupported(r, "rank above 6");
  *bk = 1;
  for (i = 0; i < k; ++i) bk_over |= __builtin_mul_overflow(*bk, b, bk);
  out[0] = in[0];
  if (d2s) {
    /* C / b^K; a b^K above 2^63-1 divides only C = 0. */
    if (bk_over ? in[1] != 0 : in[1] % *bk != 0)
      return TcReject(r, "depth not divisible by block_size^%d", k);
    out[1] = bk_over ? 0 : in[1] / *bk;
    for (i = 2; i < rank; ++i)
      if (__builtin_mul_overflow(in[i], b, &out[i]))
        return TcReject(r, "D_%d * block_size above 2^63-1", i - 1);
  } else {
    for (i = 2; i < rank; ++i) {
      if (in[i] % b != 0) return TcReject(r, "D_%d not divisible by block_size", i - 1);
      out[i] = in[i] / b;
    }
    if (in[1] == 0)
      out[1] = 0;
    else if (bk_over || __builtin_mul_overflow(in[1], *bk, &out[1]))
      return TcReject(r, "C * block_size^%d above 2^63-1", k);
  }
  return DMCONF_OK;
}

/* x' (dims) and the output's axis order (perm) of the specifications' formulas. */
static int BuildPermutation(const dmconf_case* c, int d2s, int64_t b, int64_t bk, int64_t* dims,
                            int* perm) {
  const int k = c->data.rank - 2, depth_first = strcmp(c->mode, "depth_first") == 0;
  const int64_t* in = c->data.shape;
  int i, n = 0;
  if (d2s) {
    /* blocks_first: x' = [N, b x K, C / b^K, D1..DK], perm [0, K+1, K+2, 1, ..., 2K+1, K];
     * depth_first: x' = [N, C / b^K, b x K, D1..DK], perm [0, 1, K+2, 2, ..., 2K+1, K+1]. */
    const int c_axis = depth_first ? 1 : k + 1, b_axis = depth_first ? 2 : 1;
    dims[0] = in[0];
    dims[c_axis] = in[1] / bk;
    for (i = 0; i < k; ++i) {
      dims[b_axis + i] = b;
      dims[k + 2 + i] = in[2 + i];
    }
    perm[n++] = 0;
    perm[n++] = c_axis;
    for (i = 0; i < k; ++i) {
      perm[n++] = k + 2 + i;
      perm[n++] = b_axis + i;
    }
  } else {
    /* x' = [N, C, D1 / b, b, ..., DK / b, b]; blocks_first perm [0, 3, 5, ..., 2K+1, 1, 2, 4,
     * ..., 2K], depth_first perm [0, 1, 3, 5, ..., 2K+1, 2, 4, ..., 2K]. */
    dims[0] = in[0];
    dims[1] = in[1];
    for (i = 0; i < k; ++i) {
      dims[2 + 2 * i] = in[2 + i] / b;
      dims[3 + 2 * i] = b;
    }
    perm[n++] = 0;
    if (depth_first) perm[n++] = 1;
    for (i = 0; i < k; ++i) perm[n++] = 3 + 2 * i;
    if (!depth_first) perm[n++] = 1;
    for (i = 0; i < k; ++i) perm[n++] = 2 + 2 * i;
  }
  return n;
}

int TcDepthOp(const dmconf_case* c, dmconf_result* r, int esize, int d2s) {
  const int rank = c->data.rank;
  int64_t out[DMCONF_PLUGIN_MAX_RANK], bk = 1;
  int64_t dims[kMaxAxes], xstride[kMaxAxes], od[kMaxAxes], os[kMaxAxes], idx[kMaxAxes] = {0};
  int perm[kMaxAxes], i, n, m = 0;
  int status = DepthShape(c, r, d2s, out, &bk);
  if (status != DMCONF_OK) return status;
  /* A rearrangement: the output has the data's elements (byte size checked by the caller). */
  const int64_t total = (int64_t)(c->data.byte_size / (uint64_t)esize);
  r->element_type = c->data.element_type;
  r->rank = rank;
  for (i = 0; i < rank; ++i) r->shape[i] = out[i];
  unsigned char* dst = (unsigned char*)r->alloc_output(r, c->data.byte_size);
  if (total == 0) return DMCONF_OK;
  if (dst == NULL) return TcReject(r, "output too large");
  const int64_t b = c->has_block_size ? c->block_size : 1;
  n = BuildPermutation(c, d2s, b, bk, dims, perm);
  xstride[n - 1] = 1;
  for (i = n - 2; i >= 0; --i) xstride[i] = xstride[i + 1] * dims[i + 1];
  /* Output axes in order, size-1 axes dropped, adjacent ones merged when contiguous. */
  for (i = 0; i < n; ++i) {
    const int64_t d = dims[perm[i]], s = xstride[perm[i]];
    if (d == 1) continue;
    if (m > 0 && os[m - 1] == s * d) {
      od[m - 1] *= d;
      os[m - 1] = s;
    } else {
      od[m] = d;
      os[m++] = s;
    }
  }
  if (m == 0) {
    od[0] = os[0] = 1;
    m = 1;
  }
  const int contiguous = os[m - 1] == 1;
  const int outer = contiguous ? m - 1 : m;
  const int64_t run = contiguous ? od[m - 1] : 1;
  const unsigned char* src = (const unsigned char*)c->data.data;
  int64_t e;
  for (e = 0; e < total; e += run, dst += run * esize) {
    int64_t off = 0;
    for (i = 0; i < outer; ++i) off += idx[i] * os[i];
    if (contiguous)
      TcRowCopyDepth(dst, src + off * esize, run, esize);
    else
      memcpy(dst, src + off * esize, (size_t)esize);
    for (i = outer - 1; i >= 0; --i) {
      if (++idx[i] < od[i]) break;
      idx[i] = 0;
    }
  }
  return DMCONF_OK;
}
