/* Shape inference of the OpenVINO-style plugin for SpaceToBatch-2 and BatchToSpace-2 over
 * interval dims, constant or non-constant block_shape / pads / crops. OpenVINO's conventions:
 * a block_shape that is not constant gives `?` dims (S2B: every dim; B2S: the batch, and
 * D * [1, inf) - crop per spatial dim), pads or crops that are not constant give `?` spatial
 * dims.
 *
 * Seeded bugs in this file (OV_STYLE_BUG):
 *   7 (b2s_crops_interval): BatchToSpace, infer_partial -> B2SSpatial, constant block_shape.
 *     The check crops_begin[i] + crops_end[i] <= D_i * B_i is made for exact dims only; an
 *     interval D_i gets [max(0, D_lo * B - crop), max(0, D_hi * B - crop)] whether or not any
 *     D in it holds the crops. A correct checker sees false_accept where no D_i in the
 *     interval has D_i * B_i >= CB_i + CE_i (data [4, [1, 2]], block_shape [1, 2], crops_begin
 *     [0, 3], crops_end [0, 3]: answered [2, 0]); where some D does, the lower bound is only
 *     loose. Static cases and run() are unaffected.
 *   9 (s2b_batch_wrap): SpaceToBatch, infer_static / infer_partial / run() -> S2BBatch, an
 *     exact batch and a constant block_shape. batch * prod(block_shape) is computed in uint64
 *     arithmetic, which wraps modulo 2^64, and the "above 2^63-1" check is made on the
 *     wrapped value. A correct checker sees false_accept (a wrapped batch answered) on cases
 *     whose true output batch is at 2^64 or above and wraps to at most 2^63-1 (data [5, 2^62],
 *     block_shape [1, 2^62], zero pads: answered [2^62, 1], the spec's batch is 5 * 2^62).
 *  11 (s2b_pads_end_sign): SpaceToBatch, infer_static / infer_partial / run() -> InferS2B.
 *     pads_begin is checked for negative values, pads_end is not. A correct checker sees
 *     false_accept on a constant pads_end with a negative value (data [1, 4], block_shape
 *     [1, 2], pads_begin [0, 0], pads_end [0, -2]: answered [2, 1]); where the padded dim goes
 *     below 0 the answer may have a negative dim (invalid_answer) or be refused.
 *  13 (s2b_nonconst_block_batch): SpaceToBatch, infer_partial -> S2BBatch, block_shape not
 *     constant. The output batch is answered as the input batch's interval, as for a block of
 *     ones, where batch * prod(block_shape) is unbounded (OpenVINO: `?`). A correct checker
 *     sees unsound_shape: an accepted instance with a block value above 1 has a larger batch
 *     (data [2, 4], block_shape non-constant i64 of shape [2], zero constant pads: answered
 *     batch [2, 2]; the instance block_shape [1, 2] gives output [4, 2]).
 *  14 (b2s_crops_strict): BatchToSpace, infer_static / infer_partial / run() -> B2SSpatial,
 *     constant block_shape. crops_begin[i] + crops_end[i] < D_i * B_i is demanded where the
 *     spec says <=: a spatial output dim of 0 is refused. A correct checker sees false_reject
 *     on a static case whose crops equal D_i * B_i (data [4, 2], block_shape [1, 2],
 *     crops_begin [0, 1], crops_end [0, 3]: spec output [2, 0]), D_i = 0 with zero crops
 *     included, and unsound_shape on partial cases whose only accepted instances are such.
 *  18 (s2b_nonconst_pads_zero): SpaceToBatch, infer_partial -> S2BSpatial, constant
 *     block_shape, pads_begin or pads_end not constant. The unknown pads are taken as zeros:
 *     the spatial dims are answered as D_i / block_shape[i] (with its divisibility check)
 *     where OpenVINO answers `?`. A correct checker sees unsound_shape: an accepted instance
 *     with positive pads has a larger output dim (data [1, 4], block_shape [1, 2], pads_begin
 *     and pads_end non-constant i64 of shape [2]: answered [2, 2]; the instance pads_end
 *     [0, 2] gives [2, 3]), and false_reject where D_i alone is not a multiple of the block
 *     (data [1, 3]). Constant pads are unaffected.
 *  19 (b2s_block_prod_u32): BatchToSpace, infer_static / infer_partial / run() -> InferB2S,
 *     constant block_shape. prod(block_shape) is multiplied in uint32 arithmetic, which wraps
 *     modulo 2^32 unnoticed, and the batch is divided by the wrapped product (a product that
 *     wraps to 0 is refused as a zero divisor). A correct checker sees false_accept where the
 *     true product is 2^32 or above and the wrapped one divides the batch (data [131073, 1,
 *     1], block_shape [1, 65537, 65537] (product 2^32 + 131073), zero crops: answered [1,
 *     65537, 65537]; the spec refuses, 131073 is not a multiple of 4295098369), and
 *     wrong_shape where both divide. */
