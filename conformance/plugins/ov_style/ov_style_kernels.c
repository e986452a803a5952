/* Kernels of the OpenVINO-style plugin: each output element is gathered from the input
 * element the specification's reshape-transpose-reshape moves there (index form), or is a
 * padding zero (all-zero bits, errata D1). The output buffer is zeroed first. */
#include <string.h>

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
