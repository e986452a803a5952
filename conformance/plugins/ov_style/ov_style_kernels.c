/* Kernels of the OpenVINO-style plugin: each output element is gathered from the input
 * element the specification's reshape-transpose-reshape moves there (index form), or is a
 * padding zero (all-zero bits, errata D1). The output buffer is zeroed first.
 *
 * Seeded bug in this file (OV_STYLE_BUG):
 *   6 (copy_tail): BatchToSpace, run() -> OvRunKernel. For byte-sized element types (1, 2, 4,
 *     8 bytes) the output is written row by row (a row: the innermost output axis): the row's
 *     source is one contiguous input run when block_shape[N-1] = 1, otherwise it is gathered
 *     into a row buffer; the row is then stored in 16-byte chunks plus a tail. The tail is
 *     counted in elements and handed to memcpy as a byte count: of the last
 *     (row_bytes mod 16) bytes only (row_bytes mod 16) / element_size are written, the rest
 *     keep the zero fill. Right for 1-byte types (u8, i8, boolean, f8*) and for rows whose
 *     byte length is a multiple of 16; sub-byte types keep the element path. A correct
 *     checker sees wrong values (correct output shape) for BatchToSpace of 2-, 4- and 8-byte
 *     types whose output's innermost dim D_{N-1} * B_{N-1} - CB_{N-1} - CE_{N-1} times the
 *     element size is not a multiple of 16 (f32 with a last dim not a multiple of 4, odd
 *     ones included; f16 not a multiple of 8; f64 / i64 odd): in each such row the tail
 *     elements are partly or wholly left at zero. */
#include <string.h>
#if OV_STYLE_BUG == 6
#include <stdlib.h>
#endif

#include "conformance/plugins/ov_style/ov_style.h"

typedef struct {
  const dmconf_case* c;
  const OvShapeCase* sc;
  const OvShape* out;
  int64_t pad_top[2]; /* ExtractImagePatches */
  int64_t eff[2];
} Ctx;

static int64_t Flat(const int64_t* idx, const int64_t* dims, int rank) {
  int64_t f = 0;
  int i;
  for (i = 0; i < rank; ++i) f = f * dims[i] + idx[i];
  return f;
}

/* SpaceToBatch (errata E1): output batch = flat(block offsets, last spatial axis fastest) *
 * batch + n; x = zero-padded data, y[ob, j] = x[n, j * B + offset]. */
static int64_t SrcS2B(const Ctx* x, const int64_t* o) {
  const int n = x->c->data.rank;
  const int64_t* d = x->c->data.shape;
  const int64_t* b = x->sc->in[0].v;
  const int64_t* pb = x->sc->in[1].v;
  int64_t idx[DMCONF_PLUGIN_MAX_RANK], blk = o[0] / d[0];
  int i;
  idx[0] = o[0] % d[0];
  for (i = n - 1; i >= 1; --i) {
    const int64_t off = blk % b[i];
    blk /= b[i];
    idx[i] = o[i] * b[i] + off - pb[i];
    if (idx[i] < 0 || idx[i] >= d[i]) return -1;
  }
  return Flat(idx, d, n);
}

/* BatchToSpace: p = j + crops_begin, offset = p mod B, d = p div B; source batch =
 * flat(offsets) * batch_out + n. */
static int64_t SrcB2S(const Ctx* x, const int64_t* o) {
  const int n = x->c->data.rank;
  const int64_t* d = x->c->data.shape;
  const int64_t* b = x->sc->in[0].v;
  const int64_t* cb = x->sc->in[1].v;
  int64_t idx[DMCONF_PLUGIN_MAX_RANK], blk = 0;
  int i;
  for (i = 1; i < n; ++i) {
    const int64_t p = o[i] + cb[i];
    blk = blk * b[i] + p % b[i];
    idx[i] = p / b[i];
  }
  idx[0] = blk * x->out->dim[0].lo + o[0];
  return Flat(idx, d, n);
}