#include <stdio.h>
#include <string.h>

#include "conformance/plugins/ov_style/ov_style.h"

#define REJECT(...)                               \
  do {                                            \
    snprintf(msg, (size_t)msg_size, __VA_ARGS__); \
    return DMCONF_REJECTED;                       \
  } while (0)

static const OvIv kAny = {0, OV_MAX};

/* "1-D tensors with shape [N], N the rank of data", "rank >= 2": the output rank N (-1 when
 * unknown) from the data rank and the three inputs' lengths. */
static int BlockRank(const OvShapeCase* c, const char* op, int* n, char* msg, int msg_size) {
  int64_t lo = 0, hi = OV_MAX;
  int k;
  for (k = 0; k < 3; ++k)
    if (!OvIsIntegerType(c->in[k].type))
      REJECT("%s.inputs.integer_type: input %d is %s", op, k + 1, c->in[k].type);
  if (c->op == kOvB2S &&
      (strcmp(c->in[0].type, c->in[1].type) != 0 || strcmp(c->in[0].type, c->in[2].type) != 0))
    REJECT("b2s.inputs.same_type: %s, %s, %s", c->in[0].type, c->in[1].type, c->in[2].type);
  for (k = 0; k < 3; ++k) {
    const OvIntIn* in = &c->in[k];
    if (in->rank >= 0 && in->rank != 1)
      REJECT("%s.inputs.shape: input %d has rank %d", op, k + 1, in->rank);
    if (in->rank == 1) {
      if (in->len.lo > lo) lo = in->len.lo;
      if (in->len.hi < hi) hi = in->len.hi;
    }
  }
  if (c->rank >= 0) {
    if (c->rank < 2) REJECT("%s.data.rank: rank %d is below 2", op, c->rank);
    if (c->rank < lo || c->rank > hi)
      REJECT("%s.inputs.shape: the inputs' lengths [%lld, %lld] exclude the data rank %d", op,
             (long long)lo, (long long)hi, c->rank);
    *n = c->rank;
    return DMCONF_OK;
  }
  if (hi < 2) REJECT("%s.data.rank: the inputs' lengths are below 2", op);
  if (lo > hi) REJECT("%s.inputs.shape: the inputs' lengths disagree", op);
  *n = lo == hi && lo <= DMCONF_PLUGIN_MAX_RANK ? (int)lo : -1;
  return DMCONF_OK;
}

static OvIv ValueIv(const OvIntIn* in, int i) {
  OvIv v = kAny;
  if (in->is_constant) v.lo = v.hi = in->v[i];
  return v;
}

/* The output batch of SpaceToBatch, batch * block_shape[0] * ... * block_shape[N-1]; `min` is
 * the smallest accepted instance's. */
static int S2BBatch(const OvShapeCase* c, int n, OvIv* out, int64_t* min) {
  const OvIv b = c->dim[0];
  int64_t p = 1;
  int i, over = 0;
  if (!c->in[0].is_constant) {
#if OV_STYLE_BUG == 13 /* bug 13: the batch bounded as for a block of ones */
    *out = b;
#else
    *out = kAny;
#endif
    *min = b.lo;
    return 1;
  }
#if OV_STYLE_BUG == 9 /* bug 9: an exact batch times the blocks in wrapping uint64 */
  if (b.lo == b.hi) {
    uint64_t q = (uint64_t)b.lo;
    for (i = 0; i < n; ++i) q *= (uint64_t)c->in[0].v[i];
    if (q > (uint64_t)OV_MAX) return 0; /* checked after the wrap */
    out->lo = out->hi = *min = (int64_t)q;
    return 1;
  }
#endif
  for (i = 0; i < n; ++i) over |= OvMul(p, c->in[0].v[i], &p);
  if (over) {
    if (b.lo > 0) return 0;
    out->lo = out->hi = *min = 0;
    return 1;
  }
  if (b.lo > OV_MAX / p) return 0;
  out->lo = *min = b.lo * p;
  out->hi = OV_UNBOUNDED(b) ? OV_MAX : (b.hi > OV_MAX / p ? OV_MAX / p : b.hi) * p;
  return 1;
}

/* SpaceToBatch spatial dim i: (D_i + pads_begin[i] + pads_end[i]) / block_shape[i]. */
static int S2BSpatial(const OvShapeCase* c, int i, OvIv* out, int64_t* min, char* msg,
                      int msg_size) {
#if OV_STYLE_BUG == 18 /* bug 18: non-constant pads taken as zeros */
  const OvIv zero = {0, 0};
  const OvIv d = c->dim[i], pb = c->in[1].is_constant ? ValueIv(&c->in[1], i) : zero,
             pe = c->in[2].is_constant ? ValueIv(&c->in[2], i) : zero;
#else
  const OvIv d = c->dim[i], pb = ValueIv(&c->in[1], i), pe = ValueIv(&c->in[2], i);
#endif
  int64_t plo, padlo, padhi;
  if (__builtin_add_overflow(pb.lo, pe.lo, &plo) || __builtin_add_overflow(d.lo, plo, &padlo))
    REJECT("s2b.output.representable: the padded dim %d is above 2^63-1", i);
  padhi = OvSatAdd(d.hi, OvSatAdd(pb.hi, pe.hi));
  if (!c->in[0].is_constant) { /* OpenVINO: `?`; block 1 gives the smallest output */
    *out = kAny;
    *min = padlo;
    return DMCONF_OK;
  }
  {
    const int64_t b = c->in[0].v[i];
    out->lo = *min = OvCeilDiv(padlo, b);
    out->hi = padhi / b;
    if (out->lo > out->hi)
      REJECT("s2b.block_shape.divides: no padded dim %d in [%lld, %lld] is a multiple of %lld", i,
             (long long)padlo, (long long)padhi, (long long)b);
  }
#if OV_STYLE_BUG != 18 /* bug 18: the dims of the zero pads kept */
  if (!c->in[1].is_constant || !c->in[2].is_constant) *out = kAny; /* OpenVINO: `?` */
#endif
  return DMCONF_OK;
}

static int InferS2B(const OvShapeCase* c, int n, OvShape* o, char* msg, int msg_size) {
  int64_t min, count = 1;
  int i, zero = 0, over = 0;
  if (c->in[0].is_constant && c->in[0].vmin < 1)
    REJECT("s2b.block_shape.positive: a value below 1");
  if (c->in[1].is_constant && c->in[1].vmin < 0) REJECT("s2b.pads_begin.nonnegative");
#if OV_STYLE_BUG != 11 /* bug 11: pads_end not checked */
  if (c->in[2].is_constant && c->in[2].vmin < 0) REJECT("s2b.pads_end.nonnegative");
#endif
  if (c->in[1].is_constant && c->in[2].is_constant && (c->in[1].any_huge || c->in[2].any_huge))
    REJECT("s2b.output.representable: a pad above 2^63-1");
  if (n < 0) return DMCONF_OK;
  if (!S2BBatch(c, n, &o->dim[0], &min))
    REJECT("s2b.output.representable: batch * prod(block_shape) above 2^63-1");
  zero |= min == 0;
  over |= OvMul(count, min, &count);
  for (i = 1; i < n; ++i) {
    if (S2BSpatial(c, i, &o->dim[i], &min, msg, msg_size) != DMCONF_OK) return DMCONF_REJECTED;
    zero |= min == 0;
    over |= OvMul(count, min, &count);
  }
  if (over && !zero) REJECT("s2b.output.representable: output above 2^63-1 elements");
  if (c->strict && (c->in[0].v[0] != 1 || c->in[1].v[0] != 0 || c->in[2].v[0] != 0))
    REJECT("s2b.block_shape.batch_one: block_shape[0] != 1 or pads[0] != 0 (unspecified)");
  return DMCONF_OK;
}

/* A block value B of an instance: prod(block_shape) divides the batch, so some batch in its
 * interval is a multiple of B (B <= batch unless the batch can be 0). */