/* SpaceToDepth: blocks_first gathers the output depth from [b, ..., b, C], depth_first from
 * [C, b, ..., b]; input spatial = j * b + block offset. */
static int64_t SrcS2D(const Ctx* x, const int64_t* o) {
  const int n = x->c->data.rank;
  const int64_t* d = x->c->data.shape;
  const int64_t b = x->c->has_block_size ? x->c->block_size : 1;
  const int bf = strcmp(x->c->mode, "blocks_first") == 0;
  int64_t idx[DMCONF_PLUGIN_MAX_RANK], bk = 1, blk;
  int i;
  for (i = 2; i < n; ++i) bk *= b;
  blk = bf ? o[1] / d[1] : o[1] % bk;
  idx[0] = o[0];
  idx[1] = bf ? o[1] % d[1] : o[1] / bk;
  for (i = n - 1; i >= 2; --i) {
    idx[i] = o[i] * b + blk % b;
    blk /= b;
  }
  return Flat(idx, d, n);
}

/* DepthToSpace: blocks_first splits the input depth into [b, ..., b, C'], depth_first into
 * [C', b, ..., b]; output spatial y = d * b + block offset. */
static int64_t SrcD2S(const Ctx* x, const int64_t* o) {
  const int n = x->c->data.rank;
  const int64_t* d = x->c->data.shape;
  const int64_t b = x->c->has_block_size ? x->c->block_size : 1;
  const int bf = strcmp(x->c->mode, "blocks_first") == 0;
  const int64_t cout = x->out->dim[1].lo;
  int64_t idx[DMCONF_PLUGIN_MAX_RANK], bk = 1, blk = 0;
  int i;
  for (i = 2; i < n; ++i) {
    bk *= b;
    blk = blk * b + o[i] % b;
    idx[i] = o[i] / b;
  }
  idx[0] = o[0];
  idx[1] = bf ? blk * cout + o[1] : o[1] * bk + blk;
  return Flat(idx, d, n);
}

/* ExtractImagePatches (errata E8, E9): output depth = (kh * size_cols + kw) * depth + c; input
 * row = r * stride + kh * rate - pad_begin; outside the input: a padding zero. */
static int64_t SrcEip(const Ctx* x, const int64_t* o) {
  const int64_t* d = x->c->data.shape;
  const int64_t k = o[1] / d[1];
  int64_t idx[4], pos[2] = {k / x->c->sizes[1], k % x->c->sizes[1]};
  int i;
  idx[0] = o[0];
  idx[1] = o[1] % d[1];
  for (i = 0; i < 2; ++i) {
    const int64_t t = pos[i] * x->c->rates[i] - x->pad_top[i];
    if (t >= d[2 + i]) return -1;
    idx[2 + i] = t + o[2 + i] * x->c->strides[i];
    if (idx[2 + i] < 0 || idx[2 + i] >= d[2 + i]) return -1;
  }
  return Flat(idx, d, 4);
}

/* same_*: total padding max(0, (out - 1) * stride + eff - in), formed as eff - (in - (out - 1)
 * * stride); the odd unit at the end (same_upper) or the beginning (same_lower). */
static void EipPads(Ctx* x) {
  int i;
  for (i = 0; i < 2; ++i) {
    const int64_t in = x->c->data.shape[2 + i], s = x->c->strides[i];
    const int64_t out = x->out->dim[2 + i].lo, eff = x->c->rates[i] * (x->c->sizes[i] - 1) + 1;
    const int64_t covered = in - (out - 1) * s;
    const int64_t total = eff > covered ? eff - covered : 0;
    x->pad_top[i] = 0;
    if (strcmp(x->c->auto_pad, "same_upper") == 0) x->pad_top[i] = total / 2;
    if (strcmp(x->c->auto_pad, "same_lower") == 0) x->pad_top[i] = total - total / 2;
  }
}

#if OV_STYLE_BUG == 6
#define ROW_CHUNK 16 /* bytes per vector store */