static int BlockFitsBatch(OvIv batch, int64_t b) {
  return batch.lo == 0 || OvCeilDiv(batch.lo, b) <= batch.hi / b;
}

/* Some B in [bl, bh] that the batch allows (up to *steps more tries; 1 when undecided). */
static int SomeBlock(OvIv batch, int64_t bl, int64_t bh, int64_t* steps) {
  int64_t b;
  if (bl > bh) return 0;
  if (BlockFitsBatch(batch, bl) || BlockFitsBatch(batch, bh)) return 1;
  for (b = bl + 1; b < bh; ++b) {
    if (--*steps < 0) return 1;
    if (BlockFitsBatch(batch, b)) return 1;
  }
  return 0;
}

/* BatchToSpace spatial dim, block_shape not constant: some D in [lo, hi] and B >= 1 (a block
 * the batch allows) with crop <= D * B <= 2^63-1. Every D is tried, each with every B from
 * ceil(crop / D) to floor((2^63-1) / D), up to 2^16 tries in all (past that the case is
 * answered, which is sound): a crop near 2^63-1 is held by divisors of it only. */
static int SomeDB(OvIv d, int64_t crop, OvIv batch) {
  const int64_t d1 = d.lo > 1 ? d.lo : 1;
  const int64_t bmax = batch.lo == 0 ? OV_MAX : batch.hi;
  int64_t dd, steps = 1 << 16;
  if (d.lo == 0 && crop == 0) return 1;
  if (d1 > d.hi) return 0;
  if (d.hi >= crop) return 1; /* B = 1, D = max(d1, crop) */
  for (dd = d1; dd <= d.hi; ++dd) {
    const int64_t bh = OV_MAX / dd < bmax ? OV_MAX / dd : bmax;
#if OV_STYLE_BUG == 2 /* bug 2: B taken as unbounded, whatever the batch */
    if (OvCeilDiv(crop, dd) <= OV_MAX / dd) return 1;
#endif
#if OV_STYLE_BUG == 3 /* bug 3: only the interval's ends tried for D */
    if (dd != d1 && dd != d.hi) continue;
#endif
    if (SomeBlock(batch, OvCeilDiv(crop, dd), bh, &steps)) return 1;
    if (--steps < 0) return 1;
  }
  return 0;
}

/* BatchToSpace spatial dim i: D_i * B_i - crops_begin[i] - crops_end[i]. */
static int B2SSpatial(const OvShapeCase* c, int i, OvIv* out, int64_t* min, char* msg,
                      int msg_size) {
  const OvIv d = c->dim[i], cb = ValueIv(&c->in[1], i), ce = ValueIv(&c->in[2], i);
  const int crops_known = c->in[1].is_constant && c->in[2].is_constant;
  int64_t crop;
  if (__builtin_add_overflow(cb.lo, ce.lo, &crop))
    REJECT("b2s.crops.fit: crops of dim %d above 2^63-1", i);
  if (!c->in[0].is_constant) {
    if (!SomeDB(d, crop, c->dim[0])) REJECT("b2s.crops.fit: no D * B of dim %d holds the crops", i);
    out->lo = *min = crops_known && d.lo > crop ? d.lo - crop : 0;
    out->hi = OV_MAX; /* D * [1, inf) - crop */
    if (!crops_known) *out = kAny;
    return DMCONF_OK;
  }
  {
    const int64_t b = c->in[0].v[i];
    const int64_t dmin = d.lo > OvCeilDiv(crop, b) ? d.lo : OvCeilDiv(crop, b);
    const int64_t dmax = d.hi < OV_MAX / b ? d.hi : OV_MAX / b;
#if OV_STYLE_BUG == 14 /* bug 14: the crops must leave at least one row */
    if (OvSatMul(d.hi, b) <= crop) REJECT("b2s.crops.fit: the crops of dim %d leave nothing", i);
#endif
#if OV_STYLE_BUG == 7 /* bug 7: the crops checked for exact dims only */
    if (d.lo < d.hi) {
      const int64_t lo = OvSatMul(d.lo, b), hi = OvSatMul(d.hi, b);
      out->lo = *min = lo > crop ? lo - crop : 0;
      out->hi = OV_UNBOUNDED(d) ? OV_MAX : (hi > crop ? hi - crop : 0);
      if (!crops_known) *out = kAny, *min = 0;
      return DMCONF_OK;
    }
#endif
    if (dmin > dmax)
      REJECT("b2s.crops.fit: no D_%d in [%lld, %lld] fits the crops (or the output)", i,
             (long long)d.lo, (long long)d.hi);
    out->lo = *min = dmin * b - crop;
    out->hi = OV_UNBOUNDED(d) ? OV_MAX : dmax * b - crop;
    if (!crops_known) *out = kAny, *min = 0;
  }
  return DMCONF_OK;
}