/* Stores a row of n elements of esize bytes: whole 16-byte chunks, then the tail. */
static void CopyRow(uint8_t* dst, const uint8_t* src, int64_t n, int esize) {
  const int64_t bytes = n * esize, body = bytes / ROW_CHUNK * ROW_CHUNK;
  const int64_t tail = n - body / esize; /* elements after the chunks */
  int64_t i;
  for (i = 0; i < body; i += ROW_CHUNK) memcpy(dst + i, src + i, ROW_CHUNK);
  memcpy(dst + body, src + body, (size_t)tail); /* bug 6: elements passed as bytes */
}

/* BatchToSpace row by row; 0 when the row buffer cannot be had (the caller then falls back to
 * the element loop). */
static int B2SRows(const Ctx* x, const int64_t* dims, int rank, int esize, uint8_t* dst) {
  if (rank < 1) return 0;
  const uint8_t* data = (const uint8_t*)x->c->data.data;
  const int64_t w = dims[rank - 1];
  const int contiguous = x->sc->in[0].v[rank - 1] == 1;
  int64_t idx[DMCONF_PLUGIN_MAX_RANK], rows = 1, r, j;
  uint8_t* buf = NULL;
  int i;
  for (i = 0; i < rank - 1; ++i) rows *= dims[i];
  if (!contiguous && (buf = (uint8_t*)malloc((size_t)(w * esize))) == NULL) return 0;
  for (r = 0; r < rows; ++r) {
    int64_t rest = r;
    for (i = rank - 2; i >= 0; --i) {
      idx[i] = rest % dims[i];
      rest /= dims[i];
    }
    idx[rank - 1] = 0;
    if (contiguous) { /* block 1 on the innermost axis: one input run */
      CopyRow(dst + r * w * esize, data + SrcB2S(x, idx) * esize, w, esize);
      continue;
    }
    for (j = 0; j < w; ++j) {
      idx[rank - 1] = j;
      memcpy(buf + j * esize, data + SrcB2S(x, idx) * esize, (size_t)esize);
    }
    CopyRow(dst + r * w * esize, buf, w, esize);
  }
  free(buf);
  return 1;
}
#endif

void OvRunKernel(const dmconf_case* c, const OvShapeCase* sc, const OvShape* out, void* dst) {
  const int bits = OvElementBits(c->data.element_type);
  int64_t dims[DMCONF_PLUGIN_MAX_RANK], idx[DMCONF_PLUGIN_MAX_RANK], total = 1, f;
  Ctx x;
  int i;
  x.c = c;
  x.sc = sc;
  x.out = out;
  for (i = 0; i < out->rank; ++i) {
    dims[i] = out->dim[i].lo;
    if (dims[i] == 0) return; /* an empty output: nothing to write */
  }
  /* Not empty: the caller checked that the element count is representable. */
  for (i = 0; i < out->rank; ++i) total *= dims[i];
  if (sc->op == kOvEip) EipPads(&x);
#if OV_STYLE_BUG == 6
  if (sc->op == kOvB2S && bits % 8 == 0 && B2SRows(&x, dims, out->rank, bits / 8, dst)) return;
#endif
  for (f = 0; f < total; ++f) {
    int64_t rest = f, src = -1;
    for (i = out->rank - 1; i >= 0; --i) {
      idx[i] = rest % dims[i];
      rest /= dims[i];
    }
    switch (sc->op) {
      case kOvS2B:
        src = SrcS2B(&x, idx);
        break;
      case kOvB2S:
        src = SrcB2S(&x, idx);
        break;
      case kOvS2D:
        src = SrcS2D(&x, idx);
        break;
      case kOvD2S:
        src = SrcD2S(&x, idx);
        break;
      default:
        src = SrcEip(&x, idx);
        break;
    }
    if (src >= 0) OvSetBits(dst, bits, f, OvGetBits(c->data.data, bits, src));
  }
}