static int InferB2S(const OvShapeCase* c, int n, OvShape* o, char* msg, int msg_size) {
  int64_t p = 1, min, count = 1;
  int i, zero = 0, over = 0;
  if (c->in[0].is_constant) {
    if (c->in[0].vmin < 1) REJECT("b2s.block_shape.positive: a value below 1");
#if OV_STYLE_BUG == 19 /* bug 19: prod(block_shape) multiplied in uint32 */
    {
      uint32_t p32 = 1;
      for (i = 0; i < c->in[0].n && i < OV_MAX_VALUES; ++i) p32 *= (uint32_t)c->in[0].v[i];
      if (c->in[0].any_huge) REJECT("b2s.output.representable: prod(block_shape) above 2^63-1");
      if (p32 == 0) REJECT("b2s.block_shape.positive: prod(block_shape) is 0");
      p = (int64_t)p32;
    }
#else
    for (i = 0; i < c->in[0].n && i < OV_MAX_VALUES; ++i)
      if (OvMul(p, c->in[0].v[i], &p) || c->in[0].any_huge)
        REJECT("b2s.output.representable: prod(block_shape) above 2^63-1");
#endif
  }
  if (c->in[1].is_constant && c->in[1].vmin < 0) REJECT("b2s.crops_begin.nonnegative");
  if (c->in[2].is_constant && c->in[2].vmin < 0) REJECT("b2s.crops_end.nonnegative");
  if (n < 0) return DMCONF_OK;
  if (c->in[0].is_constant) {
    o->dim[0].lo = min = OvCeilDiv(c->dim[0].lo, p);
    o->dim[0].hi = c->dim[0].hi / p;
    if (o->dim[0].lo > o->dim[0].hi)
      REJECT("b2s.batch.divisible: no batch in [%lld, %lld] is a multiple of %lld",
             (long long)c->dim[0].lo, (long long)c->dim[0].hi, (long long)p);
  } else {
    o->dim[0] = kAny; /* OpenVINO: `?`; block_shape[0] = batch gives 1 */
    min = c->dim[0].lo == 0 ? 0 : 1;
  }
  zero |= min == 0;
  over |= OvMul(count, min, &count);
  for (i = 1; i < n; ++i) {
    if (B2SSpatial(c, i, &o->dim[i], &min, msg, msg_size) != DMCONF_OK) return DMCONF_REJECTED;
    zero |= min == 0;
    over |= OvMul(count, min, &count);
  }
  if (over && !zero) REJECT("b2s.output.representable: output above 2^63-1 elements");
  if (c->strict && (c->in[0].v[0] != 1 || c->in[1].v[0] != 0 || c->in[2].v[0] != 0))
    REJECT("b2s.block_shape.batch_one: block_shape[0] != 1 or crops[0] != 0 (unspecified)");
  return DMCONF_OK;
}

int OvInferBlocks(const OvShapeCase* c, OvShape* o, char* msg, int msg_size) {
  const char* op = c->op == kOvS2B ? "s2b" : "b2s";
  int n, i;
  if (c->num_int != 3) REJECT("case.inputs.count: %d integer inputs", c->num_int);
  if (BlockRank(c, op, &n, msg, msg_size) != DMCONF_OK) return DMCONF_REJECTED;
  o->rank = n;
  if (n >= 0 && c->rank < 0) { /* the rank is the inputs' length; the dims are unknown */
    OvShapeCase pinned = *c;
    pinned.rank = n;
    for (i = 0; i < n; ++i) pinned.dim[i] = kAny;
    return c->op == kOvS2B ? InferS2B(&pinned, n, o, msg, msg_size)
                           : InferB2S(&pinned, n, o, msg, msg_size);
  }
  return c->op == kOvS2B ? InferS2B(c, n, o, msg, msg_size) : InferB2S(c, n, o, msg, msg_size);
}
